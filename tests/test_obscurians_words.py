"""Obscurians' words where players and their files meet them: the move log names the cursed artifact and the magic
lamp, a refusal names its rule, and a file with a chip or colour that does not exist says what it wanted."""
import pytest

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import (
    Choose, EndTurn, RevealEvent, RevealMissions, Roll, Secure, Steal, action_from_json, action_from_text,
)
from companion.games.obscurians.movelog import move_line
from companion.games.obscurians.setup import Setup
from companion.games.obscurians.state import new_game
from companion.i18n.messages import translate_message
from test_obscurians_engine import PLAYERS, edit, finish_turn, rolled


def test_the_move_log_names_the_cursed_artifact_and_the_magic_lamp():
    # Ben starts, reveals the Cursed Artifact and takes it (he holds the lamp too); Chris steals both from him.
    s = new_game(Setup(players=PLAYERS, deck="physical", start=1)).apply(RevealEvent("cursed_artifact"))
    s = finish_turn(s)
    assert s.active == 2 and s.artifact_holder() == 1 and s.lamp_holder() == 1
    s = s.apply(Roll(("steal",) * 5)).apply(Choose("steal", 0))
    took = s.apply(Steal("blue", "artifact"))
    line = move_line(s, Steal("blue", "artifact"), took)
    assert str(line) == "Chris stole 1 cursed artifact from Ben"
    assert translate_message(line, "de") != str(line) and "Chris" in translate_message(line, "de")
    lamp = move_line(took, Steal("blue", "lamp"), took.apply(Steal("blue", "lamp")))
    assert str(lamp) == "Chris stole 1 magic lamp from Ben"


def test_a_reroll_naming_a_chip_that_does_not_exist_says_what_it_wanted():
    with pytest.raises(InvalidInput) as err:
        action_from_json({"type": "reroll", "dice": [0], "faces": ["swap"], "discard": "boss"})
    assert str(err.value).startswith("reroll.discard:") and "a mission chip or face_down" in str(err.value)
    with pytest.raises(InvalidInput) as err:
        action_from_text("reroll 0 swap boss")
    assert "a mission chip or face_down" in str(err.value)


def refusal(state, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    return err.value


def test_a_refusal_names_the_rule_it_applies_where_the_rulebook_has_it():
    # The screen shows a refusal with its rule (docs/architecture.md, convention 4).
    no_steal = rolled(["steal", "steal", "swap", "donate", "relocate"], event="no_steal")
    err = refusal(no_steal, Choose("steal", 0))
    assert str(err) == "No Steal this round (event card)" and err.rule == "Event Cards: No Steal"
    assert "Rauben" in translate_message(err, "de")
    # Anna's four Secures made a trade ban: Ben cannot steal from her until her next turn.
    s = rolled(["secure", "secure", "secure", "secure", "relocate"]).apply(Choose("secure", 0))
    s = s.apply(Secure(("red",) * 10 + ("lamp",))).apply(EndTurn())
    s = s.apply(Roll(("steal",) * 5)).apply(Choose("steal", 0))
    err = refusal(s, Steal("red", "red"))
    assert str(err) == "Anna's goods are secured until their next turn" and err.rule == "Secure: Trade ban"


def test_a_setup_with_a_colour_nobody_plays_names_the_seat_and_the_colour():
    with pytest.raises(InvalidInput) as err:
        Setup(players=(("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "purple")))
    assert str(err.value).startswith("players[3].colour: ") and "purple" in str(err.value)
    assert "not a player colour" in str(err.value)


def test_a_setup_whose_starting_seat_is_not_at_the_table_says_which_seats_there_are():
    with pytest.raises(InvalidInput) as err:
        Setup(players=PLAYERS, start=4)
    assert str(err.value) == "start: expected a seat index from 0 to 3"


def test_the_same_mission_card_twice_is_refused_in_words():
    s = edit(new_game(Setup(players=PLAYERS, deck="physical", missions=None)), round=5,
             revealed=["no_steal", "no_swap", "bonus_wild", "reroll_once"]).apply(RevealEvent("sandstorm"))
    err = refusal(s, RevealMissions(("keep", "keep", "give", "lose")))
    assert str(err) == "Each mission card exists only once"
