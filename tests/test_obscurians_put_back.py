"""With 4 players one of Keep/Take/Collect and one of Give/Select/Lose go back in the box (rulebook "Game Setup";
RULING obscurians-players). They go back unseen; when a group that looked at them tells the app which (tapped in on
the setup screen), the Setup keeps them, and the end of the game, missions_problem and the refusals agree."""
import pytest

from companion.games.errors import InvalidInput
from companion.games.obscurians.actions import RevealMissions
from companion.games.obscurians.setup import (
    TRIO_A, TRIO_B, Setup, mission_refusals, missions_problem,
)
from companion.games.obscurians.state import new_game

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))


def test_the_setup_keeps_them_and_writes_them_only_when_known():
    setup = Setup(players=PLAYERS, seed=7, put_back=("take", "lose"))
    assert setup.to_json()["put_back"] == ["take", "lose"]
    assert Setup.from_json(setup.to_json()) == setup
    assert "put_back" not in Setup(players=PLAYERS).to_json()  # older setups stay exactly as they were


@pytest.mark.parametrize("put_back, field", [
    (("take", "collect"), "one of keep/take/collect and one of give/select/lose"),
    (("take",), "one of keep/take/collect"),
    ("take", "expected a list"),
])
def test_a_put_back_that_the_rules_do_not_allow_is_refused(put_back, field):
    with pytest.raises(InvalidInput, match="put_back"):
        Setup(players=PLAYERS, put_back=put_back)


def test_only_four_players_put_cards_back():
    with pytest.raises(InvalidInput, match="only a 4-player game"):
        Setup(players=PLAYERS + (("Emil", "pink"),), put_back=("take", "lose"))


def test_the_end_refuses_and_explains_a_mission_that_was_put_back():
    state = new_game(Setup(players=PLAYERS, put_back=("take", "lose")))
    assert missions_problem(("keep", "take", "give", "select"), 4, ("take", "lose")) == \
        "Take was put back in the box at the start of the game"
    refusals = mission_refusals([None] * 4, 4, ("take", "lose"))
    assert str(refusals[0]["take"]) == "Take was put back in the box at the start of the game"
    assert refusals[0]["keep"] is None and refusals[2]["lose"] is not None
    every = {a.missions for a in _missions_phase(state).legal_actions()}
    assert all("take" not in m and "lose" not in m for m in every) and len(every) == 24


def _missions_phase(state):
    from companion.games.obscurians.randplay import random_action
    import random

    rng = random.Random(1)
    while state.phase != "missions":
        state = state.apply(random_action(state, rng))
    return state


def test_the_missions_put_back_cannot_be_revealed():
    state = _missions_phase(new_game(Setup(players=PLAYERS, put_back=("keep", "give"))))
    with pytest.raises(Exception, match="Keep was put back"):
        state.apply(RevealMissions(("keep", "take", "select", "lose")))
    assert state.apply(RevealMissions(("take", "collect", "select", "lose"))).phase == "over"
