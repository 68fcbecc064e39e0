"""The map notation, the action notations and the game state's JSON: round trips, and hostile input refused with one
InvalidInput naming the place (never another exception)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import InvalidInput
from companion.games.obelisk import (
    Build, Capture, Charge, Pay, Reinforce, Reroll, Rotate, Setup, Spawn, State, action_from_json, action_from_text,
    map_from_text, map_to_text, new_game,
)
from companion.games.obelisk.model import DIRECTIONS, KINDS, SIZE, GameMap, Tile
from companion.games.obelisk.randplay import random_game

from tests.test_hostile_input import _json_values

EXAMPLE = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS"


# ----------------------------------------------------------------- the map

def test_the_issues_example_map():
    m = map_from_text(EXAMPLE)
    assert m[(0, 0)] == Tile("P", "E") and m[(2, 4)] == Tile("M", "N") and m[(4, 3)] == Tile("C", "W")
    assert m.portal == (0, 0) and map_to_text(m) == EXAMPLE


def test_empty_spaces_and_a_forgiving_reader():
    text = "PE GE FS CW -- / GN FN FS GW FW / CE GS FE FS -- / FN FE GE CE GS / GW -- FN CW --"
    m = map_from_text(text)
    assert m[(0, 4)] is None and len([c for c in m.tiles if c is None]) == 4
    typed = "  pe ge fs cw --/gn fn fs gw fw/ce gs fe fs --/fn fe ge ce gs/gw -- fn cw --\n"
    assert map_to_text(map_from_text(typed)) == text


@pytest.mark.parametrize("text, words", [
    ("PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS", "expected 5 rows separated by /, found 4"),
    ("PE GE FS CW / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "row 1 has 4 cells"),
    ("PE GE FS CW GX / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "row 1, cell 5"),
    ("GE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "exactly one Portal"),
    ("PE PE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "this one has 2"),
    ("ＰE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "is not a tile"),
    ("x" * 500, "far too long"),
    (None, "expected the map as text"),
])
def test_bad_maps_are_named(text, words):
    with pytest.raises(InvalidInput) as info:
        map_from_text(text)
    assert words in str(info.value) and "\n" not in str(info.value)


cells = st.one_of(st.none(), st.builds(Tile, st.sampled_from(KINDS[1:]), st.sampled_from(DIRECTIONS)))


@settings(max_examples=200, deadline=None)
@given(st.lists(cells, min_size=SIZE * SIZE - 1, max_size=SIZE * SIZE - 1), st.integers(0, 24),
       st.sampled_from(DIRECTIONS))
def test_every_map_round_trips(tiles, at, facing):
    tiles.insert(at, Tile("P", facing))
    m = GameMap(tuple(tiles))
    text = map_to_text(m)
    assert map_from_text(text) == m and map_to_text(map_from_text(text)) == text


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=120) | st.from_regex(r"([PGFCM-][NESW-] ?){0,6}( ?/ ?([A-Z-]{2} ){0,6}){0,6}"))
def test_any_text_is_a_map_or_one_named_error(text):
    try:
        m = map_from_text(text)
    except InvalidInput as err:
        assert str(err).startswith("map") and "\n" not in str(err)
    else:
        assert m.portal is not None


# ----------------------------------------------------------------- actions

ACTIONS = [
    Build("blue", (0, 5)), Reinforce("green", (3, 3), Pay(green=3, blue=1)), Reinforce("black", (1, 1), Pay(die=True)),
    Rotate("yellow", (((4, 4), "N"), ((0, 1), "S"))), Capture((2, 2), 17, 3), Spawn(("green", "blue", "blue")),
    Charge("green", "broken_earth", (1, 1), Pay(blue=2), moves=(((0, 0), (1, 1)), ((1, 1), (0, 0)))),
    Charge("green", "siphon_energy", (5, 5), Pay(yellow=3), siphon=(((1, 1), 2), ((2, 2), 1))),
    Charge("blue", "longbow", (2, 5), Pay(green=4), aim="SW"), Charge("blue", "burnout", (1, 1), Pay(blue=2), boost=0),
    Reroll("green", (1, 1)), Reroll("green", (1, 1), 4),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.to_text())
def test_actions_round_trip_through_json_and_text(action):
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
    assert action_from_text(action.to_text()) == action


def test_the_text_form_reads_like_the_table():
    assert Rotate("yellow", (((4, 4), "N"), ((0, 1), "S"))).to_text() == "rotate yellow B1:S E5:N"
    assert Build("blue", (0, 5)).to_text() == "build blue F1"
    assert Reinforce("green", (3, 3), Pay(green=3, blue=1)).to_text() == "reinforce green D4 3G1B"
    assert Charge("blue", "longbow", (2, 5), Pay(green=4), aim="SW").to_text() == "charge blue longbow F3 4G aim=SW"


@pytest.mark.parametrize("bad, words", [
    ({"type": "build", "player": "red", "corner": [0, 0]}, "build.player"),
    ({"type": "build", "player": "blue", "corner": [0, 6]}, "build.corner[1]"),
    ({"type": "build", "player": "blue", "corner": [True, 0]}, "build.corner[0]"),
    ({"type": "build", "player": "blue"}, "build.corner: missing"),
    ({"type": "build", "player": "blue", "corner": [0, 0], "x": 1}, "build.x: unknown field"),
    ({"type": "reinforce", "player": "blue", "obelisk": [0, 0], "pay": {"green": 10 ** 40}}, "reinforce.pay.green"),
    ({"type": "reinforce", "player": "blue", "obelisk": [0, 0], "pay": {}}, "reinforce.pay"),
    ({"type": "rotate", "player": "blue", "tiles": [{"cell": [0, 0], "to": "UP"}]}, "rotate.tiles[0].to"),
    ({"type": "spawn", "demons": ["green"] * 8}, "spawn.demons: at most 7"),
    ({"type": "capture", "obelisk": [1, 1], "demon": 0, "step": 0}, "capture.demon"),
    ({"type": "charge", "player": "blue", "scroll": "fireball", "obelisk": [1, 1], "pay": "die"}, "charge.scroll"),
    ({"type": "nightfall", "when": "now"}, "nightfall.when: unknown field"),
])
def test_malformed_actions_name_the_field(bad, words):
    with pytest.raises(InvalidInput) as info:
        action_from_json(bad)
    assert words in str(info.value)


@pytest.mark.parametrize("text, words", [
    ("build blue Z9", "build.corner"), ("build blue", "expected 'build PLAYER CORNER'"),
    ("reinforce blue C3 5G", "not a payment"), ("capture C3 ٣ 0", "not a number"), ("dance", "not an Obelisk"),
    ("rotate blue C3", "not CELL:DIRECTION"), ("charge blue longbow C3 2B colour=red", "is not one of"),
])
def test_malformed_text_is_named(text, words):
    with pytest.raises(InvalidInput) as info:
        action_from_text(text)
    assert words in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_an_action_or_one_named_error(text):
    try:
        action = action_from_text(text)
    except InvalidInput as err:
        assert "\n" not in str(err)
    else:
        assert action_from_text(action.to_text()) == action


# ----------------------------------------------------------------- the game state as JSON

def test_the_state_json_is_documented_and_round_trips():
    setup, actions = random_game(3, 2)
    s = new_game(setup)
    for a in actions[:6]:
        s = s.apply(a)
    d = json.loads(json.dumps(s.to_json()))
    assert set(d) == {"setup", "day", "phase", "status", "map", "markers", "trodden", "obelisks", "demons", "realm",
                      "drawn", "quarry", "supply", "players", "leadership", "scrolls", "rolls", "tonight", "closed",
                      "result", "loss", "timer"}
    assert State.from_json(d) == s


STATES = []
for _seed in (1, 2, 5):
    _setup, _actions = random_game(_seed, 1 + _seed % 4, scrolls=True)
    _s = new_game(_setup)
    for _a in _actions:
        _s = _s.apply(_a)
        STATES.append(_s.to_json())


@st.composite
def mutated_states(draw):
    doc = json.loads(json.dumps(draw(st.sampled_from(STATES))))
    node = doc
    for _ in range(draw(st.integers(0, 3))):
        if isinstance(node, dict) and node:
            k = draw(st.sampled_from(sorted(node)))
            if isinstance(node[k], (dict, list)) and node[k]:
                node = node[k]
        elif isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            if isinstance(node[i], (dict, list)) and node[i]:
                node = node[i]
    if isinstance(node, dict) and node:
        node[draw(st.sampled_from(sorted(node)))] = draw(_json_values())
    elif isinstance(node, list) and node:
        node[draw(st.integers(0, len(node) - 1))] = draw(_json_values())
    return doc


@settings(max_examples=300, deadline=None)
@given(mutated_states())
def test_a_damaged_state_loads_exactly_or_is_one_named_error(doc):
    try:
        s = State.from_json(doc)
    except InvalidInput as err:
        assert "\n" not in str(err)
    else:
        assert s.to_json() == doc and s.conserved()


@settings(max_examples=200, deadline=None)
@given(_json_values())
def test_setup_and_actions_from_any_json_value(value):
    for parse in (Setup.from_json, action_from_json, State.from_json):
        try:
            parse(value)
        except InvalidInput:
            pass
