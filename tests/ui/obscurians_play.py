"""What the Obscurians driver (tests/ui/obscurians_driver.py) does for whole games: a game played by touch to its
end, checking on the way what players would notice (play), and the unfinished table reopened from Home (resume)."""
from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

from tests.ui.obscurians_driver import Driver
from tests.ui.touch import Stuck


def _missions_for(n: int, seed: int, put_back=None):
    from companion.games.obscurians.setup import deal_missions, missions_problem

    rng = random.Random(seed)
    while True:
        missions = list(deal_missions(rng, n))
        if put_back is None or missions_problem(missions, n, put_back) is None:
            return missions


def _shot_name(name: str, args) -> str:
    return name + (f"-{args.players}p" if args.players != 4 else "") + (f"-{args.lang}" if args.lang != "en" else "")


async def play(app, args) -> dict:
    """A whole game by touch, checking on the way what players would notice (see tests/ui/test_play_obscurians.py)."""
    from companion.session.speech import SilentSpeaker
    from companion.ui.sound import RecordingSounds
    from tests.ui.policies import POLICIES

    policy, memory = POLICIES[args.policy], {}
    rng = random.Random(args.seed)
    d = Driver(app, rng)
    app.sounds = sounds = RecordingSounds()
    # Whole games: nothing read aloud (tests/ui/test_obscurians_speech.py hears the voice; espeak-ng per turn here
    # would only cost the machine time).
    app.plugin_for("obscurians").speaker = SilentSpeaker()
    shots = Path(args.shots) if args.shots else None
    found: dict = {"log": {}, "moments": [], "explained": {}}
    await d.frames(3)
    d.look(found, "home")
    if shots:
        await d.shot(shots, _shot_name("home", args))
    await d.new_table(args.players, deck=args.deck, shots=shots, found=found,
                      suffix=_shot_name("", args))
    table = app.table
    found["layout"] = layout_facts(d)
    taps_by_kind, moves = Counter(), Counter()
    shots_taken: set = set()
    t0 = time.monotonic()
    decided = table.state  # the position the players have entered (with what the screen shows as made)
    recorded = 0           # actions the round screen recorded, touch by touch
    while app.sm.current == "round":
        moment = await d.close_moment(shots, _shot_name("", args))
        if moment:
            found["moments"].append(moment)
        state = table.state
        if state.phase not in ("reveal", "turn"):
            await d.frames(2)
            continue
        wanted = policy(decided, rng, memory)
        await take_round_shots(d, shots, shots_taken, decided, wanted, args, found)
        logged, had = table.log_length, len(table.actions)
        decided = await d.enter(decided, wanted, taps_by_kind, drags=not args.taps_only)
        moves[type(wanted).__name__] += 1
        recorded += len(table.actions) - had
        kind = type(table.actions[-1]).__name__ if table.actions else ""
        if table.log_length != logged and kind not in found["log"] and app.sm.current == "round":
            found["log"][kind] = {"screen": app.plugin.round.log[0]["text"], "undo": app.plugin.round.undo_text,
                                  "index": len(table.actions) - 1}
        if args.stop_after and app.table is not None and len(app.table.actions) >= args.stop_after:
            await d.frames(3)
            return {"table_id": app.table.id, "state": app.table.state.to_json(), "screen": app.sm.current,
                    "taps": d.taps}
        if time.monotonic() - t0 > 300:
            raise Stuck("the game takes too long")
    if app.sm.current == "round":
        raise Stuck("left the round screen unexpectedly")
    await d.wait_screen("end")
    moment = await d.close_moment(shots, _shot_name("", args))
    if moment:
        found["moments"].append(moment)
    d.look(found, "missions")
    if shots:
        await d.shot(shots, _shot_name("missions", args))
    missions = _missions_for(args.players, args.seed, table.setup.put_back)
    await d.reveal_missions(missions)
    await d.wait_screen("end")
    found["winner_moment"] = await d.close_moment(shots, _shot_name("", args))
    d.look(found, "end")
    # Undo right after the end asks first; Cancel leaves the scores as they were.
    await d.tap(d.by_id("undo"))
    await d.frames(2)
    sheet = app.sheet
    found["undo_asks"] = type(sheet).__name__ == "ConfirmSheet" and {"question": sheet.question,
                                                                      "detail": sheet.detail}
    if shots and sheet is not None:
        await d.shot(shots, _shot_name("undo-finished", args))
    if sheet is not None:
        await d.tap(sheet.ids.no)
    found["still_over"] = table.state.phase == "over"
    await d.tap(d.by_id("export"))
    scores = d.read_scores()
    result = {"table_id": table.id, "missions": missions, "export_text": app.plugin.end.export_text,
              "taps": d.taps, "drags": d.drags, "moment_taps": d.moment_taps, "waits": d.waits,
              "recorded": recorded,
              "actions": len(table.actions),
              "moves": sum(moves.values()), "taps_by_kind": dict(taps_by_kind), "moves_by_kind": dict(moves),
              "sounds": sounds.requested, **scores, **found}
    if shots:
        await d.shot(shots, _shot_name("end", args))
    await d.tap(d.by_id("home"))
    await d.wait_screen("home")
    if shots:
        await d.shot(shots, _shot_name("home-history", args))
    result["history_rows"] = [r["table_id"] for r in app.home.finished]
    # The finished game from the history: read-only.
    await d.home_list(finished=True)
    item = next(w for w in d.by_class("TableItem") if w.table_id == table.id and not w.resume)
    await d.tap(item.ids.open)
    await d.wait_screen("end")
    undo = d.by_id("undo")
    result["history_undo_visible"] = d.visible(undo)
    result["history_read_only"] = app.plugin.end.read_only
    d.look(found, "history")
    if shots:
        await d.shot(shots, _shot_name("end-history", args))
    return result


def layout_facts(d: Driver) -> dict:
    """Where each panel is and which way it faces, read from the widgets on screen."""
    facts = []
    for panel in sorted(d.by_class("ObsnPlayerPanel"), key=lambda p: p.seat):
        holder = panel.parent
        name_bar = panel.children[-1]  # the first child in kv order: the name bar
        nx, ny = name_bar.to_window(*name_bar.center)
        px, py = panel.to_window(*panel.center)
        facts.append({"seat": panel.seat, "angle": holder.angle, "area": list(holder.area),
                      "name_offset": [nx - px, ny - py]})
    return {"panels": facts, "centre_angle": d.app.plugin.round.centre_angle}


async def take_round_shots(d: Driver, shots, taken: set, state, wanted, args, found) -> None:
    """Screenshots of the round screen's states, and a look at sizes and glyphs in each."""
    from companion.games.obscurians.actions import Choose, Reroll, Roll, Steal, Swap, Relocate

    name = None
    if state.phase == "reveal":  # the physical deck, or from round 5 (the app's deck reveals rounds 1-4 itself)
        name = "reveal"
    elif isinstance(wanted, Roll) and "pad" not in taken and state.round >= 2:
        name = "pad"
    elif isinstance(wanted, Choose) and "choose" not in taken:
        name = "choose"
    elif isinstance(wanted, (Steal, Swap, Relocate)) and "target" not in taken and state.round >= 2:
        name = "target"
    elif isinstance(wanted, Reroll) and "reroll" not in taken:
        name = "reroll"
    elif state.round >= 5 and state.phase == "turn" and "round5" not in taken:
        name = "round5"
    if name is None or name in taken:
        return
    taken.add(name)
    d.look(found, name)
    if shots:
        if name == "reroll":  # the reroll half entered: up to its last touch (the pay, or the fifth die)
            from tests.ui.intents import _new_roll_on, _pad_counts, next_tap

            for _ in range(12):
                v = d.view()
                tap = next_tap(d.shown(), v, wanted)
                if tap[0] == "choice" and type(tap[1]).__name__ == "PayReroll":
                    break
                if tap[0] == "choice" and type(tap[1]).__name__ == "FaceCount" and _new_roll_on(v):
                    counts = _pad_counts(v)
                    counts[tap[1].face] = tap[1].n
                    if sum(counts.values()) >= 5:
                        break  # New roll: the fifth die would make the reroll
                await d.tap(d.widget_for(tap))
        await d.shot(shots, _shot_name(name, args))


async def resume(app, args) -> dict:
    d = Driver(app, random.Random(0))
    await d.wait_screen("home")
    rows = [r for r in d.by_class("TableItem") if r.resume]
    result = {"offered": [r.table_id for r in rows]}
    if rows:
        await d.tap(rows[0].ids.open)
        await d.frames(3)
        result.update(screen=app.sm.current, table_id=app.table.id, state=app.table.state.to_json())
    return result
