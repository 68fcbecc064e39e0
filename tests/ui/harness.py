"""Drive the real Table Companion app by touches, in its own process (one Kivy window per process).

    python tests/ui/harness.py play   --data-dir D --seed 7 --out result.json [--stop-after 40] [--shots DIR]
    python tests/ui/harness.py resume --data-dir D --out result.json
    python tests/ui/harness.py house-rules --data-dir D --out result.json [--shots DIR]

The driver is a coroutine on the app's own asyncio loop (the app runs with `async_run`). It finds widgets by their
kv id or by their view-model fields, builds a touch MotionEvent at the widget's centre, and posts touch down / up
through Kivy's event loop, letting frames pass between steps, like a finger on the glass. It only decides *what* to
tap by reading what the screen shows (enabled buttons); the engine is never called directly to make moves.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NAMES = ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay", "Gus")
from companion.games.obscurians.constants import FACES  # noqa: E402  (after the sys.path line)
from companion.ui.obscurians.turn import (  # noqa: E402
    AssignWild, Cancel, ChipMission, ChooseAction, FlipSelected, NextKind, PayReroll, PickGood, Reveal, SecureAll,
    SecureGood, SecureSelected,
)


class Stuck(RuntimeError):
    pass


class Driver:
    def __init__(self, app, rng: random.Random):
        self.app = app
        self.rng = rng
        self.taps = 0
        self._touch_id = 1000

    # -- frames and widgets ---------------------------------------------------------------------------------------

    async def frames(self, n: int = 2) -> None:
        from kivy.clock import Clock

        start = Clock.frames
        deadline = time.monotonic() + 5
        while Clock.frames < start + n and time.monotonic() < deadline:
            await asyncio.sleep(0.005)

    def screen(self):
        return self.app.sm.current_screen

    def walk(self):
        return list(self.screen().walk(restrict=True))

    def by_id(self, name: str, root=None):
        for w in (root.walk(restrict=True) if root is not None else self.walk()):
            ids = getattr(w, "ids", {})
            if name in ids:
                return ids[name]
        raise LookupError(f"no widget with id {name!r} on {self.app.sm.current}")

    def by_class(self, cls_name: str, root=None, **fields):
        out = []
        for w in (root.walk(restrict=True) if root is not None else self.walk()):
            if type(w).__name__ == cls_name and all(getattr(w, k) == v for k, v in fields.items()):
                out.append(w)
        return out

    def visible(self, w) -> bool:
        while w is not None:
            if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
                return False
            w = w.parent if w.parent is not w else None
        return True

    async def tap(self, widget) -> None:
        from kivy.base import EventLoop
        from kivy.input.motionevent import MotionEvent

        if not self.visible(widget):
            raise Stuck(f"tapping a hidden or disabled widget {widget!r} ({getattr(widget, 'text', '')!r})")
        await self._scroll_into_view(widget)
        x, y = widget.to_window(*widget.center)
        win = EventLoop.window

        class Finger(MotionEvent):
            def depack(self, args):
                self.sx, self.sy = args["x"], args["y"]
                super().depack(args)

        self._touch_id += 1
        touch = Finger("ui-test", self._touch_id, {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
                       is_touch=True, type_id="touch")
        touch.profile = ["pos"]
        EventLoop.post_dispatch_input("begin", touch)
        await self.frames(1)
        EventLoop.post_dispatch_input("end", touch)
        self.taps += 1
        await self.frames(1)

    async def _scroll_into_view(self, widget) -> None:
        from kivy.uix.scrollview import ScrollView

        p = widget.parent
        while p is not None and p is not p.parent:
            if isinstance(p, ScrollView):
                _, wy = widget.to_window(widget.x, widget.y)
                _, py = p.to_window(p.x, p.y)
                if wy < py or wy + widget.height > py + p.height:  # outside the visible part: scroll first
                    p.scroll_to(widget, padding=10, animate=False)
                    await self.frames(2)
                return
            p = p.parent

    async def type_text(self, text_input, text: str) -> None:
        await self.tap(text_input)
        text_input.text = ""
        text_input.insert_text(text)
        await self.frames(1)

    # -- screens --------------------------------------------------------------------------------------------------

    async def wait_screen(self, name: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.app.sm.current != name:
            if time.monotonic() > deadline:
                raise Stuck(f"expected screen {name}, still on {self.app.sm.current}")
            await self.frames(1)
        await self.frames(2)

    async def new_table(self, n_players: int = 4, deck: str = "app", shots: Path | None = None) -> None:
        await self.wait_screen("home")
        card = self.by_class("GameCard", game="obscurians")[0]
        await self.tap(card.ids.new_button)
        await self.wait_screen("setup")
        if n_players != 4:
            await self.tap(next(b for b in self.by_class("CountButton") if b.n == n_players))
        for row in sorted(self.by_class("SetupRow"), key=lambda r: r.index):
            await self.type_text(row.ids.name, NAMES[row.index])
        await self.tap(self.by_id("deck_" + deck))
        if shots:
            await self.shot(shots, "setup")
        await self.tap(self.by_id("start"))
        await self.wait_screen("round")

    async def shot(self, folder: Path, name: str) -> None:
        from kivy.core.window import Window

        await self.frames(3)
        folder.mkdir(parents=True, exist_ok=True)
        Window.screenshot(name=str(folder / f"{name}.png"))
        # Window.screenshot appends a counter: rename to the plain name.
        for p in folder.glob(f"{name}*.png"):
            if p.name != f"{name}.png":
                p.replace(folder / f"{name}.png")

    def enabled_choices(self, kind=None):
        """The enabled option buttons, of one Choice type (companion.ui.obscurians.turn) if given."""
        return [b for b in self.by_class("ChoiceButton")
                if not b.disabled and (kind is None or isinstance(b.choice, kind))]

    def enabled_panels(self):
        return [p for p in self.by_class("PlayerPanel") if p.enabled]

    async def step(self, shots: Path | None = None, moments: dict | None = None) -> bool:
        """One tap-sequence in the round screen, chosen from what is enabled; False when the round screen is gone."""
        app, rng = self.app, self.rng
        if app.sm.current != "round":
            return False
        state = app.table.state
        types = state.legal_types()
        if state.phase == "reveal":
            if moments is not None and shots and "reveal" not in moments and state.round >= 2:
                moments["reveal"] = True
                await self.shot(shots, "reveal")
            await self.tap(rng.choice(self.enabled_choices(Reveal)))
            return True
        if state.dice is None:
            panels = self.enabled_panels()
            if panels and rng.random() < 0.3:
                await self.tap(rng.choice(panels))
                await self.tap(rng.choice(self.enabled_choices(ChipMission)))
                return True
            if "roll" in types:
                for _ in range(5):
                    face = rng.choice(FACES)
                    await self.tap(next(b for b in self.by_class("FaceButton") if b.face == face))
                return True
            await self.tap(self.by_id("end_turn"))
            return True
        if state.chosen is None and "assign" in types:
            await self.tap(rng.choice(self.enabled_choices(AssignWild)))
            return True
        if state.chosen is None:
            dice = [d for d in self.by_class("DieButton") if not d.disabled]
            want_reroll = "reroll" in types and dice and rng.random() < (0.6 if state.event == "reroll_once" else 0.12)
            want_flip = "flip" in types and dice and rng.random() < 0.5
            if want_reroll or want_flip:
                picked = rng.sample(dice, rng.randint(1, 3))
                for d in picked:
                    await self.tap(d)
                if moments is not None and shots and "choice" not in moments:
                    moments["choice"] = True
                    await self.shot(shots, "reroll")
                if want_flip and not want_reroll:
                    await self.tap(self.enabled_choices(FlipSelected)[0])
                    return True
                for _ in picked:
                    face = rng.choice(FACES)
                    await self.tap(next(b for b in self.by_class("FaceButton") if b.face == face))
                options = self.enabled_choices(PayReroll)
                if options:
                    await self.tap(rng.choice(options))
                else:
                    cancel = self.enabled_choices(Cancel)
                    if not cancel:
                        raise Stuck(f"reroll: no option and no cancel: {state!r}, prompt {app.plugin.round.prompt!r}, "
                                    f"choices {[(b.choice, b.disabled) for b in self.by_class('ChoiceButton')]}")
                    await self.tap(cancel[0])
                return True
            options = self.enabled_choices(ChooseAction)
            if options:
                if moments is not None and shots and "choose" not in moments:
                    moments["choose"] = True
                    await self.shot(shots, "choose")
                await self.tap(rng.choice(options))
            else:
                await self.tap(self.by_id("end_turn"))
            return True
        # executing the chosen action
        kinds = self.enabled_choices(NextKind)
        if kinds:
            await self.tap(rng.choice(kinds))
            return True
        panels = self.enabled_panels()
        if panels:
            if moments is not None and shots and "target" not in moments:
                moments["target"] = True
                await self.shot(shots, "target")
            await self.tap(rng.choice(panels))
            return True
        goods = self.enabled_choices(PickGood)
        if goods:
            await self.tap(rng.choice(goods))
            return True
        secure_all = self.enabled_choices(SecureAll)
        if secure_all:
            await self.tap(secure_all[0])
            return True
        sgoods = self.enabled_choices(SecureGood)
        if sgoods:
            for _ in range(rng.choice((1, 2))):
                options = self.enabled_choices(SecureGood)
                if options:
                    await self.tap(rng.choice(options))
            go = self.enabled_choices(SecureSelected)
            if go:
                await self.tap(go[0])
            else:
                # A second tap on a good held once takes it back out: nothing selected, nothing to cancel;
                # the next step picks again.
                cancel = self.enabled_choices(Cancel)
                if cancel:
                    await self.tap(cancel[0])
            return True
        end = self.by_id("end_turn")
        if not end.disabled:
            await self.tap(end)
            return True
        raise Stuck(f"nothing to tap: {state!r}, prompt {app.plugin.round.prompt!r}")

    async def reveal_missions(self, missions) -> None:
        await self.wait_screen("end")
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


def _missions_for(n: int, seed: int):
    from companion.games.obscurians.setup import deal_missions

    return list(deal_missions(random.Random(seed), n))


async def play(app, args) -> dict:
    rng = random.Random(args.seed)
    d = Driver(app, rng)
    shots = Path(args.shots) if args.shots else None
    await d.frames(3)
    if shots:
        await d.shot(shots, "home")
    await d.new_table(args.players, deck=args.deck, shots=shots)
    moments: dict = {}
    actions = 0
    stalled = 0
    t0 = time.monotonic()
    while app.sm.current == "round":
        if shots and "round" not in moments and app.table.state.phase == "turn" and app.table.state.round == 2:
            moments["round"] = True
            await d.shot(shots, "round")
        before = app.table.log_length
        await d.step(shots, moments)
        if app.table is not None and app.table.log_length != before:
            actions += 1
            stalled = 0
        else:
            stalled += 1
            if stalled > 25:
                raise Stuck(f"no progress: {app.table.state!r}; prompt {app.plugin.round.prompt!r}; "
                            f"choices {[(c['choice'], c['enabled']) for c in app.plugin.round.choices]}")
        if os.environ.get("HARNESS_TRACE"):
            print(f"{time.monotonic() - t0:6.1f}s taps={d.taps} {app.table.state!r}", flush=True)
        if args.stop_after and app.table is not None and len(app.table.actions) >= args.stop_after:
            await d.frames(3)
            return {"table_id": app.table.id, "state": app.table.state.to_json(), "screen": app.sm.current,
                    "taps": d.taps}
        if time.monotonic() - t0 > 240:
            raise Stuck("the game takes too long")
    missions = _missions_for(args.players, args.seed)
    if shots:
        await d.shot(shots, "missions")
    await d.reveal_missions(missions)
    await d.wait_screen("end")
    if shots:
        await d.shot(shots, "end")
    await d.tap(d.by_id("export"))
    scores = d.read_scores()
    result = {"table_id": app.table.id, "missions": missions, "export_text": app.plugin.end.export_text, "taps": d.taps,
              "actions": len(app.table.actions), **scores}
    if shots:
        await d.shot(shots, "end")
    await d.tap(d.by_id("home"))
    await d.wait_screen("home")
    if shots:
        await d.shot(shots, "home-history")
    result["history_rows"] = [r["table_id"] for r in app.finished_tables]
    return result


async def house_rules(app, args) -> dict:
    """Setup with the Take cap switched off; open and close the rulings list; start the game."""
    d = Driver(app, random.Random(0))
    shots = Path(args.shots) if args.shots else None
    await d.wait_screen("home")
    await d.tap(d.by_class("GameCard", game="obscurians")[0].ids.new_button)
    await d.wait_screen("setup")
    if args.players != 4:
        await d.tap(next(b for b in d.by_class("CountButton") if b.n == args.players))
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
        await d.tap(rows[0].children[0])  # the row's Resume button
        await d.frames(3)
        result.update(screen=app.sm.current, table_id=app.table.id, state=app.table.state.to_json())
    return result


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=("play", "resume", "house-rules"))
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deck", choices=("app", "physical"), default="app")
    p.add_argument("--stop-after", type=int, default=0, help="play N effective actions, report, then hang (to be killed)")
    p.add_argument("--shots", default="")
    p.add_argument("--lang", default="en")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    app.export_dir = Path(args.data_dir) / "exports"  # keep the test's files out of the real documents folder
    first_frame: list[float] = []

    def on_first_frame(*_):
        if not first_frame:
            first_frame.append(_seconds_since_exec())

    async def run():
        from kivy.clock import Clock

        Clock.schedule_once(on_first_frame, 0)
        scenario = {"play": play, "resume": resume, "house-rules": house_rules}[args.scenario]

        async def drive():
            while app.root is None:
                await asyncio.sleep(0.01)
            try:
                result = await scenario(app, args)
                result["first_frame_s"] = first_frame[0] if first_frame else None
                result["peak_rss_mb"] = _peak_rss_mb()
                Path(args.out).write_text(json.dumps(result, indent=1))
                if args.stop_after:
                    await asyncio.sleep(3600)  # wait to be killed
            except BaseException as err:
                import traceback

                Path(args.out).write_text(json.dumps({"error": f"{type(err).__name__}: {err}",
                                                      "trace": traceback.format_exc()}))
            finally:
                app.stop()

        await asyncio.gather(app.async_run(async_lib="asyncio"), drive())

    try:
        asyncio.run(run())
    except BaseException as err:  # e.g. a .kv error while building: report it instead of dying silently
        import traceback

        if not Path(args.out).exists():
            Path(args.out).write_text(json.dumps({"error": f"{type(err).__name__}: {err}",
                                                  "trace": traceback.format_exc()}))
        raise
    finally:
        store.close()
    return 0


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
