"""Gestures that do what was chosen (issue 14 §3), by touch on the real round screen.

Under the action chosen (or picked under All Actions Mandatory) a drag is that action, or the banner says why
and nothing changes: never another action. Each test is one of the issue's bullets; each refusal is checked as
the banner shows it, and the table is checked unchanged (its state and its log).

This file is also the driver: run as a script it opens the app and plays those touches:

    python tests/ui/test_gesture_refusals.py --data-dir D --out result.json
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def refusals(own_driver):
    return own_driver


@pytest.mark.ui
def test_under_steal_picked_my_good_dragged_onto_theirs_is_no_swap(refusals):
    r = refusals["steal_onto_good"]
    assert r["banner"] == "Steal takes another player's good: tap it on their row, or drag it onto yours"
    assert r["unchanged"] and r["picked"] == "2 × Steal"


@pytest.mark.ui
def test_under_relocate_picked_my_good_dragged_onto_a_player_is_no_donate(refusals):
    r = refusals["relocate_onto_player"]
    assert r["banner"] == "Relocate moves a good between two other players, never from or to you"
    assert r["unchanged"]


@pytest.mark.ui
def test_my_own_good_dragged_under_relocate_says_why(refusals):
    r = refusals["relocate_own_good"]
    assert not r["cell_lit"]  # dimmed, yet it can be picked up: let go, it says why it does not go there
    assert r["banner"] == "Relocate moves a good between two other players, never from or to you"
    assert r["onto_own_lamp"] == r["banner"]
    assert r["unchanged"]
    assert r["then"] == "Anna moved 1 orange good from Ben to Dana"  # the right drag still works


@pytest.mark.ui
def test_my_own_good_tapped_under_steal_says_what_steal_needs(refusals):
    r = refusals["steal_own_tap"]
    assert r["banner"] == "Steal takes another player's good: tap it on their row, or drag it onto yours"
    assert r["de"] == "Rauben nimmt eine Ware von jemand anderem: tippe sie in dessen Zeile an oder ziehe sie in deine"
    assert r["unchanged"]


@pytest.mark.ui
def test_a_dimmed_chip_dragged_onto_a_player_gives_the_reason(refusals):
    r = refusals["chip_dragged"]
    assert r["banner"] == "Anna has no Take chip left to place" and r["unchanged"]


@pytest.mark.ui
def test_a_placed_chip_tapped_with_no_player_picked_gives_the_reason_not_the_drag_hint(refusals):
    r = refusals["chip_tapped"]
    assert r["banner"] == "Anna has no Take chip left to place" and r["unchanged"]


@pytest.mark.ui
def test_the_refusals_are_large_and_every_glyph_is_in_the_font(refusals):
    assert refusals["small"] == {"refusals": []} and refusals["glyphs"] == {"refusals": []}


# -- the driver ------------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from companion.ui.obscurians.choices import (
        ChipMission, ChooseAction, FaceCount, PickGood, PickKind, Reveal,
    )
    from tests.ui.obscurians_driver import Driver

    d = Driver(app, random.Random(1))
    out: dict = {}

    def cell(seat, good):
        return d.widget_for(("choice", PickGood(seat, good)))

    def panel(seat):
        return d.widget_for(("player", seat))

    async def roll(*counts):
        for face, n in counts:
            await d.tap(d.widget_for(("choice", FaceCount(face, n))))

    async def refused(touch) -> dict:
        """A touch that must change nothing: the banner it shows and whether the table stayed as it was."""
        table = app.table
        state, log = table.state, table.log_length
        app.dismiss_banner()
        await touch
        await d.frames(2)
        banner = app.banner
        app.dismiss_banner()
        return {"banner": banner, "unchanged": table.state == state and table.log_length == log}

    # Table 1, a plain round: the chips, then Relocate chosen.
    await d.new_table(4, deck="physical")
    await d.tap(d.widget_for(("choice", Reveal("double_secure"))))
    await d.close_moment()
    await d.drag(d.widget_for(("choice", ChipMission("take"))), panel(2))  # Anna's Take chip onto Chris
    take = d.widget_for(("choice", ChipMission("take")))
    out["chip_dragged"] = await refused(d.drag(take, panel(1)))  # the Take chip again (none left) onto Ben
    assert app.plugin.round.entry.chip_on is None
    out["chip_tapped"] = await refused(d.tap(take))  # tapped, with no player picked
    await roll(("relocate", 2), ("steal", 3))
    await d.tap(d.widget_for(("choice", ChooseAction("relocate", 0))))
    own = app.plugin.round.entry.view(app.table.state, app.t)
    lit = next(o["enabled"] for s in own["sections"] for o in s["items"] if o["choice"] == PickGood(0, "red"))
    r = await refused(d.drag(cell(0, "red"), panel(3)))  # Anna's own red onto Dana
    both = await refused(d.drag(cell(0, "red"), cell(0, "lamp")))  # onto her own lamp
    r.update(cell_lit=lit, onto_own_lamp=both["banner"], unchanged=r["unchanged"] and both["unchanged"])
    await d.drag(cell(1, "orange"), panel(3))
    r["then"] = app.plugin.round.log[0]["text"]
    out["relocate_own_good"] = r

    # Table 2, All Actions Mandatory: the actions are picked on their row.
    app.go_home()
    await d.new_table(4, deck="physical")
    await d.tap(d.widget_for(("choice", Reveal("all_actions_mandatory"))))
    await d.close_moment()
    await roll(("steal", 2), ("swap", 1), ("relocate", 2))
    steal = d.widget_for(("choice", PickKind("steal")))
    await d.tap(steal)
    await d.frames(2)
    r = await refused(d.drag(cell(0, "red"), cell(1, "orange")))  # Anna's red onto Ben's orange: no Swap
    r["picked"] = steal.text
    out["steal_onto_good"] = r
    r = await refused(d.tap(cell(0, "red")))
    await d.tap(cell(0, "red"))  # once more, the banner left up: its size and its glyphs are checked
    await d.frames(2)
    d.look(out, "refusals")
    app.set_language("de")
    await d.frames(2)
    r["de"] = (await refused(d.tap(cell(0, "red"))))["banner"]
    app.set_language("en")
    await d.frames(2)
    out["steal_own_tap"] = r
    await d.tap(d.widget_for(("choice", PickKind("relocate"))))
    await d.frames(2)
    out["relocate_onto_player"] = await refused(d.drag(cell(0, "red"), panel(2)))  # onto Chris: no Donate
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    raise SystemExit(script_main(scenario))
