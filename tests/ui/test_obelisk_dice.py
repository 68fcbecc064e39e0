"""Smart dice as the Obelisks (issue 18 §4), by touch on the real app with simulated GoDice: Menu → Smart dice on the
map → a die → a tap on its corner; the die turned by hand to 1 proposes a Build there (who built it: one tap each, or
ignore), turned up by one a Reinforce (who, with which payment); a face no move makes is said and withdrawn when the
die is put back; nothing is played by a die alone. Where the die stands holds when the table is closed and reopened;
at Night a turned die is refused in words.

This file is also the driver: `python tests/ui/test_obelisk_dice.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
URL = "sim://godice?count=2&seed=3"
CORNER = (1, 1)     # B2: touches four tiles of every map


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "obelisk_dice")


def test_a_die_is_put_on_a_corner_by_touch_and_kept_with_the_devices(run):
    assert run["menu_has_dice"]
    assert run["dice_offered"] == ["Die 1 of obelisk dice: not on the map", "Die 2 of obelisk dice: not on the map"]
    assert run["tap_banner"] == "Tap the corner Die 1 of obelisk dice stands on"
    assert run["bound_banner"].startswith("Die 1 of obelisk dice stands on corner B2: ")
    assert run["saved_binding"] == {"role": "obelisk", "index": 7}
    assert run["drawn_dice"] == [[1, 1]] and run["actions_after_binding"] == 0
    assert run["devices_screen_says"] == "the Obelisk on corner B2"     # "bound to the Obelisk on corner B2"


def test_a_die_turned_to_one_asks_who_built_and_the_pick_is_played(run):
    assert run["build_question"] == "The die on corner B2 shows 1: who did it?"
    assert run["build_answers"] == ["Ana builds an Obelisk on corner B2", "Ben builds an Obelisk on corner B2",
                                    "No, leave it"]
    assert run["actions_while_asked"] == 0           # proposed, not played
    assert run["built"] == f"build {run['colours'][1]} B2"          # Ben's colour


def test_a_face_no_move_makes_is_said_and_goes_when_the_die_is_put_back(run):
    assert run["wrong_question"].startswith("The dice cannot be used now: The die on corner B2 shows 4, the Obelisk "
                                            "stands at 1: a Reinforce raises it by one")
    assert run["wrong_answers"] == ["No, leave it"]
    assert run["sheet_after_put_back"] is None and run["actions_after_wrong"] == 1


def test_a_die_turned_up_by_one_offers_each_payment_and_the_pick_is_the_reinforce(run):
    assert run["reinforce_question"] == "The die on corner B2 shows 2: who did it?"
    assert "Ana reinforces the Obelisk on corner B2 to 2, sacrificing an unplaced Obelisk" in run["reinforce_answers"]
    assert all("reinforces the Obelisk on corner B2 to 2" in a for a in run["reinforce_answers"][:-1])
    assert run["reinforced"] == f"reinforce {run['colours'][0]} B2 die" and run["strength"] == 2


def test_the_die_still_stands_there_when_the_table_is_reopened(run):
    assert run["reopened_drawn_dice"] == [[1, 1]]
    assert run["reopened_question"] == "The die on corner B2 shows 3: who did it?"


def test_at_night_a_turned_die_is_refused_in_words(run):
    assert run["night_question"].endswith("Nobody may touch the Obelisks at Night: turn the die on corner B2 back "
                                          "to 2")
    assert run["night_actions"] == run["actions_at_nightfall"]


def test_taken_off_the_map_a_die_proposes_nothing(run):
    assert run["off_banner"] == "Die 1 of obelisk dice is off the map: its face proposes nothing now"
    assert run["drawn_after_off"] == [] and run["sheet_after_off"] is None


# -- the driver --------------------------------------------------------------------------------------------------

def sheet_texts(app) -> list[str]:
    return [w.text for w in app.sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"] if app.sheet else []


async def scenario(app, args) -> dict:
    import json

    from tests.ui.obelisk_touch import ObeliskFinger
    from tests.ui.test_home_way_back import go_home_by_touch

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    await d.until(lambda: getattr(app, "devices", None) is not None, "the devices")
    await app.devices.add(URL, "obelisk dice")
    await d.until(lambda: len(app.devices.manager.dice_of(URL)) == 2, "two simulated dice")
    sim = app.devices.manager.device(URL)
    await d.new_game("obelisk", "obelisk-setup")
    seats = sorted(d.by_class("ObeliskSeat"), key=lambda w: w.index)
    for seat, name in zip(seats, ("Ana", "Ben")):
        await d.type_text(seat.ids.name, name)
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    await d.close_moment()
    model, table = d.model, app.table
    colours = model.state.setup.colours

    # Menu → Smart dice on the map → die 1 → its corner.
    await d.tap(d.by_id("menu"))
    out["menu_has_dice"] = app.t("Smart dice on the map") in sheet_texts(app)
    await d.pick(app.t("Smart dice on the map"))
    out["dice_offered"] = sheet_texts(app)
    await d.pick(out["dice_offered"][0])
    out["tap_banner"] = app.banner
    await d.tap_corner(CORNER)
    out["bound_banner"] = app.banner
    die = sim.address(0)
    saved = json.loads((Path(args.data_dir) / "devices.json").read_text())["bindings"]
    out["saved_binding"] = next({"role": b["role"], "index": b["index"]} for b in saved["bindings"]
                                if b["die"] == die)
    out["drawn_dice"] = [list(c) for c in model.picture["dice"]]
    from companion.ui.devices import _place

    bound = app.devices.manager.bindings.binding(die)
    out["devices_screen_says"] = _place(app.t, bound.role, bound.index)   # the die's line on Dice and boards
    out["actions_after_binding"] = len(table.actions)

    async def turn(face: int) -> None:
        before = app.sheet
        await sim.dice[0].turn_by_hand(face)
        await d.until(lambda: app.sheet is not None and app.sheet is not before, f"the question about {face}")

    # Turned to 1 on the free corner: who built it?
    await turn(1)
    out["build_question"] = app.sheet.question
    out["build_answers"] = sheet_texts(app)
    out["actions_while_asked"] = len(table.actions)
    await d.shot(shots, "obelisk-die-build")
    await d.pick("Ben builds an Obelisk on corner B2")
    await d.until(lambda: len(table.actions) == 1, "the Build")
    out["built"] = table.actions[-1].to_text()

    # Turned to 4: no move makes it; put back on 1, the question goes.
    await turn(4)
    out["wrong_question"] = app.sheet.question
    out["wrong_answers"] = sheet_texts(app)
    await sim.dice[0].turn_by_hand(1)
    await d.until(lambda: app.sheet is None, "the question withdrawn")
    out["sheet_after_put_back"] = type(app.sheet).__name__ if app.sheet is not None else None
    out["actions_after_wrong"] = len(table.actions)

    # Turned up to 2: a Reinforce, each payment offered; Ana sacrifices an unplaced Obelisk.
    await turn(2)
    out["reinforce_question"] = app.sheet.question
    out["reinforce_answers"] = sheet_texts(app)
    await d.shot(shots, "obelisk-die-reinforce")
    await d.pick("Ana reinforces the Obelisk on corner B2 to 2, sacrificing an unplaced Obelisk")
    await d.until(lambda: len(table.actions) == 2, "the Reinforce")
    out["reinforced"] = table.actions[-1].to_text()
    out["strength"] = table.state.obelisk_at(CORNER).strength
    out["colours"] = list(colours)

    # Home, and the table again: the die still stands on B2 (kept with the devices).
    table_id = table.id
    await go_home_by_touch(d)
    item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                and w.parent is not None)
    await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
    await d.wait_screen("obelisk-table")
    table = app.table
    out["reopened_drawn_dice"] = [list(c) for c in d.model.picture["dice"]]
    await turn(3)
    out["reopened_question"] = app.sheet.question
    await d.pick(app.t("No, leave it"))
    await sim.dice[0].turn_by_hand(2)
    await d.frames(10)

    # Night falls: a die turned now is refused in words; nothing changes.
    await d.button("nightfall")
    await d.until(lambda: table.state.is_night, "the Night")
    await d.close_moment()
    out["actions_at_nightfall"] = len(table.actions)
    await turn(3)
    out["night_question"] = app.sheet.question
    await d.pick(app.t("No, leave it"))
    out["night_actions"] = len(table.actions)
    await sim.dice[0].turn_by_hand(2)
    await d.frames(10)

    # Taken off the map: its face proposes nothing.
    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Smart dice on the map"))
    await d.pick(next(t for t in sheet_texts(app) if t.startswith("Take ")))
    out["off_banner"] = app.banner
    out["drawn_after_off"] = [list(c) for c in d.model.picture["dice"]]
    await sim.dice[0].turn_by_hand(5)
    await d.frames(30)
    out["sheet_after_off"] = type(app.sheet).__name__ if app.sheet is not None else None
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
