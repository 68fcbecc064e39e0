"""Take the screenshots in this folder: runs the real app on a virtual screen and plays seeded games by touches.

    .venv/bin/python docs/screenshots/take.py            # starts Xvfb itself when there is no DISPLAY

English, 4 players (seed 6): home, setup, reveal, pad (the roll tapped in), choose, reroll, target (the goods rows),
round5 (the sandstorm warning), the announcements (moment-event, moment-warning, moment-sandstorm, moment-winner),
missions, end, undo-finished (the question before reopening a finished game), end-history (read-only),
home-history. German, 7 players (seed 5): the same set, suffixed -7p-de. Spanish, 4 players with the real event
cards (seed 9): the set suffixed -es. The round screen's promises (checks): chip-refused, reroll-face-down,
steal-rows, undo-redo, menu, round-in-hand, round-de. Setup in Spanish: setup-put-back-es, missions-put-back-es.
Home: home-tables, home-rename, home-delete, home-deleted. House rules: setup-house-rules, rulings.
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


def run(scenario: str, *options: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, str(ROOT / "tests" / "ui" / "obscurians_driver.py"), scenario, "--data-dir", tmp,
               "--out", str(Path(tmp) / "result.json"), "--shots", str(HERE), *options]
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
    run("play", "--seed", "6", "--players", "4")
    run("play", "--seed", "5", "--players", "7", "--lang", "de")
    run("play", "--seed", "9", "--players", "4", "--lang", "es", "--deck", "physical")
    run("checks", "--seed", "7")
    run("setup-checks", "--seed", "7", "--lang", "es")
    run("home-checks")
    run("house-rules", "--players", "5")
    for png in sorted(HERE.glob("*.png")):
        if not png.name.startswith(("obscurio-", "devices")):  # (other screens' pictures come from their drivers)
            print(png.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
