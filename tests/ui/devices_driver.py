"""Drive the real app's devices screen by touches, in its own process (like tests/ui/harness.py):

    python tests/ui/devices_driver.py --data-dir D --out result.json [--shots DIR]

With no radio here, the screen offers simulated dice: tap it, watch five dice connect and roll by themselves, bind the
first one to henchmen die 1 with a tap, flash it, and report what the screen showed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.drive import run_app  # noqa: E402
from tests.ui.touch import Stuck, Touch  # noqa: E402  (the shared touch driver)


async def scenario(app, args) -> dict:

    d = Touch(app)
    await d.wait_screen("home")
    if args.shots:
        await d.shot(Path(args.shots), f"home-{args.lang}")
    await d.tap(d.by_id("devices"))  # Home's "Dice and boards"
    await d.wait_screen("devices")
    model = app.devices_model
    result = {"offered_simulated": model.offer_simulated}
    simulated = d.by_id("simulated")
    if not d.visible(simulated):
        raise Stuck("no radio here, yet simulated dice are not offered")
    await d.tap(simulated)
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        rolled = [row for row in model.dice if row["face"] not in ("?", "–")]
        if len(model.dice) >= 5 and rolled:
            break
        await d.frames(5)
    else:
        raise Stuck(f"the simulated dice did not show up: {model.dice} {model.devices}")
    result["offer_after"] = model.offer_simulated
    result["dice"] = len(model.dice)
    result["faces"] = [row["face"] for row in model.dice]
    result["devices"] = [(row["title"], row["status"]) for row in model.devices]
    first = model.dice[0]["die"]
    place = next(b for b in d.by_class("PlaceButton") if b.die == first and b.index == 0)
    await d.tap(place)
    await d.frames(3)
    result["bound"] = app.devices.manager.bindings.binding(first) is not None
    result["detail"] = next(row["detail"] for row in model.dice if row["die"] == first)
    flash = [b for b in d.walk() if type(b).__name__ == "QuietButton" and b.text == app.t("Flash")]
    await d.tap(flash[0])
    await d.frames(10)
    result["banner_after_flash"] = app.banner
    # A tile-grid board: the map it reads shows live.
    grid_url = "sim://tablebus?kind=obelisk&name=tile-grid"
    await app.devices.add(grid_url, "Obelisk tile grid")
    deadline = time.monotonic() + 20
    while (app.devices.manager.state(grid_url) is None or app.devices.manager.state(grid_url).state != "connected"):
        if time.monotonic() > deadline:
            raise Stuck("the tile grid board did not connect")
        await d.frames(3)
    app.devices.manager.device(grid_url).board.script("tile 12 7 E")
    deadline = time.monotonic() + 10
    while not (model.grid and model.grid[12]["text"] == "7 E"):
        if time.monotonic() > deadline:
            raise Stuck(f"the tile did not show: {model.grid}")
        await d.frames(3)
    result["grid_cell_12"] = model.grid[12]["text"]
    result["grid_title"] = model.grid_title
    if args.shots:
        await d.shot(Path(args.shots), "devices")
    saved = json.loads((Path(args.data_dir) / "devices.json").read_text())
    result["saved_urls"] = [x["url"] for x in saved["devices"]]
    result["saved_bindings"] = saved["bindings"]["bindings"]
    return result


async def until(d: Touch, predicate, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise Stuck(f"waited in vain for {what}")
        await d.frames(3)


async def table_scenario(app, args) -> dict:
    """Five simulated GoDice bound to the henchmen dice roll into an open Obscurians table: a throw the rules do not
    want yet is asked about on a sheet (and nothing changes), a good throw shows on the round screen at once."""
    from companion.games.obscurians.actions import RevealEvent
    from companion.games.obscurians.setup import Setup
    from companion.session.table import Table

    d = Touch(app)
    await d.wait_screen("home")
    url = "sim://godice?count=5&seed=3&every=0"   # dice that roll only when the script throws them
    await app.devices.add(url, "table dice")
    await until(d, lambda: app.devices.manager.device(url) is not None
                and len(app.devices.manager.device(url).dice) == 5, "five simulated dice")
    sim = app.devices.manager.device(url)
    for i in range(5):
        app.devices.bind(sim.address(i), "henchmen", i)
    table = Table.create(app.store, "obscurians", Setup(players=(("Anna", "red"), ("Ben", "blue"),
                                                                  ("Chris", "green"), ("Dana", "yellow")),
                                                         deck="physical", seed=1), clock=app.clock)
    app.attach(table)
    await d.wait_screen("round")
    result = {}

    async def throw(*pips):
        for die, p in zip(sim.dice, pips):
            await die.roll(p)

    # Thrown before the event card is revealed: asked about, on a sheet for everyone; the table is unchanged.
    await throw(1, 1, 2, 4, 3)
    await until(d, lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about the dice")
    result["question"] = app.sheet.question
    result["answers"] = [e["text"] for e in app.sheet.extras]
    if args.shots:
        await d.shot(Path(args.shots), "dice-question")
    result["dice_after_question"] = table.state.dice
    again = next(b for b in app.sheet.walk(restrict=True)
                 if type(b).__name__ == "MenuExtra" and b.text == app.t("We roll again"))
    await d.tap(again)
    await d.frames(3)
    result["sheet_after_answer"] = app.sheet is not None
    table.apply(RevealEvent("no_swap"))
    await d.frames(3)
    app.close_sheet()  # the event card's announcement: read, and tapped away
    # The real throw: pips 1 1 2 4 3 are Steal Steal Swap Wild Relocate (RULING obscurians-dice).
    await throw(1, 1, 2, 4, 3)
    model = app.plugin.round
    await until(d, lambda: model.dice_shown, "the roll on the round screen")
    result["dice"] = list(table.state.dice)
    result["shown"] = [row["face"] for row in model.dice if row["index"] < 5]  # (then the New roll slot)
    result["log"] = [row.get("text", "") for row in model.log][:1]
    if args.shots:
        await d.shot(Path(args.shots), "dice-at-table")
    # Two dice thrown again, nothing said: a reroll paid with one chip, face down.
    chips = table.state.chips_left(0)
    await sim.dice[0].roll(5)
    await sim.dice[3].roll(6)
    await until(d, lambda: table.state.dice[0] == "secure", "the reroll")
    result["after_reroll"] = list(table.state.dice)
    result["chips_used"] = chips - table.state.chips_left(0)
    result["face_down"] = table.state.hidden_discards[0]
    # Die 3 tapped on the screen to roll again: it lights up; die 2 thrown instead is asked about; die 3 is the reroll.
    await d.tap(next(b for b in d.by_class("DieButton") if b.index == 2))
    await until(d, lambda: sim.dice[2].leds[0] != (0, 0, 0), "die 3 lighting up")
    result["lit"] = [i for i in range(5) if sim.dice[i].leds[0] != (0, 0, 0)]
    await sim.dice[1].roll(6)
    await until(d, lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about die 2")
    result["wrong_die"] = app.sheet.question
    await d.tap(next(b for b in app.sheet.walk(restrict=True)
                     if type(b).__name__ == "MenuExtra" and b.text == app.t("We roll again")))
    await sim.dice[2].roll(1)
    await until(d, lambda: table.state.dice[2] == "steal", "the announced reroll")
    await until(d, lambda: sim.dice[2].leds[0] == (0, 0, 0), "die 3 going dark")
    result["after_announced"] = list(table.state.dice)
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shots", default="")
    p.add_argument("--lang", default="en")
    p.add_argument("--scenario", choices=("devices", "table"), default="devices")
    args = p.parse_args()
    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=1)

    play = table_scenario if args.scenario == "table" else scenario
    return run_app(app, lambda: play(app, args), args.out, dump={"indent": 1}, after=app.close_devices,
                   close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
