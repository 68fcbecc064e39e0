"""THE KILL TEST: SIGKILL a session at random moments; every acknowledged action must be on disk, nothing else.

A subprocess (`companion session-script`) plays a random legal game into a table and prints `ack <seq>` after each
commit. The test kills it with SIGKILL after a random number of acks plus 0-20 ms (so kills land
during start-up, mid-commit and between commits), reopens the table in this process and checks:

- the stored actions are a prefix of the script, at least as long as the acks (nothing acknowledged is lost);
- at most one more than acked: the action whose commit finished but whose ack did not get out before the kill;
- the state rebuilt by Table.open equals the engine's own replay of those actions.

Then it resumes the script from there, until the game is over; then the next game, until enough kills were made.
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from companion.session import Table, TableStore
from session_helpers import game, replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KILLS = 60
SEED = 20240611


def start_session(data_dir, table_id, script, tmp_path):
    feed = tmp_path / "feed.jsonl"
    feed.write_text("".join(json.dumps(a) + "\n" for a in script))  # a file, so stdin never blocks the child
    with open(feed, "rb") as stdin:
        return subprocess.Popen(
            [sys.executable, "-m", "companion", "--data-dir", str(data_dir), "session-script", "--table", str(table_id)],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        )


@pytest.mark.slow  # 60 kills of a real subprocess: half a minute or more; `make test-fast` leaves it out
def test_sigkill_never_loses_an_acknowledged_action(tmp_path):
    rng = random.Random(SEED)
    data_dir = tmp_path / "data"
    kills = raced = games = runs = 0
    started = time.monotonic()
    seed = SEED
    while kills < KILLS:
        seed += 1
        setup, actions = game(seed)
        script = [a.to_json() for a in actions]
        with TableStore(data_dir) as store:
            table_id = Table.create(store, "obscurians", setup).id
        done = 0
        while done < len(script):
            runs += 1
            proc = start_session(data_dir, table_id, script[done:], tmp_path)
            acks = []
            for _ in range(rng.randrange(0, 16)):  # 0: kill during start-up or the first commit
                line = proc.stdout.readline()
                if not line:
                    break
                acks.append(int(line.split()[1]))
            time.sleep(rng.uniform(0, 0.02))
            killed = proc.poll() is None
            if killed:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            # Whatever acks got out before the kill: read through the same buffered reader as readline() above
            # (communicate() reads the raw pipe and would skip lines that reader had already buffered).
            out = proc.stdout.read()
            err = proc.stderr.read()
            proc.wait(timeout=30)
            acks += [int(line.split()[1]) for line in out.decode().splitlines()]
            if not killed:
                assert proc.returncode == 0, err.decode()
            assert acks == list(range(done + 1, done + len(acks) + 1)), "acks are the log's seqs, in order"

            with TableStore(data_dir) as store:
                table = Table.open(store, table_id)
            stored = [a.to_json() for a in table.actions]
            acked = done + len(acks)
            assert stored[:acked] == script[:acked], "an acknowledged action was lost or changed"
            assert len(stored) in (acked, acked + 1), "more than the one racing action was stored"
            assert stored == script[:len(stored)], "the racing action must be the next scripted one"
            raced += len(stored) == acked + 1
            assert table.state.to_json() == replay(setup, actions[:len(stored)]).to_json()
            done = len(stored)
        with TableStore(data_dir) as store:
            assert Table.open(store, table_id).finished and table_id in [r.id for r in store.finished()]
        games += 1
    elapsed = time.monotonic() - started
    print(f"\nkill test: {kills} SIGKILLs over {runs} runs, {games} games, {raced} commits raced their ack, "
          f"{elapsed:.1f} s")
    assert kills >= KILLS and games >= 2
