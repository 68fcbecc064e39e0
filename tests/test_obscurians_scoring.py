"""Final scoring of Obscurians: rulebook examples, RULINGS (obscurians-chip, -masters, -take-cap, -collect, -give,
-select, -lose, -winner), END.json validation, the `companion score` command and BG Stats export."""
from __future__ import annotations

import argparse
import itertools
import json
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.errors import InvalidInput
from companion.games.obscurians.bgstats import to_bgstats
from companion.games.obscurians.constants import COLOURS, MISSIONS
from companion.games.obscurians.model import Chip, EndOfGame, EndPlayer
from companion.games.obscurians.rules import Rules
from companion.games.obscurians.end_json import parse_end
from companion.games.obscurians.scoring import collect_best, render, score, score_table, totals
from companion.games.obscurians.scoring import player as seat
from cli_helpers import companion

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# Filler seats for single-mission tests: missions and colours chosen not to clash with the player under test.
FILLER = [("Fil", "give"), ("Gus", "select"), ("Hal", "lose"), ("Ivy", "keep"), ("Jo", "take"), ("Kim", "collect")]


def player(mission, goods=None, colour="green", lamp=False, artifact=False, name="Pat"):
    return EndPlayer(name, colour, mission, tuple(sorted((goods or {}).items())), lamp, artifact)


def table(p: EndPlayer, chips=(), n=4) -> EndOfGame:
    """`p` plus filler players (distinct colours and missions) to make an n-player table."""
    colours = [c for c in COLOURS[:6] if c != p.colour]
    fill = [(name, m) for name, m in FILLER if m != p.mission]
    others = [EndPlayer(name, colours[i], m, ()) for i, (name, m) in enumerate(fill[: n - 1])]
    return EndOfGame((p, *others), tuple(Chip(*c) for c in chips))


def mission_line(p: EndPlayer, rules=Rules(), chips=()):
    line = seat(score(table(p, chips), rules), p.colour).lines[0]
    assert line.key.startswith("mission.")
    return line


def load(name):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


# --- rulebook scoring examples (Mission Overview) ---------------------------------------------------------------
def test_keep_rulebook_example():
    line = mission_line(player("keep", {"green": 6}))
    assert (line.points, line.rule) == (42, "Keep: 6 green goods × 7")


def test_keep_counts_only_own_colour_and_singular():
    line = mission_line(player("keep", {"green": 1, "red": 5}))
    assert (line.points, line.rule) == (7, "Keep: 1 green good × 7")


def test_take_rulebook_example():
    line = mission_line(player("take", {"orange": 5, "blue": 3, "red": 2, "green": 1, "yellow": 4}, colour="yellow"))
    assert line.points == 25 + 9 + 4 + 1 == 39
    assert line.rule == "Take: 25 (5 orange) + 9 (3 blue) + 4 (2 red) + 1 (1 green)"


def test_collect_rulebook_example():
    line = mission_line(player("collect", {"red": 3, "orange": 3, "yellow": 3, "green": 2, "blue": 1}, "orange"))
    assert line.points == 22 + 14 + 8 == 44
    assert line.rule == "Collect: 22 (set of 5 colours) + 14 (set of 4 colours) + 8 (set of 3 colours)"


def test_give_rulebook_example():
    line = mission_line(player("give", {"blue": 4, "red": 3}, "blue"))
    assert (line.points, line.rule) == (70 - 35, "Give: 70 − 7 goods × 5")


def test_select_rulebook_example():
    line = mission_line(player("select", {"blue": 1, "yellow": 1, "red": 1, "green": 2}, "pink"))
    assert line.points == 3 * 15 + 5 == 50
    assert line.rule == "Select: 3 × 15 (colours held once) + 5 (1 colour held twice)"


def test_lose_rulebook_example():
    line = mission_line(player("lose", {"red": 2, "blue": 2, "green": 2}, "red"))
    assert (line.points, line.rule) == (55, "Lose: 75 − 20 (exactly 6 goods)")


def test_control_rulebook_example():
    p = player("control", {"turquoise": 9}, "turquoise", lamp=True)
    result = score(table(p, n=7))
    assert seat(result, "turquoise").lines[0].points == 42
    assert seat(result, "turquoise").lines[0].rule == "Control: 42"


def test_janes_stack_example():
    # Jane (pink, select): green wrong, blue 1st correct +10, yellow wrong, green 2nd correct +5.
    jane = player("select", {}, "pink", name="Jane")
    end = EndOfGame((jane, player("keep", {}, "green", name="G"), player("take", {}, "blue", name="B"),
                     player("give", {}, "yellow", name="Y")),
                    (Chip("green", "pink", "take"), Chip("blue", "pink", "select"), Chip("yellow", "pink", "keep"),
                     Chip("green", "pink", "select")))
    r = score(end)
    blue_chip = [ln for ln in seat(r, "blue").lines if ln.key == "chip"]
    green_chip = [ln for ln in seat(r, "green").lines if ln.key == "chip"]
    assert [(ln.points, ln.rule) for ln in blue_chip] == [(10, "Suspicion on pink (chip 2 of 4, 1st correct)")]
    assert [(ln.points, ln.rule) for ln in green_chip] == [(5, "Suspicion on pink (chip 4 of 4, 2nd correct)")]
    assert seat(r, "yellow").points("chip") == 0
    assert seat(r, "pink").points("master.disguise") == 0


# --- chips and masters (RULING obscurians-chip, obscurians-masters) ----------------------------------------------
def seven():
    """red keep, orange take, yellow collect, green give, blue select, pink lose, turquoise control."""
    return EndOfGame(tuple(player(m, {}, c, name=c.title()) for c, m in zip(COLOURS, MISSIONS)), ())


def with_chips(end, chips):
    return EndOfGame(end.players, tuple(Chip(*c) for c in chips))


def test_chip_points_10_5_2_then_0():
    end = with_chips(seven(), [("red", "blue", "select"), ("orange", "blue", "select"), ("yellow", "blue", "select"),
                               ("green", "blue", "select"), ("pink", "blue", "select")])   # blue's mission: select
    r = score(end)
    assert [seat(r, c).points("chip") for c in ("red", "orange", "yellow", "green", "pink")] == [10, 5, 2, 0, 0]
    assert seat(r, "yellow").lines[1].rule == "Suspicion on blue (chip 3 of 5, 3rd correct)"
    assert not [ln for ln in seat(r, "green").lines if ln.key == "chip"]   # 4th correct: no line


def test_stacks_are_per_target_and_wrong_chips_score_nothing():
    end = with_chips(seven(), [("red", "blue", "keep"), ("orange", "green", "give"), ("red", "green", "give"),
                               ("yellow", "blue", "select")])
    r = score(end)
    assert seat(r, "red").points("chip") == 5        # wrong on blue, 2nd correct on green
    assert seat(r, "orange").points("chip") == 10
    assert seat(r, "yellow").points("chip") == 10    # first correct on blue (red's chip was wrong)


def test_master_of_unmasking_needs_a_correct_chip_on_every_other_player():
    base = seven()
    missions = {p.colour: p.mission for p in base.players}
    chips = [("red", c, missions[c]) for c in COLOURS if c != "red"]
    r = score(with_chips(base, chips))
    assert seat(r, "red").points("master.unmasking") == 8
    # one target with only a wrong chip: no Master of Unmasking (extra tactical chips do not hurt otherwise)
    chips[2] = ("red", chips[2][1], "control" if chips[2][2] != "control" else "keep")
    r = score(with_chips(base, chips))
    assert seat(r, "red").points("master.unmasking") == 0


def test_master_of_disguise_and_both_for_lose_player():
    # 4 players; lose (red) unmasks everyone and nobody unmasks red: both masters.
    end = EndOfGame((player("lose", {}, "red", name="R"), player("keep", {}, "green", name="G"),
                     player("take", {}, "blue", name="B"), player("give", {}, "yellow", name="Y")),
                    (Chip("red", "green", "keep"), Chip("red", "blue", "take"), Chip("red", "yellow", "give"),
                     Chip("green", "red", "keep")))
    r = score(end)
    assert seat(r, "red").points("master") == 16
    assert {ln.rule for ln in seat(r, "red").lines} >= {"Master of Unmasking", "Master of Disguise"}
    assert seat(r, "green").points("master.disguise") == 0   # red's correct chip is on green
    assert seat(r, "green").points("master.unmasking") == 0


def test_lamp_and_artifact():
    r = score(table(player("control", {}, "turquoise", lamp=True), n=7))
    assert seat(r, "turquoise").lines[-1].rule == "Magic lamp" and seat(r, "turquoise").points("lamp") == 5
    r = score(table(player("keep", {"green": 2}, artifact=True)))
    assert seat(r, "green").points("artifact") == -5
    assert seat(r, "green").total == 14 + 8 - 5


# --- missions: edge cases -----------------------------------------------------------------------------------------
def test_take_cap_ruling_and_n_squared_alternative():
    p = player("take", {"red": 7, "blue": 6, "orange": 5, "green": 9}, "green")
    capped = mission_line(p)
    assert capped.points == 25 + 25 + 25
    assert capped.rule == "Take: 25 (7 red, 6 or more score 25) + 25 (6 blue, 6 or more score 25) + 25 (5 orange)"
    assert mission_line(p, Rules(take_cap=False)).points == 49 + 36 + 25
    assert mission_line(player("take", {"green": 4}), Rules()).rule == "Take: no goods of a foreign colour"


def test_take_ignores_lamp_and_artifact():
    assert mission_line(player("take", {"red": 1}, lamp=True, artifact=True)).points == 1


def test_give_counts_lamp_and_artifact_and_goes_negative():
    assert mission_line(player("give", {"red": 5}, lamp=True, artifact=True)).points == 70 - 35
    assert mission_line(player("give", {"red": 10, "blue": 7})).points == 70 - 85
    assert mission_line(player("give", {})).rule == "Give: 70 − 0 goods × 5"
    assert mission_line(player("give", {}, lamp=True)).rule == "Give: 70 − 1 good × 5"


def test_select_at_most_four_singles_and_ignores_three_or_more():
    line = mission_line(player("select", {"red": 1, "blue": 1, "orange": 1, "yellow": 1, "green": 1, "pink": 3}))
    assert line.points == 60
    assert line.rule == "Select: 4 × 15 (5 colours held once, at most 4 count)"
    assert mission_line(player("select", {"red": 2, "blue": 2}, lamp=True)).points == 10
    assert mission_line(player("select", {"red": 3})).rule == "Select: no colour held exactly once or twice"


@pytest.mark.parametrize("goods, lamp, artifact, points", [
    ({"red": 1, "blue": 1, "green": 1, "yellow": 3}, False, False, 55),        # exactly 6 goods only
    ({"red": 1, "blue": 1, "green": 1}, True, False, 55),                       # 4 goods with the lamp
    ({"red": 1, "blue": 1, "green": 1, "yellow": 1}, True, True, 55),            # 4 coloured + lamp + artifact = 6
    ({"red": 1, "blue": 1, "green": 1, "yellow": 4}, False, False, 75),        # 7 goods, 4 colours: none met
    ({"red": 3}, False, False, 55),                                             # 1 colour, 3 goods
    ({}, False, False, 55),                                                     # zero coloured goods counts
    ({}, True, True, 55),                                                       # lamp/artifact have no colour
    ({"red": 3, "blue": 2}, False, False, 35),                                  # 5 goods and 2 colours
])
def test_lose_conditions_goods(goods, lamp, artifact, points):
    assert mission_line(player("lose", goods, "red", lamp, artifact)).points == points


def test_lose_text_for_each_condition():
    assert mission_line(player("lose", {}, "red")).rule == "Lose: 75 − 20 (no coloured goods)"
    assert mission_line(player("lose", {"red": 2, "blue": 3}, "red")).rule == \
        "Lose: 75 − 20 (exactly 5 goods) − 20 (goods of only 2 colours)"
    assert mission_line(player("lose", {"red": 1, "blue": 1, "pink": 1}, "red")).rule == "Lose: 75"


def test_lose_condition_chips_all_wrong_on_every_other_player():
    lose = player("lose", {"red": 1, "blue": 1, "pink": 1}, "red", name="L")
    others = (player("keep", {}, "green", name="G"), player("take", {}, "blue", name="B"),
              player("give", {}, "yellow", name="Y"))
    def line(chips):
        return seat(score(EndOfGame((lose, *others), tuple(Chip(*c) for c in chips))), "red").lines[0]
    all_wrong = [("red", "green", "take"), ("red", "blue", "give"), ("red", "yellow", "keep")]
    assert line(all_wrong).points == 55
    assert line(all_wrong).rule == "Lose: 75 − 20 (every own suspicion chip wrong)"
    assert line(all_wrong[:2]).points == 75                                    # one player without a chip
    assert line(all_wrong + [("red", "green", "keep")]).points == 75           # one correct chip
    assert line([]).points == 75


# --- Collect: exact best partition (RULING obscurians-collect) ---------------------------------------------------
SET_POINTS = {3: 8, 4: 14, 5: 22}


def greedy_largest_set(counts):
    """The tempting wrong method: always form the largest set possible from the colours with most goods."""
    c, pts = sorted((x for x in counts if x), reverse=True), 0
    while len(c) >= 3:
        s = min(5, len(c))
        pts += SET_POINTS[s]
        c = sorted([x for x in [x - 1 for x in c[:s]] + c[s:] if x], reverse=True)
    return pts


@lru_cache(maxsize=None)
def brute_collect(counts: tuple[int, ...]) -> int:
    """Slow and obviously right: try every set of 3-5 distinct colours as the next set, no pruning, no caps."""
    best = 0
    idx = [i for i, x in enumerate(counts) if x]
    for s in (3, 4, 5):
        for chosen in itertools.combinations(idx, s):
            rest = list(counts)
            for i in chosen:
                rest[i] -= 1
            best = max(best, SET_POINTS[s] + brute_collect(tuple(rest)))
    return best


@pytest.mark.parametrize("counts, best, greedy", [
    ((2, 2, 1, 1), 16, 14),          # two 3-sets beat a 4-set (found by brute force: smallest such case)
    ((3, 3, 1, 1, 1), 24, 22),       # three 3-sets beat a 5-set
    ((3, 3, 2, 1), 24, 22),          # 3 × 8 beat 14 + 8
])
def test_collect_beats_greedy_by_largest_set(counts, best, greedy):
    assert brute_collect(counts) == best
    assert greedy_largest_set(counts) == greedy < best
    assert collect_best(counts)[0] == best
    line = mission_line(player("collect", dict(zip(COLOURS, counts)), "turquoise"))
    assert line.points == best


def test_collect_text_groups_sets_and_ignores_lamp():
    line = mission_line(player("collect", {"red": 2, "orange": 2, "yellow": 1, "green": 1}, lamp=True))
    assert line.rule == "Collect: 2 × 8 (sets of 3 colours)" and line.points == 16
    assert mission_line(player("collect", {"red": 9, "blue": 9})).rule == "Collect: no set of 3 or more colours"


def test_collect_large_counts_are_exact_and_fast():
    assert collect_best((10,) * 7) == (308, (0, 0, 14))
    assert collect_best((10, 10, 1, 1, 1)) == (3 * 8, (3, 0, 0))   # not 22 (one 5-set): 3 singles → 3 sets
    for counts in itertools.product(range(0, 4), repeat=6):
        assert collect_best(counts)[0] == brute_collect(tuple(sorted(counts)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=7))
def test_property_collect_equals_brute_force(counts):
    assert collect_best(counts)[0] == brute_collect(tuple(sorted(counts)))


# --- winners (RULING obscurians-winner) -----------------------------------------------------------------------------
def fake_scores(rows):
    from companion.games.obscurians.scoring import line, seat_result, winners
    return winners([seat_result(c, c, m, (line("mission.control", {}, t),)) for c, m, t in rows])


def test_winner_highest_non_lose_and_ties_share():
    assert fake_scores([("red", "keep", 50), ("blue", "take", 60), ("green", "lose", 70), ("pink", "give", 60)]) \
        == ("blue", "pink")
    assert fake_scores([("red", "keep", 50), ("blue", "take", 61), ("green", "lose", 70), ("pink", "give", 60)]) \
        == ("blue",)


def test_lose_wins_alone_only_when_strictly_lowest():
    assert fake_scores([("red", "keep", 50), ("blue", "take", 60), ("green", "lose", 49), ("pink", "give", 60)]) \
        == ("green",)
    assert fake_scores([("red", "keep", 50), ("blue", "take", 60), ("green", "lose", 50), ("pink", "give", 60)]) \
        == ("blue", "pink")


def test_winner_without_lose_player():
    assert fake_scores([("red", "keep", 5), ("blue", "take", 6), ("green", "collect", 6), ("pink", "give", 1)]) \
        == ("blue", "green")


# --- example files ------------------------------------------------------------------------------------------------
def test_example_4p_lose_player_wins():
    r = score(parse_end(load("end-obscurians-4p.json")))
    assert totals(r) == {"green": 80, "blue": 41, "yellow": 55, "red": 15}
    assert r.winners == ("red",)
    assert seat(r, "red").lines[0].rule == \
        "Lose: 75 − 20 (exactly 6 goods) − 20 (goods of only 2 colours) − 20 (every own suspicion chip wrong)"
    assert seat(r, "green").points("master.unmasking") == 8


def test_example_6p_rulebook_missions_and_janes_stack():
    r = score(parse_end(load("end-obscurians-6p.json")))
    assert [p.lines[0].points for p in r.players] == [42, 39, 44, 35, 50, 55]
    assert totals(r) == {"green": 55, "yellow": 47, "orange": 52, "blue": 58, "pink": 50, "red": 63}
    assert r.winners == ("blue",)


def test_example_7p_control_tie():
    r = score(parse_end(load("end-obscurians-7p-control.json")))
    assert totals(r) == {"green": 60, "turquoise": 60, "blue": 28, "yellow": -4, "orange": 16, "pink": 8, "red": 35}
    assert r.winners == ("green", "turquoise")


def test_to_json_shape_and_text():
    r = score(parse_end(load("end-obscurians-7p-control.json")))
    j = r.to_json()
    assert set(j) == {"players", "winners"} and j["winners"] == ["green", "turquoise"]
    assert set(j["players"][0]) == {"name", "color", "mission", "total", "lines"}
    for p in j["players"]:
        assert all(set(ln) == {"rule", "points"} for ln in p["lines"])
        assert sum(ln["points"] for ln in p["lines"]) == p["total"]
    json.dumps(j)
    text = score_table(r)
    assert "Tom (turquoise)" in text and "Control: 42" in text and "Winners: Ana (green), Tom (turquoise)" in text


def test_lines_keep_key_and_params_for_translation():
    r = score(parse_end(load("end-obscurians-4p.json")))
    chip = [ln for ln in seat(r, "blue").lines if ln.key == "chip"][0]
    assert chip.params == {"target": "green", "pos": 1, "size": 3, "rank": 1}
    german = {"chip": "Verdacht auf {target} (Plättchen {pos} von {size}, {rank:ord} richtig)",
              "ord": {1: "1.", 2: "2.", 3: "3.", "other": "{n}."}}
    assert render(chip.key, chip.params, german) == "Verdacht auf green (Plättchen 1 von 3, 1. richtig)"


# --- END.json validation -------------------------------------------------------------------------------------------
def mutate(path_fn):
    d = load("end-obscurians-4p.json")
    path_fn(d)
    return d


@pytest.mark.parametrize("change, message", [
    (lambda d: d["players"][1]["goods"].update(purple=1), "players[1].goods.purple: unknown colour"),
    (lambda d: d["suspicions"][3].update(on="pink"), "suspicions[3].on: no player has colour pink"),
    (lambda d: d["suspicions"][0].update(by="orange"), "suspicions[0].by: no player has colour orange"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d["players"][0].update(colour="green"), "players[0].colour: unknown field"),
    (lambda d: d["suspicions"][2].update(when=3), "suspicions[2].when: unknown field"),
    (lambda d: d["players"].pop(), "players: 3 players"),
    (lambda d: d["players"][2].update(color="green"), "players[2].color: green is already Ana's colour"),
    (lambda d: d["players"][1].update(name="  "), "players[1].name: a player needs a name"),
    (lambda d: d["players"][1].update(name="Ana"), "players[1].name: Ana is already at the table"),
    (lambda d: d["players"][1].update(name="Ben\nWinner: Ben (blue)"), "players[1].name: a name cannot contain line"),
    (lambda d: d["players"][1].update(name="Ben\u2028"), "players[1].name: a name cannot contain line breaks"),
    (lambda d: d["players"][1].update(name="Ben\x85"), "players[1].name: a name cannot contain line breaks"),
    (lambda d: d["players"][1].update(name="B\x1ben"), "players[1].name: a name cannot contain the invisible"),
    (lambda d: d["players"][1].update(name="An\ud800a"), "players[1].name: a name cannot contain the invisible"),
    (lambda d: d["players"][1].update(name=["Ben"]), "players[1].name: a name must be text"),
    (lambda d: d["players"][1].update(name="B" * 41), "players[1].name: a name can have at most 40 characters"),
    (lambda d: d["players"][0].update(lamp=False), "players[*].lamp: nobody holds the magic lamp"),
    (lambda d: d["players"][2].update(mission="collect"),  # keep, take and collect: three of one trio
     "players[*].mission: with 4 players two of Keep/Take/Collect and two of Give/Select/Lose"),
    (lambda d: d["players"][1].pop("name"), "players[1].name: missing"),
    (lambda d: d["players"][3].update(mission="keep"), "players[3].mission: keep is already Ana's mission"),
    (lambda d: d["players"][3].update(mission="control"), "players[3].mission: control comes with the Control"),
    (lambda d: d["players"][3].update(mission="spy"), "players[3].mission: unknown mission 'spy'"),
    (lambda d: d["players"][3].update(color="turquoise"), "players[3].color: turquoise comes with the Control"),
    (lambda d: d["players"][0]["goods"].update(green=-1), "players[0].goods.green: expected a whole number"),
    (lambda d: d["players"][0]["goods"].update(green=2.5), "players[0].goods.green: expected a whole number"),
    (lambda d: d["players"][0]["goods"].update(green=True), "players[0].goods.green: expected a whole number"),
    (lambda d: d["players"][0]["goods"].update(pink=1), "players[0].goods.pink: no player has colour pink"),
    (lambda d: d["players"][0]["goods"].update(lamp=1), "players[0].goods.lamp: the lamp is not a coloured good"),
    (lambda d: d["players"][3]["goods"].update(red=6), "players[3].goods.red: 11 red goods at the table"),
    (lambda d: d["players"][1].update(lamp=True), "players[1].lamp: Ana already has the magic lamp"),
    (lambda d: d["players"][0].update(artifact=True), "players[2].artifact: Ana already has the cursed artifact"),
    (lambda d: d["players"][0].update(lamp="yes"), "players[0].lamp: expected true or false"),
    (lambda d: d["suspicions"][0].update(on="blue"), "suspicions[0].on: blue cannot suspect themselves"),
    (lambda d: d["suspicions"][3].update(mission="control"), "suspicions[3].mission: control chips come with"),
    (lambda d: d["suspicions"].append({"by": "green", "on": "red", "mission": "take"}),
     "suspicions[10].mission: green's take chip was already placed (suspicions[3])"),
    (lambda d: d.update(suspicions={}), "suspicions: expected a list"),
    (lambda d: d["players"][0].update(goods=[1]), "players[0].goods: expected an object"),
    (lambda d: d.update(game="obelisk"), 'game: expected "obscurians"'),
    (lambda d: d.pop("players"), "players: missing"),
])
def test_invalid_input_names_the_field(change, message):
    with pytest.raises(InvalidInput) as err:
        parse_end(mutate(change))
    assert str(err.value).startswith(message), str(err.value)


def test_optional_fields_default():
    d = {"players": [{"name": n, "color": c, "mission": m} for n, c, m in
                     [("A", "red", "keep"), ("B", "blue", "give"), ("C", "green", "take"), ("D", "pink", "lose")]]}
    d["players"][0]["lamp"] = True  # RULING obscurians-lamp: somebody always holds it
    end = parse_end(d)
    assert end.suspicions == () and all(p.goods == () and not p.artifact for p in end.players)
    assert [p.lamp for p in end.players] == [True, False, False, False]
    assert seat(score(end), "blue").total == 70 + 8


def test_not_an_object():
    with pytest.raises(InvalidInput):
        parse_end([1, 2])


# --- property: lines always add up -----------------------------------------------------------------------------------
@st.composite
def end_positions(draw):
    n = draw(st.integers(4, 7))
    colours = list(COLOURS) if n == 7 else draw(st.permutations(COLOURS[:6]))[:n]
    if n == 4:  # RULING obscurians-players: two of Keep/Take/Collect and two of Give/Select/Lose
        missions = list(draw(st.permutations(MISSIONS[:3])))[:2] + list(draw(st.permutations(MISSIONS[3:6])))[:2]
        missions = list(draw(st.permutations(missions)))
    else:
        missions = list(draw(st.permutations(MISSIONS if n == 7 else MISSIONS[:6])))[:n]
    left = dict.fromkeys(colours, 10)
    players = []
    holders = draw(st.tuples(st.integers(0, n - 1), st.integers(-1, n - 1)))  # the lamp is always held
    for i, (c, m) in enumerate(zip(colours, missions)):
        goods = {}
        for g in draw(st.lists(st.sampled_from(colours), max_size=12)):
            if left[g]:
                left[g] -= 1
                goods[g] = goods.get(g, 0) + 1
        players.append({"name": f"P{i}", "color": c, "mission": m, "goods": goods,
                        "lamp": holders[0] == i, "artifact": holders[1] == i})
    possible = [(b, o, m) for b in colours for o in colours if o != b for m in (MISSIONS if n == 7 else MISSIONS[:6])]
    chips, used = [], set()
    for b, o, m in draw(st.lists(st.sampled_from(possible), max_size=30)):
        if (b, m) not in used:
            used.add((b, m))
            chips.append({"by": b, "on": o, "mission": m})
    return {"game": "obscurians", "players": players, "suspicions": chips}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(end_positions(), st.booleans())
def test_property_lines_sum_to_total(d, take_cap):
    r = score(parse_end(d), Rules(take_cap=take_cap))
    for p in r.players:
        assert sum(ln.points for ln in p.lines) == p.total
        assert p.lines[0].key.startswith("mission.")
        assert all(isinstance(ln.rule, str) and ln.rule for ln in p.lines)
    assert r.winners
    j = r.to_json()
    assert [p["total"] for p in j["players"]] == [p.total for p in r.players]
    # every correct chip among the first three of its target's stack scores, and only those
    assert sum(p.points("chip") for p in r.players) <= 17 * len(r.players)


# --- BG Stats --------------------------------------------------------------------------------------------------------
def test_bgstats_record():
    r = score(parse_end(load("end-obscurians-4p.json")))
    play = to_bgstats(r, "2025-03-01 20:15:00", duration_min=45, start_colour="green")
    assert play["sourceName"] == "Table Companion"
    assert play["game"]["name"] == "Obscurians" and "bggId" not in play["game"]
    assert play["playDate"] == "2025-03-01 20:15:00" and play["durationMin"] == 45
    assert [(p["name"], p["score"], p["winner"], p["role"], p["startPlayer"]) for p in play["players"]] == [
        ("Ana", 80, False, "Keep", True), ("Ben", 41, False, "Take", False), ("Cleo", 55, False, "Give", False),
        ("Dan", 15, True, "Lose", False)]
    json.dumps(play)
    with pytest.raises(InvalidInput):
        to_bgstats(r, "yesterday")


# --- the `companion score` command -----------------------------------------------------------------------------------
def run_cli(*argv):
    from companion.commands import score as score_cmd

    parser = argparse.ArgumentParser(prog="companion")
    score_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["score", *argv])
    return args.func(args)


def test_cli_in_process_json(capsys):
    assert run_cli("obscurians", str(EXAMPLES / "end-obscurians-6p.json"), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winners"] == ["blue"]


def test_cli_in_process_error(tmp_path, capsys):
    bad = mutate(lambda d: d["players"][1]["goods"].update(purple=1))
    f = tmp_path / "END.json"
    f.write_text(json.dumps(bad))
    assert run_cli("obscurians", str(f)) == 2
    assert capsys.readouterr().err.strip() == f"{f}: players[1].goods.purple: unknown colour; the colours are " \
                                               "red, orange, yellow, green, blue, pink, turquoise"


@pytest.mark.slow
def test_cli_subprocess_table_json_bgstats_and_rules(tmp_path):
    ex = str(EXAMPLES / "end-obscurians-4p.json")
    p = companion("score", "obscurians", ex)
    assert p.returncode == 0, p.stderr
    assert "Winner: Dan (red)" in p.stdout and "Keep: 6 green goods × 7" in p.stdout
    p = companion("score", "obscurians", ex, "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["winners"] == ["red"]
    p = companion("score", "obscurians", ex, "--bgstats", "--date", "2025-01-02 19:00:00", "--duration", "40")
    play = json.loads(p.stdout)
    assert play["playDate"] == "2025-01-02 19:00:00" and play["durationMin"] == 40
    rules = tmp_path / "rules.json"
    rules.write_text('{"take_cap": false}')
    take = {"players": [{"name": "A", "color": "red", "mission": "take", "goods": {"blue": 7}},
                        {"name": "B", "color": "blue", "mission": "keep", "lamp": True},
                        {"name": "C", "color": "green", "mission": "give"},
                        {"name": "D", "color": "pink", "mission": "lose"}]}
    f = tmp_path / "take.json"
    f.write_text(json.dumps(take))
    assert json.loads(companion("score", "obscurians", str(f), "--json").stdout)["players"][0]["total"] == 25 + 8
    out = companion("score", "obscurians", str(f), "--json", "--rules", str(rules)).stdout
    assert json.loads(out)["players"][0]["total"] == 49 + 8


@pytest.mark.slow
@pytest.mark.parametrize("content, message", [
    (None, "END.json: cannot read the file (No such file or directory)"),
    ("{not json", "END.json: not valid JSON (line 1, column 2"),
    (json.dumps({"players": []}), "END.json: players: 0 players"),
    ("BADGOODS", "END.json: players[1].goods.purple: unknown colour"),
])
def test_cli_subprocess_errors_exit_2_without_traceback(tmp_path, content, message):
    if content == "BADGOODS":
        content = json.dumps(mutate(lambda d: d["players"][1]["goods"].update(purple=1)))
    if content is not None:
        (tmp_path / "END.json").write_text(content)
    p = companion("score", "obscurians", "END.json", cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.startswith(message), p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""
