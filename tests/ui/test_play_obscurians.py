"""Play Obscurians on the real app by touches, then check what the screen says against the engine."""
from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from companion.session.logfile import read_log
from companion.session.store import TableStore
from companion.session.table import Table
from tests.ui.conftest import child_env, harness_command, run_harness

pytestmark = pytest.mark.ui


def test_a_whole_four_player_game_by_touch(data_dir, tmp_path):
    result = run_harness("play", "--data-dir", str(data_dir), "--seed", "7", "--players", "4",
                         out=tmp_path / "game.json")
    table_id = result["table_id"]

    # The log the app exported, replayed by the engine alone, gives the outcome the end screen must show.
    log_path = data_dir / "exports" / f"obscurians-table-{table_id}.jsonl"
    game = read_log(log_path.read_text(encoding="utf-8"))
    outcome = game.state.score()
    assert outcome is not None
    assert result["totals"] == {p.name: p.total for p in outcome.players}
    names = {p.colour: p.name for p in outcome.players}
    assert result["winners"] == sorted(names[c] for c in outcome.winners)
    assert all(name in result["winners_text"] for name in result["winners"])
    for p in outcome.players:  # every itemised line is on the player's card, with its points
        assert [pts for _, pts in result["lines"][p.name]] == [f"{ln.points:+d}" for ln in p.lines]
    assert list(game.state.missions) == result["missions"]
    assert game.state.round >= 5  # the sandstorm only hides in the rounds 5-7 deck

    # The table is in the store, finished, and the same as the log; the home screen lists it in the history.
    with TableStore(data_dir) as store:
        assert table_id in [row.id for row in store.finished()]
        assert table_id not in [row.id for row in store.unfinished()]
        assert Table.open(store, table_id).state == game.state
    assert table_id in result["history_rows"]

    bgstats = json.loads((data_dir / "exports" / f"obscurians-table-{table_id}-bgstats.json").read_text())
    assert {p["name"]: p["score"] for p in bgstats["players"]} == result["totals"]
    assert str(log_path) in result["export_text"]


def test_killed_app_offers_the_table_and_resumes_it(data_dir, tmp_path):
    out = tmp_path / "partial.json"
    proc = subprocess.Popen(harness_command("play", "--data-dir", str(data_dir), "--seed", "11",
                                            "--stop-after", "30", "--out", str(out)),
                            env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while not out.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.2)
        assert out.exists(), proc.stderr.read().decode()[-3000:] if proc.poll() is not None else "timed out"
    finally:
        # SIGKILL, no goodbye: to the whole process group (xvfb-run, Xvfb and the app)
        import os

        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    before = json.loads(out.read_text())
    assert "error" not in before, before.get("trace")
    assert before["screen"] == "round"

    after = run_harness("resume", "--data-dir", str(data_dir), out=tmp_path / "resume.json")
    assert before["table_id"] in after["offered"]
    assert after["table_id"] == before["table_id"]
    assert after["screen"] == "round"
    assert after["state"] == before["state"]
