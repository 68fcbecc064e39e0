"""A whole 5-player Obscurio game on the real app, by touches, with a fake clock driving the hourglass: the box's
checklist, the traps the app drew shown until acknowledged, the narrated night that waits for the Grimoire at the
Traitor's choice (Dark Magic's count entered hidden), the glass turned with the first card, the sand running out
onto the next space, "Stop!", the turn's result before the accusation (a tie, then the Traitor), and the escape.
What the screen said is checked against the engine replaying the exported log."""
from __future__ import annotations

import pytest

from companion.games.obscurio.actions import Decoys, Exit, Sand, Votes
from companion.games.obscurio.night import choice_line, script
from companion.games.obscurio.vocabulary import TRAP
from companion.session.logfile import read_log
from companion.session.store import TableStore
from companion.session.table import Table
from tests.ui.obscurio_run import run_driver

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    result = run_driver("play", "--data-dir", str(data), "--seed", "7", out=data / "result.json")
    log_path = data / "exports" / f"obscurio-table-{result['table_id']}.jsonl"
    return result, read_log(log_path.read_text(encoding="utf-8")), data


def states(log):
    state = log.timeline.initial
    for action in log.timeline.actions:
        after = state.apply(action)
        yield state, action, after
        state = after


def test_the_game_ends_as_the_engine_says(game):
    result, log, data = game
    outcome = log.state.outcome()
    assert outcome is not None and outcome.detail["side"] == "wizards"
    assert result["final"] == log.state.to_json()
    end = result["end"]
    assert end["headline"] == "The wizards escape!"
    left = log.state.cohesion_left
    assert f"with {left} cohesion token{'s' if left != 1 else ''} left" in end["why"]
    assert end["prompt"] == "The Traitor was Eli"
    assert end["players"][4].startswith("Eli — Traitor · loses")
    assert result["history"] == {"headline": end["headline"], "prompt": end["prompt"]}   # reopened from Home
    assert all(" · wins" in line for line in end["players"][:4])
    # The export said where it went, in words, and the table is finished in the store.
    assert str(data / "exports") in result["export_banner"]
    with TableStore(data) as store:
        assert result["table_id"] in [row.id for row in store.finished()]
        assert Table.open(store, result["table_id"]).state == log.state


def test_the_glass_turned_with_the_first_card_then_ran_out_onto_the_next_space_then_stop(game):
    result, log, _ = game
    assert result["time_at_15s"] == "0:45"
    assert result["flip"] == {"space": 1, "time": "1:00",
                              "log": "The sand ran out: the hourglass moves to space 2 of 3"}
    sands = [(before, after) for before, action, after in states(log) if isinstance(action, Sand)]
    assert any(b.phase == "doors" and a.phase == "doors" and a.space == b.space + 1 for b, a in sands)
    assert any(a.phase == "exit" and a.stopped for _, a in sands)
    assert result["stop"] == {"phase": "exit", "stopped": True, "moment": "Stop!"}
    # Chips still in the centre at "Stop!" paid like wrong doors, and the screen said so.
    assert any("(no door)" in line for line in result["turns"][1]["costs"])


def test_the_night_was_narrated_line_by_line_and_waited_for_the_grimoire(game):
    result, log, _ = game
    first_night = next(before for before, action, _ in states(log) if isinstance(action, Decoys))
    lines = [line.text for line in script(first_night)]
    assert result["night_lines"] == lines                     # shown large, one after the other, on the clock
    assert result["said"][:len(lines)] == lines               # and spoken
    # Ten minutes at the Traitor's choice: the night still stands there, waiting for the Grimoire's tap.
    assert result["after_ten_minutes"] == lines[choice_line(script(first_night))]
    for sound in ("flip", "stop", "night", "end", "event", "watcher"):
        assert sound in result["sounds"]


def test_the_traitors_cards_stay_secret_until_the_end(game):
    result, log, _ = game
    counts = [a for _, a, _ in states(log) if isinstance(a, Decoys)]
    # Dark Magic in turn 1: the Grimoire tapped the count at the choice, while the wizards' eyes were closed …
    assert result["count_options"] == [0, 1, 2, 3, 4] and counts[0].cards == 2
    # … and from then on nothing on the screen tells it: the move log, Undo, every text.
    assert not any("picked" in text or "2 cards" in text for text in result["after_count_texts"])
    assert "The Grimoire closed the card holder (the Traitor's cards: entered, hidden until the end)" in \
        result["moves"]
    # Without a trap whose limit needs it nobody is asked: the card holder is just closed.
    assert any(a.cards is None for a in counts[1:])
    assert "The Grimoire closed the card holder" in result["moves"]
    assert "Turn 1: the Traitor picked 2 cards" in result["end"]["secrets"]    # revealed at the end


def test_the_apps_traps_are_shown_until_acknowledged_and_the_box_checklisted(game):
    result, log, _ = game
    first_draw = log.timeline.actions[0]
    moment = result["traps_moment"]
    assert moment["kind"] == "ObsoTrapsSheet" and moment["traps"] == [TRAP[x] for x in first_draw.traps]
    assert result["checklist"] == ["Loyalty cards: 1 Traitor + 3 Loyal, shuffled, one to each wizard.",
                                   "Cohesion tokens: 5 in the dark area, 13 in the normal area.",
                                   "The progress marker on the first space; every chip in the centre of the board."]


def test_the_accusation_a_tie_then_the_traitor(game):
    result, log, _ = game
    acc = result["accusation"]
    # What the turn cost comes first; the glass waits until the group has read it.
    assert acc["result_view"] == "ObsoAccuseResultView" and acc["phase_while_reading"] == "discussion"
    assert acc["result_lines"][-1].startswith("Cohesion tokens lost this turn: ")
    assert acc["talk_time"] == "1:00" and acc["after_sand"] == "vote"
    # During the talk the tokens on each character card are in sight.
    assert len(acc["talk_cards"]) == 4 and acc["talk_cards"][3].startswith("Eli: ")
    assert acc["accused"] == ["blue", "green"]              # 2 votes each: a tie accuses both
    assert acc["round2_result"] == "Accused: Bea: Loyal, −2 to the box; Cruz: Loyal, −2 to the box"
    # The turn's summary counts every token: the Exit's and each false accusation's −2.
    exit_lost = int(acc["result_lines"][-1].rsplit(" ", 1)[1])
    assert acc["round2_lines"][-1] == f"Cohesion tokens lost this turn: {exit_lost + 4}"
    assert "Bea: accused, Loyal: −2 to the box" in acc["round2_lines"]
    assert "Eli: accused, the Traitor!" in acc["found"]
    assert acc["votes_moved"] == []                         # the vote rows stay where they were, round after round
    votes = [a for _, a, _ in states(log) if isinstance(a, Votes)]
    assert len(votes) == 2 and votes[1].as_dict() == {"blue": "yellow", "green": "yellow", "red": "yellow",
                                                       "yellow": "blue"}
    assert log.state.exposed and log.state.traitor == "yellow"
    # Undo after the Traitor was shown to everyone asks first, and says the Traitor is now known.
    warning = acc["undo_warning"]
    assert warning["question"] == "Undo the accusation?"
    assert warning["detail"].startswith("Everyone has seen that Eli is the Traitor: after the undo the game goes on "
                                        "with the Traitor known.")
    assert acc["exposed_after_cancel"]


def test_the_watcher_wakes_as_a_moment_and_stays_in_sight(game):
    result, _, _ = game
    woke = [t for t in result["turns"] if t.get("moment_over")]
    assert len(woke) == 1 and woke[0]["moment_over"]["kind"] == "MomentSheet"
    assert woke[0]["moment_over"]["title"] == "The Watcher is awake"
    assert "watcher" in result["sounds"]
    after = result["turns"][result["turns"].index(woke[0]):]
    assert all(t["watcher_text"] == "The Watcher is active: apply the trap printed on your board every turn."
               and t["rooms_caption"] == "Watcher!" for t in after)
    assert all(t["watcher_text"] == "" for t in result["turns"][:result["turns"].index(woke[0])])


def test_the_numbers_face_both_long_sides_large(game):
    result, _, _ = game
    numbers = result["numbers"]
    assert numbers["far_angle"] == 180                        # the band is turned to the far long side
    assert set(numbers["far"]) == {"time", "cohesion", "rooms", "traps"}
    for key in ("cohesion", "rooms"):
        assert numbers["far"][key][0] == numbers["near"][key][0]      # both sides read the same numbers
        assert numbers["far"][key][1] >= 28 and numbers["near"][key][1] >= 28   # large: well over the 24 px text
    assert numbers["far"]["time"][0] == "0:45"
    assert numbers["far_cards"] == numbers["near_cards"] == ["Bea 0", "Cruz 0", "Dani 0", "Eli 0"]


def test_a_refused_tap_says_why_and_undo_names_the_move(game):
    result, _, _ = game
    assert result["refused_done"] == "Every wizard chooses a door first: Bea, Cruz, Dani, Eli still in the centre"
    assert result["phase_after_refusal"] == "doors"
    assert result["early_exit"] == "The Exit is revealed when step 4 is over"
    assert result["undo_text"] == "Undo: Bea: door 5"
    assert result["log_after_chip"][0] == "Bea: door 5"
    assert result["door_after_undo"] is None
    assert result["redo_text"] == "Redo: Bea: door 5"
    assert result["door_after_redo"] == 5


def test_the_move_log_tells_the_game_in_players_words(game):
    result, log, _ = game
    moves = result["moves"]
    assert len(moves) == len(log.timeline.actions)
    assert moves[0].startswith("Traps drawn: ")
    assert "Bea: door 1" in moves and "Vote: Bea, Cruz accused" in moves
    assert "Every accused wizard showed a Loyal card" in moves and "Eli showed the Traitor card" in moves
    assert moves[-1] == "The Exit is door 1: the wizards escape the Library!"
    exits = [a for _, a, _ in states(log) if isinstance(a, Exit)]
    assert sum(m.startswith("The Exit is door") for m in moves) == len(exits)
