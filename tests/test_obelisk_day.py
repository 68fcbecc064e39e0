"""Setup and the Day: the printed tables, the action budget and the repetition rule, Reinforce payments, Mine,
Rotating Leadership and Time Trials (rulebook "Setup", "Day Phase", "Alternative Rules"; RULINGS obelisk-*)."""
from __future__ import annotations

import random

import pytest

from companion.games.errors import InvalidInput
from companion.games.obelisk import (
    Build, Capture, Mine, Nightfall, Pass, Pay, Reinforce, Rules, Setup, Spawn, Timeout,
    new_game,
)
from companion.games.obelisk.box import DEMONS_IN_BOX, DIFFICULTIES
from companion.games.obelisk.game import GAME
from companion.games.obelisk.model import Stones, all_cells
from companion.games.obelisk.payments import affordable, sensible
from companion.games.obelisk.setup import lay_map

from tests.obelisk_helpers import refused, PLAYERS, apply_all, make_setup, ob, position

MAP = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS -- / FN FE GE CE GS / GW -- FN -- --"



# ----------------------------------------------------------------- setup

@pytest.mark.parametrize("n, each, quarry", [(1, 9, 2), (2, 4, 0), (3, 3, 4), (4, 2, 0)])
def test_obelisks_per_player_and_the_quarrys_random_resources(n, each, quarry):
    s = new_game(Setup.from_json({"players": [{"name": a, "colour": c} for a, c in PLAYERS[n]], "seed": 5}))
    assert s.unplaced == (each,) * n
    assert s.quarry.total == quarry and s.setup.supply.covers(Stones()) and s.conserved()


@pytest.mark.parametrize("level", range(9))
def test_the_difficulty_table_and_ruling_obelisk_horde(level):
    difficulty = DIFFICULTIES[level]
    plain = make_setup(MAP, 4, difficulty=difficulty)
    assert plain.horde == Stones(green=16 - level, yellow=12, blue=8 + level)
    scrolls = make_setup(MAP, 4, difficulty=difficulty, scrolls=True)
    assert scrolls.horde == plain.horde + Stones(2, 2, 2)
    assert new_game(plain).realm == plain.horde and plain.supply == Stones(**DEMONS_IN_BOX) - plain.horde


def test_the_random_map_is_the_box_shuffled_with_the_mountains_removed_unless_they_stay():
    for seed in range(20):
        m = lay_map(random.Random(seed), keep_mountains=False)
        kinds = [m[c].kind if m[c] else "-" for c in all_cells()]
        assert sorted(kinds) == sorted("P" + "C" * 4 + "F" * 10 + "G" * 6 + "-" * 4)
        kept = lay_map(random.Random(seed), keep_mountains=True)
        assert sorted(kept[c].kind for c in all_cells()) == sorted("P" + "C" * 4 + "F" * 10 + "G" * 6 + "M" * 4)
    facings = {lay_map(random.Random(s), False).tiles[0] for s in range(40)} - {None}
    assert len({t.facing for t in facings}) == 4  # the orientations are random too
    one = Setup.from_json({"players": [{"name": "Ana", "colour": "green"}], "seed": 9, "scrolls": True})
    assert one.map == Setup.from_json(one.to_json()).map and one.map.cells_of("M")  # Scrolls keep the Mountains


def test_markers_on_every_tile_but_the_mountains():
    setup = Setup.from_json({"players": [{"name": "Ana", "colour": "green"}], "seed": 3, "scrolls": True})
    s = new_game(setup)
    assert s.markers == {c for c in all_cells() if s.map[c] and s.map[c].kind != "M"} and len(s.markers) == 21
    assert s.spare_markers == 1  # the box's 22 rotation markers


def test_a_table_with_the_real_box_says_which_quarry_stones_came_out():
    players = [{"name": a, "colour": c} for a, c in PLAYERS[3]]
    with pytest.raises(InvalidInput, match="say which came out"):
        Setup.from_json({"players": players, "realm": "table"})
    with pytest.raises(InvalidInput, match="starts with 4 stones"):
        Setup.from_json({"players": players, "realm": "table", "quarry": {"green": 3}})
    s = Setup.from_json({"players": players, "realm": "table", "quarry": {"green": 2, "blue": 2}})
    assert s.quarry == Stones(green=2, blue=2)


# ----------------------------------------------------------------- the action budget (RULING obelisk-actions)

def test_two_players_two_actions_each_and_repeating_is_allowed():
    s = new_game(make_setup(MAP, 2))
    s = apply_all(s, Mine("green"), Mine("green"))
    assert s.actions_left("green") == 0 and s.quarry.green == 2
    refused(s, Mine("green"), "Ana has no action left this Day")
    s = apply_all(s, Build("blue", (1, 1)), Build("blue", (2, 2)))
    assert s.phase in ("march", "swarm")  # everyone is done: Night begins


def test_three_or_four_players_never_repeat_an_action_in_one_day():
    s = new_game(make_setup(MAP, 3)).apply(Mine("yellow"))
    refused(s, Mine("yellow"), "Cora already played Mine this Day")
    s = s.apply(Build("yellow", (1, 1)))
    assert s.actions_left("yellow") == 0
    four = new_game(make_setup(MAP, 4))
    assert four.budget.actions == 1 and four.budget.rotate == 2


def test_the_budget_is_an_editable_profile():
    rules = Rules.from_json({"actions": {"4": {"actions": 2, "repeat": True}}, "demons": {"blue": {"speed": 3}}})
    s = new_game(make_setup(MAP, 4, rules=rules))
    s = apply_all(s, Mine("green"), Mine("green"))
    assert s.actions_left("green") == 0 and rules.speed("blue") == 3 and rules.strength("blue") == 5
    assert GAME.rules_from_json(rules.to_json()) == rules
    with pytest.raises(InvalidInput, match="rules.actions.4.rotate"):
        Rules.from_json({"actions": {"4": {"rotate": 9}}})
    with pytest.raises(InvalidInput, match="rules.demons.green.speed"):
        Rules.from_json({"demons": {"green": {"speed": 0}}})


def test_pass_and_nightfall_forfeit_the_actions_left():
    s = new_game(make_setup(MAP, 2))
    s = apply_all(s, Pass("green"), Mine("blue"))
    assert s.phase == "day" and s.actions_left("green") == 0
    refused(s, Mine("green"), "no action left")
    s = s.apply(Nightfall())
    assert s.is_night


# ----------------------------------------------------------------- Reinforce (RULING obelisk-reinforce)

@pytest.mark.parametrize("pay", [Pay(green=4), Pay(green=3, blue=1), Pay(yellow=3), Pay(yellow=2, blue=1),
                                 Pay(yellow=1, blue=2), Pay(blue=2), Pay(green=1, blue=3)])
def test_valid_sets_blue_is_wild(pay):
    s = position(make_setup(MAP, 2), obelisks=[ob((1, 1), "blue", 2)], quarry=Stones(5, 5, 5))
    after = s.apply(Reinforce("green", (1, 1), pay))
    assert after.obelisk_at((1, 1)).strength == 3
    assert after.quarry == s.quarry - pay.stones and after.supply == s.supply + pay.stones  # Quarry → Supply


@pytest.mark.parametrize("pay", [Pay(green=3), Pay(green=2, yellow=2), Pay(blue=1), Pay(yellow=2),
                                 Pay(green=1, yellow=1, blue=1)])
def test_invalid_sets_are_refused(pay):
    s = position(make_setup(MAP, 2), obelisks=[ob((1, 1))], quarry=Stones(5, 5, 5))
    refused(s, Reinforce("green", (1, 1), pay), "4 green, 3 yellow or 2 blue")


def test_sacrificing_an_unplaced_obelisk_and_the_cap_at_six():
    s = position(make_setup(MAP, 2), obelisks=[ob((1, 1), strength=5)])
    s = s.apply(Reinforce("green", (1, 1), Pay(die=True)))
    assert s.obelisk_at((1, 1)).strength == 6 and s.unplaced == (2, 4)
    refused(s, Reinforce("green", (1, 1), Pay(die=True)), "already has strength 6")
    refused(position(make_setup(MAP, 2), obelisks=[ob((1, 1))]), Reinforce("blue", (1, 1), Pay(blue=2)),
            "The Quarry holds only 0 green, 0 yellow and 0 blue stones")


def test_the_payment_picker_offers_only_valid_sets_the_quarry_holds():
    s = position(make_setup(MAP, 2), quarry=Stones(green=3, yellow=2, blue=1))
    offered = [p.to_text() for p in sensible(s, "green")]
    assert offered == ["3G1B", "2Y1B", "die"]
    rich = position(make_setup(MAP, 2), quarry=Stones(6, 6, 6))
    assert [p.to_text() for p in sensible(rich, "green")] == ["4G", "3G1B", "3Y", "2Y1B", "2B", "die"]
    assert {p.to_text() for p in affordable(rich, "green")} >= {"2G2B", "1Y2B", "4B"}  # valid, but never better


# ----------------------------------------------------------------- Mine (RULING obelisk-mine)

def test_mine_takes_a_green_from_the_supply_and_a_marker_stands_in_when_none_is_left():
    setup = make_setup(MAP, 2, difficulty="even_easier", scrolls=True)  # 18 green in the horde: none in the Supply
    s = new_game(setup)
    assert s.supply.green == 0
    s = s.apply(Mine("green"))
    assert s.tokens == 1 and s.quarry_green == 1 and s.conserved()
    s = apply_all(s, Mine("green"), Mine("blue"), Mine("blue"))
    s = position(setup, obelisks=[ob((1, 1))], quarry=Stones(green=2))
    s = s._with(tokens=2)
    after = s.apply(Reinforce("green", (1, 1), Pay(green=4)))
    assert after.tokens == 0 and after.quarry.green == 0 and after.supply.green == s.supply.green + 2


# ----------------------------------------------------------------- Rotating Leadership

def test_rotating_leadership_whose_turn_to_speak():
    """"During the Day, councillors can only speak if they hold or have held the leadership token that Day. The
    current leader must perform their action(s) and then pass the token to the councillor on their left. The last
    councillor to perform an action during the day keeps the leader token. They become the first leader for the
    next Day.\""""
    s = new_game(make_setup(MAP, 3, leadership=True, leader=1))
    assert s.acting == ("blue",) and s.speakers == ("blue",)
    refused(s, Mine("green"), "Ben holds the leader token: Ana acts when it comes to them")
    s = apply_all(s, Mine("blue"), Build("blue", (1, 1)))
    assert s.acting == ("yellow",) and s.speakers == ("blue", "yellow")
    s = apply_all(s, Mine("yellow"), Pass("yellow"))
    assert s.acting == ("green",) and s.speakers == ("blue", "yellow", "green")
    s = apply_all(s, Pass("green"))
    assert s.is_night and s.speakers == ()  # nobody speaks at Night
    assert s.setup.colours[s.leader] == "yellow"  # Cora acted last: she leads tomorrow
    assert GAME.summary(s)["active"] is None


# ----------------------------------------------------------------- Time Trials

def test_time_trials_one_minute_day_and_night():
    setup = make_setup(MAP, 2, time_trials=True, realm="table")
    s = new_game(setup)
    t = GAME.timer(s)
    assert (t.name, t.seconds, t.token) == ("time_trials", 60, "day 1")
    s = s.apply(Mine("green")).apply(GAME.timer_action(s, "time_trials"))  # "remaining action(s) are forfeit"
    assert s.is_night and s.phase == "spawn" and GAME.timer(s).token == "night 1"
    s = s.apply(Timeout())  # "no additional Demons can be captured. Finish moving and spawning Demons"
    assert s.closed and GAME.timer(s) is None and "capture" not in s.legal_types()
    s = s.apply(Spawn(("green",) * 6))
    assert s.phase == "day" and s.day == 2 and len(s.demons) == 6  # the Night finished by itself
    refused(new_game(make_setup(MAP, 2)), Timeout(), "without Time Trials")


def test_time_trials_night_minute_in_the_middle_of_captures():
    s = position(make_setup(MAP, 2, time_trials=True), phase="march", obelisks=[ob((0, 1), "green", 3)],
                 demons=[("yellow", [(0, 0), (0, 1)])])
    s = s.apply(Capture((0, 1), 1, 0))
    s = s.apply(Timeout())  # the app draws; the new demons walk and the Night ends at once, nothing more captured
    assert (s.phase, s.day, s.quarry.yellow, len(s.demons)) == ("day", 2, 1, 6)
    assert all(d.steps == s.speed(d.colour) for d in s.demons)
