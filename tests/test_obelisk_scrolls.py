"""The Scrolls expansion, scroll by scroll (rulebook "Scrolls Expansion", "Scroll Abilities")."""
from __future__ import annotations


from companion.games.obelisk import (
    Aim, Capture, Charge, Dawn, Decipher, March, Nightfall, Pay, Reinforce, Reroll, Roll, Setup, Spawn,
    new_game,
)
from companion.games.obelisk.cycle import app_deck, app_roll
from companion.games.obelisk.model import Capture as Captured, Stones
from companion.games.obelisk.paths import captures_left, reach

from tests.obelisk_helpers import refused, PLAYERS, apply_all, make_setup, ob, position

#        A  B  C  D  E
MAP = ("PE GE FS CW GN / "   # 1: the Portal's path runs B1 C1 C2 C3 D3 D4 E4 E5 and off the map
       "GN FN FS GW FW / "   # 2
       "CE GS FE FS MN / "   # 3
       "FN FE GE CE GS / "   # 4
       "GW MN FN CW FS")     # 5
TWO = Pay(blue=2)


def scrolls_table(n=2, dice="table", **kw):
    drawn = Stones(green=2, blue=2) if n == 3 else None  # the Quarry's starting stones from the real Supply
    return make_setup(MAP, n, scrolls=True, realm="table", dice=dice, quarry=drawn, **kw)


def with_scroll(scroll, *, obelisks, n=2, dice="table", phase="day", quarry=Stones(0, 0, 8), **kw):
    setup = scrolls_table(n, dice)
    return position(setup, phase=phase, obelisks=obelisks, quarry=quarry,
                    deciphered=("broken_earth", scroll) if scroll != "broken_earth" else ("broken_earth",), **kw)



# ----------------------------------------------------------------- setup and the deck

def test_scrolls_setup_mountains_stay_two_more_of_each_colour_broken_earth_first_seven_a_night():
    laid = Setup.from_json({"players": [{"name": "Ana", "colour": "green"}], "seed": 4, "scrolls": True})
    assert len(laid.map.cells_of("M")) == 4  # "do not remove the Mountain tiles"
    setup = Setup.from_json({"players": [{"name": "Ana", "colour": "green"}], "seed": 4, "scrolls": True,
                             "map": MAP})
    s = new_game(setup)
    assert s.realm == Stones(14, 14, 14) and s.deciphered == ("broken_earth",) and s.deck_left == 6
    deck = app_deck(4)
    assert deck[0] == "broken_earth" and len(set(deck)) == 7  # six of the other seven under it
    s = s.apply(Nightfall())
    assert len(s.tonight) == 7  # "seven Demons appear from the Portal (instead of six)"
    s = s.apply(Dawn())
    assert s.day == 2 and s.deciphered == deck[:2] and s.deck_left == 5


def test_the_real_deck_is_told_each_day_until_it_is_empty():
    s = new_game(scrolls_table())
    assert s.phase == "day" and s.deciphered == ("broken_earth",)  # Broken Earth lies on top: no question
    s = position(scrolls_table(), phase="decipher", deciphered=("broken_earth",))
    refused(s, Decipher("broken_earth"), "already been deciphered")
    s = s.apply(Decipher("longbow"))
    assert s.phase == "day" and s.deciphered == ("broken_earth", "longbow") and s.deck_left == 5


def test_charging_counts_as_a_reinforce_action_and_costs_a_set():
    s = with_scroll("lightning_rod", obelisks=[ob((1, 1), "yellow", 2)], n=3)
    s = s.apply(Charge("yellow", "lightning_rod", (1, 1), TWO))
    assert s.obelisk_at((1, 1)).scroll == "lightning_rod" and s.obelisk_at((1, 1)).strength == 2
    assert s.quarry.blue == 6 and "lightning_rod" in s.spent and "lightning_rod" not in s.deciphered
    refused(s, Reinforce("yellow", (1, 1), TWO), "already played Reinforce this Day")  # 3 players: no repeat
    refused(with_scroll("lightning_rod", obelisks=[ob((1, 1))], quarry=Stones()),
            Charge("green", "lightning_rod", (1, 1), TWO), "The Quarry holds only")


def test_placement_requirements_one_land_is_enough():
    """"Lightning Rod must be placed on an Obelisk that is next to a Grass tile"; Longbow next to a Mountain."""
    s = with_scroll("lightning_rod", obelisks=[ob((1, 2), "green", 2)])  # next to B1 Grass and three Forests
    assert s.apply(Charge("green", "lightning_rod", (1, 2), TWO)).obelisk_at((1, 2)).scroll == "lightning_rod"
    s = with_scroll("longbow", obelisks=[ob((1, 2), "green", 2)])
    refused(s, Charge("green", "longbow", (1, 2), TWO, aim="SE"), "Longbow goes on an Obelisk next to Mountain")
    refused(with_scroll("longbow", obelisks=[ob((1, 2))]), Charge("green", "lightning_rod", (1, 2), TWO),
            "Lightning Rod is not deciphered")


# ----------------------------------------------------------------- each Scroll

def test_broken_earth_moves_tiles_around_its_obelisk_never_trodden_ones():
    """"Immediately move any tiles next to this Obelisk to any other position next to the Obelisk. Do not rotate
    the tiles. You cannot move tiles that any Stone Demon has already stepped on.\""""
    s = with_scroll("broken_earth", obelisks=[ob((3, 3), "green", 1)], demons=[("blue", [(0, 0), (0, 1)])])
    before = s.map
    moves = (((2, 2), (3, 3)), ((3, 3), (2, 2)))  # C3 (Forest E) and D4 (Crystal E) trade places
    after = s.apply(Charge("green", "broken_earth", (3, 3), TWO, moves=moves))
    assert after.map[(3, 3)] == before[(2, 2)] and after.map[(2, 2)] == before[(3, 3)]  # arrows unchanged
    assert after.obelisk_at((3, 3)).scroll is None  # discarded after playing
    trodden = with_scroll("broken_earth", obelisks=[ob((1, 1))], demons=[("blue", [(0, 0), (0, 1)])])
    refused(trodden, Charge("green", "broken_earth", (1, 1), TWO, moves=(((0, 0), (1, 1)), ((1, 1), (0, 0)))),
            "A demon has stepped on the tile at A1")
    refused(s, Charge("green", "broken_earth", (3, 3), TWO, moves=(((0, 0), (3, 3)), ((3, 3), (0, 0)))),
            "A1 is not next to the Obelisk on corner D4")
    refused(s, Charge("green", "broken_earth", (3, 3), TWO, moves=(((2, 2), (3, 3)),)), "each place gives")


def test_broken_earth_on_the_first_day_can_even_move_the_portal():
    s = with_scroll("broken_earth", obelisks=[ob((1, 1), "green", 1)])
    after = s.apply(Charge("green", "broken_earth", (1, 1), TWO, moves=(((0, 0), (1, 1)), ((1, 1), (0, 0)))))
    assert after.map.portal == (1, 1) and (1, 1) in after.markers


def test_burnout_boost_night_roll_and_burning_out():
    """"Immediately increase the strength … by up to +4 … At the start of every Night, roll a D6 die. If the value
    shown is 4 or greater … decrease the Obelisk strength by one. When the Obelisk strength is zero, remove it and
    Burnout … cannot be reinforced, overwritten by another Scroll, or be the target of any Scroll.\""""
    s = with_scroll("burnout", obelisks=[ob((1, 1), "green", 2), ob((2, 2), "blue", 3)])
    refused(s, Charge("green", "burnout", (1, 1), TWO, boost=5), "at most 4")
    s = s.apply(Charge("green", "burnout", (1, 1), TWO, boost=4))
    assert s.obelisk_at((1, 1)).strength == 6
    refused(s, Reinforce("blue", (1, 1), Pay(die=True)), "carries Burnout: it cannot be reinforced")
    s = s.apply(Nightfall())
    assert (s.phase, s.rolling, s.pending) == ("roll", "burnout", ((1, 1),))
    s = s.apply(Roll((1, 1), 4))
    assert s.obelisk_at((1, 1)).strength == 5 and s.phase == "spawn"
    low = with_scroll("burnout", obelisks=[ob((1, 1), "green", 1, scroll="burnout")], phase="day")
    gone = apply_all(low, Nightfall(), Roll((1, 1), 6))
    assert gone.obelisk_at((1, 1)) is None  # strength 0: the Obelisk and Burnout to the Supply
    kept = apply_all(low, Nightfall(), Roll((1, 1), 3))
    assert kept.obelisk_at((1, 1)).strength == 1


def test_sealed_obelisks_are_never_a_scrolls_target():
    s = with_scroll("longbow", obelisks=[ob((1, 1), "green", 3, scroll="instability")])
    refused(s, Charge("green", "longbow", (1, 1), TWO, aim="NE"), "carries Instability: no Scroll can target it")
    s = with_scroll("siphon_energy", obelisks=[ob((0, 4), "green", 3), ob((2, 2), "blue", 4, scroll="burnout")])
    refused(s, Charge("green", "siphon_energy", (0, 4), TWO, siphon=(((2, 2), 1),)),
            "carries Burnout: no Scroll can target it")


def test_consuming_growth_two_captures_a_night_into_the_supply():
    """"a strength three Obelisk with Consuming Growth can capture two yellow Demons on a Grass tile. … Any Demons
    captured by this Obelisk go directly into the Supply when Day starts.\""""
    setup = scrolls_table()
    s = position(setup, phase="march", obelisks=[ob((1, 2), "green", 3, scroll="consuming_growth")],
                 demons=[("yellow", [(0, 0), (0, 1)]), ("yellow", [(0, 0), (0, 1)])], deciphered=("broken_earth",))
    s = apply_all(s, Capture((1, 2), 1, 0), Capture((1, 2), 2, 0))
    assert captures_left(s.obelisk_at((1, 2))) == 0
    supply, quarry = s.supply, s.quarry
    s = apply_all(s, March(), Spawn(("green",) * 7), Dawn())
    assert s.day == 2 and s.supply.yellow == supply.yellow + 2 and s.quarry == quarry  # not into the Quarry


def test_crystal_network_reaches_every_crystal_with_plus_one_and_nothing_else():
    o = ob((1, 1), "green", 2, scroll="crystal_network")
    setup = scrolls_table()
    assert set(reach(o, setup.map)) == set(setup.map.cells_of("C"))  # "regardless of range"
    s = position(setup, phase="march", obelisks=[o], deciphered=("broken_earth",),
                 demons=[("green", [(0, 0), (0, 1), (0, 2), (0, 3)]), ("green", [(0, 0), (0, 1)])])
    s.apply(Capture((1, 1), 1, 0))  # a green (strength 1) on the Crystals at D1, far away: 2 - 2 + 1 = 1
    refused(s, Capture((1, 1), 2, 0), "cannot reach B1")  # the Grass next to it: no longer


def test_instability_rolls_now_at_every_dawn_and_on_a_spent_action():
    s = with_scroll("instability", obelisks=[ob((1, 1), "green", 5)], dice="app")
    s = s.apply(Charge("green", "instability", (1, 1), TWO))
    assert s.obelisk_at((1, 1)).strength == app_roll(s.setup.seed, 0) and s.rolls == 1
    refused(s, Reinforce("blue", (1, 1), TWO), "carries Instability")
    s = s.apply(Reroll("blue", (1, 1)))  # any player spends an action (the owner approving)
    assert s.obelisk_at((1, 1)).strength == app_roll(s.setup.seed, 1)
    table = with_scroll("instability", obelisks=[ob((1, 1), "green", 5)])
    refused(table, Charge("green", "instability", (1, 1), TWO), "Roll the die")
    t = table.apply(Charge("green", "instability", (1, 1), TWO, roll=2))
    assert t.obelisk_at((1, 1)).strength == 2
    t = apply_all(t, Nightfall(), Spawn(("blue",) * 7), Dawn(), Decipher("longbow"))
    assert (t.phase, t.rolling, t.pending) == ("roll", "instability", ((1, 1),))  # a new Day: roll it
    assert t.apply(Roll((1, 1), 6)).obelisk_at((1, 1)).strength == 6


def test_lightning_rod_charges_one_capture_each():
    """"At the start of each Day and when you first buy this upgrade, add a Charge (max 3). … Each time this
    Obelisk captures a Demon, a Charge is consumed. … a strength three Obelisk with Lightning Rod and two charges can
    capture two yellow Demons on a Grass tile.\""""
    s = with_scroll("lightning_rod", obelisks=[ob((1, 2), "green", 3)])
    s = s.apply(Charge("green", "lightning_rod", (1, 2), TWO))
    assert s.obelisk_at((1, 2)).charges == 1
    two = position(scrolls_table(), phase="march", deciphered=("broken_earth",),
                   obelisks=[ob((1, 2), "green", 3, scroll="lightning_rod", charges=2)],
                   demons=[("yellow", [(0, 0), (0, 1)]), ("yellow", [(0, 0), (0, 1)])])
    two = apply_all(two, Capture((1, 2), 1, 0), Capture((1, 2), 2, 0))
    assert two.obelisk_at((1, 2)).charges == 0 and len(two.obelisk_at((1, 2)).captured) == 2
    day = position(scrolls_table(), phase="swarm", deciphered=("broken_earth",),
                   obelisks=[ob((1, 2), "green", 3, scroll="lightning_rod", charges=3)])
    assert day.apply(Dawn()).obelisk_at((1, 2)).charges == 3  # never more than 3


def test_longbow_four_tiles_along_its_direction_and_its_owner_turns_it():
    s = with_scroll("longbow", obelisks=[ob((2, 5), "green", 4)])  # the right edge, next to the Mountain at E3
    s = s.apply(Charge("green", "longbow", (2, 5), TWO, aim="SW"))
    o = s.obelisk_at((2, 5))
    assert reach(o, s.map) == ((2, 4), (3, 3), (4, 2))  # E3 (the Mountain), D4, C5; the fourth is off the map
    refused(s, Aim("blue", (2, 5), "NW"), "Only the Obelisk's owner, Ana, turns its Longbow")
    s = s.apply(Aim("green", (2, 5), "NW"))
    assert reach(s.obelisk_at((2, 5)), s.map) == ((1, 4), (0, 3))


def test_siphon_energy_moves_strength_and_burns_out_a_drained_obelisk():
    s = with_scroll("siphon_energy", obelisks=[ob((0, 4), "green", 2), ob((2, 2), "blue", 1, scroll="longbow",
                                                                          aim="NE"), ob((4, 4), "blue", 3)])
    s = s.apply(Charge("green", "siphon_energy", (0, 4), TWO, siphon=(((2, 2), 1), ((4, 4), 2))))
    assert s.obelisk_at((0, 4)).strength == 5 and s.obelisk_at((0, 4)).scroll is None
    assert s.obelisk_at((2, 2)) is None  # at zero: removed with its Longbow
    assert s.obelisk_at((4, 4)).strength == 1
    again = with_scroll("siphon_energy", obelisks=[ob((0, 4), "green", 5), ob((4, 4), "blue", 3)])
    refused(again, Charge("green", "siphon_energy", (0, 4), TWO, siphon=(((4, 4), 2),)), "at most 6")


def test_a_new_scroll_overwrites_the_old_one():
    s = with_scroll("longbow", obelisks=[ob((2, 5), "green", 3, scroll="lightning_rod", charges=2)])
    s = s.apply(Charge("green", "longbow", (2, 5), TWO, aim="NW"))
    o = s.obelisk_at((2, 5))
    assert (o.scroll, o.charges, o.aim) == ("longbow", 0, "NW")
    refused(s, Charge("green", "burnout", (2, 5), TWO, boost=1), "Burnout is not deciphered")


def test_scroll_details_belong_to_their_scroll():
    s = with_scroll("lightning_rod", obelisks=[ob((1, 1), "green", 2)])
    refused(s, Charge("green", "lightning_rod", (1, 1), TWO, aim="NE"), "Lightning Rod does not use aim")
    refused(new_game(make_setup(MAP, 2)), Charge("green", "longbow", (1, 1), TWO, aim="NE"),
            "without the Scrolls")


def test_a_capture_list_on_the_obelisk_is_kept_in_its_json():
    o = ob((1, 2), "green", 3, scroll="consuming_growth", captured=(Captured(1, "yellow", 0, (0, 1)),))
    s = position(scrolls_table(), phase="swarm", deciphered=("broken_earth",), obelisks=[o])
    assert s.to_json()["obelisks"][0]["captured"] == [{"demon": 1, "colour": "yellow", "step": 0, "cell": [0, 1]}]
    assert PLAYERS[2][0][1] == "green"
