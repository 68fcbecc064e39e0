"""The app's cold start to its first drawn frame, and its peak memory while a whole game is played by touches.

    .venv/bin/python bench/bench_app.py [--runs 3] [--players 4 7]

Needs a screen: without DISPLAY it re-runs itself under xvfb-run. Prints figures; asserts nothing (the issue's
targets, printed beside them, are for this 2-core machine: first frame <= 3 s, peak RSS <= 250 MB).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def first_frame(data_dir, env: dict | None = None, *, cpu: bool = False):
    """Seconds from exec to the app's first drawn frame, over the tables in `data_dir` (bench/first_frame_probe.py);
    `data_dir` "--bare": a bare Kivy window's. cpu=True: (wall seconds, CPU seconds) to that frame."""
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "first_frame_probe.py"), str(data_dir)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    figures = dict(ln.split() for ln in run.stdout.splitlines() if ln.startswith("first_frame"))
    if "first_frame_s" not in figures:
        raise SystemExit(f"the app did not draw a frame:\n{run.stdout}\n{run.stderr[-2000:]}")
    wall = float(figures["first_frame_s"])
    return (wall, float(figures["first_frame_cpu_s"])) if cpu else wall


def cold_start(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as data:
            out.append(first_frame(data))
    return out


def whole_game(players: int, seed: int = 7) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "game.json"
        subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "obscurians_driver.py"), "play",
                        "--players", str(players), "--seed", str(seed), "--data-dir", str(Path(tmp) / "data"),
                        "--out", str(out)],
                       capture_output=True, timeout=600, cwd=ROOT)
        result = json.loads(out.read_text()) if out.exists() else {"error": "no result"}
    if "error" in result:
        raise SystemExit(f"the {players}-player game failed: {result['error']}")
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--players", type=int, nargs="*", default=[4, 7])
    args = p.parse_args()
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            raise SystemExit("no DISPLAY and no xvfb-run: install xvfb")
        return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, *sys.argv])

    starts = cold_start(args.runs)
    print(f"app cold start to first frame: median {statistics.median(starts):.2f} s, max {max(starts):.2f} s "
          f"over {len(starts)} runs (target <= 3 s)")
    for n in args.players:
        r = whole_game(n)
        print(f"whole {n}-player game by touch: peak RSS {r['peak_rss_mb']:.0f} MB (target <= 250 MB), "
              f"{r['actions']} actions, {r['taps']} taps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
