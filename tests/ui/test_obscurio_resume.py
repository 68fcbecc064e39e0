"""Time is real (table rule 9), and a killed app loses none of it. Step 4's glass waits for the first card; Undo takes
back a chip but never the sand nor the time track; the app is killed (kill -9 of the whole process group) and
reopened from Home 7 s later by the wall clock: the glass shows the sand that is really left, stands on the space
the time took it to, runs out onto the next one exactly then, and Redo still names the move it plays again."""
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


def run_and_kill(scenario: str, data, out, *args) -> dict:
    """Run a `hang` scenario, wait for its report, then kill -9 the app's whole process group."""
    proc = subprocess.Popen(driver_command(scenario, "--data-dir", str(data), "--out", str(out), *args),
                            env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        assert out.exists(), proc.stderr.read().decode()[-3000:] if proc.poll() is not None else "timed out"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)   # no goodbye: the whole group (xvfb-run, Xvfb, the app)
        proc.wait(timeout=10)
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("trace")
    return result


def test_the_glass_waits_for_the_first_card_and_undo_and_a_kill_give_no_time_back(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    before = run_and_kill("hang", data, tmp_path / "hang.json")
    # The Grimoire shuffled for 45 s: the glass stayed full, waiting for the first card.
    assert before["before_first_card"] == {"time": "1:00", "space": 0, "remaining": 60}
    assert before["hint_before"] == "Tap when the first card is down"
    assert before["moved_by_first_card"] == [] and before["done_where_first_card_was"]
    assert before["after_20s"] == {"time": "0:40", "space": 0, "remaining": 40}
    # The sand ran out onto space 2, 3 s passed: 0:57. Undo of Cruz's chip takes the chip, and no time.
    assert before["before_undo"] == {"time": "0:57", "space": 1, "remaining": 57}
    assert before["undo_text"] == "Undo: Cruz: door 2"
    assert before["after_undo"] == {"time": "0:57", "space": 1, "remaining": 57, "green": None, "blue": 3}
    assert before["redo_text"] == "Redo: Cruz: door 2"

    after = run_driver("resume", "--data-dir", str(data), "--wall", str(before["wall"] + AWAY),
                       out=tmp_path / "resume.json")
    assert after["table_id"] == before["table_id"] and after["phase"] == "doors"
    assert after["door"] == 3 and after["green"] is None     # the moves as they stood
    assert after["remaining"] == pytest.approx(57 - AWAY)   # the sand kept falling while the app was dead
    assert after["time"] == "0:50" and after["space"] == 1
    assert after["space_before"] == 1 and after["space_after"] == 2   # runs out exactly when it should
    assert after["time_after"] == "1:00"
    assert after["redo_text"] == "Redo: Cruz: door 2"        # Redo still names its move after the restart
    assert after["green_after_redo"] == 2
