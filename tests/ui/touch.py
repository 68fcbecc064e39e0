"""Touching the real app from a test driver running on the app's own asyncio loop (any screen, any game).

A driver finds widgets by kv id or by class and field values, builds a touch MotionEvent at a widget's centre (through
any turned panel: Kivy turns the touch back into the widget's own coordinates) and posts touch down / up through
Kivy's event loop, letting frames pass between, like a finger on the glass. Screens are only ever driven by what they
show (a hidden or disabled widget is never tapped: that raises Stuck; one outside a scrolled view is scrolled to
first). The game drivers build on `Touch`: tests/ui/obscurians_driver.py (Obscurians), tests/ui/obscurio_driver.py
(Obscurio), tests/ui/devices_driver.py (the devices screen).
"""
from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path


class Stuck(RuntimeError):
    pass


class Touch:
    """Finds widgets on the current screen and taps them like a finger: touch down, a frame, touch up.

    A driver may set, as class attributes, how many frames pass after a finger lifts (`frames_after_tap`) and before a
    screenshot (`frames_before_shot`), and whether a widget in a scrolled view is scrolled to before every tap
    (`always_scroll`) rather than only when it is outside the visible part."""

    frames_after_tap = 1
    frames_before_shot = 3
    always_scroll = False

    def __init__(self, app, rng: random.Random | None = None):
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
            if type(w).__name__ == cls_name and all(getattr(w, k, None) == v for k, v in fields.items()):
                out.append(w)
        return out

    def one(self, cls_name: str, **fields):
        found = self.by_class(cls_name, **fields)
        if not found:
            raise Stuck(f"no {cls_name} {fields} on {self.app.sm.current}")
        return found[0]

    def texts(self) -> list[str]:
        """Every text any widget of the screen holds (shown or not)."""
        return [w.text for w in self.walk() if isinstance(getattr(w, "text", None), str) and w.text]

    def visible(self, w) -> bool:
        while w is not None:
            if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
                return False
            w = w.parent if w.parent is not w else None
        return True

    # -- touches --------------------------------------------------------------------------------------------------

    async def tap(self, widget) -> None:
        if not self.visible(widget):
            raise Stuck(f"tapping a hidden or disabled widget {widget!r} ({getattr(widget, 'text', '')!r})")
        await self._scroll_into_view(widget)
        await self.tap_at(*widget.to_window(*widget.center))

    async def tap_at(self, x: float, y: float, move_to: tuple | None = None) -> None:
        """A finger down at (x, y) in window coordinates (and, for a drag, moved to `move_to`), then up."""
        from kivy.base import EventLoop

        win = EventLoop.window
        touch = self._finger(x, y)
        EventLoop.post_dispatch_input("begin", touch)
        await self.frames(1)
        if move_to is not None:
            steps = 8
            for i in range(1, steps + 1):
                mx = x + (move_to[0] - x) * i / steps
                my = y + (move_to[1] - y) * i / steps
                touch.move({"x": mx / (win.width - 1.0), "y": my / (win.height - 1.0)})
                EventLoop.post_dispatch_input("update", touch)
                await self.frames(1)
        await self.lift(touch)

    async def press(self, widget):
        """A finger down on `widget` and held there (a few frames pass); `lift` it with the touch returned."""
        from kivy.base import EventLoop

        touch = self._finger(*widget.to_window(*widget.center))
        EventLoop.post_dispatch_input("begin", touch)
        await self.frames(2)
        return touch

    async def lift(self, touch) -> None:
        """The finger of `touch` up: that ends a tap (counted)."""
        from kivy.base import EventLoop

        EventLoop.post_dispatch_input("end", touch)
        self.taps += 1
        await self.frames(self.frames_after_tap)

    def _finger(self, x: float, y: float):
        """A new touch at (x, y) in window coordinates, not posted yet."""
        from kivy.base import EventLoop
        from kivy.input.motionevent import MotionEvent

        win = EventLoop.window

        class Finger(MotionEvent):
            def depack(self, args):
                self.sx, self.sy = args["x"], args["y"]
                super().depack(args)

        self._touch_id += 1
        touch = Finger("ui-test", self._touch_id, {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
                       is_touch=True, type_id="touch")
        touch.profile = ["pos"]
        return touch

    async def _scroll_into_view(self, widget) -> None:
        from kivy.uix.scrollview import ScrollView

        p = widget.parent
        while p is not None and p is not p.parent:
            if isinstance(p, ScrollView):
                # Compare in the ScrollView's own frame (the centre may be turned: "up" is not the window's up).
                _, wy = p.parent.to_widget(*widget.to_window(widget.x, widget.y))
                _, wy2 = p.parent.to_widget(*widget.to_window(widget.right, widget.top))
                outside = min(wy, wy2) < p.y - 1 or max(wy, wy2) > p.top + 1
                # A RecycleView (Kivy's Factory may load it as a second module: test by what it has) builds its rows
                # only near sight: scroll toward the row's side instead of to the row.
                if hasattr(p, "view_adapter"):
                    if outside:
                        p.scroll_y = 0 if min(wy, wy2) < p.y - 1 else 1
                        await self.frames(2)
                    return
                if outside or self.always_scroll:  # outside the visible part: scroll first
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

    async def until(self, predicate, what: str, timeout: float = 60) -> None:
        """Frames until `predicate()` holds; Stuck naming `what` after `timeout` seconds (a loaded machine is slow,
        so this is a ceiling, never a measure)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise Stuck(f"waited in vain for {what}")
            await self.frames(1)

    async def add_device(self, url: str, label: str = "") -> None:
        """Dice and boards' Add, as the app does it, and wait until the device is connected."""
        app = self.app
        await self.until(lambda: getattr(app, "devices", None) is not None, "the devices")
        await app.devices.add(url, label)
        await self.until(lambda: app.devices.manager.state(url) is not None
                         and app.devices.manager.state(url).state == "connected", f"{url} connected")

    async def new_game(self, game: str, screen: str) -> None:
        """Home's New table on `game`'s card, and wait for its setup screen `screen`."""
        card = next(w for w in self.walk() if type(w).__name__ == "GameCard" and w.game == game)
        await self.tap(card.ids.new_button)
        await self.wait_screen(screen)

    async def home_list(self, finished: bool) -> None:
        """On Home: bring the finished (or the unfinished) tables into sight, as a player does: a window too narrow
        for both lists side by side shows one at a time, under its tab."""
        tab = self.by_id("tab_finished" if finished else "tab_unfinished")
        if self.visible(tab) and not tab.selected:
            await self.tap(tab)
            await self.frames(2)

    async def shot(self, folder: Path | None, name: str) -> None:
        """A screenshot of the window as `folder`/`name`.png (none without a folder)."""
        if folder is None:
            return
        from kivy.core.window import Window

        await self.frames(self.frames_before_shot)
        folder.mkdir(parents=True, exist_ok=True)
        # Window.screenshot puts a counter into the name (name0001.png) and says the file it wrote: give it the
        # plain name (only that file: the folder's other pictures, such as name-de.png, stay as they are).
        taken = Window.screenshot(name=str(folder / f"{name}.png"))
        Path(taken).replace(folder / f"{name}.png")
