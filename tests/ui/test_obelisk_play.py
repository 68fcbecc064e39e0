"""A whole 2-player Obelisk game through the real app by touch (issue 18 §5, §6): Home's "New table" on the Obelisk
card, the setup, then every Day and Night entered by touch (one Rotate made on the simulated tile-grid board, on
which the map was laid, and confirmed on the screen) — the engine's seeded random player decides each move,
the driver finds the taps (tests/ui/obelisk_touch.py) and checks the table recorded exactly that move. On the way:
refusals said in words (a dimmed button, the map touched at Night, a corner nobody can build on), the payment picker
offering only valid sets, Undo naming its move, the advisor's plan first and gold; Home in the middle of the game
and Resume (Home's rows the same each time), and the finished game in Home's history.

This file is also the driver: `python tests/ui/test_obelisk_play.py --data-dir D --out result.json [--seed N]
[--shots DIR]`.
"""
from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
MOST_MOVES = 400


@pytest.fixture(scope="module")
def game(own_driver):
    return own_driver


def test_home_offers_a_new_obelisk_table(game):
    assert game["card"] == {"button": "New table", "enabled": True}
    assert game["setup_screen"] == "obelisk-setup"


def test_the_whole_game_was_entered_by_touch_and_ends(game):
    assert game["over"] and game["result"] in ("won", "lost")
    assert game["moves"] >= 20 and game["mismatches"] == []
    kinds = set(game["kinds"])
    assert {"build", "reinforce", "mine", "rotate", "march", "dawn", "capture"} <= kinds, kinds
    assert game["last_prompt"] == game["last_log"] and game["last_log"].startswith("The game is")


def test_the_map_shows_the_table(game):
    first = game["first_picture"]
    assert first["tiles"] == 25 and first["marked"] >= 15 and first["routes"] >= 1
    assert game["night_picture"]["demons"] >= 1 and game["night_picture"]["obelisks"] >= 1


def test_the_advisors_turns_are_offered_best_first_and_only_proposed(game):
    b = game["best"]
    assert 1 <= len(b["options"]) <= 5 and all(": " in o for o in b["options"])
    assert b["pending"] and b["actions"] == 0 and b["pending_after"] == 0
    assert all(f"{cell} to the " in b["options"][0] for cell in b["pending"])


def test_the_night_walk_can_be_watched_step_by_step(game):
    w = game["watch"]
    assert w["first"].endswith("· Step 0") and w["later"] != w["first"] and w["moved"]
    assert "Step" not in w["stopped"]


def test_the_screen_turns_for_the_far_side_and_taps_still_land(game):
    assert game["turned"] == {"facing": 180, "moves_while_turned": 3, "facing_after": 0}


def test_one_rotate_was_made_on_the_simulated_board(game):
    b = game["board_rotate"]
    assert game["laid_proposes_nothing"]            # the map laid as it is: nothing to confirm
    assert b["proposed"] >= 1 and b["before_confirm"] == 0 and b["banner"].startswith("The board: ")


def test_the_night_falling_and_the_end_are_announced(game):
    assert game["moments"][0] == "Night 1" and game["moments"][-1] == "The game is over"
    assert game["moments"].count("Night 1") == 1


def test_refusals_are_said_in_words(game):
    r = game["refusals"]
    assert r["night_map"] == "Nobody may touch the map at Night"
    assert r["dimmed_rotate"] == "Tap the marked tiles to turn them first"
    assert r["build_taken"] and r["state_unchanged"]


def test_the_payment_picker_offers_only_valid_sets(game):
    assert game["pickers"]
    for shown in game["pickers"]:
        assert shown["offered"] and set(shown["offered"]) <= set(shown["valid"]), shown


def test_undo_names_the_move_and_takes_it_back(game):
    u = game["undo"]
    assert u["text"] == "Undo: " + u["last_line"]
    assert u["after"] == u["before"] - 1


def test_the_advisor_plan_comes_first_and_says_why(game):
    a = game["advice"]
    assert a["first_selected"] and a["first_text"].startswith("Suggested: ")
    assert a["rows_distinct"]   # demons alike (one colour, one place, one past) are one row
    assert a["reasons"] and all(a["reasons"])


def test_the_finished_game_from_home_is_read_only(game):
    h = game["history"]
    assert h == {"banner": "Finished game: read-only", "undone": 0, "over": True, "loss_drawn": True}


def test_home_and_back_keeps_the_rows_and_the_game(game):
    w = game["way_back"]
    assert w["screen"] == "obelisk-table" and w["actions_after"] == w["actions_before"]
    assert w["rows_first"] == w["rows_again"] and any("Obelisk" in r for r in w["rows_first"])
    assert game["finished_row"] and "Obelisk" in game["finished_row"]


# -- the driver --------------------------------------------------------------------------------------------------

def same_move(s, got, wanted) -> bool:
    """The move recorded is the one intended (a capture of any of the demons alike: the screen lists them once)."""
    from companion.games.obelisk.actions import Capture
    from tests.ui.obelisk_touch import same_capture

    if isinstance(got, Capture) and isinstance(wanted, Capture):
        return same_capture(s, got, wanted)
    return got == wanted


def words_cell(cell) -> str:
    from companion.games.obelisk.model import cell_name

    return cell_name(cell)


def picture_counts(model) -> dict:
    pic = model.picture
    return {"tiles": len(pic["tiles"]), "marked": sum(1 for _, t in pic["tiles"] if t and t[2]),
            "routes": len(pic["routes"]), "demons": len(pic["demons"]), "obelisks": len(pic["obelisks"])}


def valid_payments(s, colour, t) -> list[str]:
    """Every payment the rules allow now, worked out here from the rulebook's sets (RULING obelisk-reinforce): 4
    green, 3 yellow or 2 blue, blue standing in for any stone, that the Quarry holds; or an unplaced Obelisk."""
    from companion.games.obelisk.actions import Pay
    from companion.ui.obelisk.texts import pay_words

    have = {"green": s.quarry_green, "yellow": s.quarry.yellow, "blue": s.quarry.blue}
    sets = [Pay(green=4 - b, blue=b) for b in range(5)] + [Pay(yellow=3 - b, blue=b) for b in range(4)]
    name = s.setup.name_of(colour)
    out = [pay_words(p, name, t) for p in sets if all(p.stones[c] <= have[c] for c in have)]
    if s.unplaced[s.seat(colour)]:
        out.append(pay_words(Pay(die=True), name, t))
    return out


async def home_rows(d, finished: bool = False) -> list[str]:
    await d.home_list(finished=finished)
    view = d.by_id("finished_list" if finished else "unfinished_list")
    out = []
    for w in view.walk(restrict=True):
        if type(w).__name__ == "TableItem" and w.parent is not None and d.visible(w):
            out.append(" | ".join(c.text for c in w.walk(restrict=True) if type(c).__name__ == "Txt"))
    await d.home_list(finished=False)
    return sorted(r.rsplit(" · ", 1)[0] for r in out)


async def scenario(app, args) -> dict:
    from companion.games.obelisk.actions import Build, Capture, Reinforce
    from tests.ui.obelisk_touch import ObeliskFinger, choose
    from tests.ui.test_home_way_back import go_home_by_touch

    d = ObeliskFinger(app)
    rng = random.Random(args.seed)
    shots = Path(args.shots) if args.shots else None
    out: dict = {"mismatches": [], "kinds": [], "pickers": [], "touches": {}}
    await d.wait_screen("home")
    # The simulated tile-grid board: the map is laid on it, and one Rotate of the game is made on it.
    from tests.ui.test_obelisk_board import URL, board_ids

    await d.add_device(URL, "Obelisk tile grid")
    sim = app.devices.manager.device(URL).board
    card = next(w for w in d.walk() if type(w).__name__ == "GameCard" and w.game == "obelisk")
    new = card.ids.new_button
    out["card"] = {"button": new.text, "enabled": not new.disabled}
    await d.tap(new)
    await d.wait_screen("obelisk-setup")
    out["setup_screen"] = app.sm.current
    seats = [w for w in d.by_class("ObeliskSeat")]
    for seat, name in zip(sorted(seats, key=lambda w: w.index), ("Ana", "Ben")):
        await d.type_text(seat.ids.name, name)
    await d.shot(shots, "obelisk-setup")
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model = d.model
    from companion.games.obelisk.notation import map_to_text

    laid = {cell: (tile_id, arrow) for cell, tile_id, arrow in board_ids(map_to_text(model.state.map))}
    for cell, (tile_id, arrow) in laid.items():
        sim.script(f"tile {cell} {tile_id} {arrow}")
    await d.frames(10)
    out["laid_proposes_nothing"] = not model.pending
    out["first_picture"] = picture_counts(model)
    await d.shot(shots, "obelisk-day")

    # A refusal at once: Rotate with no tile tapped says how; nothing changes.
    await d.button("rotate")
    refusals = {"dimmed_rotate": app.banner}
    # The advisor's turns, best first: one picked is tapped in on the map (not played); tapped away again.
    await d.button("best")
    options = [w for w in app.sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"]
    out["best"] = {"options": [w.text for w in options]}
    await d.shot(shots, "obelisk-best")
    await d.tap(options[0])
    await d.frames(2)
    out["best"].update(pending={words_cell(c): f for c, f in model.pending.items()}, actions=len(app.table.actions),
                       banner=app.banner)
    from companion.games.obelisk.model import DIRECTIONS

    for cell, facing in list(model.pending.items()):
        others = [f for f in DIRECTIONS if f != model.state.map[cell].facing]
        for _ in range(len(others) - others.index(facing)):
            await d.tap_cell(cell)
    out["best"]["pending_after"] = len(model.pending)
    # Menu → the screen turned to the far side: the first moves are made through it (taps land where they show).
    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Turn the screen to the other side"))
    out["turned"] = {"facing": model.facing}
    await d.shot(shots, "obelisk-turned")
    moves = 0
    undone = False
    went_home = False
    while not model.state.is_over and moves < MOST_MOVES:
        moment = await d.close_moment()
        if moment:
            out.setdefault("moments", []).append(moment)
        s = model.state
        action = choose(s, rng)
        if isinstance(action, Reinforce):
            out["pickers"].append({"valid": valid_payments(s, action.player, app.t)})
        if s.phase == "march" and s.demons and "watch" not in out:
            await d.button("watch")
            first = (model.title, sorted(str(x["cell"]) for x in model.picture["demons"]))
            await asyncio.sleep(1.6)
            await d.frames(2)
            later = (model.title, sorted(str(x["cell"]) for x in model.picture["demons"]))
            await d.button("watch")
            out["watch"] = {"first": first[0], "later": later[0], "moved": first[1] != later[1],
                            "stopped": model.title}
        if isinstance(action, Capture) and "advice" not in out:
            rows = sorted(d.by_class("ObeliskCapture"), key=lambda w: w.value)
            if rows and rows[0].selected:
                texts = [w.text for w in rows]
                out["advice"] = {"first_selected": rows[0].selected, "first_text": rows[0].text,
                                 "rows_distinct": len(set(texts)) == len(texts),
                                 "reasons": [line["text"] for line in model.lines]}
                out["night_picture"] = picture_counts(model)
                await d.tap_cell((2, 2))
                refusals["night_map"] = app.banner
                await d.shot(shots, "obelisk-night")
        if isinstance(action, Build) and "build_taken" not in refusals and s.obelisks:
            before = s.to_json()
            await d.player(action.player)
            await d.tap_corner(s.obelisks[0].corner)   # an Obelisk there: the picker (or why not), never a build
            if app.sheet is not None:
                await d.shot(shots, "obelisk-pay")
                app.close_sheet()
            await d.frames(2)
            refusals["build_taken"] = True
            refusals["state_unchanged"] = model.state.to_json() == before
        n_before = len(app.table.actions)
        taps = d.taps
        if action.TYPE == "rotate" and "board_rotate" not in out and moves >= 1:
            # Turned on the board: a proposed Rotate on the map; the Rotate button confirms it.
            for (r, c), facing in action.tiles:
                sim.script(f"tile {r * 5 + c} {laid[r * 5 + c][0]} {facing}")
            await d.until(lambda: model.pending == dict(action.tiles), "the board's proposal", 10)
            out["board_rotate"] = {"proposed": len(model.pending), "before_confirm": len(app.table.actions) - n_before,
                                   "banner": app.banner}
            await d.button("rotate")
            await d.until(lambda: len(app.table.actions) > n_before, "the Rotate", 5)
        else:
            await d.enter(action)
        out["touches"].setdefault(action.TYPE, []).append(d.taps - taps)
        if len(app.table.actions) != n_before + 1 or not same_move(s, app.table.actions[-1], action):
            out["mismatches"].append({"wanted": action.to_text(), "banner": app.banner,
                                      "got": app.table.actions[-1].to_text() if app.table.actions else None})
            break
        if isinstance(action, Reinforce):
            out["pickers"][-1]["offered"] = d.pickers[-1]
        out["kinds"].append(action.TYPE)
        moves += 1
        if moves == 3 and model.facing:
            out["turned"]["moves_while_turned"] = moves
            await d.tap(d.by_id("menu"))
            await d.pick(app.t("Turn the screen to the other side"))
            out["turned"]["facing_after"] = model.facing
        if not undone and moves == 6:
            undo = d.by_id("undo")
            last_line = model.log.line(len(model.log) - 1, app.lang)
            out["undo"] = {"text": undo.text, "last_line": last_line, "before": len(app.table.actions)}
            await d.tap(undo)
            out["undo"]["after"] = len(app.table.actions)
            undone = True
            await d.enter(action)   # played again by touch
        if not went_home and moves == 12:
            table_id, n = app.table.id, len(app.table.actions)
            await go_home_by_touch(d)
            rows_first = await home_rows(d)
            item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                        and w.parent is not None)
            await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
            await d.wait_screen("obelisk-table")
            after = len(app.table.actions)
            await go_home_by_touch(d)
            rows_again = await home_rows(d)
            item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                        and w.parent is not None)
            await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
            await d.wait_screen("obelisk-table")
            out["way_back"] = {"screen": app.sm.current, "actions_before": n, "actions_after": after,
                               "rows_first": rows_first, "rows_again": rows_again}
            went_home = True
    s = model.state
    out.update(over=s.is_over, result=s.result, moves=moves, last_prompt=model.prompt,
               last_log=model.moves[0]["text"] if model.moves else "")
    out["refusals"] = refusals
    await d.shot(shots, "obelisk-over-moment")
    out.setdefault("moments", []).append(await d.close_moment())
    await d.shot(shots, "obelisk-over")
    table_id = app.table.id
    await go_home_by_touch(d)
    finished = await home_rows(d, finished=True)
    out["finished_row"] = next((r for r in finished if "Ana" in r), "")
    # From Home's finished games: the table as it ended, and read-only (Undo says so and takes nothing back).
    await d.home_list(finished=True)
    item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                and w.parent is not None)
    await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
    await d.wait_screen("obelisk-table")
    n = len(app.table.actions)
    await d.tap(d.by_id("undo"))
    out["history"] = {"banner": app.banner, "undone": n - len(app.table.actions), "over": model.state.is_over,
                      "loss_drawn": any(r["loses"] and r["target"] is not None for r in model.picture["routes"])}
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario, seed=23, players=2))
