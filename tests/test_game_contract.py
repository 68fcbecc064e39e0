"""One contract suite over every game in the registry (companion/games/contract.py): whatever a shell relies on,
each game keeps. A new game is held to it by being registered (docs/adding-a-game.md).

Random legal games from each game's own random player (Game.random_game) are walked state by state:
- setup, state and every action round-trip through JSON (and actions through text);
- `apply` never changes the state it is called on;
- `legal_actions()` agrees with `apply` (each listed action applies; an action that applies is listed whenever
  its type is one the state lists; every applicable action's type is in `legal_types()`);
- replaying the actions from the setup — directly and through a log file — ends in exactly the same state;
- the end is an `Outcome` in the neutral shape, and the shells' texts (status, summary, describe) exist.
"""
from __future__ import annotations

import json
import random

import pytest

from companion.games.contract import Game, GameAction, GameState, Outcome
from companion.games.errors import IllegalAction, InvalidInput
from companion.session import games
from companion.session.logfile import read_log, write_log

GAMES = games.names()
SEEDS = range(3)


def played(game: Game, seed: int):
    rng = random.Random(seed)
    n = rng.randint(game.min_players, game.max_players)
    setup, actions = game.random_game(seed, n)
    return setup, actions


def states(game: Game, setup, actions):
    state = game.new_game(setup)
    yield state, None
    for action in actions:
        state = state.apply(action)
        yield state, action


@pytest.mark.parametrize("name", GAMES)
def test_the_game_declares_what_shells_need(name):
    game = games.get(name)
    assert isinstance(game, Game) and game.name == name and game.title
    assert 1 <= game.min_players <= game.max_players
    assert [r.id for r in game.rulings] and all(r.text for r in game.rulings)
    profile = game.profile()
    assert [e["id"] for e in profile] == [r.id for r in game.rulings]
    rules = game.default_rules()
    assert game.rules_from_json(json.loads(json.dumps(rules.to_json()))) == rules
    # Home's card, known without importing the game, says what the game says.
    assert games.card(name) == games.Card(game.title, game.min_players, game.max_players,
                                          playable=game.ui_plugin is not None)
    assert list(games.CARDS) == games.names()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_round_trips_purity_and_legal_actions(name, seed):
    game = games.get(name)
    setup, actions = played(game, seed)
    assert game.setup_from_json(json.loads(json.dumps(setup.to_json()))).to_json() == setup.to_json()
    pool = {json.dumps(a.to_json(), sort_keys=True): a for a in actions}  # moves seen in this game
    rng = random.Random(seed)
    previous = None
    for state, action in states(game, setup, actions):
        assert isinstance(state, GameState)
        snapshot = state.to_json()
        assert game.state_from_json(json.loads(json.dumps(snapshot))).to_json() == snapshot
        if action is not None:
            assert isinstance(action, GameAction)
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            assert game.action_from_text(action.to_text()) == action
            assert action.TYPE in previous.legal_types()
        types = state.legal_types()
        listed = state.legal_actions()
        listed_keys = {json.dumps(a.to_json(), sort_keys=True) for a in listed}
        assert {a.TYPE for a in listed} <= types
        for a in rng.sample(listed, min(len(listed), 12)):
            state.apply(a)  # every listed action applies
        listed_types = {a.TYPE for a in listed}
        for key, candidate in rng.sample(sorted(pool.items()), min(len(pool), 12)):
            try:
                state.apply(candidate)
            except IllegalAction:
                continue
            assert candidate.TYPE in types, candidate
            if candidate.TYPE in listed_types:
                assert key in listed_keys, f"{candidate} applies but legal_actions() does not list it"
        assert state.to_json() == snapshot  # nothing above changed the state
        previous = state
    assert game.is_over(state) and not state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_replay_is_exact_directly_and_through_a_log_file(name, seed):
    game = games.get(name)
    setup, actions = played(game, seed)
    final = None
    for final, _ in states(game, setup, actions):
        pass
    again = game.new_game(game.setup_from_json(setup.to_json()))
    for a in actions:
        again = again.apply(game.action_from_json(a.to_json()))
    assert again.to_json() == final.to_json()
    log = read_log(write_log(name, setup.to_json(), [("action", a.to_json()) for a in actions]))
    assert log.game == name and log.state.to_json() == final.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_the_end_is_a_neutral_outcome_and_the_texts_exist(name):
    game = games.get(name)
    setup, actions = played(game, 11)
    for state, _ in states(game, setup, actions):
        over = game.is_over(state)
        assert (state.outcome() is None) != over
        assert isinstance(game.status(state), str) and game.status(state)
        summary = game.summary(state)
        json.dumps(summary)
        assert set(summary) >= {"status", "turn", "active", "winners", "totals"}
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    data = outcome.to_json()
    assert set(data) >= {"players", "winners"} and data["players"]
    assert all(set(p) >= {"name", "total", "lines"} for p in data["players"])
    assert game.outcome_json(state) == data
    json.dumps(data)
    text = game.describe(state)
    assert isinstance(text, str) and text.strip()


@pytest.mark.parametrize("name", GAMES)
def test_malformed_input_is_invalid_input_naming_the_field(name):
    game = games.get(name)
    for bad in (None, [], "x", {"type": "no such move"}, {"type": 7}):
        with pytest.raises(InvalidInput):
            game.action_from_json(bad)
    for bad in (None, [], {"players": "everyone"}, {"players": [], "unknown": 1}):
        with pytest.raises(InvalidInput):
            game.setup_from_json(bad)
    with pytest.raises(InvalidInput):
        game.action_from_text("")
    with pytest.raises(InvalidInput):
        game.state_from_json({"setup": {}})


@pytest.mark.parametrize("name", [n for n in GAMES if games.get(n).has("dice_placed_at_table")])
def test_dice_placed_at_table_propose_only_moves_the_engine_accepts(name):
    """A die set by hand proposes, never plays: whatever its face, the answer is None (nothing changed), a refusal
    in a sentence, or a question with moves each of which the engine accepts, each in the players' words."""
    game = games.get(name)
    setup, actions = played(game, 5)
    proposed = 0
    for n, (state, _) in enumerate(states(game, setup, actions)):
        if n % 7:
            continue
        for role, count in game.dice_roles.items():
            for index in range(0, count, 5):
                for face in range(1, 7):
                    try:
                        found = game.dice_placed_at_table(state, role, {index: face}, None)
                    except IllegalAction as err:
                        assert str(err) and "\n" not in str(err)
                        continue
                    if found is None:
                        continue
                    question, moves = found
                    assert question.template and moves
                    for move in moves:
                        state.apply(move)
                        assert game.dice_words(state, move) is not None
                        proposed += 1
    assert proposed, "no state of a whole game where a die proposed anything"
