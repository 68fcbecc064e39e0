"""Donate in one tap on the real round screen, by touch: while the action is Donate, a cell on the receiver's row in
colour c gives that player one of my c goods. What a group at the table would notice: one tap on Ben's red cell
and Ben has one red more, Anna one less, the log says so; a cell that cannot be used says why in the engine's words
(in English and in German); the receiver's name, tapped, says where to tap instead.

This file is also the driver: run as a script it opens the app (one Kivy window per process, on the current
screen), reaches a Donate by touch (the intended moves tapped in through tests/ui/intents.py) and reports:

    python tests/ui/test_turn_donate_screen.py --data-dir D --out result.json [--players N] [--lang L] [--shots DIR]

With --shots it photographs the goods rows during the Donate (donate.png, donate-7p-de.png, donate-es.png).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def donate(tmp_path_factory):
    from tests.ui.conftest import run_script

    tmp = tmp_path_factory.mktemp("donate")
    (tmp / "data").mkdir()
    return run_script(Path(__file__), "--data-dir", str(tmp / "data"), out=tmp / "donate.json")


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
    assert donate["own_dimmed"] and donate["own_reason"] == "You cannot donate to yourself"
    assert donate["yellow_reason_de"] == "Bei Anna nicht vorhanden: Ware gelb"


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
    from tests.ui.harness import Driver

    d = Driver(app, random.Random(args.seed))
    shots = Path(args.shots) if args.shots else None
    suffix = (f"-{args.players}p" if args.players != 4 else "") + (f"-{args.lang}" if args.lang != "en" else "")
    out: dict = {}
    await d.new_table(args.players, deck="physical")
    table, model = app.table, app.plugin.round
    # To the Donate by touch: Anna reveals Double Donate, taps in her roll and chooses Donate (3 × 2 = 6 to give).
    for move in (RevealEvent("double_donate"), Roll(("donate", "donate", "donate", "steal", "swap")),
                 Choose("donate", 0)):
        await d.enter(move, Counter())
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
    if args.lang == "en":
        app.set_language("de")  # (the menu's language switch; tested by touch in test_round_screen.py)
        await d.frames(3)
        out["yellow_reason_de"] = await d.explain(d.widget_for(("choice", PickGood(1, "yellow"))))
        out["name_reason_de"] = await d.explain(d.widget_for(("choice", PickSeat(1))))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--lang", default="en")
    p.add_argument("--shots", default="")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp
    from tests.ui.drive import run_app

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)

    async def play() -> dict:
        return await scenario(app, args)

    return run_app(app, play, args.out, dump={"indent": 1, "ensure_ascii": False}, close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
