"""Obelisk positions for tests: a table as the rulebook's pictures show it, built from a map, demons and obelisks.

`position()` takes the state the engine starts a game with and puts demons and Obelisks where a test wants them,
with every count that follows from that (the Dark Realm, the Supply, who still holds unplaced Obelisks, the tiles
trodden); it then round-trips the position through the game state's JSON, so a test never starts from a position
the engine would refuse to load.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.errors import IllegalAction

from companion.games.obelisk import Setup, State, map_from_text, new_game
from companion.games.obelisk.box import DEMONS_IN_BOX
from companion.games.obelisk.model import Demon, Obelisk, Stones

PLAYERS = {
    1: (("Ana", "green"),),
    2: (("Ana", "green"), ("Ben", "blue")),
    3: (("Ana", "green"), ("Ben", "blue"), ("Cora", "yellow")),
    4: (("Ana", "green"), ("Ben", "blue"), ("Cora", "yellow"), ("Dan", "black")),
}


def make_setup(map_text: str, n: int = 2, **options) -> Setup:
    return Setup(players=PLAYERS[n], map=map_from_text(map_text), **options)


def position(setup: Setup, *, phase: str = "day", demons=(), obelisks=(), realm: Stones | None = None,
             quarry: Stones | None = None, day: int = 1, tonight=(), walked=None, **changes) -> State:
    """A state of `setup` with `demons` ((colour, visited) in the order they came out, ids 1, 2 …) and `obelisks`
    on the map; the Dark Realm holds `realm` (default: the horde less the demons out)."""
    s = new_game(setup)
    out = [Demon(i + 1, colour, tuple(visited), (walked or {}).get(i + 1, 0))
           for i, (colour, visited) in enumerate(demons)]
    on_map = Stones.of(d.colour for d in out)
    captured = Stones.of(c.colour for o in obelisks for c in o.captured)
    quarry = s.quarry if quarry is None else quarry
    if realm is None:  # the demons out of the Dark Realm: on the map, on Obelisks, and Quarry stones the Supply lacks
        outside = Stones(**DEMONS_IN_BOX) - setup.horde
        captured_before = Stones(*(max(0, quarry[c] - outside[c]) for c in ("green", "yellow", "blue")))
        realm = setup.horde - on_map - captured - captured_before
    supply = Stones(**DEMONS_IN_BOX) - realm - on_map - captured - quarry
    unplaced = tuple(setup.obelisks_each - sum(o.owner == c for o in obelisks) for c in setup.colours)
    trodden = frozenset(c for d in out for c in d.visited)
    s = replace(s, phase=phase, day=day, demons=tuple(out), obelisks=tuple(sorted(obelisks, key=lambda o: o.corner)),
                realm=realm, drawn=setup.horde.total - realm.total, quarry=quarry, supply=supply, unplaced=unplaced,
                trodden=trodden, tonight=tuple(tonight), **changes)
    again = State.from_json(s.to_json())
    assert again == s
    return s


def ob(corner, owner="green", strength=1, **extra) -> Obelisk:
    return Obelisk(tuple(corner), owner, strength, **extra)


def apply_all(state: State, *actions) -> State:
    for a in actions:
        state = state.apply(a)
    return state


def refused(state: State, action, *words: str):
    """The IllegalAction `action` meets in `state`, whose sentence holds each of `words`."""
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    for w in words:
        assert w in str(info.value), str(info.value)
    return info.value
