"""Take the screenshots in this folder: runs the real app on a virtual screen and plays a seeded game by touches.

    .venv/bin/python docs/screenshots/take.py            # starts Xvfb itself when there is no DISPLAY

Saves home, setup, reveal, round, choose (a roll waiting for the action choice), reroll (dice picked for a
reroll), target (tapping the player to act on), missions, end and home-history as PNG next to this file, plus
reveal-physical-es and target-5p-es (5 players, real event cards, Spanish), round-7p (7 players, German) and the
setup screen's house rules (setup-house-rules: the Take cap switched off; rulings: the list of every ruling).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def play(shots: Path, *options: str, scenario: str = "play") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, str(ROOT / "tests" / "ui" / "harness.py"), scenario, "--data-dir", tmp,
               "--out", str(Path(tmp) / "result.json"), "--shots", str(shots), *options]
        if not os.environ.get("DISPLAY"):
            if not shutil.which("xvfb-run"):
                sys.exit("no DISPLAY and no xvfb-run")
            cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", *cmd]
        env = dict(os.environ, KIVY_NO_ARGS="1", PYTHONPATH=str(ROOT))
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        result = (Path(tmp) / "result.json").read_text()
        if '"error"' in result:
            sys.exit(result)


def main() -> int:
    # The main set: a seeded 4-player game in English with the app-shuffled deck.
    play(HERE, "--seed", "7", "--players", "4")
    # The 5-7 player layout, real event cards and Spanish: two more pictures.
    with tempfile.TemporaryDirectory() as tmp:
        play(Path(tmp), "--seed", "9", "--players", "5", "--deck", "physical", "--lang", "es")
        (Path(tmp) / "reveal.png").replace(HERE / "reveal-physical-es.png")
        (Path(tmp) / "target.png").replace(HERE / "target-5p-es.png")
    # 7 players (Control module, the smallest panels), in German: the round screen.
    with tempfile.TemporaryDirectory() as tmp:
        play(Path(tmp), "--seed", "5", "--players", "7", "--lang", "de")
        (Path(tmp) / "round.png").replace(HERE / "round-7p-de.png")
    # The house rules on the setup screen: the Take cap switched off, then the list of every ruling.
    play(HERE, "--players", "5", scenario="house-rules")
    for png in sorted(HERE.glob("*.png")):
        print(png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
