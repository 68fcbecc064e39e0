"""Small widgets shared by the screens. Their looks live in widgets.kv; here only behaviour."""
from __future__ import annotations

from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, InstructionGroup, Line, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.graphics.transformation import Matrix
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scatter import Scatter
from kivy.uix.scrollview import ScrollView
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
        self.__dict__["_pool"] = []
        self._sync()

    def _sync(self):
        if not self.viewclass:
            return
        cls = Factory.get(self.viewclass)
        kids = list(reversed(self.children))  # in display order
        # Rows no longer needed wait in a pool for the next time the list grows: building a kv-styled widget
        # costs far more than filling one (a list that shrinks and grows at every tap would rebuild each time).
        pool = self.__dict__.setdefault("_pool", [])
        for extra in kids[len(self.data):]:
            self.remove_widget(extra)
            pool.append(extra)
        for i, item in enumerate(self.data):
            if i < len(kids):
                for key, value in item.items():
                    setattr(kids[i], key, value)
            elif pool and type(pool[-1]) is cls:
                widget = pool.pop()
                for key, value in item.items():
                    setattr(widget, key, value)
                self.add_widget(widget)
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
    """A big flat button: a rounded background and its text (no Button 9-patch); a white frame when `selected`.

    `dimmed` looks like disabled but still takes the tap, so that an option the rules forbid can say why when it
    is tapped (docs/ui.md: never a silent no); `disabled` is only for what has nothing to explain.
    """

    rgba = ListProperty([0.24, 0.42, 0.62, 1])
    ink = ListProperty([1, 1, 1, 1])
    selected = BooleanProperty(False)
    dimmed = BooleanProperty(False)
    _inset = 3

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()
        for prop in ("rgba", "selected", "state", "disabled", "dimmed"):
            self.fbind(prop, self._redraw_frame)

    def _fill_rgba(self):
        if self.disabled or self.dimmed:
            return list(self.rgba[:3]) + [0.28 * self.rgba[3]]  # (a transparent button stays transparent)
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
        # Drawn once per frame, after the layouts of that frame have moved it (a redraw on every intermediate
        # position could leave the chips where the widget was, not where it ended up).
        from kivy.clock import Clock

        self._trigger_redraw = Clock.create_trigger(self._redraw, -1)
        for prop in ("data", "chip_height", "font_size", "spacing", "pad_x", "pos", "size"):
            self.fbind(prop, self._trigger_redraw)
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


class FitScrollView(ScrollView):
    """A ScrollView that scrolls only when its content is taller than it is; otherwise taps go straight through.

    A Kivy ScrollView holds every touch back to tell a tap from a drag and hands a short tap's release to the
    button ~0.2 s later. For options that fit on screen that delay is a trap: the next tap (End turn, which turns
    the centre to the next player) can come first, and the late release then lands on whatever is there now.
    """

    def _fits(self) -> bool:
        content = self.children[0] if self.children else None
        return content is None or content.height <= self.height + 1

    def on_touch_down(self, touch):
        if self._fits():
            if not self.collide_point(*touch.pos):
                return False
            touch.push()
            touch.apply_transform_2d(self.to_local)
            try:
                return any(child.dispatch("on_touch_down", touch) for child in self.children[:])
            finally:
                touch.pop()
        return super().on_touch_down(touch)


class Turned(Scatter):
    """One part of the screen turned to face one side of the table: `area` (x, y, w, h in the parent's
    coordinates) is filled by its one child, turned by `angle` (0: read from the bottom edge, 90: from the right,
    180: from the top, 270: from the left).

    A Scatter with every gesture off: Kivy hands its children touches already turned back into their own
    coordinates, so a tap lands on the button under the finger whatever the angle. The transform is built with
    exact quarter turns (no 6e-17 from cos 90°), so text stays on whole pixels.
    """

    angle = NumericProperty(0)
    area = ListProperty([0, 0, 100, 100])

    def __init__(self, **kwargs):
        kwargs.setdefault("do_rotation", False)
        kwargs.setdefault("do_scale", False)
        kwargs.setdefault("do_translation", False)
        kwargs.setdefault("auto_bring_to_front", False)
        kwargs.setdefault("size_hint", (None, None))  # its place is `area`, never a layout's
        super().__init__(**kwargs)
        self.fbind("angle", self._place)
        self.fbind("area", self._place)
        self._place()

    def add_widget(self, widget, *args, **kwargs):
        super().add_widget(widget, *args, **kwargs)
        widget.size_hint = (None, None)
        widget.pos = (0, 0)
        widget.size = self.size

    def on_size(self, *_):
        for child in self.children:
            child.pos, child.size = (0, 0), self.size

    def _place(self, *_):
        x, y, w, h = self.area
        quarter = int(round(self.angle / 90.0)) % 4
        lw, lh = (w, h) if quarter in (0, 2) else (h, w)
        c, s = ((1, 0), (0, 1), (-1, 0), (0, -1))[quarter]
        cx, cy = x + w / 2.0, y + h / 2.0
        tx = cx - (c * lw / 2.0 - s * lh / 2.0)
        ty = cy - (s * lw / 2.0 + c * lh / 2.0)
        m = Matrix()
        m.set(flat=[c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1])
        self.size = (lw, lh)
        self.transform = m


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
    rename_text = StringProperty("")
    delete_text = StringProperty("")


class LangButton(BigButton):
    code = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
