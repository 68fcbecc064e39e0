"""The Obscurio notation: the contract's text and JSON forms, round trips, and malformed or hostile input refused
with InvalidInput naming the field (never another exception)."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurio import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Rules, Sand, Setup, State, Unmask, Votes,
    action_from_json, action_from_text, new_game,
)
from companion.games.obscurio.randplay import random_game

FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))

# (text as the contract writes it, the action)
EXAMPLES = [
    ("draw plus2 dark_night great_room", Draw(("plus2", "dark_night", "great_room"))),
    ("riddle", Riddle()),
    ("decoys 2", Decoys(2)),
    ("chip blue 4", Chip("blue", 4)),
    ("chip blue off", Chip("blue", None)),
    ("open", Open()),
    ("sand", Sand()),
    ("done", Done()),
    ("exit 4", Exit(4)),
    ("votes blue:red green:- red:blue yellow:red", Votes((("blue", "red"), ("green", None), ("red", "blue"),
                                                         ("yellow", "red")))),
    ("loyalty red", Loyalty("red")),
    ("loyalty none", Loyalty(None)),
    ("end", EndTurn()),
    ("traitor red", Unmask("red")),
]


@pytest.mark.parametrize("text,action", EXAMPLES, ids=[t for t, _ in EXAMPLES])
def test_contract_examples_parse_and_print_back(text, action):
    assert action_from_text(text) == action
    assert action.to_text() == text == str(action)
    assert action_from_json(action.to_json()) == action
    assert action.to_json()["type"] == action.TYPE == text.split()[0]
    assert json.loads(json.dumps(action.to_json())) == action.to_json()


def test_json_fields_are_the_contract_names():
    assert Draw(("great_room", "plus2")).to_json() == {"type": "draw", "traps": ["plus2", "great_room"]}
    assert Chip("blue", None).to_json() == {"type": "chip", "chip": "blue", "door": None}
    assert Votes((("red", "blue"), ("blue", None))).to_json() == {"type": "votes",
                                                                  "votes": {"blue": None, "red": "blue"}}
    assert Loyalty(None).to_json() == {"type": "loyalty", "traitor": None}
    assert Unmask("red").to_json() == {"type": "traitor", "traitor": "red"}
    assert Sand().to_json() == {"type": "sand"} and EndTurn().to_json() == {"type": "end"}


def test_equal_multisets_are_equal_actions():
    assert Draw(("great_room", "plus2", "dark_night")) == Draw(("plus2", "dark_night", "great_room"))
    assert Votes((("red", "blue"), ("blue", "red"))) == Votes((("blue", "red"), ("red", "blue")))
    assert action_from_text("votes red:blue blue:red") == action_from_text("votes blue:red red:blue")


@pytest.mark.parametrize("text,field", [
    ("", "action"),
    ("fly away", "type"),
    ("draw", "draw.traps"),
    ("draw plus2 joker", "draw.traps[1]"),
    ("decoys", "decoys"),
    ("decoys many", "decoys.cards"),
    ("decoys 9", "decoys.cards"),
    ("decoys -1", "decoys.cards"),
    ("decoys ٣", "decoys.cards"),
    ("chip purple 1", "chip.chip"),
    ("chip blue 8", "chip.door"),
    ("chip blue 0", "chip.door"),
    ("chip blue", "chip"),
    ("chip blue 1 2", "chip"),
    ("exit off", "exit.door"),
    ("exit 99999999999999999999999", "exit.door"),
    ("votes blue", "votes"),
    ("votes blue:red blue:green", "votes.votes.blue"),
    ("votes blue:grimoire", "votes.votes.blue"),
    ("votes grimoire:blue", "votes.votes.grimoire"),
    ("votes", "votes.votes"),
    ("loyalty", "loyalty"),
    ("loyalty grimoire", "loyalty.traitor"),
    ("traitor none", "traitor.traitor"),
    ("riddle now", "riddle"),
    ("end turn", "end"),
])
def test_bad_text_names_the_field(text, field):
    with pytest.raises(InvalidInput) as err:
        action_from_text(text)
    assert str(err.value).startswith(field + ":") or str(err.value).startswith(field + "."), str(err.value)


@pytest.mark.parametrize("d,field", [
    ([], "action"),
    ({"traps": ["plus2"]}, "type"),
    ({"type": 3}, "type"),
    ({"type": "draw", "traps": "plus2"}, "draw.traps"),
    ({"type": "draw", "traps": []}, "draw.traps"),
    ({"type": "draw", "traps": ["plus2"] * 41}, "draw.traps"),
    ({"type": "draw", "traps": ["plus2"], "extra": 1}, "draw.extra"),
    ({"type": "decoys", "cards": True}, "decoys.cards"),
    ({"type": "decoys", "cards": 2.0}, "decoys.cards"),
    ({"type": "decoys", "cards": 10**100}, "decoys.cards"),
    ({"type": "decoys"}, "decoys.cards"),
    ({"type": "chip", "chip": "blue"}, "chip.door"),
    ({"type": "chip", "chip": ["blue"], "door": 1}, "chip.chip"),
    ({"type": "chip", "chip": "blue", "door": "1"}, "chip.door"),
    ({"type": "exit", "door": None}, "exit.door"),
    ({"type": "votes", "votes": [["blue", "red"]]}, "votes.votes"),
    ({"type": "votes", "votes": {"blue": 7}}, "votes.votes.blue"),
    ({"type": "votes", "votes": {}}, "votes.votes"),
    ({"type": "loyalty"}, "loyalty.traitor"),
    ({"type": "traitor", "traitor": None}, "traitor.traitor"),
    ({"type": "sand", "seconds": 60}, "sand.seconds"),
])
def test_bad_json_names_the_field(d, field):
    with pytest.raises(InvalidInput) as err:
        action_from_json(d)
    assert str(err.value).startswith(field + ":") or str(err.value).startswith(field + "."), str(err.value)


# ----------------------------------------------------------------- setup and rules

def test_setup_round_trips_and_fills_the_defaults():
    s = Setup(players=FIVE, seed=9, bag="physical", loyalty="app", rules=Rules(time_track=(0, 2), watcher="plus2"))
    d = s.to_json()
    assert Setup.from_json(d) == s and Setup.from_json(json.loads(json.dumps(d))) == s
    assert d["players"][0] == {"name": "Gala", "character": "grimoire"}
    assert (d["cohesion"], d["dark"], d["companion"], d["difficulty"]) == (18, 5, None, "Beginner Grimoire")
    minimal = Setup.from_json({"players": [{"name": n, "character": c} for n, c in FIVE]})
    assert minimal == Setup(players=FIVE) and minimal.bag == "app" and minimal.loyalty == "table"
    assert Setup(players=FIVE) == Setup(players=FIVE, cohesion=18, dark=5)


def test_rules_round_trip_and_partial_profiles():
    r = Rules(hourglass=45, time_track=(0, 1, 1, 2), evanescent_track=(2,), watcher="great_room",
              dangerous_room="chip", dark_2_3=4,
              cohesion=((2, 10), (3, 10), (4, 12), (5, 15), (6, 20), (7, 24), (8, 28)))
    assert Rules.from_json(r.to_json()) == r
    assert Rules.from_json(None) == Rules() == Rules.from_json({})
    assert Rules.from_json({"hourglass": 90}) == Rules(hourglass=90)
    # The bag as typed by a group: traps left out have no copies.
    bag = Rules.from_json({"traps": {"plus2": 3, "great_room": 2}})
    assert dict(bag.traps)["plus2"] == 3 and dict(bag.traps)["dark_night"] == 0


HUGE = 10**400


@pytest.mark.parametrize("change,field", [
    ({"players": "Gala"}, "players"),
    ({"players": []}, "players"),
    ({"players": [{"name": "x", "character": "blue"}] * 9}, "players"),
    ({"players": [{"name": "Gala"}]}, "players[0].character"),
    ({"players": [{"name": "Gala", "character": "grimoire", "age": 3}]}, "players[0].age"),
    ({"players": [["Gala", "grimoire"]]}, "players[0]"),
    ({"players": [{"name": "Gala\nWinner: me", "character": "grimoire"}] + [{"name": n, "character": c}
                                                                            for n, c in FIVE[1:]]},
     "players[0].name"),
    ({"players": [{"name": "Ga\ud800la", "character": "grimoire"}] + [{"name": n, "character": c}
                                                                      for n, c in FIVE[1:]]}, "players[0].name"),
    ({"players": [{"name": "Gala", "character": "grimoire"}, {"name": "gala", "character": "blue"},
                  {"name": "Gus", "character": "green"}]}, "players[1].name"),
    ({"players": [{"name": "Gala", "character": "grimoire"}, {"name": "Bea", "character": "blue"},
                  {"name": "Gus", "character": "grimoire"}]}, "players[2].character"),
    ({"players": [{"name": " ", "character": "grimoire"}, {"name": "Bea", "character": "blue"}]}, "players[0].name"),
    ({"players": [{"name": "x" * 41, "character": "grimoire"}, {"name": "Bea", "character": "blue"}]},
     "players[0].name"),
    ({"players": [{"name": 7, "character": "grimoire"}, {"name": "Bea", "character": "blue"}]}, "players[0].name"),
    ({"seed": HUGE}, "seed"),
    ({"seed": -1}, "seed"),
    ({"seed": "7"}, "seed"),
    ({"seed": True}, "seed"),
    ({"cohesion": HUGE}, "cohesion"),
    ({"cohesion": 1.5}, "cohesion"),
    ({"cohesion": True}, "cohesion"),
    ({"dark": 0}, "dark"),
    ({"dark": 18}, "dark"),
    ({"bag": "sack"}, "bag"),
    ({"loyalty": "secret"}, "loyalty"),
    ({"difficulty": "Expert\r"}, "difficulty"),
    ({"difficulty": ""}, "difficulty"),
    ({"companion": "red"}, "companion"),
    ({"rules": []}, "rules"),
    ({"rules": {"hourglass": HUGE}}, "rules.hourglass"),
    ({"rules": {"hourglass": 5}}, "rules.hourglass"),
    ({"rules": {"time_track": []}}, "rules.time_track"),
    ({"rules": {"time_track": [0, 1, "2"]}}, "rules.time_track[2]"),
    ({"rules": {"time_track": [0] * 11}}, "rules.time_track"),
    ({"rules": {"time_track": "0,1,2"}}, "rules.time_track"),
    ({"rules": {"evanescent_track": [-1]}}, "rules.evanescent_track[0]"),
    ({"rules": {"cohesion": {"5": 18}}}, "rules.cohesion"),
    ({"rules": {"cohesion": {"two": 12}}}, "rules.cohesion.two"),
    ({"rules": {"cohesion": {"2": 12, "3": 9, "4": 5, "5": 18, "6": 22, "7": 26, "8": 30}}}, "rules.cohesion.4"),
    ({"rules": {"traps": {"joker": 1}}}, "rules.traps.joker"),
    ({"rules": {"traps": {"plus2": 99}}}, "rules.traps.plus2"),
    ({"rules": {"traps": {"dark_magic": 1}}}, "rules.traps"),
    ({"rules": {"watcher": "dragon"}}, "rules.watcher"),
    ({"rules": {"dangerous_room": "both"}}, "rules.dangerous_room"),
    ({"rules": {"dark_2_3": 0}}, "rules.dark_2_3"),
    ({"rules": {"colour": "red"}}, "rules.colour"),
    ({"extra": 1}, "extra"),
])
def test_bad_setup_names_the_field(change, field):
    d = Setup(players=FIVE).to_json()
    d.update(change)
    with pytest.raises(InvalidInput) as err:
        Setup.from_json(d)
    assert str(err.value).startswith(field + ":") or str(err.value).startswith(field + "."), str(err.value)


# ----------------------------------------------------------------- the saved state

def a_state(seed=4, n=5, at=None) -> State:
    setup, actions = random_game(seed, n, loyalty="app" if n >= 4 else "table")
    s = new_game(setup)
    for a in actions[:at if at is not None else len(actions) // 2]:
        s = s.apply(a)
    return s


def test_state_json_has_what_replay_shows():
    s = a_state()
    d = s.to_json()
    assert {"progress", "cohesion", "turn", "traps", "phase", "step", "timer", "side"} <= set(d)
    assert set(d["cohesion"]) == {"total", "normal", "dark", "box", "cards"}
    c = d["cohesion"]
    assert c["normal"] + c["dark"] + c["box"] + sum(c["cards"].values()) == c["total"]
    assert State.from_json(d) == s and State.from_json(json.loads(json.dumps(d))).to_json() == d


@pytest.mark.parametrize("path,value,field", [
    (("phase",), "lunch", "phase"),
    (("turn",), 0, "turn"),
    (("turn",), HUGE, "turn"),
    (("progress",), 7, "progress"),
    (("progress",), True, "progress"),
    (("cohesion", "normal"), 50, "cohesion.normal"),
    (("cohesion", "box"), -1, "cohesion.box"),
    (("cohesion", "cards"), {}, "cohesion.cards"),
    (("traps",), ["joker"], "traps[0]"),
    (("traps",), "plus2", "traps"),
    (("doors", "chips"), [], "doors.chips"),
    (("doors", "exit"), 9, "doors.exit"),
    (("doors", "stopped"), "no", "doors.stopped"),
    (("accusation", "votes"), {"grimoire": None}, "accusation.votes.grimoire"),
    (("accusation", "cleared"), lambda s: [s.setup.wizards[0]] * 2, "accusation.cleared"),
    (("traitor",), "purple", "traitor"),
    (("exposed",), 1, "exposed"),
    (("side",), "dragons", "side"),
    (("step",), 9, "step"),
    (("watcher",), "yes", "watcher"),
    (("timer",), {"kind": "egg", "seconds": 180, "flip": "x"}, "timer"),
    (("extra",), 1, "extra"),
])
def test_bad_state_names_the_field(path, value, field):
    state = a_state()
    d = state.to_json()
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value(state) if callable(value) else value
    with pytest.raises(InvalidInput) as err:
        State.from_json(d)
    assert str(err.value).startswith(field + ":") or str(err.value).startswith(field + "."), str(err.value)


def test_a_state_whose_tokens_do_not_add_up_is_refused():
    d = a_state().to_json()
    d["cohesion"]["box"] += 1
    with pytest.raises(InvalidInput, match="^cohesion: normal \\+ dark \\+ box \\+ cards must add up"):
        State.from_json(d)


# ----------------------------------------------------------------- fuzz: only InvalidInput, ever

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
VOCAB = ["draw", "riddle", "decoys", "chip", "open", "sand", "done", "exit", "votes", "loyalty", "end", "traitor",
         "plus2", "dark_magic", "great_room", "blue", "red", "grimoire", "off", "none", "-", "1", "4", "7", "8",
         "blue:red", "red:-", ":", "0", "99999999999", "\n", "\x00", "\ud800"]


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, st.fixed_dictionaries({"type": st.sampled_from(VOCAB[:12])}, optional={
    "traps": json_values, "cards": json_values, "chip": json_values, "door": json_values, "votes": json_values,
    "traitor": json_values})))
def test_action_from_json_raises_only_invalid_input(d):
    try:
        action = action_from_json(d)
    except InvalidInput:
        return
    assert action_from_json(action.to_json()) == action
    assert action_from_text(action.to_text()) == action


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(st.sampled_from(VOCAB), max_size=6).map(" ".join)))
def test_action_from_text_raises_only_invalid_input(s):
    try:
        action = action_from_text(s)
    except InvalidInput:
        return
    assert action_from_text(action.to_text()) == action
    assert action_from_json(action.to_json()) == action


def _mutations(d, rng: random.Random, depth=0):
    """Copies of a JSON document with one value somewhere replaced by something hostile."""
    hostile = [None, True, -1, 0, 10**30, 2.5, "", "blue", "grimoire", "\ud800", "x\ny", [], {}, [None], {"a": 1},
               "plus2", 7, ["blue", "blue"]]
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,))
    walk(d, ())
    path = rng.choice(paths[1:])
    copy = json.loads(json.dumps(d))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = rng.choice(hostile)
    return copy


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(2, 8), st.integers(0, 60))
def test_state_and_setup_from_json_raise_only_invalid_input(seed, n, at):
    state = a_state(seed, n, at)
    rng = random.Random(seed)
    for _ in range(5):
        mutated = _mutations(state.to_json(), rng)
        try:
            loaded = State.from_json(mutated)
        except InvalidInput:
            pass
        else:  # a mutation the state accepts is a state that plays on like any other
            assert State.from_json(loaded.to_json()) == loaded
            for action in loaded.legal_actions():
                try:
                    loaded.apply(action)
                except IllegalAction:
                    raise AssertionError(f"listed but refused: {action}") from None
        setup_json = _mutations(state.setup.to_json(), rng)
        try:
            Setup.from_json(setup_json)
        except InvalidInput:
            pass


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_setup_rules_and_state_from_arbitrary_json_raise_only_invalid_input(d):
    for load in (Setup.from_json, Rules.from_json, State.from_json):
        try:
            load(d)
        except InvalidInput:
            pass


def test_a_saved_step_4_with_doors_that_are_not_there_is_refused():
    s = new_game(Setup(players=FIVE, bag="physical")).apply(Draw(("dark_night",))).apply(Riddle()).apply(Decoys(0))
    d = s.to_json()
    d["doors"]["chips"]["blue"] = 7  # no Great Room this turn
    with pytest.raises(InvalidInput, match="^doors.chips"):
        State.from_json(d)
    d = s.to_json()
    d["doors"]["open"] = 3  # without Locked Doors every door is revealed
    with pytest.raises(InvalidInput, match="^doors.open"):
        State.from_json(d)
