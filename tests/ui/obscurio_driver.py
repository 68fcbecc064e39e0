"""Drive the real Table Companion app through Obscurio by touches, in its own process, on a fake clock.

    python tests/ui/obscurio_driver.py SCENARIO --data-dir D --out result.json [--seed 7] [--lang en]
                                       [--wall SECONDS] [--shots DIR] [--prefix obscurio-]

Scenarios (tests/ui/test_obscurio_*.py run them):
  play     a whole 5-player game: the sand running out onto the next space, "Stop!", the night, an accusation
           (a tie, then the Traitor found) and the escape; a refused tap, undo/redo; export
  deal     a 5-player table whose loyalty cards the app deals: every wizard looks at their card in private; the
           texts of every screen state are reported
  hang     a table to step 4, 20 s of sand gone; report, then wait to be killed
  resume   reopen the unfinished table (the clock's wall time from --wall) and report the hourglass
  accuse   resume a prepared table in the accusation (the test wrote it): votes by touch until the game ends
  small    a 2-player setup (companion chip, rulings, hourglass and time track edited) and a turn

The app's clock is a FakeClock that only this driver moves (`advance`): no test ever sleeps for game time. The
driver decides what to tap by reading the screen and the table's state (as the group reads the real table), and
only ever acts by touches.
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

NAMES = ("Gala", "Bea", "Cruz", "Dani", "Eli", "Fran", "Gus", "Hugo")


class Stuck(RuntimeError):
    pass


class RecordingSpeaker:
    """Stands in for espeak-ng: remembers what it was asked to say (and says nothing)."""

    def __init__(self, available: bool = True):
        self.available = available
        self.said: list[str] = []

    def say(self, text: str, lang: str = "en") -> None:
        self.said.append(text)

    def stop(self) -> None:
        pass


class Finger:
    """Touches on the app's window, frames between them, and what the screen shows."""

    def __init__(self, app, clock):
        self.app = app
        self.clock = clock
        self.taps = 0
        self._id = 5000

    async def frames(self, n: int = 2) -> None:
        from kivy.clock import Clock

        start, deadline = Clock.frames, time.monotonic() + 5
        while Clock.frames < start + n and time.monotonic() < deadline:
            await asyncio.sleep(0.004)

    async def advance(self, seconds: float) -> None:
        """Game time passes: the fake clock moves, then the app's frame tick polls its clocks (twice, so that
        whatever the first poll changed is on screen)."""
        self.clock.advance(seconds)
        await self.ticks(2)

    async def ticks(self, n: int) -> None:
        plugin = self.app.plugin_for("obscurio")
        start, deadline = plugin.ticks, time.monotonic() + 5
        while plugin.ticks < start + n and time.monotonic() < deadline:
            await asyncio.sleep(0.004)
        await self.frames(1)

    def screen(self):
        return self.app.sm.current_screen

    def walk(self):
        return list(self.screen().walk(restrict=True))

    def by_id(self, name: str):
        for w in self.walk():
            if name in getattr(w, "ids", {}):
                return w.ids[name]
        raise Stuck(f"no widget {name!r} on {self.app.sm.current}")

    def by_class(self, cls_name: str, **fields):
        return [w for w in self.walk() if type(w).__name__ == cls_name
                and all(getattr(w, k) == v for k, v in fields.items())]

    def one(self, cls_name: str, **fields):
        found = self.by_class(cls_name, **fields)
        if not found:
            raise Stuck(f"no {cls_name} {fields} on {self.app.sm.current}")
        return found[0]

    def texts(self) -> list[str]:
        """Every text any widget of the screen holds (shown or not), the banner included."""
        return [w.text for w in self.walk() if isinstance(getattr(w, "text", None), str) and w.text]

    def _shown(self, w) -> bool:
        while w is not None:
            if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
                return False
            w = w.parent if w.parent is not w else None
        return True

    def _post(self, kind: str, widget, touch=None):
        from kivy.base import EventLoop
        from kivy.input.motionevent import MotionEvent

        if touch is None:
            x, y = widget.to_window(*widget.center)
            win = EventLoop.window

            class Touch(MotionEvent):
                def depack(self, args):
                    self.sx, self.sy = args["x"], args["y"]
                    super().depack(args)

            self._id += 1
            touch = Touch("obscurio-test", self._id, {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
                          is_touch=True, type_id="touch")
            touch.profile = ["pos"]
        EventLoop.post_dispatch_input(kind, touch)
        return touch

    async def tap(self, widget) -> None:
        if not self._shown(widget):
            raise Stuck(f"tapping a hidden widget {widget!r} ({getattr(widget, 'text', '')!r})")
        await self._scroll_into_view(widget)
        touch = self._post("begin", widget)
        await self.frames(1)
        self._post("end", widget, touch)
        self.taps += 1
        await self.frames(2)

    async def press(self, widget):
        touch = self._post("begin", widget)
        await self.frames(2)
        return touch

    async def lift(self, widget, touch) -> None:
        self._post("end", widget, touch)
        self.taps += 1
        await self.frames(2)

    async def _scroll_into_view(self, widget) -> None:
        from kivy.uix.scrollview import ScrollView

        p = widget.parent
        while p is not None and p is not p.parent:
            if isinstance(p, ScrollView):
                p.scroll_to(widget, padding=10, animate=False)
                await self.frames(2)
                return
            p = p.parent

    async def type_text(self, text_input, text: str) -> None:
        await self.tap(text_input)
        text_input.text = ""
        text_input.insert_text(text)
        await self.frames(1)

    async def wait_screen(self, name: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.app.sm.current != name:
            if time.monotonic() > deadline:
                raise Stuck(f"expected screen {name}, still on {self.app.sm.current}")
            await self.frames(1)
        await self.frames(2)

    async def shot(self, folder: Path | None, name: str) -> None:
        if folder is None:
            return
        from kivy.core.window import Window

        await self.frames(4)
        folder.mkdir(parents=True, exist_ok=True)
        Window.screenshot(name=str(folder / f"{name}.png"))
        for p in folder.glob(f"{name}[0-9]*.png"):   # Kivy appends a counter: keep the plain name
            p.replace(folder / f"{name}.png")


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=("play", "deal", "hang", "resume", "accuse", "small"))
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--lang", default="en")
    p.add_argument("--wall", type=float, default=1_800_000_000.0)
    p.add_argument("--shots", default="")
    p.add_argument("--prefix", default="obscurio-")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.session.timers import FakeClock
    from companion.ui.app import CompanionApp
    from tests.ui import obscurio_scenarios as scenarios

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    clock = FakeClock(wall=args.wall)
    app.clock = clock                      # every table's timers run on the driver's clock
    app.export_dir = Path(args.data_dir) / "exports"
    from companion.ui.sound import RecordingSounds  # the shell's own: a name it has no sound for raises

    sounds = RecordingSounds()
    app.sounds = sounds
    speaker = RecordingSpeaker()

    async def run():
        async def drive():
            while app.root is None:
                await asyncio.sleep(0.01)
            finger = Finger(app, clock)
            await finger.frames(3)
            app.plugin_for("obscurio").speaker = speaker
            try:
                result = await getattr(scenarios, args.scenario)(finger, args)
                result.update(sounds=[name for name, audible in sounds.requested if audible], said=speaker.said, taps=finger.taps)
                Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False))
                if result.get("hang"):
                    await asyncio.sleep(3600)   # wait to be killed
            except BaseException as err:
                import traceback

                Path(args.out).write_text(json.dumps({"error": f"{type(err).__name__}: {err}",
                                                      "trace": traceback.format_exc()}))
            finally:
                app.stop()

        await asyncio.gather(app.async_run(async_lib="asyncio"), drive())

    try:
        asyncio.run(run())
    except BaseException as err:
        import traceback

        if not Path(args.out).exists():
            Path(args.out).write_text(json.dumps({"error": f"{type(err).__name__}: {err}",
                                                  "trace": traceback.format_exc()}))
        raise
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
