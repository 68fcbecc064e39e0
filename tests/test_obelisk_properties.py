"""Hypothesis properties of the Obelisk engine over whole random games and arbitrary maps (issue 18 §6):
- demons are conserved: Dark Realm + map + Obelisks + Quarry + Supply = the box's 50, in every state;
- no Obelisk captures twice in a Night (Consuming Growth twice, a Lightning Rod once per charge);
- a path never visits a tile twice without reporting a loop;
- every state round-trips through its JSON, every action through JSON and text.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.obelisk import State, action_from_json, action_from_text, new_game
from companion.games.obelisk.box import DEMONS_IN_BOX
from companion.games.obelisk.model import DIRECTIONS, KINDS, SIZE, GameMap, Stones, Tile
from companion.games.obelisk.paths import walk
from companion.games.obelisk.randplay import random_game

GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw):
    seed = draw(st.integers(0, 2**31))
    options = {"realm": draw(st.sampled_from(("app", "table"))), "dice": draw(st.sampled_from(("app", "table"))),
               "scrolls": draw(st.booleans())}
    return random_game(seed, draw(st.integers(1, 4)), **options)


def played(setup, actions):
    s = new_game(setup)
    yield s, None
    for a in actions:
        before = s
        s = s.apply(a)
        yield s, before


@GAMES
@given(games())
def test_demons_are_conserved_in_every_state(game):
    setup, actions = game
    box = Stones(**DEMONS_IN_BOX)
    for s, _ in played(setup, actions):
        total = Stones()
        for place in s.census().values():
            assert min(place.green, place.yellow, place.blue) >= 0
            total = total + place
        assert total == box
        assert s.realm.total + s.drawn == setup.horde.total  # every demon out of the Dark Realm has its number


@GAMES
@given(games())
def test_no_obelisk_captures_more_than_it_may_in_one_night(game):
    setup, actions = game
    night_start: dict = {}
    for s, before in played(setup, actions):
        for o in s.obelisks:
            if o.scroll == "consuming_growth":
                most = 2
            elif o.scroll == "lightning_rod":
                most = night_start.get(o.corner, o.charges + len(o.captured))
            else:
                most = 1
            assert len(o.captured) <= most, (o, s)
            ids = [c.demon for c in o.captured]
            assert len(set(ids)) == len(ids)
        if before is not None and not before.is_night and s.is_night:
            night_start = {o.corner: o.charges for o in s.obelisks}
        caught = [c.demon for o in s.obelisks for c in o.captured]
        assert len(set(caught)) == len(caught) and not set(caught) & {d.id for d in s.demons}


@GAMES
@given(games())
def test_every_state_and_action_round_trips(game):
    setup, actions = game
    for s, _ in played(setup, actions):
        assert State.from_json(s.to_json()) == s
    for a in actions:
        assert action_from_json(a.to_json()) == a and action_from_text(a.to_text()) == a


tiles = st.one_of(st.none(), st.builds(Tile, st.sampled_from(KINDS), st.sampled_from(DIRECTIONS)))


@settings(max_examples=300, deadline=None)
@given(st.lists(tiles, min_size=SIZE * SIZE, max_size=SIZE * SIZE), st.integers(0, 24))
def test_a_path_never_visits_a_tile_twice_without_reporting_a_loop(cells, start):
    game_map = GameMap(tuple(cells))
    origin = (start // SIZE, start % SIZE)
    if game_map[origin] is None or game_map[origin].kind == "M":
        return  # a demon never stands on an empty space or a Mountain
    w = walk(game_map, (origin,))
    assert len(set(w.cells)) == len(w.cells) and w.end is not None
    assert w.steps <= SIZE * SIZE - 1
    if w.end == "loop":
        assert w.target in w.cells
    else:
        assert w.target not in w.cells
    for a, b in zip(w.cells, w.cells[1:]):  # each step follows the arrow of the tile it leaves
        dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[game_map[a].facing]
        assert b == (a[0] + dr, a[1] + dc) and game_map[b] is not None and game_map[b].kind != "M"


def test_the_random_player_sometimes_survives_several_nights():
    days = [max(s.day for s, _ in played(*random_game(seed, 1 + seed % 4))) for seed in range(30)]
    assert max(days) >= 3
