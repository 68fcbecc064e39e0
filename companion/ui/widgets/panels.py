"""Panels, and the rounded frame every shared widget draws itself with (`Framed`: panels, buttons, a dragged piece).

Memory (docs/ui.md, "Memory"): on a software GL every canvas instruction and every texture costs tens of KB, so
the shared widgets draw themselves with as few instructions as possible: a frame line only exists while it is
visible, buttons have no 9-patch background, goods pills share one texture per text.
"""
from __future__ import annotations

from kivy.graphics import Color, InstructionGroup, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

HOVER_RGBA = (1, 1, 1, 1)  # the frame of the place a dragged piece would land on (white: seen on any colour)


def covers(w, pos) -> bool:
    """Is the window point `pos` on `w`, wherever and however turned `w` is? (Here, not in dragdrop.py: the scroll
    view and the buttons need it on Home, where dragging is not loaded.)"""
    return w.parent is not None and w.collide_point(*w.parent.to_widget(*pos))


class Framed:
    """Mixin: a rounded background in `_fill_rgba()` and, only while `_line_rgba()` is visible, a rounded frame.

    Drawn from Python rather than kv so that an invisible frame costs no instruction at all (a kv `Line` with a
    transparent colour would still hold its vertex buffer).
    """

    _inset = 0.0   # dp between the widget's edge and the background
    _radius = 10   # dp

    def _init_frame(self):
        self._frame = InstructionGroup()
        self._fill_colour = Color(*self._fill_rgba())
        self._fill = RoundedRectangle(radius=[dp(self._radius)])
        self._frame.add(self._fill_colour)
        self._frame.add(self._fill)
        self._line_colour = None
        self._line = None
        self.canvas.before.insert(0, self._frame)
        self.fbind("pos", self._redraw_frame)
        self.fbind("size", self._redraw_frame)
        self._redraw_frame()

    def _redraw_frame(self, *_):
        if getattr(self, "_frame", None) is None:
            return
        i = dp(self._inset)
        x, y, w, h = self.x + i, self.y + i, max(0, self.width - 2 * i), max(0, self.height - 2 * i)
        self._fill_colour.rgba = self._fill_rgba()
        self._fill.pos, self._fill.size = (x, y), (w, h)
        line = self._line_rgba()
        if line[3] > 0:
            if self._line is None:
                self._line_colour = Color()
                self._line = Line(width=dp(3))
                self._frame.add(self._line_colour)
                self._frame.add(self._line)
            self._line_colour.rgba = line
            lw = dp(1.5)
            self._line.rounded_rectangle = [x + lw, y + lw, max(0, w - 2 * lw), max(0, h - 2 * lw), dp(self._radius)]
        elif self._line is not None:
            self._frame.remove(self._line_colour)
            self._frame.remove(self._line)
            self._line_colour = self._line = None


class Panel(Framed, BoxLayout):
    rgba = ListProperty([0.16, 0.17, 0.21, 1])
    line = ListProperty([0, 0, 0, 0])
    colour_rgba = ListProperty([1, 1, 1, 1])  # the player's colour, where the panel belongs to a player

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()
        self.fbind("rgba", self._redraw_frame)
        self.fbind("line", self._redraw_frame)

    def _fill_rgba(self):
        return self.rgba

    def _line_rgba(self):
        return self.line


# Rows the shell's view-model publishes as dicts: each field below is a key of that dict.
class GameCard(Panel):
    compact = BooleanProperty(False)   # a short window: less padding
    game = StringProperty("")
    text = StringProperty("")
    detail = StringProperty("")
    button = StringProperty("")
    enabled = BooleanProperty(True)


class TableItem(Panel):
    """One table in Home's lists (not to be confused with the store's table records)."""

    table_id = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    button = StringProperty("")
    resume = BooleanProperty(True)
    rename_text = StringProperty("")
    delete_text = StringProperty("")
