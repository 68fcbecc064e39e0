"""What the Obscurio driver does on the real app (tests/ui/obscurio_driver.py runs one scenario per process).

Each scenario is a coroutine `(finger, args) -> dict` that only taps, types and moves the fake clock, and reports
what the screen showed for the test to check. Moves are chosen by reading the table's state the way the group reads
the real table (which door the Grimoire's Exit is, who holds the Traitor card in a game with real cards).
"""
from __future__ import annotations

from pathlib import Path

from tests.ui.obscurio_driver import NAMES
from tests.ui.touch import Stuck

TABLE, NIGHT, ACCUSE, END, PRIVATE = ("obscurio-table", "obscurio-night", "obscurio-accusation", "obscurio-end",
                                      "obscurio-loyalty")
TRAITOR = "yellow"   # in the real-cards game the driver plays, Eli (yellow) holds the Traitor card


def _shots(args):
    return Path(args.shots) if args.shots else None


# ----------------------------------------------------------------- building blocks

async def new_table(f, args, n: int = 5, loyalty: str = "table", bag: str = "app", shots=None) -> list[str]:
    await f.wait_screen("home")
    card = f.by_class("GameCard", game="obscurio")[0]
    await f.tap(card.ids.new_button)
    await f.wait_screen("obscurio-setup")
    if n != 5:
        await f.tap(f.one("ObsoCountButton", n=n))
    for row in sorted(f.by_class("ObsoSetupRow"), key=lambda r: r.index):
        await f.type_text(row.ids.name, NAMES[row.index])
    if bag != "app":
        await f.tap(f.by_id("bag_physical"))
    if loyalty != "table":
        await f.tap(f.by_id("loyalty_app"))
    await f.shot(shots, f"{args.prefix}setup")
    await f.tap(f.by_id("start"))
    await f.frames(3)
    await f.shot(shots, f"{args.prefix}checklist")
    return await close_checklist(f)


async def close_checklist(f) -> list[str]:
    """The box's checklist laid over the first screen: read it, then "Everything is set"."""
    sheet = f.app.sheet
    if sheet is None or type(sheet).__name__ != "ObsoChecklistSheet":
        raise Stuck(f"expected the box's checklist, got {sheet!r}")
    lines = [line["text"] for line in sheet.lines]
    await f.tap(sheet.ids.checked)
    await f.frames(2)
    return lines


async def maybe_acknowledge(f) -> dict | None:
    """The moment over the table, if one came (the Watcher wakes with an Exit), acknowledged."""
    return await acknowledge(f) if f.app.sheet is not None else None


async def acknowledge(f) -> dict:
    """A moment laid over the table (the traps drawn, the Watcher): what it says, then a tap to go on."""
    sheet = f.app.sheet
    if sheet is None:
        raise Stuck("expected a moment over the table")
    seen = {"kind": type(sheet).__name__, "title": getattr(sheet, "title", ""), "text": getattr(sheet, "text", ""),
            "traps": [t["name"] for t in getattr(sheet, "traps", [])]}
    from kivy.core.window import Window

    await f.tap_at(Window.width / 2, Window.height / 2)
    await f.frames(2)
    if f.app.sheet is not None:
        raise Stuck("the moment did not close on a tap")
    return seen


def state(f):
    return f.app.table.state


def banner(f) -> str:
    return f.app.banner


async def through_step_3(f, decoys: int = 0, listen: bool = False, shots=None, args=None, turn: bool = True) -> dict:
    """Steps 1 to 3 by touch: the app's draw (its moment acknowledged), the riddle, the night (listened to line by
    line, or moved on line by line), the Grimoire's tap at the Traitor's choice (under Dark Magic: the count,
    hidden); then step 4's first card down turns the glass (unless `turn` is False)."""
    from companion.games.obscurio.night import choice_line, count_needed, script

    seen = {}
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("draw"))
    if shots is not None:
        await f.shot(shots, f"{args.prefix}traps-moment")
    seen["traps_moment"] = await acknowledge(f)
    if shots is not None:
        await f.shot(shots, f"{args.prefix}riddle")
    await f.tap(f.by_id("riddle"))
    seen.update(await night(f, decoys, listen, shots, args))
    if shots is not None:
        await f.shot(shots, f"{args.prefix}first-card")
    if turn:
        await f.tap(f.by_id("first_card"))
    return seen


async def night(f, decoys: int = 0, listen: bool = False, shots=None, args=None) -> dict:
    """Step 3 by touch: the lines listened to (the clock moves) or moved on with Next line, the Grimoire's tap at
    the Traitor's choice (under Dark Magic: the count), the last lines; then step 4's table."""
    from companion.games.obscurio.night import choice_line, count_needed, script

    seen = {}
    await f.wait_screen(NIGHT)
    model = f.app.plugin.night
    lines = script(state(f))
    choice = choice_line(lines)
    shown = []
    for i, line in enumerate(lines[:choice]):
        shown.append(f.by_id("line").text)
        if i == 2 and shots is not None:
            await f.shot(shots, f"{args.prefix}night")
        if listen:
            await f.advance(line.seconds)
        else:
            await f.tap(f.by_id("next_line"))
    shown.append(f.by_id("line").text)
    if listen:
        await f.advance(600)                      # the Traitor takes their time: the night waits
        seen["after_ten_minutes"] = f.by_id("line").text
        if shots is not None:
            await f.shot(shots, f"{args.prefix}night-choice")
    seen["choice_texts"] = f.texts()
    if count_needed(state(f)):
        seen["count_options"] = [b.value for b in f.by_class("ObsoPickButton")]
        await f.tap(f.one("ObsoPickButton", value=min(decoys, max(seen["count_options"]))))
        seen["after_count_texts"] = f.texts()
    else:
        await f.tap(f.by_id("close_holder"))
    for line in lines[choice + 1:]:
        shown.append(f.by_id("line").text)
        if listen:
            await f.advance(line.seconds)
        else:
            await f.tap(f.by_id("next_line"))
    seen["night_lines"] = shown
    await f.wait_screen(TABLE)
    assert model is f.app.plugin.night
    return seen


async def place(f, chip: str, door: int) -> None:
    await f.tap(f.one("ObsoChipCell", chip=chip, door=door))


async def choose_doors(f, right: list, wrong: list, leave: list = ()) -> tuple[int, int]:
    """Step 4 by touch: `right` chips on the door that will be the Exit, `wrong` ones on another, `leave` none.
    Under Locked Doors the doors are revealed one at a time (the right ones take the first, the wrong the second).
    Returns (exit door, wrong door)."""
    s = state(f)
    exit_door, wrong_door = 1, 2
    if s.locked:
        for chip in right:
            await place(f, chip, 1)
        if wrong:
            await f.tap(f.by_id("open_next"))
            for chip in wrong:
                await place(f, chip, 2)
        return exit_door, wrong_door
    for chip in right:
        await place(f, chip, exit_door)
    for chip in wrong:
        await place(f, chip, wrong_door)
    return exit_door, wrong_door


async def finish_doors(f) -> None:
    """All agreed (under Locked Doors: reveal the remaining doors first, then agree)."""
    from companion.games.obscurio.actions import Done

    while state(f).phase == "doors" and not state(f).is_legal(Done()):
        await f.tap(f.by_id("open_next"))
    if state(f).phase == "doors":
        await f.tap(f.by_id("done"))


async def reveal(f, door: int, shots=None, name: str = "") -> dict:
    await f.wait_screen(TABLE)
    if state(f).phase != "exit":
        raise Stuck(f"expected the Exit reveal, the table is at {state(f)!r}; banner {banner(f)!r}")
    out = {"prompt": f.app.plugin.turn.prompt, "moment_before": f.app.plugin.turn.moment}
    await f.tap(f.one("ObsoDoorHead", door=door))
    if f.app.sheet is not None and shots is not None:
        await f.shot(shots, f"{name}-moment")
    out["moment_over"] = await maybe_acknowledge(f)
    out["watcher_text"] = f.app.plugin.board.watcher_text         # once awake, large, in the traps panel
    out["rooms_caption"] = next(t["caption"] for t in f.app.plugin.board.tiles if t["key"] == "rooms")
    out.update(moment=f.app.plugin.turn.moment, headline=f.app.plugin.turn.prompt,
               costs=[line["text"] for line in f.app.plugin.turn.result_lines])
    if name and not name.endswith("watcher") and f.app.sm.current == TABLE:
        await f.shot(shots, name)
    return out


async def next_turn(f) -> None:
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("next_turn"))


def split(chips, wrong_n: int):
    """Which chips go wrong this turn: the last `wrong_n` (never the Traitor's chip first: it is just a chip)."""
    chips = list(chips)
    wrong_n = max(0, min(wrong_n, len(chips) - 1))
    return chips[:len(chips) - wrong_n], chips[len(chips) - wrong_n:]


def wrong_budget(s) -> int:
    """Wrong chips that empty the normal area without touching the dark one (Dangerous Room adds one)."""
    extra = 1 if "dangerous_room" in s.effects else 0
    return max(0, s.normal - extra) if s.normal > extra else 0


# ----------------------------------------------------------------- scenarios

async def play(f, args) -> dict:
    """A whole 5-player game with real loyalty cards (Eli is the Traitor), the app drawing the traps."""
    shots = _shots(args)
    out: dict = {"turns": []}
    out["checklist"] = await new_table(f, args, shots=shots)
    app = f.app
    out["table_id"] = app.table.id
    out.update(await through_step_3(f, decoys=2, listen=True, shots=shots, args=args))

    # Turn 1, step 4: a refused tap says why; a chip put, undone, redone; the sand runs out onto space 2.
    await f.tap(f.by_id("done"))
    out["refused_done"] = banner(f)
    out["phase_after_refusal"] = state(f).phase
    await f.tap(f.one("ObsoDoorHead", door=3))      # a door's number is the Exit's button only after step 4
    out["early_exit"] = banner(f)
    await place(f, "blue", 5)
    out["undo_text"] = f.by_id("undo").text
    out["log_after_chip"] = [line["text"] for line in app.plugin.board.log]
    await f.tap(f.by_id("undo"))
    out["door_after_undo"] = state(f).door_of("blue")
    out["redo_text"] = f.by_id("redo").text
    await f.tap(f.by_id("redo"))
    out["door_after_redo"] = state(f).door_of("blue")
    await place(f, "blue", 1)          # Bea changes her mind: from door 5 to door 1
    s = state(f)
    if len(s.track) > 1:
        await f.advance(15)
        out["time_at_15s"] = f.by_id("time").text
        out["numbers"] = numbers_both_sides(f)
        await f.shot(shots, f"{args.prefix}table-step4")
        await f.advance(45)
        out["flip"] = {"space": state(f).space, "time": f.by_id("time").text, "log": app.plugin.board.log[0]["text"]}
    right, wrong = split(s.chips, 2)
    ex, _ = await choose_doors(f, [c for c in right if c != "blue"], wrong)
    await finish_doors(f)
    out["turns"].append(await reveal(f, ex, shots, f"{args.prefix}exit-reveal"))
    await next_turn(f)

    # Turn 2: only two chips placed before the sand runs out on the last space: "Stop!".
    await through_step_3(f)
    s = state(f)
    right, wrong = split(s.chips, 1)
    await choose_doors(f, right[:1], wrong)
    for _ in range(len(state(f).track) - state(f).space):
        await f.advance(state(f).setup.rules.hourglass)
    out["stop"] = {"phase": state(f).phase, "stopped": state(f).stopped, "moment": app.plugin.turn.moment}
    await f.shot(shots, f"{args.prefix}stop")
    out["turns"].append(await reveal(f, 1))
    await next_turn(f)

    # Then wrong doors until the normal area is empty: the accusation.
    while state(f).phase not in ("discussion",):
        await through_step_3(f, decoys=1)
        s = state(f)
        right, wrong = split(s.chips, wrong_budget(s))
        ex, _ = await choose_doors(f, right, wrong)
        await finish_doors(f)
        out["turns"].append(await reveal(f, ex, shots, f"{args.prefix}watcher"))
        if state(f).phase == "end":
            await next_turn(f)
        if len(out["turns"]) > 12:
            raise Stuck("the normal area never emptied")
    out["accusation"] = await accusation_tie_then_traitor(f, args, shots)
    await next_turn(f)

    # The Traitor is out: the loyal wizards find every Exit until they escape.
    while state(f).phase not in ("over", "unmask"):
        await through_step_3(f)
        ex, _ = await choose_doors(f, list(state(f).chips), [])
        await finish_doors(f)
        out["turns"].append(await reveal(f, ex))
        if state(f).phase == "end":
            await next_turn(f)
        if len(out["turns"]) > 25:
            raise Stuck("the game does not end")
    await f.wait_screen(END)
    end = app.plugin.end
    out["end"] = {"headline": end.headline, "why": end.why, "prompt": end.prompt, "secrets": end.secret_text,
                  "players": [p["text"] for p in end.player_lines]}
    await f.tap(f.by_id("export"))
    out["export_text"] = end.export_text
    out["export_banner"] = banner(f)
    await f.shot(shots, f"{args.prefix}end")
    out["final"] = state(f).to_json()
    out["moves"] = app.plugin.moves.lines(app.lang)
    await f.tap(f.by_id("home"))
    await f.wait_screen("home")
    # The finished game, opened again from Home's history: the same result.
    await f.home_list(finished=True)
    rows = [r for r in f.by_class("TableItem") if not r.resume and r.table_id == out["table_id"]]
    await f.tap(_open_button(rows[0]))
    await f.wait_screen(END)
    out["history"] = {"headline": app.plugin.end.headline, "prompt": app.plugin.end.prompt}
    return out


def _open_button(row):
    """A table's Resume / Scores button on Home (`open` in the shell's kv; the row's big button otherwise)."""
    button = row.ids.get("open")
    if button is None:
        from companion.ui.widgets.buttons import BigButton

        button = next(c for c in row.children if isinstance(c, BigButton))
    return button


async def accusation_tie_then_traitor(f, args, shots) -> dict:
    """Round 1: the hourglass runs out, a tied vote (Bea and Cruz), both Loyal. Round 2: Eli is found."""
    out = {}
    await f.wait_screen(ACCUSE)
    model = f.app.plugin.accuse
    # First what the turn cost, before anyone argues: the glass waits for the group.
    out["result_view"] = model.view
    out["result_lines"] = [line["text"] for line in model.result_lines]
    await f.shot(shots, f"{args.prefix}accusation-result")
    await f.advance(30)
    out["phase_while_reading"] = state(f).phase
    await f.tap(f.by_id("turn_glass"))
    out["talk_time"] = f.by_id("time").text
    out["talk_prompt"] = model.prompt
    out["talk_cards"] = [line["text"] for line in model.card_lines]
    await f.shot(shots, f"{args.prefix}accusation-talk")
    await f.advance(state(f).setup.rules.hourglass)
    out["after_sand"] = state(f).phase
    votes = {"blue": "green", "green": "blue", "red": "blue", "yellow": "green"}
    for voter, target in votes.items():
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=target))
    await f.shot(shots, f"{args.prefix}accusation")
    from tests.ui.fit import control_places, moved

    places = control_places(f.screen())
    await f.tap(f.by_id("count"))
    out["accused"] = list(state(f).accused)
    out["loyalty_prompt"] = f.app.plugin.accuse.prompt
    await f.tap(f.one("ObsoCardButton", value=""))
    out["round2_result"] = model.headline
    out["round2_lines"] = [line["text"] for line in model.result_lines]
    out["box_after_round1"] = state(f).box
    await f.tap(f.by_id("turn_glass"))
    await f.tap(f.by_id("vote_now"))
    out["votes_moved"] = moved(places, control_places(f.screen()))
    for voter in ("blue", "green", "red"):
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=TRAITOR))
    await f.tap(f.one("ObsoVoteCell", voter=TRAITOR, target="blue"))
    await f.tap(f.by_id("count"))
    await f.tap(f.one("ObsoCardButton", value=TRAITOR))
    await f.wait_screen(TABLE)
    out["found"] = [line["text"] for line in f.app.plugin.turn.result_lines]
    # Undo now would take back a Traitor the whole table has seen: it asks first, and says so.
    await f.tap(f.by_id("undo"))
    sheet = f.app.sheet
    out["undo_warning"] = {"question": sheet.question, "detail": sheet.detail} if sheet is not None else None
    await f.tap(sheet.ids.no)
    out["exposed_after_cancel"] = state(f).exposed
    return out


def numbers_both_sides(f) -> dict:
    """The numbers the group argues over: what the far long side reads (the band turned half a turn) and what the
    near side reads (the tiles of the right column), with the size of each number."""
    from kivy.uix.label import Label

    band = f.by_id("far_band")
    turned = next(w for w in band.walk(restrict=True) if type(w).__name__ == "Turned")
    near = f.by_id("near_tiles")

    def tiles(root):
        out = {}
        for tile in [w for w in root.walk(restrict=True) if type(w).__name__ == "ObsoTile"]:
            value = tile.ids.get("value") or next(w for w in tile.children if isinstance(w, Label))
            out[tile.key] = [tile.value, round(value.font_size)]
        return out

    chips = [w for w in band.walk(restrict=True) if type(w).__name__ == "PillRow"][0]
    return {"far_angle": turned.angle, "far": tiles(band), "near": tiles(near),
            "far_cards": [c["text"] for c in chips.data], "near_cards": [c["text"] for c in f.by_id("near_cards").data]}


async def deal(f, args) -> dict:
    """App-dealt loyalty: each wizard takes the tablet, holds their card, lets go, passes it on. The traps come
    from the group's real bag: +2, Locked Doors and Great Room, tapped in; step 4 then reveals the 7 doors one at
    a time."""
    out: dict = {"states": []}
    await new_table(f, args, loyalty="app", bag="physical")
    await f.wait_screen(PRIVATE)
    shots = _shots(args)
    app = f.app
    out["table_id"] = app.table.id
    await f.tap(f.by_id("finish"))               # too early: not everyone has seen
    out["early_finish"] = banner(f)
    app.dismiss_banner()
    await f.frames(2)
    for chip in state(f).setup.wizards:
        name = state(f).setup.name_of(chip)
        out["states"].append({"who": name, "when": "list", "texts": f.texts()})
        await f.tap(f.one("ObsoWizardButton", value=chip))
        out["states"].append({"who": name, "when": "before", "texts": f.texts()})
        card = f.by_id("card")
        touch = await f.press(card)
        out["states"].append({"who": name, "when": "holding", "texts": f.texts()})
        if chip == "blue":
            await f.shot(shots, f"{args.prefix}loyalty-held")
        await f.lift(touch)
        out["states"].append({"who": name, "when": "after", "texts": f.texts()})
        await f.tap(f.by_id("pass_on"))
    out["states"].append({"who": "", "when": "list", "texts": f.texts()})
    await f.shot(shots, f"{args.prefix}loyalty")
    await f.tap(f.by_id("finish"))
    await f.wait_screen(TABLE)
    out["table_texts"] = f.texts()
    await f.tap(f.by_id("loyalty"))                # a wizard forgot: a deliberate request, from the table
    await f.wait_screen(PRIVATE)
    out["again_texts"] = f.texts()
    await f.shot(shots, f"{args.prefix}loyalty-request")
    await f.tap(f.one("ObsoWizardButton", value="green"))
    out["request_texts"] = f.texts()
    await f.shot(shots, f"{args.prefix}loyalty-only-one-looks")
    touch = await f.press(f.by_id("card"))
    out["looked_holding"] = f.texts()
    await f.lift(touch)
    await f.tap(f.by_id("pass_on"))
    await f.tap(f.by_id("finish"))
    await f.wait_screen(TABLE)
    out["log_after_look"] = [line["text"] for line in f.app.plugin.board.log]
    out["undo_after_look"] = f.by_id("undo").text
    out.update(await real_bag_and_locked_doors(f, args, shots))
    out["step4_texts"] = f.texts()
    return out


async def real_bag_and_locked_doors(f, args, shots) -> dict:
    out = {}
    turn = f.app.plugin.turn
    out["draw_prompt"] = turn.prompt
    for trap in ("plus2", "locked_doors"):
        await f.tap(f.one("ObsoTrapButton", value=trap))
    out["drawn_2"] = turn.drawn_text
    out["prompt_after_plus2"] = turn.prompt
    await f.tap(f.one("ObsoTrapButton", value="dark_night"))
    await f.tap(f.by_id("take_out"))                       # not that one: take it out again
    await f.tap(f.one("ObsoTrapButton", value="great_room"))
    out["drawn_3"] = turn.drawn_text
    await f.tap(f.one("ObsoTrapButton", value="espionage"))   # one too many
    out["too_many"] = banner(f)
    await f.shot(shots, f"{args.prefix}draw-real-bag")
    await f.tap(f.by_id("confirm_draw"))
    out["traps"] = list(state(f).traps)
    out["trap_rows"] = [row["name"] for row in f.app.plugin.board.traps]
    out["riddle_detail"] = turn.detail
    await f.tap(f.by_id("riddle"))
    await night(f)
    out["before_glass"] = f.texts()
    await place(f, "blue", 1)                               # the glass is not turned yet: says what comes first
    out["chip_before_glass"] = banner(f)
    await f.tap(f.by_id("first_card"))
    out["heads"] = [(h["text"], h["look"]) for h in turn.door_heads]
    await place(f, "blue", 2)                               # door 2 is still locked: refused, says why
    out["locked_refusal"] = banner(f)
    await place(f, "blue", 1)
    await f.tap(f.by_id("done"))                            # not every door revealed, not every chip placed
    out["done_refusal"] = banner(f)
    await f.tap(f.by_id("open_next"))
    await place(f, "green", 2)
    await place(f, "red", 2)
    await f.shot(shots, f"{args.prefix}locked-doors")
    while state(f).opened < state(f).n_doors:
        await f.tap(f.by_id("open_next"))
    out["opened"] = state(f).opened
    await f.tap(f.by_id("done"))                            # Eli declined every door
    out["after_done"] = state(f).phase
    out["exit"] = await reveal(f, 2)
    return out


async def accuse(f, args) -> dict:
    """A prepared table in the accusation (4 normal tokens gone, 5 dark left): by touch, a tie (both Loyal), a
    round where everyone abstains, a Loyal wizard accused alone — the cohesion runs out: who was the Traitor?"""
    out: dict = {}
    await f.wait_screen("home")
    rows = [r for r in f.by_class("TableItem") if r.resume]
    await f.tap(_open_button(rows[0]))
    await f.wait_screen(ACCUSE)
    model = f.app.plugin.accuse
    out["result"] = {"view": model.view, "lines": [line["text"] for line in model.result_lines]}
    await f.tap(f.by_id("vote_now")) if model.view == "ObsoTalkView" else await f.tap(f.by_id("turn_glass"))
    out["round1"] = {"prompt": model.prompt, "time": f.by_id("time").text, "view": model.view}
    await f.tap(f.by_id("vote_now"))
    await f.tap(f.by_id("count"))                       # nobody has voted yet: says who is missing
    out["incomplete"] = banner(f)
    for voter, target in {"blue": "green", "green": "blue", "red": "blue", "yellow": "blue"}.items():
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=target))
    await f.tap(f.one("ObsoVoteCell", voter="yellow", target="blue"))     # Eli takes the vote back …
    out["count_text_taken_back"] = f.by_id("count").text
    await f.tap(f.one("ObsoVoteCell", voter="yellow", target="green"))    # … and points at Cruz
    await f.tap(f.by_id("count"))
    out["accused"] = list(state(f).accused)
    out["loyalty_prompt"] = model.prompt
    out["card_options"] = [b.text for b in f.by_class("ObsoCardButton")]
    await f.tap(f.one("ObsoCardButton", value=""))
    out["round2"] = {"result": model.headline, "box": state(f).box, "dark": state(f).dark,
                     "cohesion": next(t["value"] for t in f.app.plugin.board.tiles if t["key"] == "cohesion"),
                     "round": state(f).accusation, "lines": [line["text"] for line in model.result_lines]}
    await f.tap(f.by_id("turn_glass"))
    await f.advance(state(f).setup.rules.hourglass)
    for voter in ("blue", "green", "red", "yellow"):
        await f.tap(f.one("ObsoVoteCell", voter=voter, target="-"))
    await f.tap(f.by_id("count"))
    out["round3"] = {"result": model.headline, "box": state(f).box, "round": state(f).accusation}
    await f.tap(f.by_id("turn_glass"))
    await f.tap(f.by_id("vote_now"))
    for voter, target in {"blue": "red", "green": "red", "red": "blue", "yellow": "red"}.items():
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=target))
    await f.tap(f.by_id("count"))
    await f.tap(f.one("ObsoCardButton", value=""))
    await f.wait_screen(END)
    end = f.app.plugin.end
    out["unmask"] = {"headline": end.headline, "prompt": end.prompt,
                     "options": [(b.text, b.enabled) for b in f.by_class("ObsoUnmaskButton")]}
    await f.tap(f.one("ObsoUnmaskButton", value="green"))      # Cruz showed a Loyal card: refused, says why
    out["unmask_refused"] = banner(f)
    await f.tap(f.one("ObsoUnmaskButton", value=TRAITOR))
    out["over"] = {"headline": end.headline, "why": end.why, "prompt": end.prompt,
                   "players": [p["text"] for p in end.player_lines], "side": state(f).side}
    return out


async def small(f, args) -> dict:
    """Two players: the companion chip, loyalty cards refused (says why), the rulings list with this table's
    values, the hourglass set to 90 s and a 4-space track; a turn without a night; the own chip costs 2."""
    out: dict = {}
    await f.wait_screen("home")
    await f.tap(f.by_class("GameCard", game="obscurio")[0].ids.new_button)
    await f.wait_screen("obscurio-setup")
    await f.tap(f.one("ObsoCountButton", n=2))
    setup = f.app.plugin.setup
    out["companion_default"] = next(s["value"] for s in setup.companion_swatches if s["selected"])
    await f.tap(f.one("ObsoSwatch", index=-1, value="blue"))      # that is Bea's own chip: refused
    out["companion_refused"] = banner(f)
    await f.tap(f.one("ObsoSwatch", index=-1, value="pink"))
    await f.tap(f.by_id("loyalty_app"))
    out["loyalty_refused"] = banner(f)
    out["box"] = (setup.cohesion, setup.dark)
    for _ in range(3):
        await f.tap(f.by_id("hourglass").children[0])              # + (the last child is the first in kv)
    await f.tap(f.by_id("spaces_more"))                            # one more time-track space
    await f.tap(f.one("ObsoTrackButton", index=0))                # its first space: +0 → +1
    for row in sorted(f.by_class("ObsoSetupRow"), key=lambda r: r.index):
        await f.type_text(row.ids.name, NAMES[row.index])
    out["before_rulings"] = [f.app.sm.current, setup.hourglass, setup.track, banner(f)]
    await f.tap(f.by_id("rulings"))
    await f.frames(3)
    popup = f.app.rulings_popup
    if popup is None:
        raise Stuck(f"no rulings list: {out}")
    rows = [w for w in popup.walk(restrict=True) if type(w).__name__ == "RulingRow"]
    out["rulings"] = [r.title for r in rows]
    out["ruling_summaries"] = [getattr(r, "summary", "") for r in rows]
    await f.shot(_shots(args), f"{args.prefix}rulings")
    popup.dismiss(animation=False)
    await f.frames(3)
    await f.shot(_shots(args), f"{args.prefix}setup-2p")
    out["loyalty_lit"] = [f.by_id("loyalty_table").lit, f.by_id("loyalty_app").lit]
    await f.tap(f.by_id("loyalty_table"))
    out["real_cards_refused"] = banner(f)
    await f.tap(f.by_id("start"))
    await f.wait_screen(TABLE)
    out["checklist"] = await close_checklist(f)
    # The menu switched to German from within: its own buttons follow at once ("Regeln", not "Rulings").
    await f.tap(f.by_id("menu"))
    await f.frames(2)
    await f.tap(next(w for w in f.app.sheet.walk(restrict=True) if getattr(w, "code", "") == "de"))
    await f.frames(2)
    out["menu_de"] = [e["text"] for e in f.app.sheet.extras]
    await f.tap(next(w for w in f.app.sheet.walk(restrict=True) if getattr(w, "code", "") == "en"))
    await f.frames(2)
    f.app.close_sheet()
    await f.frames(2)
    s = state(f)
    out["setup"] = s.setup.to_json()
    await f.tap(f.by_id("draw"))
    await acknowledge(f)
    await f.tap(f.by_id("riddle"))
    out["after_riddle"] = [f.app.sm.current, state(f).phase]
    out["rows"] = [(r["name"], r["where"]) for r in f.app.plugin.turn.chip_rows]
    await f.tap(f.by_id("first_card"))
    await place(f, "blue", 1)
    await place(f, "pink", 2)
    out["time"] = f.by_id("time").text
    await f.tap(f.by_id("done"))
    out["exit"] = await reveal(f, 2)
    return out
