"""Hidden stays hidden: a chip discarded for a reroll goes face down, unseen (rulebook "Rerolling"). The engine
records "one chip, face down", keeps the count per player, and checks later placements against the chips that can
still be in the hand. Logs written before, with the discarded mission named, still replay."""
import json

import pytest

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import (
    EndTurn, PlaceChip, Reroll, RevealEvent, Roll, action_from_json, action_from_text,
)
from companion.games.obscurians.constants import FACE_DOWN
from companion.games.obscurians.setup import Setup
from companion.games.obscurians.state import State, new_game

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))
ROLL = Roll(("steal", "steal", "swap", "wild", "relocate"))


def rolled(event="double_steal") -> State:
    return new_game(Setup(players=PLAYERS, deck="physical")).apply(RevealEvent(event)).apply(ROLL)


def test_the_notation_has_a_face_down_discard():
    action = Reroll((0, 3), ("swap", "wild"), FACE_DOWN)
    assert action.to_text() == "reroll 0,3 swap wild face_down"
    assert action_from_text("reroll 0,3 swap wild face_down") == action
    assert action.to_json() == {"type": "reroll", "dice": [0, 3], "faces": ["swap", "wild"], "discard": "face_down"}
    assert action_from_json(action.to_json()) == action
    with pytest.raises(InvalidInput, match="reroll.discard"):
        action_from_text("reroll 0 swap hidden")


def test_a_face_down_discard_names_no_chip_and_counts_one():
    s = rolled().apply(Reroll((2,), ("steal",), FACE_DOWN))
    assert s.dice == ("steal", "steal", "steal", "wild", "relocate")
    assert s.chips_in_hand[0] == ("keep", "take", "collect", "give", "select", "lose")  # any of them may be gone
    assert s.hidden_discards[0] == 1 and s.chips_left(0) == 5 and s.discarded[0] == ()


def test_placements_are_checked_against_the_chips_that_can_still_be_in_hand():
    s = rolled()
    for _ in range(6):  # every chip discarded face down: nothing can be placed or discarded any more
        s = s.apply(Reroll((4,), ("wild",), FACE_DOWN))
    assert s.chips_left(0) == 0 and "reroll" not in s.legal_types()
    with pytest.raises(IllegalAction, match="Anna has no suspicion chip left to discard"):
        s.apply(Reroll((4,), ("wild",), FACE_DOWN))
    # With one chip face down and five placed, nothing is left in the hand, whatever mission is named.
    one_down = rolled().apply(Reroll((4,), ("wild",), FACE_DOWN)).to_json()
    one_down["dice"] = None  # (the same turn, before the roll: when chips are placed)
    five = State.from_json(one_down)
    for m in ("keep", "take", "collect", "give", "select"):
        five = five.apply(PlaceChip("blue", m))
    assert five.chips_left(0) == 0 and "chip" not in five.legal_types()
    with pytest.raises(IllegalAction, match="Anna has no suspicion chip left in hand"):
        five.apply(PlaceChip("blue", "lose"))


def test_a_chip_that_may_have_gone_face_down_can_still_be_placed():
    s = rolled().apply(Reroll((4,), ("wild",), FACE_DOWN))
    d = s.to_json()
    d["dice"] = None
    s = State.from_json(d).apply(PlaceChip("green", "lose"))  # nobody knows it was not the discarded one
    assert s.placed[-1].mission == "lose" and s.chips_left(0) == 4


def test_older_logs_with_a_named_discard_still_replay():
    s = rolled().apply(Reroll((0,), ("swap",), "keep"))
    assert s.discarded[0] == ("keep",) and "keep" not in s.chips_in_hand[0] and s.hidden_discards[0] == 0
    with pytest.raises(IllegalAction, match="no keep chip left to discard"):
        s.apply(Reroll((0,), ("swap",), "keep"))


def test_states_without_face_down_discards_read_and_write_as_before():
    s = rolled()
    assert "hidden_discards" not in s.to_json()
    assert State.from_json(s.to_json()) == s
    down = s.apply(Reroll((1,), ("donate",), FACE_DOWN))
    d = down.to_json()
    assert d["hidden_discards"] == [1, 0, 0, 0]
    assert State.from_json(json.loads(json.dumps(d))) == down
    d["hidden_discards"] = [7, 0, 0, 0]
    with pytest.raises(InvalidInput, match="hidden_discards"):
        State.from_json(d)


def test_the_free_reroll_discards_nothing():
    s = rolled("reroll_once").apply(Reroll((0,), ("swap",), None))
    assert s.chips_left(0) == 6 and s.hidden_discards[0] == 0
    assert EndTurn  # (a turn goes on as before)
