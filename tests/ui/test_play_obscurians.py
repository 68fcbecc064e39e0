"""Play Obscurians on the real app by touches, then check what the screen said against the engine.

Each game is played the way a group that knows its moves would (tests/ui/obscurians_driver.py): every move of the
engine's seeded random player is tapped in on the screen and compared with the move the screen recorded.
"""
from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from companion.games.obscurians.actions import RevealEvent
from companion.games.obscurians.movelog import move_lines
from companion.games.obscurians.state import new_game
from companion.session.logfile import read_log
from companion.session.store import TableStore
from companion.session.table import Table
from companion.i18n.messages import translate_message
from tests.ui.conftest import child_env, obscurians_command, run_obscurians

pytestmark = pytest.mark.ui


def check_whole_game(result, data_dir):
    table_id = result["table_id"]
    # The log the app exported, replayed by the engine alone, gives the outcome the end screen must show.
    log_path = data_dir / "Documents" / "Table Companion" / f"obscurians-table-{table_id}.jsonl"
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

    bgstats = json.loads((log_path.parent / f"obscurians-table-{table_id}-bgstats.json").read_text())
    assert {p["name"]: p["score"] for p in bgstats["players"]} == result["totals"]
    # Where the files went, said in words a person can follow (in the players' language).
    assert f"Documents › Table Companion: obscurians-table-{table_id}.jsonl" in result["export_text"] or \
        f"Dokumente › Table Companion: obscurians-table-{table_id}.jsonl" in result["export_text"]
    return game


def test_a_whole_four_player_game_by_touch(data_dir, tmp_path):
    result = run_obscurians("play", "--data-dir", str(data_dir), "--seed", "6", "--players", "4",
                         out=tmp_path / "game.json")
    game = check_whole_game(result, data_dir)
    # Every action was entered on the round screen, but the first event card (the setup's Start reveals it) and the
    # missions at the end; every intended move was entered, or the harness would have stopped.
    assert result["actions"] == result["recorded"] + 2
    assert game.timeline.actions[0] == RevealEvent(game.state.revealed[0])

    # The move log said each kind of move in players' words, as the engine narrates it, and Undo named it.
    actions = game.timeline.actions
    lines = move_lines(new_game(game.setup), actions)
    for kind, seen in result["log"].items():  # the newest line after the first move of each kind
        assert type(actions[seen["index"]]).__name__ == kind
        assert seen["screen"] == translate_message(lines[seen["index"]], "en") == seen["undo"], kind
    assert {"RevealEvent", "Roll", "Choose", "EndTurn"} <= set(result["log"])
    assert len(set(result["log"]) & {"Steal", "Donate", "Swap", "Secure", "Relocate"}) >= 3

    # The moments: each event card announced with its chime, the sandstorm warning from round 5, the winner.
    sounds = [name for name, on in result["sounds"] if on]
    assert sounds.count("event") == len([c for c in game.state.revealed if c != "sandstorm"])
    assert sounds[-2:] == ["sandstorm", "winner"] and "warning" in sounds
    assert all(name in result["winner_moment"]["title"] for name in result["winners"])

    # Undo right after the end asked first, and Cancel kept the scores; from the history the game is read-only.
    assert result["undo_asks"]["question"] == "Reopen this finished game?"
    assert "The missions were revealed and the game was scored" in result["undo_asks"]["detail"]
    assert result["still_over"]
    assert result["history_read_only"] and not result["history_undo_visible"]

    # Every seat's panel faces its edge, in seat order clockwise; no text under 24 px, no missing glyph.
    angles = [p["angle"] for p in result["layout"]["panels"]]
    assert angles == [0, 270, 180, 90]
    assert all(texts == [] for screen, texts in result["small"].items() if screen != "home"), result["small"]
    assert all(missing == [] for missing in result["glyphs"].values()), result["glyphs"]


def test_a_whole_seven_player_game_by_touch_in_german(data_dir, tmp_path):
    result = run_obscurians("play", "--data-dir", str(data_dir), "--seed", "5", "--players", "7", "--lang", "de",
                         out=tmp_path / "game.json", timeout=300)
    check_whole_game(result, data_dir)
    assert "Sieg" in result["winners_text"]
    panels = result["layout"]["panels"]
    # Seven seats clockwise: two along the bottom (right to left), two up the left, two along the top, one right.
    assert [p["angle"] for p in panels] == [0, 0, 270, 270, 180, 180, 90]
    assert panels[0]["area"][0] > panels[1]["area"][0] and panels[2]["area"][1] < panels[3]["area"][1]
    assert panels[4]["area"][0] < panels[5]["area"][0]
    for p in panels:  # each panel's name bar is on the side away from its player: the panel faces them
        dx, dy = p["name_offset"]
        assert {0: dy > 0, 270: dx > 0, 180: dy < 0, 90: dx < 0}[p["angle"]], p
    assert all(texts == [] for texts in result["small"].values()), result["small"]
    assert all(missing == [] for missing in result["glyphs"].values()), result["glyphs"]
    assert result["log"]["Roll"]["screen"].split()[1] == "würfelt"


def test_killed_app_offers_the_table_and_resumes_it(data_dir, tmp_path):
    out = tmp_path / "partial.json"
    proc = subprocess.Popen(obscurians_command("play", "--data-dir", str(data_dir), "--seed", "11",
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

    after = run_obscurians("resume", "--data-dir", str(data_dir), out=tmp_path / "resume.json")
    assert before["table_id"] in after["offered"]
    assert after["table_id"] == before["table_id"]
    assert after["screen"] == "round"
    assert after["state"] == before["state"]
