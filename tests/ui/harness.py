"""Drive the real Table Companion app by touches, in its own process (one Kivy window per process).

    python tests/ui/harness.py play   --data-dir D --seed 7 --out result.json [--players N] [--lang L] [--shots DIR]
    python tests/ui/harness.py resume --data-dir D --out result.json
    python tests/ui/harness.py house-rules --data-dir D --out result.json [--shots DIR]
    python tests/ui/harness.py setup-checks --data-dir D --out result.json [--lang L] [--shots DIR]
    python tests/ui/harness.py home-checks --data-dir D --out result.json [--shots DIR]

The driver is a coroutine on the app's own asyncio loop (the app runs with `async_run`). It finds widgets by their
kv id or by their view-model fields, builds a touch MotionEvent at the widget's centre (through the panels' turn:
Kivy turns the touch back into the widget's own coordinates) and posts touch down / up through Kivy's event loop,
letting frames pass between steps, like a finger on the glass.

A game is played the way a group that knows its moves would: the engine's seeded random player decides each move
(companion.games.obscurians.randplay), and tests/ui/intents.py finds the taps on the screen that enter it; the
engine is never handed a move directly. Each move the screen records is compared with the one intended.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.drive import run_app  # noqa: E402
from tests.ui.touch import Stuck, Touch  # noqa: E402  (the shared touch driver)

NAMES = ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay", "Gus")
MIN_TEXT_PX = 24  # docs/ui.md, "Sizes": no game text under 24 px on the 1280x800 screen


class Driver(Touch):
    """The shared touch driver (tests/ui/touch.py) on the Obscurians screens: it also sees the sheet over a screen,
    waits for a scrolled view to hand a tap on, closes announcements (their taps counted apart) and enters moves."""

    def __init__(self, app, rng: random.Random):
        super().__init__(app, rng)
        self.moment_taps = 0
        self.moment_shots: set = set()
        self.waits = 0
        self.drags = 0   # touches that were drags (counted in `taps` too: one finger on the glass each)

    def walk(self):
        """The widgets on screen: the current screen, and the sheet over it (if any)."""
        out = list(self.screen().walk(restrict=True))
        if self.app.sheet is not None:
            out += list(self.app.sheet.walk(restrict=True))
        return out

    async def tap(self, widget) -> None:
        await super().tap(widget)
        if self._in_scrolling_view(widget):
            # A ScrollView with more than it shows holds a short tap back and hands the button its release 0.2 s
            # later (Kivy's scroll detection): wait for it, as a finger lifting would.
            self.waits += 1
            await asyncio.sleep(0.3)
            await self.frames(2)

    @staticmethod
    def _in_scrolling_view(widget) -> bool:
        from kivy.uix.scrollview import ScrollView

        p = widget.parent
        while p is not None and p is not p.parent:
            if isinstance(p, ScrollView):
                content = p.children[0] if p.children else None
                return content is not None and (content.height > p.height + 1 or p.always_overscroll)
            p = p.parent
        return False

    # -- sheets ---------------------------------------------------------------------------------------------------

    async def close_moment(self, shots: Path | None = None, suffix: str = "") -> dict | None:
        """If an announcement covers the screen, read it and tap it away (a real tap, counted apart). With `shots`,
        the first announcement of each kind is photographed first."""
        sheet = self.app.sheet
        if sheet is None or type(sheet).__name__ != "MomentSheet":
            return None
        seen = {"title": sheet.title, "text": sheet.text}
        if shots is not None:
            sound = self.app.sounds.requested[-1][0] if getattr(self.app.sounds, "requested", None) else "event"
            name = f"moment-{sound}{suffix}"
            if name not in self.moment_shots:
                self.moment_shots.add(name)
                await self.shot(shots, name)
        await self.tap_at(10, 10)
        self.moment_taps += 1
        self.taps -= 1
        await self.frames(1)
        return seen

    # -- what the screen shows: sizes and glyphs ---------------------------------------------------------------------

    def small_texts(self) -> list[str]:
        """Visible texts drawn smaller than MIN_TEXT_PX (text inputs' hints excepted)."""
        from kivy.uix.label import Label

        out = []
        for w in self.walk():
            if isinstance(w, Label) and w.text.strip() and self.visible(w) and w.font_size < MIN_TEXT_PX - 0.5:
                out.append(f"{w.text[:40]!r} {w.font_size:.0f}px")
        return out

    def missing_glyphs(self) -> list[str]:
        """Characters shown in a font that has no glyph for them (they would show as empty boxes)."""
        from kivy.uix.label import Label

        from tests.ui.glyphs import has_glyph

        out = set()
        for w in self.walk():
            if isinstance(w, Label) and w.text and self.visible(w):
                for ch in w.text:
                    if not ch.isspace() and not has_glyph(w.font_name, ch):
                        out.add(f"{ch!r} in {w.text[:30]!r}")
        return sorted(out)

    def look(self, found: dict, screen: str) -> None:
        found.setdefault("small", {}).setdefault(screen, sorted(set(self.small_texts())))
        found.setdefault("glyphs", {}).setdefault(screen, self.missing_glyphs())

    # -- setup ----------------------------------------------------------------------------------------------------

    async def new_table(self, n_players: int = 4, deck: str = "app", shots: Path | None = None,
                        found: dict | None = None, suffix: str = "") -> None:
        await self.wait_screen("home")
        card = self.by_class("GameCard", game="obscurians")[0]
        await self.tap(card.ids.new_button)
        await self.wait_screen("setup")
        if n_players != 4:
            await self.tap(next(b for b in self.by_class("CountButton") if getattr(b, "n", 0) == n_players))
        for row in sorted(self.by_class("SetupRow"), key=lambda r: r.index):
            await self.type_text(row.ids.name, NAMES[row.index])
        await self.tap(self.by_id("deck_" + deck))
        if found is not None:
            self.look(found, "setup")
        if shots:
            await self.shot(shots, "setup" + suffix)
        await self.tap(self.by_id("start"))
        await self.wait_screen("round")

    # -- the round screen ---------------------------------------------------------------------------------------

    def view(self):
        return self.app.plugin.round.entry.view(self.app.table.state, self.app.t)

    def shown(self):
        """The position the round screen shows (the table's, with what it shows as made: TurnEntry.prefix)."""
        return self.app.plugin.round.entry.shown(self.app.table.state)

    def widget_for(self, tap):
        kind = tap[0]
        if kind == "choice" and type(tap[1]).__name__ == "Cancel":
            return self.by_id("cancel")  # (a button of the bottom row, not an option)
        if kind == "choice":
            choice = tap[1]
            found = [w for w in self.by_class("ChoiceButton") + self.by_class("PadButton") if w.choice == choice]
            if not found:
                raise Stuck(f"no button for {choice!r}; prompt {self.app.plugin.round.prompt!r}")
            return found[0]
        if kind == "player":
            return self.by_class("PlayerPanel", seat=tap[1])[0]
        if kind == "die":
            return self.by_class("DieButton", index=tap[1])[0]
        return self.by_id("end_turn")

    def drop_widgets(self, tap):
        """The widgets a drag goes from and to: the piece (a good's cell, a chip) and a cell, a row's name or a
        panel. A row's name scrolled out of sight is replaced by that player's panel (always in sight)."""
        _, source, target, onto = tap
        src = self.widget_for(("choice", source))
        if onto == "panel":
            return src, self.widget_for(("player", target.seat))
        dst = self.widget_for(("choice", target))
        if not self._in_sight(dst) and not hasattr(target, "good"):
            dst = self.widget_for(("player", target.seat))
        return src, dst

    @staticmethod
    def _in_sight(w) -> bool:
        """Its centre is not scrolled out of sight (the app's own test, the one a drop goes by)."""
        from companion.ui.widgets import in_sight

        return in_sight(w, w.to_window(*w.center))

    async def drag(self, src, dst) -> None:
        """A finger down on `src`, moved onto `dst` and lifted there (one touch)."""
        if not self.visible(src):
            raise Stuck(f"dragging a hidden or disabled widget {src!r} ({getattr(src, 'text', '')!r})")
        await self._scroll_into_view(dst)
        if not self._in_sight(src):
            await self._scroll_into_view(src)
        if not (self._in_sight(src) and self._in_sight(dst)):
            raise Stuck(f"cannot see both ends of a drag: {src.text!r} and {getattr(dst, 'text', dst)!r}")
        await self.tap_at(*src.to_window(*src.center), move_to=dst.to_window(*dst.center))

    async def settled(self, widgets) -> None:
        """Wait until `widgets` stay where they are from one frame to the next: a step that has just changed (the
        roll in, the action chosen) lays its rows out over a few frames, and a finger goes where a thing is."""
        where, still = None, 0
        for _ in range(20):
            now = [tuple(w.to_window(*w.center)) + tuple(w.size) for w in widgets]
            still = still + 1 if now == where else 0
            if still >= 2:  # the same place three frames running: the layout has settled
                return
            where = now
            await self.frames(1)

    async def touch(self, tap) -> None:
        if tap[0] == "drop":
            await self.settled(list(self.drop_widgets(tap)))
            await self.drag(*self.drop_widgets(tap))  # (again: once settled, a row's name may be in sight now)
            self.drags += 1
        else:
            widget = self.widget_for(tap)
            await self.settled([widget])
            await self.tap(widget)

    async def enter(self, decided, wanted, taps_by_kind: Counter, drags: bool = True):
        """Touch in the move `wanted`, decided in the position `decided` (what the screen shows as made, see
        tests/ui/intents.enter). Returns the position decided now; raises Stuck if the screen records anything
        else than what was meant, or refuses a touch."""
        from tests.ui.intents import alike, as_entered, next_tap, with_app_reveal

        table = self.app.table
        before = table.log_length
        goal = decided.apply(as_entered(wanted))
        for _ in range(40):
            if self.app.table is None or table.log_length != before:
                goal = with_app_reveal(goal, table.actions[-1], wanted)
                if not alike(table.state, goal):
                    raise Stuck(f"the screen recorded {table.actions[-2:]!r}, the players meant {wanted!r}")
                return table.state  # (an announcement it brought stays for the caller to photograph)
            await self.close_moment()
            if alike(self.shown(), goal):  # shown as made, recorded with the next move (TurnEntry.prefix)
                return self.shown()
            tap = next_tap(self.shown(), self.view(), wanted, drags, goal)
            if os.environ.get("HARNESS_TRACE"):
                print("TAP", len(table.actions), table.log_length, tap, wanted, flush=True)
            await self.touch(tap)
            taps_by_kind[type(wanted).__name__] += 1
            if self.app.banner:
                if os.environ.get("HARNESS_SHOTS_ON_STUCK"):
                    await self.shot(Path(os.environ["HARNESS_SHOTS_ON_STUCK"]), "stuck")
                raise Stuck(f"refused: {self.app.banner!r} while entering {wanted!r}")
        if os.environ.get("HARNESS_SHOTS_ON_STUCK"):
            await self.shot(Path(os.environ["HARNESS_SHOTS_ON_STUCK"]), "stuck")
        raise Stuck(f"could not enter {wanted!r}: {table.state!r}")

    async def explain(self, widget) -> str:
        """Tap a dimmed option: the banner's text (the reason)."""
        self.app.dismiss_banner()
        await self.tap(widget)
        await self.frames(1)
        text = self.app.banner
        self.app.dismiss_banner()
        return text

    # -- the end screen -------------------------------------------------------------------------------------------

    async def reveal_missions(self, missions) -> None:
        await self.wait_screen("end")
        await self.close_moment()
        rows = sorted(self.by_class("MissionRow"), key=lambda r: r.seat)
        for row, mission in zip(rows, missions):
            await self.tap(next(b for b in self.by_class("MissionButton", root=row) if b.mission == mission))
        await self.tap(self.by_id("score"))
        await self.frames(3)

    def read_scores(self) -> dict:
        cards = self.by_class("ScoreCard")
        return {"totals": {c.name: int(c.total) for c in cards}, "winners": sorted(c.name for c in cards if c.winner),
                "winners_text": self.app.plugin.end.winners_text,
                "lines": {c.name: [(ln["rule"], ln["points"]) for ln in c.lines] for c in cards}}


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
    for panel in sorted(d.by_class("PlayerPanel"), key=lambda p: p.seat):
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
    await d.tap(d.by_class("ChoiceButton", choice=__import__("companion.ui.obscurians.turn", fromlist=["Reveal"])
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
    out["mission_slots"] = [b.choice.mission for b in d.by_class("ChoiceButton") if isinstance(b.choice, ChipMission)]
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
    await d.tap(d.by_class("DieButton", index=2)[0])
    await d.tap(d.widget_for(("choice", FaceCount("steal", 1))))
    pay = [b for b in d.by_class("ChoiceButton") if isinstance(b.choice, PayReroll)]
    out["pay_options"] = [(b.choice.discard, b.text) for b in pay]
    if shots:
        await d.shot(shots, "reroll-face-down")
    await d.tap(d.widget_for(("choice", PayReroll(FACE_DOWN))))
    out["reroll"] = table.actions[-1].to_json()
    out["log_reroll"] = model.log[0]["text"]
    out["panel_status"] = next(p for p in model.panels if p["seat"] == 0)["status"]
    out["screen_texts_after_discard"] = sorted({w.text for w in d.walk() if getattr(w, "text", "")
                                                and type(w).__name__ not in ("ChoiceButton",)})
    # Choose: a dimmed cell (no Donate rolled) says why; Steal x 6 (Double Steal, 3 Steal + 0 Wild... as rolled).
    cell = d.widget_for(("choice", ChooseAction("donate", 0)))
    out["donate_reason"] = await d.explain(cell)
    steal = next(b for b in d.by_class("ChoiceButton") if isinstance(b.choice, ChooseAction)
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
    menu = next(b for b in d.by_class("CornerButton") if b.kind == "menu" and b.parent.angle == 0)
    await d.tap(menu)
    if shots:
        await d.shot(shots, "menu")
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 0))
    out["in_hand_angles"] = sorted({p.parent.angle for p in d.by_class("PlayerPanel")})
    if shots:
        await d.shot(shots, "round-in-hand")
    await d.tap(next(b for b in d.walk() if type(b).__name__ == "QuietButton" and b.text == "Menu"))
    await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 0))
    menu = next(b for b in d.by_class("CornerButton") if b.kind == "menu" and b.parent.angle == 0)
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
    for row in sorted(d.by_class("SetupRow"), key=lambda r: r.index):
        await d.type_text(row.ids.name, NAMES[row.index])
    model = app.plugin.setup
    out["colours_before"] = [r["colour"] for r in model.rows]
    # Anna taps Ben's colour (orange, showing his seat number 2): they swap.
    row0 = next(r for r in d.by_class("SetupRow") if r.index == 0)
    taken = next(s for s in d.by_class("Swatch", root=row0) if s.colour == "orange")
    out["taken_label"] = taken.text
    await d.tap(taken)
    out["colours_after_swap"] = [r["colour"] for r in model.rows]
    # Drag seat 1 (Anna) by its number down onto the third row.
    rows = sorted(d.by_class("SetupRow"), key=lambda r: r.index)
    start = rows[0].ids.handle.to_window(*rows[0].ids.handle.center)
    end = rows[2].to_window(*rows[2].center)
    await d.tap_at(*start, move_to=(start[0], end[1]))
    out["names_after_drag"] = [r["name"] for r in model.rows]
    # The fallback: the up arrow of the last row.
    last = next(r for r in d.by_class("SetupRow") if r.index == 3)
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
        await d.tap(d.one("PutBackButton", mission=mission))
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
    row = sorted(d.by_class("MissionRow"), key=lambda r: r.seat)[0]
    button = next(b for b in d.by_class("MissionButton", root=row) if b.mission == put_back[0])
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
        await d.tap(next(b for b in d.by_class("CountButton") if getattr(b, "n", 0) == args.players))
    for row in sorted(d.by_class("SetupRow"), key=lambda r: r.index):
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


SCENARIOS = {"play": play, "resume": resume, "house-rules": house_rules, "checks": checks,
             "setup-checks": setup_checks, "home-checks": home_checks}


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=tuple(SCENARIOS))
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deck", choices=("app", "physical"), default="app")
    p.add_argument("--stop-after", type=int, default=0, help="play N effective actions, report, then hang (to be killed)")
    p.add_argument("--shots", default="")
    p.add_argument("--lang", default="en")
    p.add_argument("--taps-only", action="store_true", help="enter every move with taps (no drags)")
    p.add_argument("--policy", choices=("random", "plausible"), default="random",
                   help="who decides the moves (tests/ui/policies.py)")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    # The documents folder of this run (never the real one): exports go where a person would find them there.
    os.environ["XDG_DOCUMENTS_DIR"] = str(Path(args.data_dir) / "Documents")
    app.export_dir = Path(args.data_dir) / "Documents" / "Table Companion"
    first_frame: list[float] = []

    def on_first_frame(*_):
        if not first_frame:
            first_frame.append(_seconds_since_exec())

    def before():
        from kivy.clock import Clock

        Clock.schedule_once(on_first_frame, 0)

    async def play() -> dict:
        result = await SCENARIOS[args.scenario](app, args)
        result["first_frame_s"] = first_frame[0] if first_frame else None
        result["peak_rss_mb"] = _peak_rss_mb()
        return result

    return run_app(app, play, args.out, dump={"indent": 1, "default": str}, hang=lambda result: bool(args.stop_after),
                   before=before, close=store.close)


def _seconds_since_exec() -> float:
    """Seconds since this process was started (Linux /proc; falls back to time since main())."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.monotonic() - T0


T0 = time.monotonic()


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
