"""Touches per move on the Obelisk table screen (TABLE_UX rule 6: few taps): whole 2-player games played through the
real app by touch (tests/ui/test_obelisk_play.py's driver, the engine's seeded random player choosing), each move's
touches counted (a tap on a player's row to say who acts counts; the side checks the test makes do not).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_obelisk_taps.py [--seeds 23 6]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, nargs="+", default=[23])
    args = p.parse_args()
    touches: dict[str, list[int]] = {}
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "data").mkdir()
            out = Path(tmp) / "out.json"
            subprocess.run([sys.executable, str(ROOT / "tests/ui/test_obelisk_play.py"), "--data-dir",
                            str(Path(tmp) / "data"), "--out", str(out), "--seed", str(seed)],
                           capture_output=True, check=False, cwd=ROOT,
                           env={**__import__("os").environ, "KIVY_NO_ARGS": "1", "PYTHONPATH": str(ROOT)})
            result = json.loads(out.read_text())
            if "error" in result:
                print(f"seed {seed}: {result['error']}")
                return 1
            for kind, counts in result["touches"].items():
                touches.setdefault(kind, []).extend(counts)
    total = sum(sum(c) for c in touches.values())
    moves = sum(len(c) for c in touches.values())
    print(f"{moves} moves, {total} touches: {total / moves:.2f} touches per move (seeds {args.seeds})")
    for kind, counts in sorted(touches.items(), key=lambda kv: -len(kv[1])):
        print(f"  {kind:10s} {len(counts):3d} moves  {sum(counts) / len(counts):.2f} touches each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
