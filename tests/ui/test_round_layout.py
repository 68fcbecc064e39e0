"""The Obscurians screens at the smallest and the largest window (issue 14 §2, §4, §7; table rules 1 and 2), by touch
on the real app (tests/ui/round_tour.py): scripted games in English and German with 4 and 7 players, and in
Spanish, two rounds each through the screen's own buttons, then every seat turned once round the table, the
missions tapped in and the scores.

- No control moves under a finger: the place of every control on the round screen, read from the widget tree
  before and after every touch, is the same whenever the control is there both times (Undo and Redo keep their
  places, the prompt's box keeps its size, the goods grid and the dice pad stay put when the last chip is used).
- Every label fits its box (tests/ui/fit.py): nothing cut, shortened or broken in the middle, at every touch, on the
  setup and end screens, and with the seats turned; at the run's own size and, once in each player's turn and on
  the setup and end screens, at every window size from 960×600 to 1366×1024 (the window resized while the app runs).
- Nothing overlaps on the round screen: the prompt, the dice, the pad, the options, Cancel, End turn, Undo, Redo
  and the log each lie inside the centre and none over another.
- Text the table reads is 24 px at 1280×800 and larger windows, 20 px on a window under 700 dp high, never less.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import child_env
from tests.ui.fit import WINDOW_SIZES

pytestmark = pytest.mark.ui
DRIVER = Path(__file__).with_name("round_tour.py")
BIG_SCREEN = "-screen 0 1400x1100x24"   # room for the largest window, 1366×1024

RUNS = [(lang, players, size) for lang in ("en", "de") for players in (4, 7) for size in ("small", "large")]
RUNS += [("es", 4, "small"), ("es", 7, "large")]
CASES = [pytest.param(lang, players, size, id=f"{lang}-{players}p-{size}") for lang, players, size in RUNS]


def tour(tmp_path: Path, lang: str, players: int, size: str) -> dict:
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "tour.json"
    cmd = [sys.executable, str(DRIVER), "--data-dir", str(data), "--out", str(out), "--lang", lang,
           "--players", str(players), "--size", size, "--rounds", "2", "--seed", str(7 + players)]
    if shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a", "-s", BIG_SCREEN, *cmd]
    elif not os.environ.get("DISPLAY"):
        (pytest.fail if os.environ.get("CI") else pytest.skip)("no xvfb-run and no DISPLAY: no window to lay out")
    proc = subprocess.run(cmd, env=child_env(), timeout=900, capture_output=True, text=True)
    assert out.exists(), proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("trace", result["error"])
    return result


@pytest.mark.parametrize("lang,players,size", CASES)
def test_controls_hold_still_and_every_label_fits(tmp_path, lang, players, size):
    r = tour(tmp_path, lang, players, size)
    w, h = WINDOW_SIZES[size]
    assert r["window"] == [w, h]
    # A real game went by: two rounds by touch (every player's turn), every seat turned once round the table.
    assert r["touches"] >= 12 * players // 2 and r["turned"] == players, r
    assert r["controls"] >= 100, r["controls"]
    assert r["moved"] == [], "\n".join(r["moved"][:40])
    assert r["unfit"] == [], "\n".join(r["unfit"][:40])
    assert r["overlaps"] == [], "\n".join(r["overlaps"][:40])
    assert r["setup_unfit"] == [] and r["end_unfit"] == [], "\n".join((r["setup_unfit"] + r["end_unfit"])[:40])
    # The round screen in each player's turn, the setup and the end at all five sizes.
    assert sorted(r["sizes_seen"]) == sorted(WINDOW_SIZES)
    assert r["resized"] == [], "\n".join(r["resized"][:40])
    assert r["smallest_px"] >= (20 if h < 700 else 24), r["smallest_px"]
    by_size = r["smallest_px_by_size"]
    assert by_size["16:10"] >= 24 and by_size["large"] >= 24 and by_size["4:3"] >= 24, by_size
    assert min(by_size.values()) >= 20, by_size
