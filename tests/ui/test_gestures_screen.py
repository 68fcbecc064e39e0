"""One touch a move on the real round screen: what a group at the table would notice.

- a suspicion chip dragged from the hand onto a player's panel (across the table, turned) is placed on them;
- under Flip the Die a tapped die shows its other face at once, tapped again turns back, and the flip is recorded
  with the choice of action;
- a swap is one drag (my good onto theirs, or theirs onto mine);
- New roll: after a reroll the five dice are tapped in again, the fifth makes the reroll, one chip face down;
- two goods of one colour go into the vault in one tap (Pair), two colours in one drag (one onto the other);
- a relocate is one drag onto the receiver's panel; a drag let go where nothing takes it, or meaning another
  action, says why and changes nothing.

This file is also the driver: run as a script it opens the app and plays those moves by touch:

    python tests/ui/test_gestures_screen.py --data-dir D --out result.json [--lang L] [--shots DIR]

With --shots it photographs a drag under way (drag.png) and the Pair row (secure-pair.png).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gestures(own_driver):
    return own_driver


@pytest.mark.ui
def test_a_chip_dragged_onto_a_turned_panel_is_placed_on_that_player(gestures):
    assert gestures["chip"] == {"touches": 1, "log": "Anna placed a Take chip on Chris", "on_chris": ["take"]}


@pytest.mark.ui
def test_a_die_tapped_under_flip_the_die_turns_over_at_once_and_goes_into_the_log_with_the_choice(gestures):
    flip = gestures["flip"]
    assert flip["shown_after_tap"] == "secure" and flip["log_after_tap"] == flip["log_before"]
    assert flip["shown_after_second_tap"] == "swap"
    assert flip["log"][:2] == ["Anna chose Swap × 2, using 1 Wild",
                               "Anna flipped dice: Steal, Steal, Swap, Secure, Wild"]
    assert flip["dice"] == ["steal", "steal", "swap", "secure", "wild"]


@pytest.mark.ui
def test_a_swap_is_one_drag_either_way(gestures):
    assert gestures["swap1"] == {"touches": 1, "log": "Anna swapped with Ben: gave 1 red good, took 1 orange good"}
    assert gestures["swap2"] == {"touches": 1, "log": "Anna swapped with Chris: gave 1 magic lamp, took 1 yellow good"}


@pytest.mark.ui
def test_new_roll_taps_in_the_five_dice_again_and_pays_one_chip_face_down(gestures):
    new = gestures["new_roll"]
    assert new["touches"] == 4  # New roll, then 2 Secure, 2 Relocate, 1 Wild
    assert new["log"].startswith("Ben discarded a chip face down and rerolled: ")
    assert sorted(new["dice"]) == ["relocate", "relocate", "secure", "secure", "wild"]
    assert "(1 face down)" in new["status"]


@pytest.mark.ui
def test_secure_a_pair_in_one_tap_and_two_colours_in_one_drag(gestures):
    secure = gestures["secure"]
    assert secure["pair_touches"] == 1 and secure["pair_log"] == "Ben put 1 orange good and 1 orange good in the vault"
    assert secure["drag_touches"] == 1 and secure["drag_log"] == "Ben put 1 red good and 1 orange good in the vault"
    assert secure["vault"] == {"orange": 5, "red": 1}


@pytest.mark.ui
def test_a_relocate_is_one_drag_and_a_drag_that_means_nothing_says_why(gestures):
    relocate = gestures["relocate"]
    assert relocate["touches"] == 1 and relocate["log"] == "Chris moved 1 orange good from Ben to Dana"
    assert relocate["nowhere"] == "Let it go on a player's row or on their panel"
    assert relocate["onto_myself"] == "Relocate moves a good between two other players, never from or to you"
    assert relocate["unchanged"]


@pytest.mark.ui
def test_text_stays_large_and_every_glyph_is_in_the_font(gestures):
    assert gestures["small"] == {"gestures": []} and gestures["glyphs"] == {"gestures": []}


# -- the driver ------------------------------------------------------------------------------------------------------

def _log(model, n=1):
    return [line["text"] for line in model.log[:n]]


async def scenario(app, args) -> dict:
    from kivy.base import EventLoop

    from companion.ui.obscurians.turn import (
        NEW_ROLL, ChipMission, ChooseAction, FaceCount, PickGood, Reveal, SecurePair,
    )
    from tests.ui.obscurians_driver import Driver

    d = Driver(app, random.Random(1))
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.new_table(4, deck="physical")
    table, model = app.table, app.plugin.round

    async def touches(coro):
        before = d.taps
        await coro
        await d.frames(2)
        return d.taps - before

    async def roll(*counts):
        for face, n in counts:
            await d.tap(d.widget_for(("choice", FaceCount(face, n))))

    def cell(seat, good):
        return d.widget_for(("choice", PickGood(seat, good)))

    await d.tap(d.widget_for(("choice", Reveal("flip_the_die"))))
    await d.close_moment()
    # Anna drags her Take chip onto Chris's panel, across the table.
    n = await touches(d.drag(d.widget_for(("choice", ChipMission("take"))), d.widget_for(("player", 2))))
    out["chip"] = {"touches": n, "log": _log(model)[0],
                   "on_chris": [c.mission for c in table.state.placed if c.on == "yellow"]}
    # Flip the Die: the roll, a die turned over at once (and back), then turned over and the choice.
    await roll(("steal", 2), ("swap", 2), ("wild", 1))
    die = next(b for b in d.by_class("ObsnDieButton") if b.face == "swap")
    flip = {"log_before": _log(model)}
    await d.tap(die)
    flip["shown_after_tap"], flip["log_after_tap"] = model.dice[die.index]["face"], _log(model)
    await d.tap(die)
    flip["shown_after_second_tap"] = model.dice[die.index]["face"]
    await d.tap(die)
    await d.tap(d.widget_for(("choice", ChooseAction("swap", 1))))
    flip["log"], flip["dice"] = _log(model, 2), sorted(table.state.dice, key=("steal", "swap", "secure",
                                                                              "wild").index)
    out["flip"] = flip
    # Swaps: Anna's red onto Ben's orange; Chris's yellow onto Anna's lamp.
    n = await touches(d.drag(cell(0, "red"), cell(1, "orange")))
    out["swap1"] = {"touches": n, "log": _log(model)[0]}
    if shots:  # a drag under way: the good follows the finger, the cell it would land on is framed
        src, dst = cell(2, "yellow"), cell(0, "lamp")
        touch = await d.press(src)
        for i in range(1, 9):
            (x0, y0), (x1, y1) = src.to_window(*src.center), dst.to_window(*dst.center)
            win = EventLoop.window
            touch.move({"x": (x0 + (x1 - x0) * i / 8) / (win.width - 1.0),
                        "y": (y0 + (y1 - y0) * i / 8) / (win.height - 1.0)})
            EventLoop.post_dispatch_input("update", touch)
            await d.frames(1)
        await d.shot(shots, "drag")
        await d.lift(touch)
        d.taps -= 1
        await d.frames(2)
    else:
        await d.drag(cell(2, "yellow"), cell(0, "lamp"))
    out["swap2"] = {"touches": 1, "log": _log(model)[0]}
    await d.tap(d.by_id("end_turn"))
    await d.close_moment()
    # Ben: a roll, then New roll with the five dice as they lie after the reroll.
    await roll(("secure", 2), ("relocate", 2), ("steal", 1))
    before = d.taps
    await d.tap(d.by_class("ObsnDieButton", index=NEW_ROLL)[0])
    await roll(("secure", 2), ("relocate", 2), ("wild", 1))
    out["new_roll"] = {"touches": d.taps - before, "log": _log(model)[0], "dice": list(table.state.dice),
                       "status": next(p for p in model.panels if p["seat"] == 1)["status"]}
    # Secure × 3 (2 + the Wild): two orange in one tap, then the red dragged onto an orange, then a pair again.
    await d.tap(d.widget_for(("choice", ChooseAction("secure", 1))))
    if shots:
        await d.shot(shots, "secure-pair")
    secure = {"pair_touches": await touches(d.tap(d.widget_for(("choice", SecurePair("orange")))))}
    secure["pair_log"] = _log(model)[0]
    secure["drag_touches"] = await touches(d.drag(cell(1, "red"), cell(1, "orange")))
    secure["drag_log"] = _log(model)[0]
    await d.tap(d.widget_for(("choice", SecurePair("orange"))))
    secure["vault"] = dict(table.state.secured[1])  # two pairs of orange and the red with an orange
    out["secure"] = secure
    await d.tap(d.by_id("end_turn"))
    await d.close_moment()
    # Chris: Relocate × 2. Ben's orange onto Dana's panel: moved. Let go in the middle of nowhere, or onto Chris
    # himself: said why, nothing moved.
    await roll(("relocate", 2), ("steal", 3))
    await d.tap(d.widget_for(("choice", ChooseAction("relocate", 0))))
    relocate = {"touches": await touches(d.drag(cell(1, "orange"), d.widget_for(("player", 3))))}
    relocate["log"] = _log(model)[0]
    before = table.state
    app.dismiss_banner()
    src = cell(1, "orange")
    x, y = src.to_window(*src.center)
    await d.tap_at(x, y, move_to=(x + 5, y + 140))  # between two panels' worth of nothing
    relocate["nowhere"] = app.banner
    app.dismiss_banner()
    await d.drag(cell(1, "orange"), d.widget_for(("player", 2)))
    relocate["onto_myself"] = app.banner
    relocate["unchanged"] = table.state == before
    app.dismiss_banner()
    out["relocate"] = relocate
    found: dict = {}
    d.look(found, "gestures")
    out["small"], out["glyphs"] = found["small"], found["glyphs"]
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    raise SystemExit(script_main(scenario))
