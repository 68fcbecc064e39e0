"""Lists that cost what they show: `companion tables` and the app's first frame with 10,000 tables in the database,
side by side with an empty one.

    .venv/bin/python bench/bench_history.py [--tables 10000] [--runs 5] [--no-app]

The big database is built once per run in a temporary folder: 10,000 finished Obscurians tables (complete random
games, ~170 log entries each, with their summaries as the app keeps them) plus a few in progress. The first frame is
measured like bench/bench_app.py (the real app under Xvfb, from exec to the first drawn frame); --no-app skips it.
Prints medians; asserts nothing (the issue's target: within 10% of an empty database).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.obscurians.randplay import random_game  # noqa: E402
from companion.session import games  # noqa: E402
from companion.session.table import summarize  # noqa: E402
from companion.session.store import DB_NAME, TableStore  # noqa: E402


IN_PROGRESS = 30  # actions played at the tables still in progress


def build(folder: Path, n_tables: int, distinct: int = 40) -> None:
    """A database with `n_tables` finished tables and 5 in progress, written in one transaction (fast)."""
    TableStore(folder).close()  # the schema, exactly as the app makes it
    game = games.get("obscurians")
    logs = []
    for seed in range(distinct):
        setup, actions = random_game(seed, 4 + seed % 4)
        state = game.new_game(setup)
        for a in actions:
            state = state.apply(a)
        partial = game.new_game(setup)
        for a in actions[:IN_PROGRESS]:
            partial = partial.apply(a)
        logs.append((json.dumps(setup.to_json(), sort_keys=True),
                     [json.dumps(a.to_json(), sort_keys=True) for a in actions],
                     json.dumps(summarize(game, state), sort_keys=True),
                     json.dumps(summarize(game, partial), sort_keys=True)))
    conn = sqlite3.connect(folder / DB_NAME, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    t0 = 1_700_000_000
    for i in range(n_tables + 5):
        setup_json, actions, summary, partial_summary = logs[i % distinct]
        finished = i < n_tables
        summary = summary if finished else partial_summary  # as the app keeps it: where the table stands
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000+00:00", time.gmtime(t0 + 60 * i))
        cur = conn.execute("INSERT INTO tables (game, setup_json, created, updated, finished, title, summary_json) "
                           "VALUES ('obscurians', ?, ?, ?, ?, ?, ?)",
                           (setup_json, stamp, stamp, stamp if finished else None, f"table {i}", summary))
        kept = actions if finished else actions[:IN_PROGRESS]
        conn.executemany("INSERT INTO events (table_id, seq, kind, payload_json, at) VALUES (?, ?, 'action', ?, ?)",
                         [(cur.lastrowid, seq, a, stamp) for seq, a in enumerate(kept, start=1)])
    conn.execute("COMMIT")
    conn.close()
    TableStore(folder).close()  # as after the app's last clean close: the file is checked once and marked


def time_tables(folder: Path, runs: int) -> list[float]:
    out = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(folder), "tables"],
                             capture_output=True, text=True, cwd=ROOT)
        if run.returncode != 0:
            raise SystemExit(f"companion tables failed: {run.stderr}")
        out.append(time.perf_counter() - t0)
    return out[1:]  # the first run warms the file cache


def first_frames(folder: Path, runs: int) -> list[float]:
    from bench_app import first_frame  # the same probe as the cold start

    return [first_frame(folder) for _ in range(runs)]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--no-app", action="store_true")
    args = p.parse_args()
    if not args.no_app and not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
        return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, *sys.argv])
    with tempfile.TemporaryDirectory() as tmp:
        empty, full = Path(tmp, "empty"), Path(tmp, "full")
        TableStore(empty).close()
        t0 = time.perf_counter()
        build(full, args.tables)
        size = (full / DB_NAME).stat().st_size / 1e6
        print(f"built {args.tables:,} finished tables + 5 in progress in {time.perf_counter() - t0:.1f} s "
              f"({size:.0f} MB)")
        base, big = statistics.median(time_tables(empty, args.runs)), statistics.median(time_tables(full, args.runs))
        print(f"companion tables      empty {base:.3f} s   {args.tables:,} tables {big:.3f} s   "
              f"ratio {big / base:.2f}  (target <= 1.10)")
        if not args.no_app:
            base = statistics.median(first_frames(empty, args.runs))
            big = statistics.median(first_frames(full, args.runs))
            print(f"app first frame       empty {base:.3f} s   {args.tables:,} tables {big:.3f} s   "
                  f"ratio {big / base:.2f}  (target <= 1.10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
