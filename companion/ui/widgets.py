"""Small widgets shared by the screens. Their looks live in widgets.kv; here only behaviour."""
from __future__ import annotations

from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, InstructionGroup, Line, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.graphics.transformation import Matrix
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
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
    hover = BooleanProperty(False)   # something dragged is over it: let go, and it lands here
    text_margin = NumericProperty(14)   # px between the text and the sides (a narrow cell takes less)
    _inset = 3

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()
        for prop in ("rgba", "selected", "state", "disabled", "dimmed", "hover"):
            self.fbind(prop, self._redraw_frame)

    def _fill_rgba(self):
        if self.disabled or self.dimmed:
            return list(self.rgba[:3]) + [0.28 * self.rgba[3]]  # (a transparent button stays transparent)
        if self.state == "down":
            return [c * 0.75 for c in self.rgba[:3]] + [1]
        return self.rgba

    def _line_rgba(self):
        if self.hover:
            return HOVER_RGBA
        return (1, 1, 1, 1) if self.selected else (0, 0, 0, 0)


HOVER_RGBA = (1, 1, 1, 1)        # the frame of the place a dragged piece would land on (white: seen on any colour)
DRAG_START = 14                  # dp a finger moves before a press becomes a drag (less is a tap)
GHOST_LIFT = 52                  # dp between the fingertip and the piece it carries


class DragGhost(_Framed, Label):
    """What follows the finger during a drag: the piece picked up (its colour and text), over everything."""

    rgba = ListProperty([1, 1, 1, 1])
    _radius = 12

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()

    def _fill_rgba(self):
        return self.rgba

    def _line_rgba(self):
        return (1, 1, 1, 1)


class Draggable:
    """Mixin for a ButtonBehavior widget: with `drag` set, a press that moves away carries the piece (a ghost
    follows the finger) and, let go, dispatches `on_drop(target)` with the widget under the finger that accepts
    drops (`accepts_drop`), or None. A press that stays put is a tap as before. Targets are found in window
    coordinates, so a drag may go from the turned centre onto a player's panel turned another way."""

    drag = BooleanProperty(False)

    def on_drop(self, target):
        pass

    def _window_pos(self, touch):
        # A touch reaches a widget in the coordinates of its parent (Kivy turns it back through every Turned).
        return self.to_window(*touch.pos)

    def on_touch_down(self, touch):
        taken = super().on_touch_down(touch)
        if taken and self.drag and self.collide_point(*touch.pos):
            touch.ud[("drag", id(self))] = {"start": self._window_pos(touch), "ghost": None, "over": None}
        return taken

    def on_touch_move(self, touch):
        state = touch.ud.get(("drag", id(self)))
        if state is None or touch.grab_current is not self:
            return super().on_touch_move(touch)
        pos = self._window_pos(touch)
        if state["ghost"] is None:
            sx, sy = state["start"]
            if (pos[0] - sx) ** 2 + (pos[1] - sy) ** 2 < dp(DRAG_START) ** 2:
                return True
            state["ghost"] = self._make_ghost()
            state["targets"] = drop_targets(self)
            # The piece rides just beyond the fingertip (away from the player, in their own frame), so that the
            # place it would land on, framed, stays in sight.
            (x0, y0), (x1, y1) = self.to_window(0, 0), self.to_window(0, dp(GHOST_LIFT))
            state["lift"] = (x1 - x0, y1 - y0)
        ghost = state["ghost"]
        ghost.center = (pos[0] + state["lift"][0], pos[1] + state["lift"][1])
        over = drop_target_at(state["targets"], pos)
        if over is not state["over"]:
            if state["over"] is not None:
                state["over"].hover = False
            if over is not None:
                over.hover = True
            state["over"] = over
        return True

    def on_touch_up(self, touch):
        state = touch.ud.get(("drag", id(self)))
        if state is None or touch.grab_current is not self or state["ghost"] is None:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self.state = "normal"
        from kivy.core.window import Window

        Window.remove_widget(state["ghost"])
        if state["over"] is not None:
            state["over"].hover = False
        if self.get_root_window() is None:  # the screen changed under the finger (a die thrown, say): no drop
            return True
        self.dispatch("on_drop", drop_target_at([w for w in state["targets"] if w.get_root_window() is not None],
                                                self._window_pos(touch)))
        return True

    def _make_ghost(self):
        from kivy.core.window import Window

        ghost = DragGhost(text=self.text, rgba=list(self.rgba[:3]) + [0.85], color=self.color, bold=True,
                          font_size=self.font_size, size_hint=(None, None), size=(max(dp(64), self.width), dp(50)))
        Window.add_widget(ghost)
        return ghost


def drop_targets(source) -> list:
    """Every widget on screen that takes a drop (`accepts_drop`), other than `source`, and shown."""
    root = source.get_root_window()
    out = []
    for top in (root.children if root is not None else []):
        for w in top.walk(restrict=True):
            if w is not source and getattr(w, "accepts_drop", False) and _shown(w):
                out.append(w)
    return out


def covers(w, pos) -> bool:
    """Is the window point `pos` on `w`, wherever and however turned `w` is?"""
    return w.parent is not None and w.collide_point(*w.parent.to_widget(*pos))


def drop_target_at(targets, pos):
    """The target under the window point `pos` (the smallest, when one holds another), or None."""
    hits = [w for w in targets if covers(w, pos) and in_sight(w, pos)]
    return min(hits, key=lambda w: w.width * w.height) if hits else None


def _shown(w) -> bool:
    while w is not None and w.parent is not w:
        if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
            return False
        w = w.parent
    return True


def in_sight(w, pos) -> bool:
    """Not scrolled out of sight: the window point `pos` is inside every ScrollView around `w`."""
    p = w.parent
    while p is not None and p is not p.parent:
        if isinstance(p, ScrollView) and p.parent is not None and not covers(p, pos):
            return False
        p = p.parent
    return True


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

    def _on_draggable(self, touch) -> bool:
        """Does the touch land on a piece that can be dragged? Then the piece takes it (a drag moves it, not the
        view): scrolling is done from anywhere else."""
        pos = self.to_window(*touch.pos)
        return any(getattr(w, "drag", False) and not w.disabled and covers(w, pos)
                   for w in self.walk(restrict=True) if w is not self)

    def on_touch_down(self, touch):
        if self._fits() or (self.collide_point(*touch.pos) and self._on_draggable(touch)):
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


class LangButton(BigButton):
    code = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
