"""Touching the real app from a test driver running on the app's own asyncio loop (any screen, any game).

A driver finds widgets by kv id or by class and field values, builds a touch MotionEvent at a widget's centre and
posts touch down / up through Kivy's event loop, letting frames pass between, like a finger on the glass. Screens
are only ever driven by what they show (a hidden or disabled widget is never tapped: that raises Stuck).
"""
from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path


class Stuck(RuntimeError):
    pass


class Touch:
    """Finds widgets on the current screen and taps them like a finger: touch down, a frame, touch up."""

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

    async def shot(self, folder: Path, name: str) -> None:
        from kivy.core.window import Window

        await self.frames(3)
        folder.mkdir(parents=True, exist_ok=True)
        Window.screenshot(name=str(folder / f"{name}.png"))
        # Window.screenshot appends a counter: rename to the plain name.
        for p in folder.glob(f"{name}*.png"):
            if p.name != f"{name}.png":
                p.replace(folder / f"{name}.png")
