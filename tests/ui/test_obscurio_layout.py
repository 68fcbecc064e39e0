"""Every Obscurio screen read from the window's size (table rule 1; issue 14, "Every tablet, not one window size"):
the tour (tests/ui/obscurio_tour.py) reaches every screen by touch — the setup in three shapes, the box's
checklist, the real bag, the night under Dark Magic, 7 wizards at 6 and 7 doors, "Stop!", 7 traps, the result, the
accusation with 7 votes, the Watcher, the Traitor revealed, the end, the loyalty deal, the menu, Undo's warning —
and at each one resizes the running app's window to the smallest and the largest sizes (as a desktop window is
resized): no label is cut, shortened or broken in the middle, no control leaves the window, nothing spills out of
its box, and every trap of the turn is in sight in step 4. In English, German and Spanish.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.ui.conftest import child_env
from tests.ui.obscurio_run import DRIVER

pytestmark = pytest.mark.ui
BIG_SCREEN = "-screen 0 1400x1100x24"   # room for the largest window, 1366×1024


def tour(tmp_path, lang: str) -> dict:
    import json

    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "tour.json"
    cmd = [sys.executable, str(DRIVER), "tour", "--lang", lang, "--sizes", "small,large", "--data-dir", str(data),
           "--out", str(out)]
    if shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a", "-s", BIG_SCREEN, *cmd]     # a screen the largest window fits on
    elif not os.environ.get("DISPLAY"):
        (pytest.fail if os.environ.get("CI") else pytest.skip)("no xvfb-run and no DISPLAY: no window to lay out")
    proc = subprocess.run(cmd, env=child_env(), timeout=600, capture_output=True, text=True)
    assert out.exists(), proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("trace", result["error"])
    return result


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_every_screen_fits_the_smallest_and_the_largest_window(tmp_path, lang):
    r = tour(tmp_path, lang)
    assert len(r["states"]) >= 30, r["states"]
    assert r["problems"] == [], "\n".join(r["problems"])
    assert r["outside"] == [], "\n".join(r["outside"])
    assert r["overflow"] == [], "\n".join(r["overflow"])
    # The window was resized under the running app, and the screens were laid out again for each size.
    assert r["laid_out"] == {"960x600": [960, 600, True], "1366x1024": [1366, 1024, False]}
    for size, rows in r["trap_rows"].items():
        assert len(rows) == 6 and all(in_sight for _, in_sight in rows), (size, rows)
