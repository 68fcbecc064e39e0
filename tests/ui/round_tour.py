"""The Obscurians screens at one window size, in one language, with 4 to 7 players: a scripted game played by touch
(tests/ui/obscurians_driver.py's Driver: the engine's seeded random player decides, the screen's own buttons enter
it), and at every touch a look at what a player would notice (issue 14 §2, §4, §7; table rules 1 and 2):

- controls that hold still: where every control on the round screen is, before and after each touch (read from
  the widget tree, tests/ui/fit.py `control_places`); one that is there both times and moved is reported. The
  panels and the corner buttons are measured in the window; the shared centre in its own frame while it faces the
  same player (when the turn passes it turns to face the next player: that is not a control moving under a finger);
- labels that fit (tests/ui/fit.py `unfit_labels`): every label of the screen, at every touch, and on the setup
  and end screens; then with the seats turned once round the table (every panel at every edge);
- nothing overlapping on the round screen: the parts of the centre (the prompt, the dice, the pad, the options,
  Cancel and End turn, the event card, Undo, Redo, the log) each inside the centre and none over another;
- the smallest text drawn on the round screen, in px.

    python tests/ui/round_tour.py --data-dir D --out result.json --size small --lang de --players 7 [--rounds 3]
        [--seed 7] [--shots DIR] [--root-shot FILE.png]

tests/ui/test_round_layout.py runs it at the smallest and the largest window sizes (tests/ui/fit.py WINDOW_SIZES).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.drive import run_app  # noqa: E402
from tests.ui.fit import WINDOW_SIZES, control_places, moved, unfit_labels, window_box  # noqa: E402
from tests.ui.obscurians_driver import NAMES, Driver  # noqa: E402
from tests.ui.obscurians_play import _missions_for  # noqa: E402
from tests.ui.touch import Stuck, Touch  # noqa: E402

# The parts of the centre that must each have a place of their own (kv ids of round.kv's ObsnRoundCentre).
CENTRE_PARTS = ("turn_banner", "options", "cancel", "end_turn", "undo", "redo", "log_scroll")


def _overlap(a, b, slack: float = 0.5) -> bool:
    return (a[0] + slack < b[0] + b[2] and b[0] + slack < a[0] + a[2] and a[1] + slack < b[1] + b[3]
            and b[1] + slack < a[1] + a[3])


def _inside(a, b, slack: float = 1.0) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[0] + a[2] <= b[0] + b[2] + slack
            and a[1] + a[3] <= b[1] + b[3] + slack)


class TourDriver(Driver):
    """The harness's driver, looking at the round screen around every touch."""

    def __init__(self, app, rng, where: str):
        super().__init__(app, rng)
        self.where = where
        self.checked = 0             # touches looked at
        self.tracked: set = set()    # every control seen (its key)
        self.moves: list[str] = []   # controls that moved under a touch
        self.unfit: set = set()
        self.overlaps: set = set()
        self.font_px: list[float] = []   # the smallest text on the round screen, at each look
        self.scrolled = 0
        self.sizes_seen: set = set()
        self.font_by_size: dict = {}   # the smallest text on the round screen at each window size, px
        self._still: tuple | None = None   # (Clock.frames, reading) when the screen was last seen settled

    # -- frames --------------------------------------------------------------------------------------------------

    async def frames(self, n: int = 2) -> None:
        """`n` frames pass (as Touch.frames), woken by the Kivy clock's own tick instead of a 5 ms poll: when a frame
        takes longer than the poll (software GL), the poll lands a frame late and every frame waited cost two."""
        from kivy.clock import Clock

        loop = asyncio.get_running_loop()
        end, deadline = Clock.frames + n, time.monotonic() + 5
        while Clock.frames < end and time.monotonic() < deadline:
            # (awaited as it is: asyncio.wait_for would add a hop of the loop, and the app a frame before it)
            tick = loop.create_future()
            wake = lambda *_, f=tick: f.done() or f.set_result(None)  # noqa: E731
            Clock.schedule_once(wake, 0)   # in the next frame
            timer = loop.call_at(loop.time() + max(0.0, deadline - time.monotonic()), wake)
            await tick
            timer.cancel()

    def geometry(self) -> tuple:
        """Where every widget of the screen (and the sheet over it) is in its parent, how the turned ones are turned
        and what the labels say: what a screen still settling changes from one frame to the next."""
        out = []
        for w in self.walk():
            turn = getattr(w, "transform", None)
            out.append((id(w), w.x, w.y, w.width, w.height, tuple(turn.get()) if turn is not None else None,
                        getattr(w, "text", None), getattr(w, "font_size", None), getattr(w, "opacity", None)))
        return tuple(out)

    def reading(self) -> tuple:
        return self.geometry(), (self.places() if self.app.sm.current == "round" else None)

    async def still(self) -> dict:
        """Once the layout has settled (every widget and every control's place the same three frames running):
        the places. If no frame has passed since it was last seen settled and nothing has changed since, that is
        still so (the looks in between only read the screen)."""
        from kivy.clock import Clock

        now = self.reading()
        if self._still is not None and self._still[0] == Clock.frames and self._still[1] == now:
            return now[1]
        last, still = None, 0
        for _ in range(30):
            still = still + 1 if now == last else 0
            if still >= 2:
                self._still = (Clock.frames, now)
                break
            last = now
            await self.frames(1)
            now = self.reading()
        return last[1]

    # -- what is where ------------------------------------------------------------------------------------------

    def table_widget(self):
        return self.by_class("ObsnSeatRing")[0]

    def centre(self):
        return self.by_class("ObsnRoundCentre")[0]

    def places(self) -> dict:
        """{key: box} of every control on the round screen: the centre's in its own frame (keyed by the angle it
        faces), the panels' and corners' in the window (keyed by their holder: made once, reused)."""
        out = {}
        table = self.table_widget()
        centre = self.centre()
        angle = self.app.plugin.round.centre_angle
        for i, holder in enumerate(reversed(table.children)):
            if centre in holder.walk(restrict=True):
                for key, box in control_places(holder, frame=centre).items():
                    out[f"centre@{angle}:{key}"] = box
            else:
                for key, box in control_places(holder).items():
                    out[f"{type(holder.children[0]).__name__ if holder.children else 'holder'}{i}:{key}"] = box
        return out

    async def steady_places(self) -> dict:
        """The places once the layout has settled (the same three frames running)."""
        return await self.still()

    async def settled(self, widgets) -> None:
        """As Driver.settled (the widgets in the same place three frames running), at no cost when the whole screen
        has just been seen settled: every widget's place in its parent and every turn held still, so theirs too."""
        from kivy.clock import Clock

        if self._still is not None and self._still[0] == Clock.frames:
            on_screen = {id(w) for w in self.walk()}
            if all(id(w) in on_screen for w in widgets) and self.geometry() == self._still[1][0]:
                return
        await super().settled(widgets)

    async def tap(self, widget) -> None:
        """As Driver.tap, but waiting for a scrolled view's held-back release to reach the button (Kivy hands it on
        0.2 s after the finger lifts) rather than a fixed 0.3 s."""
        await Touch.tap(self, widget)
        if self._in_scrolling_view(widget):
            self.waits += 1
            await self.released()
            await self.frames(2)

    async def released(self, timeout: float = 5) -> None:
        """Frames until no ScrollView holds a finger's release back any more (its `_do_touch_up` has run)."""
        from kivy.clock import Clock

        def held():
            return any(isinstance(cb, partial) and getattr(cb.func, "__name__", "") == "_do_touch_up"
                       for cb in (e.get_callback() for e in Clock.get_events()))

        deadline = time.monotonic() + timeout
        while held() and time.monotonic() < deadline:
            await self.frames(1)

    def scroll_state(self):
        from kivy.uix.scrollview import ScrollView

        return tuple(round(w.scroll_y, 3) for w in self.centre().walk(restrict=True) if isinstance(w, ScrollView))

    # -- the looks -----------------------------------------------------------------------------------------------

    def look_round(self) -> None:
        root = self.screen()
        for line in unfit_labels(root):
            self.unfit.add(f"{self.where} {self.app.lang}: {line}")
        self.font_px.append(self.smallest_text(root))
        self.overlaps |= self.centre_overlaps()

    async def every_size(self, what: str, round_screen: bool = False) -> list[str]:
        """The screen as it is now at every window size (as a desktop window is resized), then back: the labels
        that do not fit, and on the round screen the parts that lie over each other."""
        from kivy.core.window import Window
        from kivy.metrics import dp

        out, home = [], tuple(Window.size)
        for key, (w, h) in WINDOW_SIZES.items():
            Window.size = (dp(w), dp(h))   # (the root widget takes the new size at once, its layouts over frames)
            await self.still()
            self.sizes_seen.add(key)
            out += [f"{w}x{h} {self.app.lang} {what}: {line}" for line in unfit_labels(self.screen())]
            if round_screen:
                px = self.smallest_text(self.screen())
                self.font_by_size[key] = min(px, self.font_by_size.get(key, px))
                where, self.where = self.where, f"{w}x{h} {what}"
                out += sorted(self.centre_overlaps())
                self.where = where
        Window.size = home
        await self.still()
        return out

    def smallest_text(self, root) -> float:
        from kivy.uix.label import Label

        sizes = [w.font_size for w in root.walk(restrict=True)
                 if isinstance(w, Label) and w.text.strip() and self.visible(w) and w.height > 0]
        return round(min(sizes), 1) if sizes else 0

    def centre_overlaps(self) -> set:
        centre = self.centre()
        ids = centre.ids
        whole = window_box(centre)
        boxes = {}
        for name in CENTRE_PARTS:
            w = ids.get(name)
            if w is None or w.opacity == 0 or w.height <= 0 or w.width <= 0:
                continue
            boxes[name] = window_box(w)
        out = set()
        for name, box in boxes.items():
            if not _inside(box, whole):
                out.add(f"{self.where}: #{name} {box} runs out of the centre {whole}")
        names = sorted(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if _overlap(boxes[a], boxes[b]):
                    out.add(f"{self.where}: #{a} {tuple(round(v) for v in boxes[a])} lies over "
                            f"#{b} {tuple(round(v) for v in boxes[b])}")
        return out

    # -- a touch, watched ----------------------------------------------------------------------------------------

    async def touch(self, tap) -> None:
        before = await self.steady_places()
        scroll = self.scroll_state()
        await super().touch(tap)
        await self.close_moment()   # an announcement the touch brought: read and tapped away, as the group does
        after = await self.steady_places()
        self.checked += 1
        self.tracked |= set(before) | set(after)
        if self.scroll_state() != scroll:
            # The driver scrolled the options to reach a button: what is in the scrolled view moved with the
            # finger, on purpose. Only the controls outside it are compared.
            self.scrolled += 1
            before = {k: v for k, v in before.items() if not k.startswith("centre@") or "#" in k}
            after = {k: v for k, v in after.items() if k in before}
        for line in moved(before, after):
            self.moves.append(f"{self.where} touch {self.checked} ({_tap_name(tap)}): {line}")
        self.look_round()


def _tap_name(tap) -> str:
    return " ".join(repr(p) for p in tap)


async def tour(app, args) -> dict:
    from kivy.core.window import Window
    from kivy.metrics import dp

    from companion.games.obscurians.randplay import random_action
    from tests.ui.policies import POLICIES

    w, h = WINDOW_SIZES[args.size]
    Window.size = (dp(w), dp(h))
    Window.left, Window.top = 0, 0   # the window in the X screen's corner (for --root-shot)
    where = f"{w}x{h} {args.players}p"
    rng = random.Random(args.seed)
    d = TourDriver(app, rng, where)
    shots = Path(args.shots) if args.shots else None
    await d.frames(4)
    await d.wait_screen("home")
    card = d.by_class("GameCard", game="obscurians")[0]
    await d.tap(card.ids.new_button)
    await d.wait_screen("setup")
    if args.players != 4:
        await d.tap(next(b for b in d.by_class("ObsnCountButton") if getattr(b, "n", 0) == args.players))
    for row in sorted(d.by_class("ObsnSetupRow"), key=lambda r: r.index):
        await d.type_text(row.ids.name, NAMES[row.index])
    await d.frames(3)
    setup_unfit = await d.every_size("setup")
    await d.shot(shots, f"setup-{args.size}-{args.players}p-{args.lang}")
    await d.tap(d.by_id("start"))
    await d.wait_screen("round")
    table = app.table
    await d.frames(4)
    await d.still()
    d.look_round()
    policy, memory = POLICIES["random"], {}
    decided, taps_by_kind, shot_turns = table.state, Counter(), set()
    resized: list[str] = []   # the round screen at every size, once for each player's turn (the centre faces them)
    looked_at: set = set()
    while app.sm.current == "round" and table.state.round <= args.rounds:
        await d.close_moment()
        if table.state.phase not in ("reveal", "turn"):
            await d.frames(2)
            continue
        wanted = policy(decided, rng, memory)
        try:
            try:
                decided = await d.enter(decided, wanted, taps_by_kind)
            except Stuck as err:
                if "cannot see both ends of a drag" not in str(err):
                    raise
                # Seven rows of goods on a small window scroll: where a drag's two ends are never in sight
                # together, the group taps the move in instead (the two-tap way every drag has).
                decided = await d.enter(decided, wanted, taps_by_kind, drags=False)
        except Stuck:
            await d.shot(shots, f"stuck-{args.size}-{args.players}p-{args.lang}")
            raise
        st = table.state
        if app.sm.current == "round" and st.phase == "turn" and st.active not in looked_at and st.dice is not None:
            looked_at.add(st.active)
            resized += await d.every_size(f"round, {NAMES[st.active]}'s turn", round_screen=True)
        if shots is not None and st.phase == "turn" and st.step == "acting" and st.active not in shot_turns:
            shot_turns.add(st.active)
            await d.shot(shots, f"round-{args.size}-{args.players}p-{args.lang}-seat{st.active}")
            if args.root_shot:
                # The whole X screen as a player sees it (ImageMagick's `import`), once: the first turn in which
                # goods move (the goods rows under the turn banner).
                from kivy.core.window import Window

                await d.frames(3)
                ww, wh = int(Window.width), int(Window.height)
                area = f"{ww}x{wh}+{int(Window.left)}+{int(Window.top)}"   # the app's window on the X screen
                subprocess.run(["import", "-window", "root", "-crop", area, "+repage", args.root_shot], check=True,
                               timeout=30)
                args.root_shot = ""
    # Every panel at every edge: the seats turned one place at a time, from the menu in the corner.
    turned = 0
    for _ in range(table.state.n_players):
        if app.sm.current != "round":
            break
        menu = next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu" and not b.disabled)
        await d.tap(menu)
        await d.frames(2)
        await d.tap(next(b for b in d.by_class("MenuExtra") if b.index == 1))
        await d.frames(3)
        await d.still()
        d.look_round()
        turned += 1
    # To the end quickly (the moves straight into the table: the round screen was the point), then the end screen
    # by touch: the mission cards tapped in, the scores.
    end_unfit: list[str] = []
    while table.state.phase in ("reveal", "turn"):
        table.apply(random_action(table.state, rng))
    await d.wait_screen("end")
    await d.close_moment()
    await d.frames(3)
    end_unfit += await d.every_size("missions")
    await d.reveal_missions(_missions_for(args.players, args.seed, table.setup.put_back))
    await d.close_moment()
    await d.frames(3)
    end_unfit += await d.every_size("scores")
    await d.shot(shots, f"end-{args.size}-{args.players}p-{args.lang}")
    return {"where": where, "lang": args.lang, "touches": d.checked, "controls": len(d.tracked),
            "moved": d.moves, "unfit": sorted(d.unfit), "setup_unfit": setup_unfit, "end_unfit": end_unfit,
            "overlaps": sorted(d.overlaps), "smallest_px": min(d.font_px) if d.font_px else None,
            "scrolled": d.scrolled, "resized": resized, "sizes_seen": sorted(d.sizes_seen),
            "smallest_px_by_size": d.font_by_size, "turned": turned, "rounds": table.state.round,
            "window": [Window.width / dp(1), Window.height / dp(1)]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--lang", default="en")
    p.add_argument("--size", choices=tuple(WINDOW_SIZES), default="16:10")
    p.add_argument("--rounds", type=int, default=2, help="play this many rounds by touch")
    p.add_argument("--shots", default="")
    p.add_argument("--root-shot", default="", help="a PNG of the whole screen (import -window root) in a turn")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    os.environ["XDG_DOCUMENTS_DIR"] = str(Path(args.data_dir) / "Documents")
    return run_app(app, lambda: tour(app, args), args.out, dump={"indent": 1, "default": str}, close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
