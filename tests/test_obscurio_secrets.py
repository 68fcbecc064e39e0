"""What the engine lets the table keep to itself, and what it notes: step 3 may end without the Traitor's card count
(only a trap's limit needs it), a look at an app-dealt loyalty card is a note that changes nothing, the night's
countdown is a table preference, and the glass of step 4 is one run that waits for the first card."""
from __future__ import annotations

import pytest

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurio import Decoys, Look, Setup, action_from_json, action_from_text, new_game
from companion.games.obscurio.game import GAME

FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))


def at_night(traps="dark_night", **setup):
    state = new_game(Setup(players=FIVE, bag="physical", **setup))
    return state.apply(action_from_text(f"draw {traps}")).apply(action_from_text("riddle"))


def test_step_3_ends_without_the_count_and_a_told_count_is_still_checked():
    s = at_night()
    after = s.apply(Decoys(None))
    assert after.phase == "doors" and after.decoys is None
    assert s.apply(Decoys(2)).decoys == 2                      # an earlier table's count still replays
    with pytest.raises(IllegalAction, match="at most 2"):
        s.apply(Decoys(3))
    assert at_night("dark_magic").apply(Decoys(4)).decoys == 4
    assert Decoys(None) not in s.legal_actions() and s.legal_types() == {"decoys"}   # the moves stay as they were


@pytest.mark.parametrize("action, text, json", [
    (Decoys(None), "decoys -", {"type": "decoys", "cards": None}),
    (Decoys(3), "decoys 3", {"type": "decoys", "cards": 3}),
    (Look("red"), "look red", {"type": "look", "chip": "red"}),
])
def test_the_notes_and_the_untold_count_round_trip(action, text, json):
    assert action.to_text() == text and action_from_text(text) == action
    assert action.to_json() == json and action_from_json(json) == action


@pytest.mark.parametrize("bad", [{"type": "look"}, {"type": "look", "chip": "grimoire"}, {"type": "look", "chip": 1},
                                 {"type": "decoys", "cards": "two"}, {"type": "decoys", "cards": 9}])
def test_malformed_notes_are_refused_naming_the_field(bad):
    with pytest.raises(InvalidInput):
        action_from_json(bad)
    with pytest.raises(InvalidInput):
        action_from_text("look")


def test_a_look_is_a_note_only_with_app_dealt_cards_and_changes_nothing():
    s = at_night(loyalty="app", seed=3)
    assert s.apply(Look("green")) == s
    assert GAME.is_note(Look("green")) and not GAME.is_note(Decoys(None))
    with pytest.raises(IllegalAction, match="did not deal"):
        at_night().apply(Look("green"))
    with pytest.raises(IllegalAction, match="Nobody at this table"):
        s.apply(Look("pink"))
    assert "look" not in s.legal_types() and Look("green") not in s.legal_actions()


def test_the_nights_countdown_is_kept_with_the_table_and_absent_when_unset():
    plain = Setup(players=FIVE)
    assert "countdown" not in plain.to_json() and plain.countdown == 0   # a table reads as before
    timed = Setup(players=FIVE, countdown=60)
    assert timed.to_json()["countdown"] == 60 and Setup.from_json(timed.to_json()) == timed
    for bad in (5, 601, True, "60", -1):
        with pytest.raises(InvalidInput, match="countdown"):
            Setup.from_json({**plain.to_json(), "countdown": bad})


def test_step_4_is_one_run_of_glasses_that_waits_for_the_first_card():
    s = at_night().apply(Decoys(None))
    wanted = GAME.timer(s)
    assert (wanted.run, wanted.glass, wanted.wait, wanted.seconds) == ("turn 1 step 4", 0, True, 60)
    later = s.apply(action_from_text("sand"))
    assert GAME.timer(later).run == wanted.run and GAME.timer(later).glass == 1
    assert GAME.timer(later).token != wanted.token
