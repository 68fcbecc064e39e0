"""What the house reads from an Obscurio table besides the moves: the clock the session runs (Game.timer, the one
hourglass on the table), the lines `companion replay` prints (Game.describe), a saved position read back."""
import pytest

from companion.games.contract import GameTimer
from companion.games.errors import InvalidInput
from companion.games.obscurio import Sand
from companion.session import games
from test_obscurio_engine import TWO, accusation, doors, game, play

OBSCURIO = games.get("obscurio")


def test_the_session_runs_the_hourglass_only_in_step_4_and_in_the_accusations_minute():
    s = game()
    assert OBSCURIO.timer(s) is None  # step 1: no glass running
    s = doors(s)
    first = OBSCURIO.timer(s)
    assert isinstance(first, GameTimer) and first.name == "hourglass" and first.seconds == 60
    assert OBSCURIO.timer(s) == first  # asked again: let it run
    assert OBSCURIO.timer_action(s, "hourglass") == Sand()
    turned = s.apply(OBSCURIO.timer_action(s, "hourglass"))
    again = OBSCURIO.timer(turned)
    assert again.name == "hourglass" and again.seconds == 60 and again.token != first.token  # a fresh glass
    talk = accusation()
    minute = OBSCURIO.timer(talk)
    assert minute.name == "hourglass" and minute.token not in (first.token, again.token)
    assert OBSCURIO.timer(play(talk, "sand")) is None  # the minute is over: the vote has no glass
    finished = play(turned, "chip blue 1", "chip green 2", "chip red 3", "chip yellow 4", "done")
    assert finished.phase == "exit" and OBSCURIO.timer(finished) is None


def test_an_edited_hourglass_runs_for_its_own_seconds():
    from companion.games.obscurio import Rules

    s = doors(game(rules=Rules(hourglass=45)))
    assert OBSCURIO.timer(s).seconds == 45


def test_replay_names_the_two_player_companion_chip_and_its_tokens():
    s = play(doors(game(TWO, companion="red")), "chip blue 1", "chip red 2")
    text = OBSCURIO.describe(s)
    assert "companion red: 0 token(s), door 2" in text and "blue: 0 token(s), door 1" in text
    assert "companion blue" not in text


def test_a_saved_position_in_no_phase_of_the_game_says_what_the_phases_are():
    saved = game().to_json()
    with pytest.raises(InvalidInput) as err:
        OBSCURIO.state_from_json({**saved, "phase": "lunch"})
    assert str(err.value).startswith("phase: 'lunch' is not a phase")
