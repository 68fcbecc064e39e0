"""Start-up: the app's first frame against a bare Kivy window's, in interleaved pairs.

    .venv/bin/python bench/bench_startup.py [--pairs 9] [--no-bytecode-cache] [--tables N]

Each pair starts the app (`companion --data-dir` an empty folder) and a bare Kivy window (an App with one empty
Widget, in the app's window settings), one after the other, and reads each one's seconds from exec to its first
drawn frame (bench/first_frame_probe.py). Pairing keeps the ratio meaningful while the shared machine's speed drifts.
Prints both medians, the ratio of the medians and the median of the pair ratios, for the wall clock and for the
CPU time each process used (on a shared machine the CPU time is the steadier of the two). One pair first, not counted, warms
the disk cache and writes the bytecode cache.

Bytecode: an installed app runs from compiled .pyc files. This workspace sets PYTHONDONTWRITEBYTECODE=1, which would
make every start compile the app's modules from source while Kivy's come compiled from its wheel; so by default the
runs get a bytecode cache of their own (PYTHONPYCACHEPREFIX, a temporary folder: nothing is written into the
repository). --no-bytecode-cache measures starts from source instead.

--tables N: the app starts on a database holding N tables (the examples/*.jsonl logs imported in turn), as a group's
tablet does after some evenings: half of them finished, half unfinished (the first half of a log's moves only), so
that Home has rows in both of its lists, "Continue a table" and "Finished games".

Needs a screen: without DISPLAY it re-runs itself under xvfb-run. Prints figures; asserts nothing.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_app import first_frame  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=9, help="interleaved pairs counted (default 9)")
    p.add_argument("--no-bytecode-cache", action="store_true", help="compile from source on every start")
    p.add_argument("--tables", type=int, default=0, help="tables in the database the app starts on (default 0)")
    args = p.parse_args()
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            raise SystemExit("no DISPLAY and no xvfb-run: install xvfb")
        return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, *sys.argv])

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if args.no_bytecode_cache:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        data = Path(tmp) / "data"
        data.mkdir()
        fill(data, args.tables, env)
        pairs = []
        for n in range(args.pairs + 1):
            a, b = first_frame(data, env, cpu=True), first_frame("--bare", env, cpu=True)
            if n:  # the first pair warms up
                pairs.append((a, b))
    label = f"{args.tables} tables" if args.tables else "empty database"
    print(f"first frame, {args.pairs} interleaved pairs "
          f"({'compiled from source' if args.no_bytecode_cache else 'bytecode cached'}):")
    for i, what in ((0, "wall seconds from exec"), (1, "CPU seconds of the process")):
        app, bare = [a[i] for a, _ in pairs], [b[i] for _, b in pairs]
        ratios = [a / b for a, b in zip(app, bare)]
        print(f"  {what}:")
        print(f"    app ({label}): median {statistics.median(app):.3f} s  (min {min(app):.3f}, "
              f"max {max(app):.3f})")
        print(f"    bare Kivy window:     median {statistics.median(bare):.3f} s  (min {min(bare):.3f}, "
              f"max {max(bare):.3f})")
        print(f"    ratio of the medians {statistics.median(app) / statistics.median(bare):.2f}x, "
              f"median of the pair ratios {statistics.median(ratios):.2f}x (target <= 1.25x)")
    return 0


def fill(data: Path, count: int, env: dict) -> None:
    """Import `count` tables from the example logs (each log as often as needed, `--copy`): every other one
    unfinished, cut after the first half of its moves (the examples are all whole games)."""
    logs = sorted((ROOT / "examples").glob("*.jsonl"))
    for n in range(count):
        log = logs[n // 2 % len(logs)]  # each log twice in a row: once unfinished, once whole
        if n % 2 == 0:
            lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
            cut = data.parent / f"{log.stem}-unfinished.jsonl"
            cut.write_text("".join(lines[:1 + (len(lines) - 1) // 2]), encoding="utf-8")  # the header, half the moves
            log = cut
        subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(data), "import", "--copy",
                        "--title", f"{log.stem} {n + 1}", str(log)], check=True, capture_output=True, env=env, cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
