"""Obelisk with the real Dark Realm (the box top) by touch (issue 18 §1's "the group enters what came out"): a
3-player table with Scrolls whose group draws the demons and flips the Scrolls itself. At setup the Quarry's four
starting stones are tapped in; every Night the demons that came out are tapped in colour by colour in their order
(a colour the Dark Realm has no more of, or one too many, says why; Take back removes the last), then confirmed;
every Day the Scroll flipped is tapped, and the Scrolls' dice rolled at the table are tapped in. Played by the engine's seeded random player, every move by touch, for three
Nights.

This file is also the driver: `python tests/ui/test_obelisk_box_top.py --data-dir D --out result.json [--shots D]`.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
NIGHTS = 3


@pytest.fixture(scope="module")
def box_top(own_driver):
    return own_driver


def test_the_quarry_is_tapped_in_at_setup(box_top):
    assert box_top["setup"] == {"realm": "table", "dice": "table", "quarry": {"green": 4, "yellow": 0, "blue": 0},
                                "scrolls": True}


def test_every_move_was_entered_by_touch(box_top):
    assert box_top["mismatches"] == []
    kinds = set(box_top["kinds"])
    assert {"spawn", "decipher", "capture", "roll"} <= kinds, kinds   # roll: a Scroll's D6 tapped in
    assert box_top["spawns"] == 3


def test_tapping_in_the_demons_says_why_not(box_top):
    r = box_top["refusals"]
    assert r["too_many"].endswith("all are tapped in")
    assert r["confirm_early"].endswith("demons come out of the Dark Realm tonight")
    assert r["take_back"] == r["before_take_back"] - 1


async def scenario(app, args) -> dict:
    from tests.ui.obelisk_touch import ObeliskFinger, choose
    from tests.ui.test_obelisk_play import same_move

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    rng = random.Random(args.seed)
    out: dict = {"mismatches": [], "kinds": [], "refusals": {}}
    await d.wait_screen("home")
    await d.new_game("obelisk", "obelisk-setup")
    await d.tap(next(w for w in d.by_class("ObeliskCount") if w.n == 3))
    await d.frames(3)   # the third seat's row appears: the rows below it move down before anyone taps them
    await d.tap(d.by_id("realm_table"))
    await d.frames(3)

    for _ in range(4):
        await d.tap(d.by_id("quarry_green"))
    await d.tap(d.by_id("scrolls"))
    await d.shot(shots, "obelisk-setup-box-top")
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model = d.model
    setup = model.state.setup
    out["setup"] = {"realm": setup.realm, "dice": setup.dice, "quarry": setup.quarry.to_json(),
                    "scrolls": setup.scrolls}
    spawns = 0
    while not model.state.is_over and spawns < NIGHTS:
        await d.close_moment()
        s = model.state
        action = choose(s, rng)
        if action.TYPE == "spawn" and not out["refusals"]:
            # Confirm too early, tap one too many, take one back: each says why, or does what it says.
            await d.button(f"draw_{action.demons[0]}")
            await d.button("spawn")
            out["refusals"]["confirm_early"] = app.banner
            for colour in action.demons[1:]:
                await d.button(f"draw_{colour}")
            await d.button(f"draw_{action.demons[0]}")
            out["refusals"]["too_many"] = app.banner
            out["refusals"]["before_take_back"] = len(model.drawn)
            await d.shot(shots, "obelisk-spawn")
            await d.button("draw_back")
            out["refusals"]["take_back"] = len(model.drawn)
            for _ in range(len(model.drawn)):
                await d.button("draw_back")
        n = len(app.table.actions)
        await d.enter(action)
        if len(app.table.actions) != n + 1 or not same_move(s, app.table.actions[-1], action):
            out["mismatches"].append({"wanted": action.to_text(), "banner": app.banner})
            break
        out["kinds"].append(action.TYPE)
        spawns += action.TYPE == "spawn"
    out.update(spawns=spawns, over=model.state.is_over)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario, seed=23, players=3))
