"""Drive the real Table Companion app through Obscurians by touches, in its own process (one Kivy window per process).

    python tests/ui/obscurians_driver.py play --data-dir D --seed 7 --out result.json [--players N] [--lang L]
        [--shots DIR]
    python tests/ui/obscurians_driver.py resume --data-dir D --out result.json
    python tests/ui/obscurians_driver.py house-rules --data-dir D --out result.json [--shots DIR]
    python tests/ui/obscurians_driver.py setup-checks --data-dir D --out result.json [--lang L] [--shots DIR]
    python tests/ui/obscurians_driver.py home-checks --data-dir D --out result.json [--shots DIR]

The driver is a coroutine on the app's own asyncio loop (the app runs with `async_run`). It finds widgets by their
kv id or by their view-model fields, builds a touch MotionEvent at the widget's centre (through the panels' turn:
Kivy turns the touch back into the widget's own coordinates) and posts touch down / up through Kivy's event loop,
letting frames pass between steps, like a finger on the glass.

A game is played the way a group that knows its moves would: the engine's seeded random player decides each move
(companion.games.obscurians.randplay), and tests/ui/intents.py finds the taps on the screen that enter it; the
engine is never handed a move directly. Each move the screen records is compared with the one intended.

The scenarios: whole games and the way back to them (play, resume) in tests/ui/obscurians_play.py; the screens'
promises one by one (checks, setup-checks, home-checks, house-rules) in tests/ui/obscurians_checks.py.
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
            await self.tap(next(b for b in self.by_class("ObsnCountButton") if getattr(b, "n", 0) == n_players))
        for row in sorted(self.by_class("ObsnSetupRow"), key=lambda r: r.index):
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
            found = [w for w in self.by_class("ObsnChoiceButton") + self.by_class("ObsnPadButton")
                     if w.choice == choice]
            if not found:
                raise Stuck(f"no button for {choice!r}; prompt {self.app.plugin.round.prompt!r}")
            return found[0]
        if kind == "player":
            return self.by_class("ObsnPlayerPanel", seat=tap[1])[0]
        if kind == "die":
            return self.by_class("ObsnDieButton", index=tap[1])[0]
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
        rows = sorted(self.by_class("ObsnMissionRow"), key=lambda r: r.seat)
        for row, mission in zip(rows, missions):
            await self.tap(next(b for b in self.by_class("ObsnMissionButton", root=row) if b.mission == mission))
        await self.tap(self.by_id("score"))
        await self.frames(3)

    def read_scores(self) -> dict:
        cards = self.by_class("ObsnScoreCard")
        return {"totals": {c.name: int(c.total) for c in cards}, "winners": sorted(c.name for c in cards if c.winner),
                "winners_text": self.app.plugin.end.winners_text,
                "lines": {c.name: [(ln["rule"], ln["points"]) for ln in c.lines] for c in cards}}


def scenarios() -> dict:
    """The scenarios by name (imported here, as they import this module's Driver)."""
    from tests.ui.obscurians_checks import checks, home_checks, house_rules, setup_checks
    from tests.ui.obscurians_play import play, resume

    return {"play": play, "resume": resume, "house-rules": house_rules, "checks": checks,
            "setup-checks": setup_checks, "home-checks": home_checks}


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=tuple(scenarios()))
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
        result = await scenarios()[args.scenario](app, args)
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
