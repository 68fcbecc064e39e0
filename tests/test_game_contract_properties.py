"""The contract's promises over many random games of every registered game, as Hypothesis properties.

- `apply` refuses what is not one of its game's moves (another game's move, a JSON object, None…) with a sentence
  naming the game, and the position stays as it was: a log from another game or a garbled door never half-applies.
- Every position of any seeded game, of every kind of table the game's random player sets up, reads back from its
  JSON as the same position; every move reads back from its JSON and its text; replaying the text of the moves from
  the setup ends in the same position; and the same seed plays the same game.
- A saved position with a field missing or of the wrong kind is refused naming that field (a damaged save file or
  log says what is wrong with it).

(The round trip was a property test copied into each game's property file; here it holds every game to it, the third
included. tests/test_game_contract.py walks a few games move by move through the log file and legal_actions.)
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.games.errors import IllegalAction, InvalidInput
from companion.session import games

GAMES = games.names()


def _obscurians(seed: int, n: int, kind: int):
    from companion.games.obscurians.randplay import random_game

    # The app's deck or the real cards; the missions known at the start or only after the sandstorm.
    return random_game(seed, n, deck=("app", "physical")[kind % 2], missions_known=kind // 2 % 2 == 0)


def _obscurio(seed: int, n: int, kind: int):
    from companion.games.obscurio import Rules
    from companion.games.obscurio.constants import TRAPS
    from companion.games.obscurio.randplay import random_game

    rules = (Rules(), Rules(time_track=(0, 0, 1, 1, 3), watcher="plus2", dangerous_room="chip"),
             Rules(evanescent_track=(0, 2), watcher="locked_doors", hourglass=30),
             Rules(traps=tuple((t, 3) for t in TRAPS[:6]) + tuple((t, 1) for t in TRAPS[6:]), watcher="great_room"))
    # The app's bag or the real one; loyalty cards at the table or dealt by the app; the group's house rules.
    return random_game(seed, n, bag=("app", "physical")[kind % 2], loyalty=("table", "app")[kind // 2 % 2],
                       rules=rules[kind // 4 % len(rules)])


# The kinds of table a game's random player can set up beyond Game.random_game's own; a game not named here is
# played as Game.random_game plays it.
KINDS = {"obscurians": _obscurians, "obscurio": _obscurio}


def random_game(name: str, seed: int, n: int, kind: int):
    if name in KINDS:
        return KINDS[name](seed, n, kind)
    return games.get(name).random_game(seed, n)


@st.composite
def tables(draw):
    """(game name, seed, players, kind of table) of any registered game."""
    name = draw(st.sampled_from(GAMES))
    game = games.get(name)
    return (name, draw(st.integers(0, 2**32 - 1)), draw(st.integers(game.min_players, game.max_players)),
            draw(st.integers(0, 15)))


def positions(game, setup, actions):
    states = [game.new_game(setup)]
    for a in actions:
        states.append(states[-1].apply(a))
    return states


@settings(max_examples=40 * len(GAMES), deadline=None)  # about 40 tables of each game, as each game's own test ran
@given(tables())
def test_every_position_and_move_reads_back_and_the_same_seed_plays_the_same_game(table):
    name, seed, n, kind = table
    game = games.get(name)
    setup, actions = random_game(*table)
    states = positions(game, setup, actions)
    assert game.is_over(states[-1])
    for s in states[:: max(1, len(states) // 15)] + [states[-1]]:
        back = game.state_from_json(json.loads(json.dumps(s.to_json())))
        assert back == s
        assert back.to_json() == s.to_json()
    for a in actions:
        assert game.action_from_text(a.to_text()) == a
        assert game.action_from_json(json.loads(json.dumps(a.to_json()))) == a
    replayed = game.new_game(game.setup_from_json(json.loads(json.dumps(setup.to_json()))))
    for a in [game.action_from_text(a.to_text()) for a in actions]:
        replayed = replayed.apply(a)
    assert replayed == states[-1] and replayed.to_json() == states[-1].to_json()
    assert random_game(*table) == (setup, actions)  # seeded: the same game every time


def foreign_objects(name: str) -> list:
    """Things that are not a move of game `name`: every other game's moves, and what a garbled caller could pass."""
    out = [None, "roll", 7, {"type": "roll", "faces": ["steal"] * 5}, ("end",), object()]
    for other in GAMES:
        if other != name:
            _, actions = games.get(other).random_game(1, games.get(other).max_players)
            out += list({type(a): a for a in actions}.values())  # one move of each kind
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_move_of_another_game_or_no_move_at_all_is_refused_in_words_and_changes_nothing(name):
    game = games.get(name)
    setup, actions = game.random_game(2, game.min_players + 1)
    states = positions(game, setup, actions)
    for s in (states[0], states[len(states) // 2], states[-1]):
        before = s.to_json()
        for thing in foreign_objects(name):
            with pytest.raises(IllegalAction) as err:
                s.apply(thing)
            message = str(err.value)
            assert f"not an {game.title} action" in message, message  # it names the game it is not a move of
            assert s.to_json() == before
        assert game.state_from_json(before) == s  # nothing inside changed either


# Fields a saved position may leave out and still describe the position: Obscurians writes `hidden_discards` only
# once a chip went face down.
OPTIONAL = {"obscurians": ("hidden_discards",)}
# Objects that map a player, chip or action to a value: their entries are not fields (an entry is absent when the
# player did nothing there, or the whole map is checked at once).
MAPS = {"obscurians": ("pending",), "obscurio": ("cohesion.cards", "doors.chips", "last.charged", "accusation.votes"),
        "obelisk": ("realm", "quarry", "supply")}


def field_paths(d: dict, prefix: str = "", maps=()):
    """Dotted paths of every field of a saved position, nested objects included, map entries left out."""
    for key, value in d.items():
        yield prefix + key
        if isinstance(value, dict) and prefix + key not in maps:
            yield from field_paths(value, f"{prefix}{key}.", maps)


def changed(d: dict, path: str, value=None, *, remove: bool = False) -> dict:
    """A copy of saved position `d` with the field at `path` set to `value`, or removed."""
    d = json.loads(json.dumps(d))
    node = d
    *parents, last = path.split(".")
    for part in parents:
        node = node[part]
    if remove:
        del node[last]
    else:
        node[last] = value
    return d


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", [0, 3])
def test_a_saved_position_with_a_field_missing_or_wrong_is_refused_naming_the_field(name, kind):
    """A damaged save file or log says which field is missing or wrong; the setup inside has its own parser and
    defaults, held by the notation tests."""
    game = games.get(name)
    setup, actions = random_game(name, 5 + kind, game.max_players, kind)
    states = positions(game, setup, actions)
    for s in (states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1]):
        saved = s.to_json()
        for path in field_paths(saved, maps=MAPS.get(name, ())):
            if path.startswith("setup."):
                continue
            try:
                game.state_from_json(changed(saved, path, remove=True))
            except InvalidInput as err:
                assert str(err).startswith(f"{path}:"), (path, str(err))
            else:
                assert path in OPTIONAL.get(name, ()), f"{path} left out was read as a position"
            # A value of the wrong kind is named too (the entry, for one element of a list).
            for wrong in ("?", [None]):
                with pytest.raises(InvalidInput) as err:
                    game.state_from_json(changed(saved, path, wrong))
                assert str(err.value).startswith((f"{path}:", f"{path}[")), (path, wrong, str(err.value))
