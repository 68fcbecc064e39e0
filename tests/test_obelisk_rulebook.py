"""The rulebook's worked examples (../shared/rules/obelisk-rulebook-en.txt) as tests, on maps drawn to match the
pictures the text describes, played through the engine."""
from __future__ import annotations

import pytest

from companion.games.obelisk import (
    Build, Capture, Dawn, March, Nightfall, Pass, Rotate, Spawn, new_game,
)
from companion.games.obelisk.model import Stones, cell_name
from companion.games.obelisk.paths import can_capture, portal_walk, reach, walk

from tests.obelisk_helpers import refused, apply_all, make_setup, ob, position

T = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (3, 3)]  # the path down the left edge
MOVE_AND_SPAWN = "PS GE GE GE GE / FS FE FE FE FS / GS CW CW CW FS / FS GN GN GN FS / FE GE CE GN FW"



# ----------------------------------------------------------------- Example Move & Spawn

def test_move_and_spawn():
    """"Night begins and there are two yellow and two blue Demons already on the map. (1) The yellow Demons are
    furthest along the path, so they move first. They move three tiles, ending in the Crystals. (2) The two blue
    Demons move two tiles, ending in the Forest. (3) Six new Demons (three green and three blue) are drawn from the
    Dark Realm and placed on the Portal tile. (4) The green Demons move four tiles, ending in the Forest. The three
    blue Demons move two tiles, ending in the Grass.\""""
    setup = make_setup(MOVE_AND_SPAWN, 4, realm="table")
    assert portal_walk(setup.map).cells[:7] == tuple(T[:7])
    s = position(setup, phase="march", demons=[("blue", T[:3]), ("yellow", T[:4]), ("blue", T[:3]),
                                              ("yellow", T[:4])])
    assert [(d.colour, d.id) for d in s.in_order()] == [("yellow", 2), ("yellow", 4), ("blue", 1), ("blue", 3)]
    s = s.apply(March())
    assert s.phase == "spawn"  # the real Dark Realm: the group draws now
    kinds = {d.id: s.map[d.at].kind for d in s.demons}
    assert {d.id: d.at for d in s.demons} == {2: T[6], 4: T[6], 1: T[4], 3: T[4]}
    assert kinds == {2: "C", 4: "C", 1: "F", 3: "F"}  # yellows in the Crystals, blues in the Forest
    s = s.apply(Spawn(("green", "blue", "green", "blue", "green", "blue")))
    assert s.phase == "swarm" and all(d.at == T[0] for d in s.demons if d.id in s.tonight)
    assert [d.colour for d in s.in_order() if d.id in s.tonight] == ["green"] * 3 + ["blue"] * 3
    s = s.apply(Dawn())
    assert s.phase == "day" and s.day == 2
    new = {d.id: d for d in s.demons if d.id > 4}
    assert {d.at for d in new.values() if d.colour == "green"} == {T[4]} and s.map[T[4]].kind == "F"
    assert {d.at for d in new.values() if d.colour == "blue"} == {T[2]} and s.map[T[2]].kind == "G"
    assert s.conserved()


def test_demons_already_on_the_map_move_before_the_new_ones_and_the_first_losing_step_is_the_loss():
    """RULING obelisk-move-order: on the map first (most tiles walked), then tonight's, the faster colour first:
    a green and a blue that both walk off the map tonight — the green moves first, so it is the one that loses."""
    setup = make_setup("PE GE GE GN GN / FS FE FE FE FS / GS CW CW CW FS / FS GN GN GN FS / FE GE CE GN FW", 2,
                       realm="table")
    s = position(setup, phase="spawn", realm=setup.horde)
    s = s.apply(Spawn(("blue", "green", "blue", "blue", "blue", "blue"))).apply(Dawn())
    assert s.is_over and s.result == "lost"
    assert (s.loss.colour, s.loss.end, s.loss.at, s.loss.step) == ("green", "off-map", (0, 3), 4)
    assert s.loss.demon == 2  # the second out of the Dark Realm, but the fastest


# ----------------------------------------------------------------- Build an Obelisk

def test_build_example_corner_of_the_map_inside_and_an_invalid_place():
    """"The blue Obelisk is placed in a valid position at the corner of the map. This Obelisk can only capture
    Demons on one adjacent tile. The green Obelisk is also placed correctly and can capture Demons on four adjacent
    tiles. The black Obelisk is in an invalid location.\""""
    setup = make_setup("PE GE FS CW -- / GN FN FS -- -- / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", 4)
    s = new_game(setup)
    s = s.apply(Build("blue", (0, 0)))
    assert reach(s.obelisk_at((0, 0)), s.map) == ((0, 0),)
    s = s.apply(Build("green", (2, 2)))
    assert reach(s.obelisk_at((2, 2)), s.map) == ((1, 1), (1, 2), (2, 1), (2, 2))
    assert s.obelisk_at((2, 2)).strength == 1  # "they start with the 1 pointing up"
    refused(s, Build("black", (1, 5)), "touches no tile")      # empty spaces all round
    refused(s, Build("black", (2, 2)), "already has an Obelisk")
    assert s.unplaced == (1, 1, 2, 2)


# ----------------------------------------------------------------- Capture Demons

CAPTURE_MAP = "PE GE CS FS GS / GN FN FS GW FW / CE GS FE FS GN / FN FE GE CE GS / GW GN FN CW FS"


def test_capture_example_strength_plus_tile_modifier():
    """"A yellow Demon (strength = 3) can be captured by this Obelisk (strength = 5) in the Crystals (modifier =
    -2) … right before it moves that Night. Instead of capturing a yellow Demon, the Obelisk could capture a blue
    Demon (strength = 5) on the Grass … The choice of which Demon to capture is up to the green Obelisk owner.\""""
    setup = make_setup(CAPTURE_MAP, 2)
    green = ob((0, 2), "green", 5)  # on the map's top edge: the Grass and the Crystals only
    s = position(setup, phase="march", obelisks=[green],
                 demons=[("yellow", [(0, 0), (0, 1), (0, 2)]), ("blue", [(0, 0), (0, 1)])])
    assert reach(green, s.map) == ((0, 1), (0, 2))
    assert {(c.demon, c.step) for c in s.legal_actions() if isinstance(c, Capture)} >= {(1, 0), (2, 0)}
    yellow_taken = s.apply(Capture((0, 2), 1, 0))
    assert yellow_taken.obelisk_at((0, 2)).captured[0].colour == "yellow"
    refused(yellow_taken, Capture((0, 2), 2, 0), "captured all it can tonight")  # one Demon per Night
    blue_taken = s.apply(Capture((0, 2), 2, 0))
    assert blue_taken.obelisk_at((0, 2)).captured[0].colour == "blue"
    weaker = position(setup, phase="march", obelisks=[ob((0, 2), "green", 4)],
                      demons=[("yellow", [(0, 0), (0, 1), (0, 2)])])
    err = refused(weaker, Capture((0, 2), 1, 0), "strength 2 on the Crystal at C1", "the yellow demon has 3")
    assert err.rule == "Capture Demons"


def test_captured_demons_wait_on_the_obelisk_and_turn_to_stone_in_the_quarry_at_dawn():
    setup = make_setup(CAPTURE_MAP, 2, realm="table")
    s = position(setup, phase="march", obelisks=[ob((0, 2), "green", 5)],
                 demons=[("yellow", [(0, 0), (0, 1), (0, 2)])])
    quarry = s.quarry
    s = s.apply(Capture((0, 2), 1, 0))
    assert not s.demons and s.captured.yellow == 1
    s = apply_all(s, March(), Spawn(("green",) * 6))
    assert s.obelisk_at((0, 2)).captured  # "placed on top of the Obelisk that captured it until Night ends"
    s = s.apply(Dawn())
    assert s.quarry.yellow == quarry.yellow + 1 and not s.obelisk_at((0, 2)).captured


@pytest.mark.parametrize("kind, strength", [("P", 1), ("G", 1), ("F", 2), ("C", 3)])
def test_the_tiles_texts_weakest_obelisk_for_a_strength_1_demon(kind, strength):
    """Portal and Grass: "A strength 1+ Obelisk … can capture a strength 1 Demon"; Forest: "a strength 2+";
    Crystal: "a strength 3+ Obelisk can capture a Demon of strength 1 in the Crystals"."""
    setup = make_setup(f"P{'E' if kind != 'P' else 'S'} {kind if kind != 'P' else 'G'}E GE GE GS / GN FN FS GW FW / "
                       "CE GS FE FS GN / FN FE GE CE GS / GW GN FN CW FS", 1)
    cell = (0, 0) if kind == "P" else (0, 1)
    assert can_capture(ob((1, 1), strength=strength), setup.map, cell, 1)
    assert not can_capture(ob((1, 1), strength=strength - 1), setup.map, cell, 1) if strength > 1 else True


def test_a_demon_captured_while_moving_stops_at_once_and_a_capture_never_comes_after_its_losing_step():
    """RULING obelisk-night-loss and obelisk-capture: the green demon would walk off the map in its fourth step;
    captured after its second it stops there, and the game goes on."""
    setup = make_setup("PE GE FE GN GN / GN FN FS GW FW / CE GS FE FS GN / FN FE GE CE GS / GW GN FN CW FS", 2,
                       realm="table")
    s = position(setup, phase="spawn", obelisks=[ob((1, 3), "green", 2)])
    s = s.apply(Spawn(("green",) + ("blue",) * 5))
    refused(s, Capture((1, 3), 1, 4), "the green demon loses the game on its fourth step: it must be captured before")
    refused(s, Capture((1, 3), 1, 5), "walks only 3 tiles tonight")
    s2 = s.apply(Capture((1, 3), 1, 2))  # on the Forest at C1: 2 - 1 ≥ 1
    assert s2.obelisk_at((1, 3)).captured[0].cell == (0, 2)
    after = s2.apply(Dawn())
    assert not after.is_over  # the blues walked two tiles; the green never took its fourth step
    lost = s.apply(Dawn())
    assert lost.is_over and lost.loss.end == "off-map" and lost.loss.step == 4 and lost.loss.at == (0, 3)


# ----------------------------------------------------------------- Rotate Trail Signs: Cora's example

CORA = "PE GE FE GE GE / GE FE FE FE FS / GS FE GE FE FS / FS FE FE -- GS / GE GE -- -- --"


def test_coras_rotation_two_tiles_one_action_markers_to_the_supply():
    """"Cora is playing the four player game and the player guide indicates that she can Rotate 2 Tiles as one
    action. … Cora removes these rotation markers and places them in the Supply. … She turns the Grass tile down and
    she turns the Forest tile Up. … the two tiles that were turned no longer have rotation markers and therefore
    cannot be turned again for the rest of the game.\""""
    setup = make_setup(CORA, 4)
    s = new_game(setup)
    before = portal_walk(s.map)
    assert [cell_name(c) for c in before.cells] == ["A1", "B1", "C1", "D1", "E1"] and before.end == "off-map"
    assert s.budget.rotate == 2 and s.budget.actions == 1
    spare = s.spare_markers
    refused(s, Rotate("yellow", (((0, 1), "S"), ((1, 1), "N"), ((0, 2), "S"))), "at most 2 tiles")
    s = s.apply(Rotate("yellow", (((0, 1), "S"), ((1, 3), "N"))))  # the Grass at B1 down, the Forest at D2 up
    assert (s.map[(0, 1)].kind, s.map[(0, 1)].facing, s.map[(1, 3)].kind, s.map[(1, 3)].facing) == ("G", "S", "F", "N")
    assert (0, 1) not in s.markers and (1, 3) not in s.markers and s.spare_markers == spare + 2
    after = portal_walk(s.map)
    assert [cell_name(c) for c in after.cells] == ["A1", "B1", "B2", "C2", "D2", "D1", "E1"]
    s = apply_all(s, Pass("green"), Pass("blue"), Pass("black"))
    assert s.phase in ("march", "swarm")  # everyone acted or passed: Night


def test_a_turned_tile_cannot_be_turned_again_and_a_rotation_must_change_something():
    setup = make_setup(CORA, 2)
    s = new_game(setup).apply(Rotate("green", (((0, 1), "S"),)))
    refused(s, Rotate("green", (((0, 1), "E"),)), "no rotation marker", "B1")
    refused(s, Rotate("green", (((0, 2), "E"),)), "already points that way")
    refused(s, Rotate("green", (((0, 2), "S"), ((0, 2), "N"))), "once per Rotate")


# ----------------------------------------------------------------- End Game Conditions: the loop example

LOOP = "PE GS GE GE GS / GN GW FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS"


def test_loop_example_a_blue_demon_steps_on_the_portal_again():
    """"Example left: a blue Demon spawns, moves 2 tiles and rests until the next Night (no loop is formed).
    Example right: the next Night, the same blue Demon moves two tiles, and steps on a tile it stepped on
    previously (the Portal). The game is lost!\""""
    setup = make_setup(LOOP, 2, realm="table")
    s = position(setup, phase="spawn", realm=Stones(blue=1))  # one blue demon left in the Dark Realm
    s = apply_all(s, Spawn(("blue",)), Dawn())
    (blue,) = s.demons
    assert blue.visited == ((0, 0), (0, 1), (1, 1)) and not s.is_over  # no loop yet
    s = apply_all(s, Nightfall(), March())
    assert s.is_over and s.result == "lost"
    assert (s.loss.end, s.loss.target, s.loss.step) == ("loop", (0, 0), 2)
    assert s.outcome().detail["why"] == "Night 2: the blue demon stepped on A1 a second time, a loop"
    assert s.outcome().winners == ()


def test_every_way_to_lose_is_named():
    """"A Demon Walks off the Map, into an Empty Space or into a Mountain … A Demon Steps on Any Tile Twice\""""
    cases = {
        "off-map": "PN GE GE GE GE / GE FE FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
        "empty": "PE -- GE GE GE / GE FE FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
        "mountain": "PE MN GE GE GE / GE FE FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
        "loop": "PE GW GE GE GE / GE FE FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
    }
    for end, text in cases.items():
        setup = make_setup(text, 2)
        w = portal_walk(setup.map)
        assert w.end == end
        s = new_game(setup).apply(Nightfall()).apply(Dawn())
        assert s.is_over and s.loss.end == end and s.outcome().detail["result"] == "lost"


# ----------------------------------------------------------------- the paths

def test_a_demons_history_starts_on_the_portal_and_rotation_changes_only_later_paths():
    """RULING obelisk-path: rotating during the Day changes later paths only; a demon on a turned tile follows the
    new arrow."""
    setup = make_setup(CORA, 2)
    s = position(setup, demons=[("blue", [(0, 0), (0, 1), (0, 2)])])
    before = s.tonight_walk(s.demons[0])
    s = s.apply(Rotate("green", (((0, 2), "S"),)))  # demons can be on the tile while it turns
    after = s.tonight_walk(s.demons[0])
    assert before.cells == ((0, 2), (0, 3), (0, 4)) and after.cells == ((0, 2), (1, 2), (1, 3))
    assert walk(s.map, ((0, 0),)).cells[0] == (0, 0)
