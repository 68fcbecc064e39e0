"""A running hourglass survives a killed app: reopened from Home, it shows the sand the clock says is left (the
time the app was away included) and runs out onto the next space at the right moment."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from tests.ui.conftest import child_env
from tests.ui.obscurio_run import driver_command, run_driver

pytestmark = pytest.mark.ui
AWAY = 7.0   # seconds the app stays dead (wall clock of the fake clock)


def test_killed_during_step_4_the_glass_goes_on_with_the_right_time_left(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "hang.json"
    proc = subprocess.Popen(driver_command("hang", "--data-dir", str(data), "--out", str(out)), env=child_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while not out.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        assert out.exists(), proc.stderr.read().decode()[-3000:] if proc.poll() is not None else "timed out"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)   # no goodbye: the whole group (xvfb-run, Xvfb, the app)
        proc.wait(timeout=10)
    before = json.loads(out.read_text())
    assert "error" not in before, before.get("trace")
    assert before["time"] == "0:40" and before["remaining"] == pytest.approx(40)

    after = run_driver("resume", "--data-dir", str(data), "--wall", str(before["wall"] + AWAY),
                       out=tmp_path / "resume.json")
    assert after["table_id"] == before["table_id"] and after["phase"] == "doors"
    assert after["door"] == 3                                # the chip placed before the kill is still there
    assert after["remaining"] == pytest.approx(40 - AWAY)    # the sand kept falling while the app was dead
    assert after["time"] == "0:33"
    assert after["space_before"] == 0 and after["space_after"] == 1   # runs out exactly when it should
    assert after["time_after"] == "1:00"
