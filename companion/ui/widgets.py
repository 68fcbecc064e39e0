"""Small widgets shared by the screens. Their looks live in widgets.kv; here only behaviour."""
from __future__ import annotations

from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, InstructionGroup, Line, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

# Memory (docs/ui.md, "Memory"): on a software GL every canvas instruction and every texture costs tens of KB, so
# the shared widgets draw themselves with as few instructions as possible: a frame line only exists while it is
# visible, buttons have no 9-patch background, goods chips share one texture per text.


class _Repeater:
    """Mixin: shows one `viewclass` widget per dict in `data`, reusing the widgets already there.

    The view-model publishes plain dicts; the layout (.kv) decides what a row looks like. Reusing widgets keeps a
    refresh after each tap cheap (no widget churn on a slow tablet).
    """

    def on_data(self, *_):
        self._sync()

    def on_viewclass(self, *_):
        self.clear_widgets()
        self._sync()

    def _sync(self):
        if not self.viewclass:
            return
        cls = Factory.get(self.viewclass)
        kids = list(reversed(self.children))  # in display order
        for extra in kids[len(self.data):]:
            self.remove_widget(extra)
        for i, item in enumerate(self.data):
            if i < len(kids):
                for key, value in item.items():
                    setattr(kids[i], key, value)
            else:
                self.add_widget(cls(**item))


class _Hideable:
    """Mixin: `shown: False` hides a part of a screen (opacity 0) and lets every touch through it.

    Needed because a hidden, zero-size container still has children laid out somewhere, and Kivy lets a disabled
    widget swallow the touches that land on it.
    """

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.shown else False

    def on_touch_move(self, touch):
        return super().on_touch_move(touch) if self.shown else False

    def on_touch_up(self, touch):
        return super().on_touch_up(touch) if self.shown else False


class RepeatGrid(_Repeater, GridLayout):
    data = ListProperty()
    viewclass = StringProperty("")


class TopAlignedGrid(RepeatGrid):
    """A RepeatGrid whose cells of different heights line up at the top of their row (score cards)."""

    def do_layout(self, *args):
        super().do_layout(*args)
        kids = list(reversed(self.children))
        cols = max(1, self.cols or 1)
        for r in range(0, len(kids), cols):
            row = kids[r:r + cols]
            top = max(k.top for k in row)
            for k in row:
                k.top = top


class RepeatStack(_Repeater, StackLayout):
    data = ListProperty()
    viewclass = StringProperty("")


class HideBox(_Hideable, BoxLayout):
    shown = BooleanProperty(True)


class HideGrid(_Hideable, RepeatGrid):
    shown = BooleanProperty(True)


class _Framed:
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


class Panel(_Framed, BoxLayout):
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


class Banner(ButtonBehavior, Label):
    """The calm message strip: a refused move, a saved export. Tap to dismiss."""

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.text else False


class BigButton(_Framed, ButtonBehavior, Label):
    """A big flat button: a rounded background and its text (no Button 9-patch); a white frame when `selected`."""

    rgba = ListProperty([0.24, 0.42, 0.62, 1])
    ink = ListProperty([1, 1, 1, 1])
    selected = BooleanProperty(False)
    _inset = 3

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()
        for prop in ("rgba", "selected", "state", "disabled"):
            self.fbind(prop, self._redraw_frame)

    def _fill_rgba(self):
        if self.disabled:
            return list(self.rgba[:3]) + [0.28]
        if self.state == "down":
            return [c * 0.75 for c in self.rgba[:3]] + [1]
        return self.rgba

    def _line_rgba(self):
        return (1, 1, 1, 1) if self.selected else (0, 0, 0, 0)


_CHIP_TEXTURES: dict = {}


def chip_texture(text: str, font_size: float):
    """The texture of a chip's text in white (tinted when drawn), shared by every chip showing the same text."""
    key = (text, round(font_size))
    tex = _CHIP_TEXTURES.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=font_size, bold=True, color=(1, 1, 1, 1))
        label.refresh()
        tex = _CHIP_TEXTURES[key] = label.texture
    return tex


class ChipRow(Widget):
    """A row of goods chips (wrapping onto more lines when needed), drawn by one widget.

    `data`: dicts with `text`, `rgba` (the chip) and `ink` (the text). Each chip is one rounded rectangle and one
    rectangle showing a shared text texture (`chip_texture`): no widget and no texture of its own per chip.
    """

    data = ListProperty()
    chip_height = NumericProperty(dp(40))
    font_size = NumericProperty(sp(20))
    spacing = NumericProperty(dp(5))
    pad_x = NumericProperty(dp(8))          # text padding left and right inside a chip
    minimum_height = NumericProperty(0)

    def __init__(self, **kwargs):
        self._chips = []  # per chip: (group, bg colour, bg, ink colour, text rect)
        super().__init__(**kwargs)
        for prop in ("data", "chip_height", "font_size", "spacing", "pad_x", "pos", "size"):
            self.fbind(prop, self._redraw)
        self._redraw()

    def _redraw(self, *_):
        while len(self._chips) > len(self.data):
            self.canvas.remove(self._chips.pop()[0])
        while len(self._chips) < len(self.data):
            group, bg_colour, bg = InstructionGroup(), Color(), RoundedRectangle(radius=[dp(8)])
            ink, rect = Color(), Rectangle()
            for ins in (bg_colour, bg, ink, rect):
                group.add(ins)
            self.canvas.add(group)
            self._chips.append((group, bg_colour, bg, ink, rect))
        h, gap = self.chip_height, self.spacing
        x, top, lines = self.x, self.top, 1
        for item, (_, bg_colour, bg, ink, rect) in zip(self.data, self._chips):
            tex = chip_texture(item["text"], self.font_size)
            w = max(h, tex.width + 2 * self.pad_x)
            if x > self.x and x + w > self.right:  # wrap
                x, top, lines = self.x, top - h - gap, lines + 1
            bg_colour.rgba = item["rgba"]
            bg.pos, bg.size = (x, top - h), (w, h)
            ink.rgba = item["ink"]
            rect.texture, rect.size = tex, tex.size
            rect.pos = (int(x + (w - tex.width) / 2), int(top - h + (h - tex.height) / 2))
            x += w + gap
        self.minimum_height = (lines * h + (lines - 1) * gap) if self.data else 0


# Rows the shell's view-model publishes as dicts: each field below is a key of that dict.
class GameCard(Panel):
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


class LangButton(BigButton):
    code = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
