"""Donate in one tap on the real round screen, by touch: while the action is Donate, a cell on the receiver's row in
colour c gives that player one of my c goods. What a group at the table would notice: one tap on Ben's red cell
and Ben has one red more, Anna one less, the log says so; a cell that cannot be used says why in the engine's words
(in English and in German); the receiver's name, tapped, says where to tap instead; one of my goods dragged onto a
player's panel is given to them.

This file is also the driver: run as a script it opens the app (one Kivy window per process, on the current
screen), reaches a Donate by touch (the intended moves tapped in through tests/ui/intents.py) and reports:

    python tests/ui/test_turn_donate_screen.py --data-dir D --out result.json [--players N] [--lang L] [--shots DIR]

With --shots it photographs the goods rows during the Donate (donate.png, donate-7p-de.png, donate-es.png).
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def donate(own_driver):
    return own_driver


@pytest.mark.ui
def test_one_tap_on_bens_red_cell_gives_ben_one_of_annas_red_goods(donate):
    assert donate["taps"] == 1
    assert donate["ben_red"] == donate["ben_red_before"] + 1
    assert donate["anna_red"] == donate["anna_red_before"] - 1
    assert donate["log"] == "Anna gave 1 red good to Ben"
    assert donate["undo_text"] == donate["log"]


@pytest.mark.ui
def test_the_next_donate_is_one_tap_to_anyone(donate):
    assert donate["second_taps"] == 1 and donate["second_log"] == "Anna gave 1 magic lamp to Chris"


@pytest.mark.ui
def test_a_dimmed_cell_says_why_in_the_engines_words(donate):
    assert donate["yellow_dimmed"] and donate["yellow_reason"] == "Anna has no yellow good"
    assert donate["yellow_reason_de"] == "Bei Anna nicht vorhanden: Ware gelb"


@pytest.mark.ui
def test_my_own_good_dragged_onto_a_player_is_given_to_them_and_a_tap_on_it_says_how(donate):
    assert not donate["own_dimmed"]
    assert donate["own_reason"] == "Drag it onto the player who receives it, or tap its colour on their row"
    assert donate["drag_touches"] == 1 and donate["drag_log"] == "Anna gave 1 red good to Dana"
    assert donate["dana_red"] == donate["dana_red_before"] + 1


@pytest.mark.ui
def test_the_receivers_name_and_panel_say_where_to_tap(donate):
    assert donate["name_reason"] == "To give Ben a good, tap it on Ben's row"
    assert donate["panel_reason"] == "To give Ben a good, tap it on Ben's row"
    assert donate["name_reason_de"] == "Um Ben eine Ware zu schenken, tippe sie in der Zeile von Ben an"


@pytest.mark.ui
def test_text_stays_large_and_every_glyph_is_in_the_font(donate):
    assert donate["small"] == {"donate": []} and donate["glyphs"] == {"donate": []}


# -- the driver ------------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from companion.games.obscurians.actions import Choose, RevealEvent, Roll
    from companion.ui.obscurians.turn import PickGood, PickSeat
    from tests.ui.obscurians_driver import Driver

    d = Driver(app, random.Random(args.seed))
    shots = Path(args.shots) if args.shots else None
    suffix = (f"-{args.players}p" if args.players != 4 else "") + (f"-{args.lang}" if args.lang != "en" else "")
    out: dict = {}
    await d.new_table(args.players, deck="physical")
    table, model = app.table, app.plugin.round
    # To the Donate by touch: Anna reveals Double Donate, taps in her roll and chooses Donate (3 × 2 = 6 to give).
    decided = table.state
    for move in (RevealEvent("double_donate"), Roll(("donate", "donate", "donate", "steal", "swap")),
                 Choose("donate", 0)):
        decided = await d.enter(decided, move, Counter())
    await d.close_moment()
    state = table.state
    out["ben_red_before"], out["anna_red_before"] = state.goods[1].get("red", 0), state.goods[0]["red"]
    # One tap on Ben's red cell: Ben receives one of Anna's red goods.
    before = d.taps
    await d.tap(d.widget_for(("choice", PickGood(1, "red"))))
    out["taps"] = d.taps - before
    state = table.state
    out["ben_red"], out["anna_red"] = state.goods[1].get("red", 0), state.goods[0]["red"]
    out["log"], out["undo_text"] = model.log[0]["text"], model.undo_text
    # Dimmed cells say why: a colour Anna does not have (on Ben's row), Anna's own row.
    yellow = d.widget_for(("choice", PickGood(1, "yellow")))
    out["yellow_dimmed"] = yellow.dimmed
    out["yellow_reason"] = await d.explain(yellow)
    own = d.widget_for(("choice", PickGood(0, "red")))
    out["own_dimmed"] = own.dimmed
    out["own_reason"] = await d.explain(own)
    # The receiver's name, and his panel: where to tap instead.
    out["name_reason"] = await d.explain(d.widget_for(("choice", PickSeat(1))))
    out["panel_reason"] = await d.explain(d.widget_for(("player", 1)))
    found: dict = {}
    d.look(found, "donate")
    out["small"], out["glyphs"] = found["small"], found["glyphs"]
    if shots:  # the goods rows during the Donate, with the reason a dimmed cell gives in the banner
        await d.tap(d.widget_for(("choice", PickGood(2, "yellow"))))
        await d.shot(shots, "donate" + suffix)
        app.dismiss_banner()
    # The next Donate: one tap, to someone else, nothing left selected from the last one.
    before = d.taps
    await d.tap(d.widget_for(("choice", PickGood(2, "lamp"))))
    out["second_taps"] = d.taps - before
    out["second_log"] = model.log[0]["text"]
    # One of Anna's reds carried onto Dana's panel on the edge of the table: a Donate in one touch.
    out["dana_red_before"] = table.state.goods[3].get("red", 0)
    before = d.taps
    await d.drag(d.widget_for(("choice", PickGood(0, "red"))), d.widget_for(("player", 3)))
    out["drag_touches"] = d.taps - before
    out["drag_log"], out["dana_red"] = model.log[0]["text"], table.state.goods[3].get("red", 0)
    if args.lang == "en":
        app.set_language("de")  # (the menu's language switch; tested by touch in test_round_screen.py)
        await d.frames(3)
        out["yellow_reason_de"] = await d.explain(d.widget_for(("choice", PickGood(1, "yellow"))))
        out["name_reason_de"] = await d.explain(d.widget_for(("choice", PickSeat(1))))
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    raise SystemExit(script_main(scenario))
