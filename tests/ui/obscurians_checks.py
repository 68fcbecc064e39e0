"""What the Obscurians driver (tests/ui/obscurians_driver.py) checks screen by screen: the round screen's promises
(checks), the setup screen (setup-checks), Home (home-checks) and the house rules (house-rules)."""
from __future__ import annotations

import random
import time
from pathlib import Path

from tests.ui.obscurians_driver import NAMES, Driver
from tests.ui.obscurians_play import _shot_name, layout_facts
from tests.ui.touch import Stuck


async def checks(app, args) -> dict:
    """The round screen's promises, one by one, on a fresh 4-player table (tests/ui/test_round_screen.py)."""
    from companion.games.obscurians.constants import FACE_DOWN
    from companion.ui.obscurians.turn import ChipMission, ChooseAction, FaceCount, PayReroll, PickGood
    from companion.session.speech import SilentSpeaker
    from companion.ui.sound import RecordingSounds

    d = Driver(app, random.Random(0))
    app.sounds = sounds = RecordingSounds()
    # Whole games: nothing read aloud (tests/ui/test_obscurians_speech.py hears the voice; espeak-ng per turn here
    # would only cost the machine time).
    app.plugin_for("obscurians").speaker = SilentSpeaker()
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.new_table(4, deck="physical")
    table = app.table
    model = app.plugin.round
    out["layout"] = layout_facts(d)
    # A tap on the panel across the table (turned 180°) and on the one to the left (turned 270°), at the place
    # where the seating puts them: the touch must land on that player's panel.
    from companion.ui import seating
    from companion.ui.obscurians.layout import LAYOUT
    from kivy.core.window import Window

    ring = seating.ring(4, Window.width, Window.height, LAYOUT.depth_long, LAYOUT.depth_short)
    await d.tap(d.by_class("ObsnChoiceButton", choice=__import__("companion.ui.obscurians.turn", fromlist=["Reveal"])
                           .Reveal("double_steal"))[0])
    await d.close_moment()
    out["sound_after_reveal"] = list(sounds.requested)
    out["turned_taps"] = {}
    for seat in (2, 1, 3):
        place = ring.seats[seat]
        await d.tap_at(place.x + place.w / 2, place.y + place.h * 0.3)
        out["turned_taps"][seat] = model.entry.chip_on
        await d.tap(d.by_id("cancel"))
    # A chip placed on Ben: then the same mission for Chris is dimmed and says why (the engine's sentence).
    await d.tap_at(*_centre(ring.seats[1]))
    await d.tap(d.widget_for(("choice", ChipMission("give"))))
    out["log_chip"] = model.log[0]["text"]
    await d.tap_at(*_centre(ring.seats[2]))
    give = d.widget_for(("choice", ChipMission("give")))
    out["mission_slots"] = [b.choice.mission for b in d.by_class("ObsnChoiceButton")
                            if isinstance(b.choice, ChipMission)]
    out["give_dimmed"] = give.dimmed
    out["give_reason"] = await d.explain(give)
    if shots:
        await d.shot(shots, "chip-refused")
    await d.tap(d.by_id("cancel"))
    # The roll in counts: 2 Steal, 1 Swap, 2 Wild = 3 taps.
    before = d.taps
    for face, n in (("steal", 2), ("swap", 1), ("wild", 2)):
        await d.tap(d.widget_for(("choice", FaceCount(face, n))))
    out["roll_taps"] = d.taps - before
    out["rolled"] = list(table.state.dice)
    # A reroll: one die, its new face, one chip face down — the screen never asks which chip.
    await d.tap(d.by_class("ObsnDieButton", index=2)[0])
    await d.tap(d.widget_for(("choice", FaceCount("steal", 1))))
    pay = [b for b in d.by_class("ObsnChoiceButton") if isinstance(b.choice, PayReroll)]
    out["pay_options"] = [(b.choice.discard, b.text) for b in pay]
    if shots:
        await d.shot(shots, "reroll-face-down")
    await d.tap(d.widget_for(("choice", PayReroll(FACE_DOWN))))
    out["reroll"] = table.actions[-1].to_json()
    out["log_reroll"] = model.log[0]["text"]
    out["panel_status"] = next(p for p in model.panels if p["seat"] == 0)["status"]
    out["screen_texts_after_discard"] = sorted({w.text for w in d.walk() if getattr(w, "text", "")
                                                and type(w).__name__ not in ("ObsnChoiceButton",)})
    # Choose: a dimmed cell (no Donate rolled) says why; Steal x 6 (Double Steal, 3 Steal + 0 Wild... as rolled).
    cell = d.widget_for(("choice", ChooseAction("donate", 0)))
    out["donate_reason"] = await d.explain(cell)
    steal = next(b for b in d.by_class("ObsnChoiceButton") if isinstance(b.choice, ChooseAction)
                 and b.choice.kind == "steal" and b.enabled and b.choice.wilds == 0)
    await d.tap(steal)
    out["log_choose"] = model.log[0]["text"]
    if shots:
        await d.shot(shots, "steal-rows")
    # Steal from Ben: one tap on Ben's orange; the move log says so, and Undo names it.
    await d.tap(d.widget_for(("choice", PickGood(1, "orange"))))
    out["log_steal"] = model.log[0]["text"]
    out["undo_text"] = model.undo_text
    # Anna's own row is dimmed for a Steal: it says why.
    own = d.widget_for(("choice", PickGood(0, "red")))
    out["own_reason"] = await d.explain(own)
    # End turn too early: the engine's sentence.
    out["end_reason"] = await d.explain(d.by_id("end_turn"))
    # Undo: the steal is taken back, the log and Redo say so; Redo plays it again.
    await d.tap(d.by_id("undo"))
    out["after_undo"] = {"log0": model.log[0]["text"], "redo_text": model.redo_text, "undo_text": model.undo_text,
                         "ben_orange": table.state.goods[1].get("orange", 0)}
    if shots:
        await d.shot(shots, "undo-redo")
    await d.tap(d.by_id("redo"))
    out["after_redo"] = {"log0": model.log[0]["text"], "ben_orange": table.state.goods[1].get("orange", 0)}
    # Language from the menu in the corner, in German: the log and a reason follow.
    # In the hand: every panel upright, from the menu (photographed), and back to the table.
    menu = next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu" and b.parent.angle == 0)
    await d.tap(menu)
    if shots:
        await d.shot(shots, "menu")
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 0))
    out["in_hand_angles"] = sorted({p.parent.angle for p in d.by_class("ObsnPlayerPanel")})
    if shots:
        await d.shot(shots, "round-in-hand")
    await d.tap(next(b for b in d.walk() if type(b).__name__ == "QuietButton" and b.text == "Menu"))
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 0))
    menu = next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu" and b.parent.angle == 0)
    await d.tap(menu)
    out["menu_open"] = type(app.sheet).__name__
    await d.tap(next(b for b in d.by_class("SheetLang") if b.code == "de"))
    await d.tap(app.sheet.ids.sound)
    out["sound_on_after_toggle"] = app.sound_on
    await d.tap(app.sheet.ids.close)
    out["log_de"] = model.log[0]["text"]
    out["own_reason_de"] = await d.explain(d.widget_for(("choice", PickGood(0, "red"))))
    d2: dict = {}
    d.look(d2, "round-de")
    out["small"], out["glyphs"] = d2["small"], d2["glyphs"]
    if shots:
        await d.shot(shots, "round-de")
    out["sounds"] = sounds.requested
    return out


def _centre(place):
    return place.x + place.w / 2, place.y + place.h / 2


async def setup_checks(app, args) -> dict:
    """The setup screen: colour swap, seat reorder (drag and the up button), the 4-player mission cards, and the
    end screen's explanation of a mission put back (tests/ui/test_setup_screen.py)."""
    d = Driver(app, random.Random(0))
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    await d.tap(d.by_class("GameCard", game="obscurians")[0].ids.new_button)
    await d.wait_screen("setup")
    for row in sorted(d.by_class("ObsnSetupRow"), key=lambda r: r.index):
        await d.type_text(row.ids.name, NAMES[row.index])
    model = app.plugin.setup
    out["colours_before"] = [r["colour"] for r in model.rows]
    # Anna taps Ben's colour (orange, showing his seat number 2): they swap.
    row0 = next(r for r in d.by_class("ObsnSetupRow") if r.index == 0)
    taken = next(s for s in d.by_class("ObsnSwatch", root=row0) if s.colour == "orange")
    out["taken_label"] = taken.text
    await d.tap(taken)
    out["colours_after_swap"] = [r["colour"] for r in model.rows]
    # Drag seat 1 (Anna) by its number down onto the third row.
    rows = sorted(d.by_class("ObsnSetupRow"), key=lambda r: r.index)
    start = rows[0].ids.handle.to_window(*rows[0].ids.handle.center)
    end = rows[2].to_window(*rows[2].center)
    await d.tap_at(*start, move_to=(start[0], end[1]))
    out["names_after_drag"] = [r["name"] for r in model.rows]
    # The fallback: the up arrow of the last row.
    last = next(r for r in d.by_class("ObsnSetupRow") if r.index == 3)
    await d.tap(last.ids.up)
    out["names_after_up"] = [r["name"] for r in model.rows]
    # 4 players: the two mission cards go back unseen; nothing on the screen names them.
    out["put_back_text"] = model.put_back_text
    out["put_back_unseen"] = model.put_back()
    out["shown_unseen"] = [w.text for w in d.walk() if isinstance(getattr(w, "text", None), str) and w.text
                           and d.visible(w) and w.height > 0]
    if shots:
        await d.shot(shots, _shot_name("setup-put-back", args))
    # A group that looked at them says so, then taps the two in (Keep and Give).
    await d.tap(d.by_id("put_back_seen"))
    out["put_back_seen_text"] = model.put_back_text
    for mission in ("keep", "give"):
        await d.tap(d.one("ObsnPutBackButton", mission=mission))
    out["put_back"] = list(model.put_back())
    found: dict = {}
    d.look(found, "setup")
    await d.tap(d.by_id("start"))
    await d.wait_screen("round")
    table = app.table
    out["setup"] = table.setup.to_json()
    # To the end quickly: the moves of a seeded game straight into the table (not what this scenario tests).
    from companion.games.obscurians.randplay import random_action

    rng = random.Random(3)
    while table.state.phase in ("reveal", "turn"):
        table.apply(random_action(table.state, rng))
    await d.wait_screen("end")
    await d.close_moment()
    put_back = table.setup.put_back
    row = sorted(d.by_class("ObsnMissionRow"), key=lambda r: r.seat)[0]
    button = next(b for b in d.by_class("ObsnMissionButton", root=row) if b.mission == put_back[0])
    out["end_guidance"] = app.plugin.end.guidance_text
    out["put_back_dimmed"] = button.dimmed
    out["put_back_reason"] = await d.explain(button)
    # Score tapped too early says what is missing.
    out["score_reason"] = await d.explain(d.by_id("score"))
    d.look(found, "missions")
    out["small"], out["glyphs"] = found["small"], found["glyphs"]
    if shots:
        await d.shot(shots, _shot_name("missions-put-back", args))
    return out


async def home_checks(app, args) -> dict:
    """Home: where each unfinished table stands; rename; delete (asked first) and the way back."""
    d = Driver(app, random.Random(0))
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    # Two tables half played (the moves straight into the store: this scenario is about Home).
    from companion.games.obscurians.randplay import random_action, random_setup
    from companion.session.table import Table

    rng = random.Random(4)
    for n, moves in ((4, 40), (5, 75)):
        table = Table.create(app.store, "obscurians", random_setup(rng, 4, n, missions_known=False),
                             title="")
        for _ in range(moves):
            table.apply(random_action(table.state, rng))
        out.setdefault("expected", []).append({"id": table.id, "round": table.state.round,
                                               "active": table.state.name(table.state.active),
                                               "phase": table.state.phase})
    app.refresh_home()
    await d.frames(2)
    out["rows"] = [{"id": r["table_id"], "title": r["title"], "detail": r["detail"]} for r in app.home.unfinished]
    if shots:
        await d.shot(shots, "home-tables")
    first = next(w for w in d.by_class("TableItem") if w.resume)
    table_id = first.table_id
    await d.tap(first.ids.more)
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 0))  # Rename
    field = app.sheet.ids.field
    field.text = ""
    field.insert_text("Friday night")
    await d.frames(1)
    if shots:
        await d.shot(shots, "home-rename")
    await d.tap(app.sheet.ids.save)
    out["renamed"] = next(r["title"] for r in app.home.unfinished if r["table_id"] == table_id)
    first = next(w for w in d.by_class("TableItem") if w.table_id == table_id)
    await d.tap(first.ids.more)
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 1))  # Delete
    out["delete_asks"] = type(app.sheet).__name__
    await d.tap(app.sheet.ids.no)
    out["after_cancel"] = [r["table_id"] for r in app.home.unfinished]
    first = next(w for w in d.by_class("TableItem") if w.table_id == table_id)
    await d.tap(first.ids.more)
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 1))
    if shots:
        await d.shot(shots, "home-delete")
    await d.tap(app.sheet.ids.yes)
    out["after_delete"] = [r["table_id"] for r in app.home.unfinished]
    out["banner"] = app.banner
    if shots:
        await d.shot(shots, "home-deleted")
    banner = next(w for w in d.walk() if type(w).__name__ == "Banner")
    await d.tap(banner)
    out["after_restore"] = [r["table_id"] for r in app.home.unfinished]
    found: dict = {}
    d.look(found, "home")
    out["small"], out["glyphs"] = found["small"], found["glyphs"]
    return out


async def house_rules(app, args) -> dict:
    """Setup with the Take cap switched off; open and close the rulings list; start the game."""
    d = Driver(app, random.Random(0))
    shots = Path(args.shots) if args.shots else None
    await d.wait_screen("home")
    await d.tap(d.by_class("GameCard", game="obscurians")[0].ids.new_button)
    await d.wait_screen("setup")
    if args.players != 4:
        await d.tap(next(b for b in d.by_class("ObsnCountButton") if getattr(b, "n", 0) == args.players))
    for row in sorted(d.by_class("ObsnSetupRow"), key=lambda r: r.index):
        await d.type_text(row.ids.name, NAMES[row.index])
    toggle = d.by_id("take_cap")
    result = {"toggle_before": toggle.text}
    await d.tap(toggle)
    result["toggle_after"] = toggle.text
    await d.tap(d.by_id("rulings"))
    await d.frames(3)
    popup = app.rulings_popup
    if popup is None:
        raise Stuck("the rulings list did not open")
    rows = [w for w in popup.walk(restrict=True) if type(w).__name__ == "RulingRow"]
    result["rulings"] = [{"title": r.title, "summary": r.summary} for r in rows]
    if shots:
        await d.shot(shots, "rulings")
    await d.tap(popup.content.ids.close)
    # A popup fades out and still takes touches until it has left the window: wait for that, as a finger would.
    deadline = time.monotonic() + 5
    while popup.parent is not None and time.monotonic() < deadline:
        await d.frames(1)
    result["rulings_closed"] = app.rulings_popup is None and popup.parent is None
    # The smart dice's faces: pip 2 shows Wild (and so pip 5 Relocate; the pair that had them takes Swap/Secure).
    await d.tap(d.by_id("pips"))
    await d.frames(2)
    result["pip_choices"] = [e["text"] for e in app.sheet.extras]
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 1))  # "2: Swap"
    await d.frames(2)
    result["face_question"] = app.sheet.question
    if shots:
        await d.shot(shots, "setup-dice-faces")
    wild = next(i for i, e in enumerate(app.sheet.extras) if e["text"].startswith(app.t("Wild")))
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == wild))
    await d.frames(2)
    result["pips_banner"] = app.banner
    if shots:
        await d.shot(shots, "setup-house-rules")
    await d.tap(d.by_id("start"))
    await d.wait_screen("round")
    result["table_id"] = app.table.id
    return result
