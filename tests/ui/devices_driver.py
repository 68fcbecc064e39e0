"""Drive the real app's devices screen and the dice at a table by touch, in its own process (like
tests/ui/obscurians_driver.py):

    python tests/ui/devices_driver.py --data-dir D --out result.json [--scenario NAME] [--shots DIR]

Scenarios:
  devices   with no radio here the screen offers simulated dice: tap it, see five dice connect and stay still until
            Roll all / Roll is tapped; bind one, flash it, turn the simulated stand over, put the dice in D20 shells,
            read a tile map, remove the dice (no rows left).
  table     five simulated GoDice bound to the henchmen roll into an open Obscurians table (the script's hand throws
            them): asked about when the table is not waiting, applied when it is.
  bind      issue 14's report, part one: Home → Dice and boards → Add simulated dice → bind five by touch; a 7-player
            table is waiting in the store, its turn's dice already rolled.
  unasked   part two, in a new run of the app: resume that table from Home by touch and wait (nothing rolls, nothing
            is asked, no chip goes); throw the dice from the table's menu (the unannounced throw is a question in
            words, "No" leaves the table as it was); pick a die and roll it (an announced reroll is booked); go Home
            (no question over it).
"""
from __future__ import annotations

import argparse
import asyncio
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

SEVEN = (("Anna", "red"), ("Ben", "orange"), ("Chris", "yellow"), ("Dana", "green"), ("Emil", "blue"),
         ("Fay", "pink"), ("Gus", "turquoise"))



async def wait_quietly(d: Touch, seconds: float, watch) -> list:
    """Let `seconds` pass with nobody touching anything; what `watch()` returned whenever it changed."""
    seen, last = [], object()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = watch()
        if now != last:
            seen.append(now)
            last = now
        await d.frames(5)
    return seen


def sheet_button(app, text: str):
    for w in app.sheet.walk(restrict=True):
        if type(w).__name__ in ("MenuExtra", "GoButton", "QuietButton", "RollDieButton") and w.text == text:
            return w
    raise Stuck(f"no {text!r} on the sheet: {[getattr(w, 'text', '') for w in app.sheet.walk(restrict=True)]}")


def rolls_counter(app) -> dict:
    """DieRolled observations per die from now on (what the dice did, whoever looked)."""
    from firmware_bridge.observations import DieRolled

    counts: dict[str, int] = {}
    app.devices.subscribe(lambda o: counts.__setitem__(o.die, counts.get(o.die, 0) + 1)
                          if isinstance(o, DieRolled) else None)
    return counts


async def add_simulated(d: Touch, app) -> None:
    await d.tap(d.by_id("devices"))  # Home's "Dice and boards"
    await d.wait_screen("devices")
    model = app.devices_model
    await d.until(lambda: model.offer_simulated, "simulated dice offered (no radio here)")
    await d.tap(d.by_id("simulated"))
    await d.until(lambda: len(model.dice) >= 5 and all("connected" in row["status"] for row in model.devices),
                "five simulated dice, connected", timeout=40)


async def scenario(app, args) -> dict:
    d = Touch(app)
    await d.wait_screen("home")
    if args.shots:
        await d.shot(Path(args.shots), f"home-{args.lang}")
    model = None
    await add_simulated(d, app)
    model = app.devices_model
    counts = rolls_counter(app)
    result = {"offer_after": model.offer_simulated, "dice": len(model.dice)}
    result["titles"] = [row["title"] for row in model.dice]
    result["devices"] = [(row["title"], row["status"]) for row in model.devices]
    # Nobody asks: nothing rolls (a simulated die acts only when asked).
    result["faces_while_nobody_asks"] = await wait_quietly(d, 6, lambda: [row["face"] for row in model.dice])
    result["rolls_while_nobody_asks"] = sum(counts.values())
    # Roll all: every die of the simulated set is thrown once.
    dice_row = next(r for r in d.by_class("DeviceRow") if r.url.startswith("sim://godice"))
    roll_all = next(w for w in dice_row.walk(restrict=True) if type(w).__name__ == "GoButton")
    result["roll_all_text"] = roll_all.text
    await d.tap(roll_all)
    await d.until(lambda: sum(counts.values()) >= 5 and all(r["face"].isdigit() for r in model.dice), "Roll all")
    result["rolls_after_roll_all"] = dict(sorted(counts.items()))
    if args.shots:
        await d.shot(Path(args.shots), "devices")
    result["faces"] = [row["face"] for row in model.dice]
    # Roll one die: only that one.
    first = model.dice[0]["die"]
    before = dict(counts)
    row = next(r for r in d.by_class("DieRow") if r.die == first)
    await d.tap(next(w for w in row.walk(restrict=True) if type(w).__name__ == "GoButton" and w.text == app.t("Roll")))
    await d.until(lambda: counts.get(first, 0) == before.get(first, 0) + 1, "one die's roll")
    await d.frames(20)
    result["rolled_one"] = {die: counts.get(die, 0) - before.get(die, 0) for die in counts}
    # Bind it to henchmen die 1, flash it.
    place = next(b for b in d.by_class("PlaceButton") if b.die == first and b.index == 0)
    await d.tap(place)
    await d.frames(3)
    result["bound"] = app.devices.manager.bindings.binding(first) is not None
    result["detail"] = next(row["detail"] for row in model.dice if row["die"] == first)
    flash = [b for b in d.walk() if type(b).__name__ == "QuietButton" and b.text == app.t("Flash")]
    await d.tap(flash[0])
    await d.frames(10)
    result["banner_after_flash"] = app.banner
    # The simulated stand turns over only with its button.
    stand_row = next(r for r in d.by_class("DeviceRow") if r.url.startswith("sim://tablebus"))
    await d.tap(next(w for w in stand_row.walk(restrict=True) if type(w).__name__ == "GoButton"))
    await d.until(lambda: "turned over" in next(r["status"] for r in model.devices
                                                 if r["url"].startswith("sim://tablebus")), "the stand turned over")
    result["stand_status"] = next(r["status"] for r in model.devices if r["url"].startswith("sim://tablebus"))
    # The dice wear D20 shells: the shell is picked on the screen (the die cannot tell).
    dice_row = next(r for r in d.by_class("DeviceRow") if r.url.startswith("sim://godice"))
    shell_button = next(w for w in dice_row.walk(restrict=True) if type(w).__name__ == "QuietButton"
                        and w.text.startswith(app.t("Shell: {shell}").split("{")[0]))
    result["shell_before"] = shell_button.text
    await d.tap(shell_button)
    await d.tap(sheet_button(app, "D20"))
    await d.until(lambda: any("shell=d20" in row["url"] for row in model.devices)
                and len(model.dice) == 5 and all("d20" in row["title"] for row in model.dice),
                "the dice in D20 shells", timeout=40)
    result["shell_after"] = next(row["shell_text"] for row in model.devices if "shell=d20" in row["url"])
    result["titles_d20"] = [row["title"] for row in model.dice]
    result["still_bound"] = app.devices.manager.bindings.binding(first) is not None
    # A tile-grid board: the map it reads shows live.
    grid_url = "sim://tablebus?kind=obelisk&name=tile-grid"
    await app.devices.add(grid_url, "Obelisk tile grid")
    await d.until(lambda: app.devices.manager.state(grid_url) is not None
                and app.devices.manager.state(grid_url).state == "connected", "the tile grid board")
    app.devices.manager.device(grid_url).board.script("tile 12 7 E")
    await d.until(lambda: model.grid and model.grid[12]["text"] == "7 E", "the tile on the map", timeout=10)
    result["grid_cell_12"] = model.grid[12]["text"]
    result["grid_title"] = model.grid_title
    if args.shots:
        await d.shot(Path(args.shots), "devices-tiles")
    saved = json.loads((Path(args.data_dir) / "devices.json").read_text())
    result["saved_urls"] = [x["url"] for x in saved["devices"]]
    result["saved_bindings"] = saved["bindings"]["bindings"]
    # Removed: the dice leave no rows, and their places are free.
    dice_row = next(r for r in d.by_class("DeviceRow") if r.url.startswith("sim://godice"))
    await d.tap(next(w for w in dice_row.walk(restrict=True) if type(w).__name__ == "QuietButton"
                     and w.text == app.t("Remove")))
    await d.until(lambda: not any(r["url"].startswith("sim://godice") for r in model.devices), "the dice removed")
    await d.frames(10)
    result["dice_after_remove"] = [row["title"] for row in model.dice]
    result["bindings_after_remove"] = len(app.devices.manager.bindings)
    result["every_title"] = [w.text for w in d.walk() if type(w).__name__ == "Txt"]
    # Find devices: listing serial ports (slow on some systems: udev) runs in a worker thread; the loop, the table
    # and the dice go on meanwhile.
    import threading

    from firmware_bridge.tablebus import ports

    listed = {}

    def slow_boards(every: bool = False):
        listed["thread"] = threading.get_ident()
        start = ticks[0]
        time.sleep(0.6)
        listed["ticks"] = ticks[0] - start        # the loop's ticks while the ports were being listed
        return [], ""

    ports.serial_boards, original = slow_boards, ports.serial_boards
    ticks = [0]

    async def ticker():
        while True:
            ticks[0] += 1
            await asyncio.sleep(0.01)

    task = asyncio.ensure_future(ticker())
    try:
        await d.tap(d.by_id("scan"))
        await d.until(lambda: "thread" in listed and not model.scanning, "the scan", timeout=30)
    finally:
        task.cancel()
        ports.serial_boards = original
    result["ports_listed_off_the_loop"] = listed["thread"] != threading.get_ident()
    result["loop_ticks_while_listing"] = listed["ticks"]
    result["scan_message"] = model.message
    return result


async def table_scenario(app, args) -> dict:
    """Five simulated GoDice bound to the henchmen dice roll into an open Obscurians table: a throw the rules do not
    want yet is asked about on a sheet (and nothing changes), a good throw shows on the round screen at once, a
    reroll nobody announced is a question in words, a die picked on the screen is the reroll."""
    from companion.games.obscurians.actions import RevealEvent
    from companion.games.obscurians.setup import Setup
    from companion.session.table import Table

    d = Touch(app)
    await d.wait_screen("home")
    url = "sim://godice?count=5&seed=3"   # thrown only when asked: here by the script's hand
    await app.devices.add(url, "table dice")
    await d.until(lambda: app.devices.manager.device(url) is not None
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
    await d.until(lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about the dice")
    result["question"] = app.sheet.question
    result["answers"] = [e["text"] for e in app.sheet.extras]
    if args.shots:
        await d.shot(Path(args.shots), "dice-question")
    result["dice_after_question"] = table.state.dice
    await d.tap(sheet_button(app, app.t("No, ignore this throw")))
    await d.frames(3)
    result["sheet_after_answer"] = app.sheet is not None
    table.apply(RevealEvent("no_swap"))
    await d.frames(3)
    app.close_sheet()  # the event card's announcement: read, and tapped away
    # The real throw: pips 1 1 2 4 3 are Steal Steal Swap Wild Relocate (RULING obscurians-dice).
    await throw(1, 1, 2, 4, 3)
    model = app.plugin.round
    await d.until(lambda: model.dice_shown, "the roll on the round screen")
    result["dice"] = list(table.state.dice)
    result["shown"] = [row["face"] for row in model.dice if row["index"] < 5]  # (then the New roll slot)
    result["log"] = [row.get("text", "") for row in model.log][:1]
    if args.shots:
        await d.shot(Path(args.shots), "dice-at-table")
    # Two dice thrown again, nothing said: it would cost a chip, so it is a question in words; yes books it.
    chips = table.state.chips_left(0)
    await sim.dice[0].roll(5)
    await sim.dice[3].roll(6)
    await d.until(lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about the reroll")
    result["reroll_question"] = app.sheet.question
    result["chips_while_asked"] = chips - table.state.chips_left(0)
    if args.shots:
        await d.shot(Path(args.shots), "dice-unasked")
    await d.tap(sheet_button(app, app.t("Yes, use these dice")))
    await d.until(lambda: table.state.dice[0] == "secure", "the reroll")
    result["after_reroll"] = list(table.state.dice)
    result["chips_used"] = chips - table.state.chips_left(0)
    result["face_down"] = table.state.hidden_discards[0]
    # Die 3 tapped on the screen to roll again: it lights up; die 2 thrown instead is asked about; die 3 is the reroll.
    await d.tap(next(b for b in d.by_class("ObsnDieButton") if b.index == 2))
    await d.until(lambda: sim.dice[2].leds[0] != (0, 0, 0), "die 3 lighting up")
    result["lit"] = [i for i in range(5) if sim.dice[i].leds[0] != (0, 0, 0)]
    await sim.dice[1].roll(6)
    await d.until(lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about die 2")
    result["wrong_die"] = app.sheet.question
    await d.tap(sheet_button(app, app.t("We roll again")))
    await sim.dice[2].roll(1)
    await d.until(lambda: table.state.dice[2] == "steal", "the announced reroll")
    await d.until(lambda: sim.dice[2].leds[0] == (0, 0, 0), "die 3 going dark")
    result["after_announced"] = list(table.state.dice)
    result["sheet_after_announced"] = type(app.sheet).__name__ if app.sheet is not None else None
    return result


async def bind_scenario(app, args) -> dict:
    """Issue 14, as reported: Dice and boards → Add simulated dice → bind five (by touch)."""
    from companion.games.obscurians.actions import RevealEvent, Roll
    from companion.games.obscurians.setup import Setup
    from companion.session.table import Table

    table = Table.create(app.store, "obscurians", Setup(players=SEVEN, deck="physical", seed=1), clock=app.clock)
    table.apply(RevealEvent("no_swap"))
    table.apply(Roll(("steal", "steal", "swap", "wild", "relocate")))  # Anna's turn: her dice are on the table
    d = Touch(app)
    await d.wait_screen("home")
    await add_simulated(d, app)
    model = app.devices_model
    for i, row in enumerate(list(model.dice)[:5]):
        await d.tap(next(b for b in d.by_class("PlaceButton") if b.die == row["die"] and b.index == i))
        await d.frames(2)
    await d.tap(d.by_id("back"))
    await d.wait_screen("home")
    saved = json.loads((Path(args.data_dir) / "devices.json").read_text())
    return {"table_id": table.id, "bound": [(b["role"], b["index"]) for b in saved["bindings"]["bindings"]],
            "chips": [table.state.chips_left(i) for i in range(7)]}


async def unasked_scenario(app, args) -> dict:
    """Issue 14, part two: the table resumed with five simulated dice bound; nothing plays into it by itself."""
    d = Touch(app)
    await d.wait_screen("home")
    await d.until(lambda: app.home.unfinished, "the table on Home")
    rows = [r for r in d.by_class("TableItem") if r.resume]
    await d.tap(rows[0].ids.open)  # Resume
    await d.wait_screen("round")
    table = app.table
    await d.until(lambda: len(app.devices.manager.bindings) == 5 and all(
        (app.devices.manager.state(u) or object()).__class__.__name__ == "ConnectionChanged"
        and app.devices.manager.state(u).state == "connected" for u in app.devices.manager.urls), "the dice connected")
    await d.until(lambda: len(app.dice_at_table.simulated()) == 5, "the five dice at the table")
    result = {"chips_before": [table.state.chips_left(i) for i in range(7)], "log_before": table.log_length}
    # Nobody touches anything for a while (the report: within 35 s the dice had spent all of Anna's chips).
    result["sheets_while_waiting"] = [s for s in await wait_quietly(
        d, args.wait, lambda: getattr(app.sheet, "question", None)) if s]
    result["chips_after_wait"] = [table.state.chips_left(i) for i in range(7)]
    result["log_after_wait"] = table.log_length
    if args.shots:
        await d.shot(Path(args.shots), "dice-waiting")
    # The dice thrown from the table's menu: nobody announced a reroll, so it is a question in words.
    menu = next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu")
    await d.tap(menu)
    result["menu"] = [e["text"] for e in app.sheet.extras]
    await d.tap(sheet_button(app, app.t("Throw the simulated dice")))
    result["roll_sheet"] = {"all": app.sheet.all_text, "dice": [x["text"] for x in app.sheet.dice],
                            "picked": app.sheet.picked_text}
    if args.shots:
        await d.shot(Path(args.shots), "dice-roll-sheet")
    await d.tap(sheet_button(app, app.sheet.all_text))
    await d.until(lambda: type(app.sheet).__name__ == "ChoiceSheet", "the question about the throw")
    result["question"] = app.sheet.question
    result["answers"] = [e["text"] for e in app.sheet.extras]
    if args.shots:
        await d.shot(Path(args.shots), "dice-unasked-all")
    await d.tap(sheet_button(app, app.t("No, ignore this throw")))
    await d.frames(5)
    result["after_no"] = {"chips": table.state.chips_left(0), "log": table.log_length,
                          "sheet": type(app.sheet).__name__ if app.sheet is not None else None}
    # The question does not come back by itself.
    result["sheets_after_no"] = [s for s in await wait_quietly(d, 5, lambda: getattr(app.sheet, "question", None))
                                 if s]
    # Die 3 picked on the screen to roll again, thrown from the menu: an announced reroll, booked (one chip).
    await d.tap(next(b for b in d.by_class("ObsnDieButton") if b.index == 2))
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu"))
    await d.tap(sheet_button(app, app.t("Throw the simulated dice")))
    result["picked_text"] = app.sheet.picked_text
    await d.tap(sheet_button(app, app.sheet.picked_text))
    await d.until(lambda: table.log_length == result["log_before"] + 1, "the announced reroll")
    result["after_announced"] = {"chips": table.state.chips_left(0), "hidden": table.state.hidden_discards[0],
                                 "last": table.actions[-1].to_text()}
    # Home: no question follows the players there, whatever the dice do.
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "home"))
    await d.wait_screen("home")
    for _, die in app.devices.simulated_dice("henchmen"):
        await app.devices.throw(die)
    result["sheets_on_home"] = [s for s in await wait_quietly(d, 4, lambda: type(app.sheet).__name__
                                                              if app.sheet is not None else None) if s]
    return result


async def hands_scenario(app, args) -> dict:
    """Hands at the table (issue 16 §5): five simulated Pixels dice bound; after the turn's roll two dice are picked on
    the screen and rolled again, while a player picks up die 4 and puts it back — the reroll goes in, nothing stalls.
    Then five GoDice: die 2 turned to another face by hand — no roll, no question, nothing booked."""
    from companion.games.obscurians.actions import RevealEvent
    from companion.games.obscurians.setup import Setup
    from companion.session.table import Table

    d = Touch(app)
    await d.wait_screen("home")
    pixels, godice = "sim://pixels?count=5&seed=5&die=d6&crooked=0", "sim://godice?count=5&seed=6"
    for url in (pixels, godice):
        await app.devices.add(url)
    await d.until(lambda: all(app.devices.manager.device(u) is not None and len(app.devices.manager.device(u).dice)
                               == 5 for u in (pixels, godice)), "ten simulated dice", timeout=40)
    px, gd = app.devices.manager.device(pixels), app.devices.manager.device(godice)
    for i in range(5):
        app.devices.bind(px.address(i), "henchmen", i)
    table = Table.create(app.store, "obscurians", Setup(players=(("Anna", "red"), ("Ben", "blue"),
                                                                  ("Chris", "green"), ("Dana", "yellow")),
                                                         deck="physical", seed=1), clock=app.clock)
    table.apply(RevealEvent("no_swap"))
    app.attach(table)
    await d.wait_screen("round")
    app.close_sheet()
    await d.until(lambda: len(app.dice_at_table.simulated()) == 5, "the five dice at the table")
    result = {}
    # The turn's roll from the table's menu: Roll all.
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu"))
    await d.tap(sheet_button(app, app.t("Throw the simulated dice")))
    await d.tap(sheet_button(app, app.sheet.all_text))
    await d.until(lambda: table.state.dice is not None, "the turn's roll")
    result["rolled"] = list(table.state.dice)
    log = table.log_length
    await d.frames(5)                             # the screen shows the roll before anyone picks a die
    # Dice 1 and 2 picked on the screen; a player picks up die 4 (to look at it) while they are thrown …
    for index in (0, 1):
        await d.tap(next(b for b in d.by_class("ObsnDieButton") if b.index == index))
        await d.until(lambda: index in app.dice_at_table.picked, f"die {index + 1} picked")
    await px.dice[3].pick_up()
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu"))
    await d.tap(sheet_button(app, app.t("Throw the simulated dice")))
    result["picked_text"] = app.sheet.picked_text
    await d.tap(sheet_button(app, app.sheet.picked_text))
    await asyncio.sleep(2.0)                      # the two dice have landed; die 4 is still in a hand
    result["waiting_while_held"] = table.log_length == log
    put_back = time.monotonic()
    await px.dice[3].put_back()                    # … and puts it back on the face it showed: not a roll
    await d.until(lambda: table.log_length == log + 1, "the reroll, once die 4 is back", timeout=15)
    result["seconds_after_put_back"] = round(time.monotonic() - put_back, 2)
    result["reroll"] = table.actions[-1].to_text()
    result["die_4_unchanged"] = table.state.dice[3] == result["rolled"][3]
    result["question_after_pickup"] = getattr(app.sheet, "question", None)
    # GoDice now: die 2 turned to another face by hand ("MS"): no roll, no question, the table as it was.
    app.devices.unbind(px.address(0))
    for i in range(5):
        app.devices.bind(gd.address(i), "henchmen", i)
    await d.frames(5)
    log, dice = table.log_length, list(table.state.dice)
    await gd.dice[1].turn_by_hand(6 if dice[1] != "donate" else 5)
    seen = await wait_quietly(d, 3, lambda: (table.log_length, getattr(app.sheet, "question", None)))
    result["after_turn"] = {"log_unchanged": table.log_length == log, "dice_unchanged": list(table.state.dice) == dice,
                            "questions": [q for _, q in seen if q]}
    app.show_devices()
    await d.wait_screen("devices")
    await d.until(lambda: any(r["die"] == gd.address(1) for r in app.devices_model.dice), "the GoDice row")
    await d.frames(5)
    row = next(r for r in app.devices_model.dice if r["die"] == gd.address(1))
    result["devices_row"] = {"face": row["face"], "detail": row["detail"]}
    if args.shots:
        await d.shot(Path(args.shots), "devices-set-down")
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shots", default="")
    p.add_argument("--lang", default="en")
    p.add_argument("--wait", type=float, default=12.0, help="seconds the unasked scenario waits untouched")
    p.add_argument("--scenario", choices=("devices", "table", "bind", "unasked", "hands"), default="devices")
    args = p.parse_args()
    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=1)

    play = {"devices": scenario, "table": table_scenario, "bind": bind_scenario,
            "unasked": unasked_scenario, "hands": hands_scenario}[args.scenario]
    return run_app(app, lambda: play(app, args), args.out, dump={"indent": 1}, after=app.close_devices,
                   close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
