"""The Obscurio screens' own widgets. Names start with "Obso": kv rules and Factory names are global in Kivy.

Rows the view-models publish as dicts (each field a key of the dict) and a few drawn widgets: the hourglass (its
sand from the clock, redrawn every frame), the cohesion gauge and the progress track. Looks are in widgets.kv.
"""
from __future__ import annotations

import math
from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ui import widgets as _shared  # noqa: F401  (the shared widget rules first)
from companion.ui.obscurio import look
from companion.ui.widgets.buttons import BigButton
from companion.ui.widgets.panels import Panel


def fitted_font(label, largest: float, room: float, height: float | None = None, one_line: bool = False) -> float:
    """The largest font up to `largest` at which `label`'s longest word (its whole text, `one_line`) fits `room`
    pixels, and its text wrapped at `room` fits `height` when given; never below 11 sp (it is then still drawn)."""
    smallest = sp(11)
    core = CoreLabel(font_size=largest, bold=label.bold, font_name=label.font_name)
    pieces = [label.text] if one_line else label.text.split()
    widest = max(core.get_extents(piece)[0] for piece in pieces)
    size = max(smallest, min(largest, largest * room / max(1, widest)))
    if height is not None and height > 2:
        for _ in range(6):  # smaller until the wrapped lines fit the box's height
            probe = CoreLabel(text=label.text, font_size=size, bold=label.bold, font_name=label.font_name,
                              text_size=(room, None))
            probe.refresh()
            if probe.texture.height <= height or size <= smallest:
                break
            size = max(smallest, size * 0.9)
    return size


class ObsoButton(BigButton):
    """A big button that is never disabled for Kivy: dimmed when `enabled` is False, it still takes the tap so that
    its view-model can say why nothing happens (table rule 3: never a silent no)."""

    enabled = BooleanProperty(True)
    value = ObjectProperty(None, allownone=True)   # the typed option this button hands back on a tap
    fit_font = NumericProperty(0)   # > 0: the largest font up to this at which the longest word fits the width

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("enabled", self._redraw_frame)
        for prop in ("fit_font", "text", "width", "height"):
            self.fbind(prop, self._fit_font)

    def _fit_font(self, *_):
        if self.fit_font and self.text.strip() and self.width >= 2:
            self.font_size = fitted_font(self, self.fit_font, self.width - dp(16), self.height - dp(4))

    def _fill_rgba(self):
        if not self.enabled:
            return [c * 0.45 + 0.08 for c in self.rgba[:3]] + [1]
        return super()._fill_rgba()


class ObsoPhaseArea(BoxLayout):
    """Holds the one view of the current phase (a Factory class name): only that view's widgets are alive."""

    view = StringProperty("")

    def on_view(self, *_):
        self.clear_widgets()
        if self.view:
            self.add_widget(Factory.get(self.view)())


class ObsoHourglass(ButtonBehavior, Widget):
    """The hourglass, drawn: the sand on top is `sand` (1 full … 0 empty), the rest lies in the bottom bulb.

    The model sets `sand` from the table's timer every frame (never counted down here), so the picture is the
    clock's own value; a tap goes to the model (pause / resume)."""

    sand = NumericProperty(1.0)
    running = BooleanProperty(False)
    active = BooleanProperty(False)   # a glass is on the table now (step 4, the accusation's minute)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.canvas:
            self._sand_colour = Color(*look.GOLD)
            self._top = Mesh(mode="triangles")
            self._bottom = Mesh(mode="triangles")
            self._stream = Rectangle()
            self._glass_colour = Color(0.78, 0.84, 0.95, 1)
            self._glass = Line(width=dp(2.5), close=True)
            self._frame_colour = Color(0.55, 0.42, 0.28, 1)
            self._caps = [Rectangle(), Rectangle()]
        for prop in ("sand", "running", "active", "pos", "size"):
            self.fbind(prop, self._redraw)
        self._redraw()

    def _redraw(self, *_):
        w = min(self.width * 0.9, self.height * 0.62)
        h = self.height - dp(16)
        cx, bottom = self.center_x, self.y + dp(8)
        top, mid = bottom + h, bottom + h / 2
        half, bulb = w / 2, h / 2 - dp(6)
        neck = dp(4)
        self._glass.points = [cx - half, top - dp(6), cx + half, top - dp(6), cx + neck, mid, cx + half,
                              bottom + dp(6), cx - half, bottom + dp(6), cx - neck, mid]
        for cap, y in zip(self._caps, (top - dp(8), bottom)):
            cap.pos, cap.size = (cx - half - dp(10), y), (w + dp(20), dp(8))
        sand = max(0.0, min(1.0, self.sand))
        # The sand on top is a triangle resting on the neck: its area goes with the square of its height.
        k = math.sqrt(sand)
        th, tw = bulb * k, half * k
        self._top.vertices = [cx - tw, mid + th, 0, 0, cx + tw, mid + th, 0, 0, cx, mid, 0, 0]
        self._top.indices = [0, 1, 2]
        # The fallen sand fills the bottom bulb from its base: a trapezoid of the same area.
        fallen = 1.0 - sand
        y = bulb * (1 - math.sqrt(max(0.0, 1 - fallen)))
        base = bottom + dp(6)
        edge = half * (1 - y / bulb) if bulb else 0
        self._bottom.vertices = [cx - half, base, 0, 0, cx + half, base, 0, 0, cx + edge, base + y, 0, 0,
                                 cx - edge, base + y, 0, 0]
        self._bottom.indices = [0, 1, 2, 0, 2, 3]
        flowing = self.running and 0 < sand < 1
        self._stream.pos = (cx - dp(1.5), base + y)
        self._stream.size = (dp(3), max(0, mid - base - y)) if flowing else (0, 0)
        self._sand_colour.rgba = look.GOLD if self.active else (0.55, 0.52, 0.45, 1)
        self._glass_colour.a = 1 if self.active else 0.5


class ObsoGauge(Widget):
    """The cohesion gauge: one disc per token of the normal area (light) and of the dark area (violet, on the
    monster's dark ground); a taken token leaves an empty ring."""

    normal = NumericProperty(0)
    dark = NumericProperty(0)
    normal_total = NumericProperty(0)
    dark_total = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for prop in ("normal", "dark", "normal_total", "dark_total", "pos", "size"):
            self.fbind(prop, self._redraw)
        self._redraw()

    def _redraw(self, *_):
        self.canvas.clear()
        n_total, d_total = int(self.normal_total), int(self.dark_total)
        if not n_total + d_total or self.width < 10:
            return
        gap = dp(6)
        # The areas side by side, each as wide as its tokens need, discs as large as the rows allow.
        rows = 2
        cols_n = math.ceil(n_total / rows)
        cols_d = math.ceil(d_total / rows)
        size = min((self.width - gap * 3) / max(1, cols_n + cols_d), (self.height - gap * 2) / rows)
        with self.canvas:
            x = self.x
            for total, left, ground, token, cols in ((n_total, int(self.normal), look.NORMAL_AREA, look.NORMAL_TOKEN,
                                                      cols_n),
                                                     (d_total, int(self.dark), look.DARK_AREA, look.DARK_TOKEN,
                                                      cols_d)):
                width = cols * size + gap
                Color(*ground)
                RoundedRectangle(pos=(x, self.y), size=(width, self.height), radius=[dp(8)])
                for i in range(total):
                    r, c = divmod(i, cols)
                    px = x + gap / 2 + c * size + size * 0.1
                    py = self.top - gap - (r + 1) * size + size * 0.1
                    d = size * 0.8
                    if i < left:
                        Color(*token)
                        Ellipse(pos=(px, py), size=(d, d))
                    else:
                        Color(*look.EMPTY_TOKEN)
                        Line(ellipse=(px, py, d, d), width=dp(1.5))
                x += width + gap


class ObsoProgress(Widget):
    """The progress track: 6 rooms, the crossed ones lit, the marker (gold) on the space it stands on; the last
    space carries the Watcher's ring."""

    progress = NumericProperty(0)
    rooms = NumericProperty(6)
    watcher = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for prop in ("progress", "rooms", "watcher", "pos", "size"):
            self.fbind(prop, self._redraw)
        self._redraw()

    def _redraw(self, *_):
        self.canvas.clear()
        n = int(self.rooms)
        if n <= 0 or self.width < 10:
            return
        gap = dp(6)
        w = (self.width - gap * (n - 1)) / n
        h = min(self.height, w)
        y = self.center_y - h / 2
        with self.canvas:
            for i in range(n):
                x = self.x + i * (w + gap)
                here = i == min(int(self.progress), n - 1)
                crossed = i < int(self.progress)
                Color(*(look.GOLD if here else (0.35, 0.60, 0.45, 1) if crossed else (0.24, 0.25, 0.31, 1)))
                RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(8)])
                if i == n - 1:
                    Color(*((0.95, 0.35, 0.30, 1) if self.watcher else (0.6, 0.62, 0.7, 1)))
                    Line(ellipse=(x + w * 0.25, y + h * 0.25, w * 0.5, h * 0.5), width=dp(2))


# Rows the view-models publish as dicts: each property below is a key of that dict.
class ObsoTrackSpace(Panel):
    text = StringProperty("")
    current = BooleanProperty(False)
    passed = BooleanProperty(False)


class ObsoTrapRow(Panel):
    name = StringProperty("")
    effect = StringProperty("")
    trap_rgba = ListProperty([0.5, 0.5, 0.5, 1])
    acting = BooleanProperty(False)   # acts in the step being played
    one_line = BooleanProperty(False) # many traps on a small screen: the name on one line


class ObsoLogLine(BoxLayout):
    text = StringProperty("")
    latest = BooleanProperty(False)


class ObsoChoice(ObsoButton):
    """An option of the current phase (a trap token, a door, a count, a wizard); `value` is what it means."""


class ObsoDoorHead(ButtonBehavior, Panel):
    """A door's number over its column; after step 4 the Grimoire taps the Exit's."""
    door = NumericProperty(0)
    text = StringProperty("")
    look = StringProperty("open")   # open | new | hidden | closed | choose (the Exit is asked for) | exit | wrong


class ObsoChipCell(ObsoButton):
    chip = StringProperty("")
    door = NumericProperty(0)
    placed = BooleanProperty(False)
    chip_rgba = ListProperty([1, 1, 1, 1])
    chip_ink = ListProperty([1, 1, 1, 1])

    def _fill_rgba(self):
        # A chip in front of a door keeps its colour after step 4 (read-only then): who stood where stays visible.
        return list(self.rgba) if self.placed and not self.enabled else super()._fill_rgba()


class ObsoChipRow(BoxLayout):
    chip = StringProperty("")
    name = StringProperty("")
    where = StringProperty("")
    chip_rgba = ListProperty([1, 1, 1, 1])
    chip_ink = ListProperty([1, 1, 1, 1])
    cells = ListProperty()


class ObsoVoteCell(ObsoButton):
    voter = StringProperty("")
    target = StringProperty("")   # a character, or "-" to abstain
    picked = BooleanProperty(False)
    chip_rgba = ListProperty([1, 1, 1, 1])
    chip_ink = ListProperty([1, 1, 1, 1])


class ObsoVoteRow(BoxLayout):
    voter = StringProperty("")
    name = StringProperty("")
    tokens = StringProperty("")   # the tokens on the voter's character card
    chip_rgba = ListProperty([1, 1, 1, 1])
    chip_ink = ListProperty([1, 1, 1, 1])
    cells = ListProperty()


class ObsoSetupRow(BoxLayout):
    index = NumericProperty(0)
    name = StringProperty("")
    hint = StringProperty("")
    grimoire = BooleanProperty(False)
    swatches = ListProperty()


class ObsoSwatch(ObsoButton):
    index = NumericProperty(0)   # the seat (-1: the 2-player companion chip)


class ObsoTrackButton(ButtonBehavior, Panel):
    """A space of the time track in the setup: its bonus ("+1"), never broken over two lines however narrow."""
    index = NumericProperty(0)
    text = StringProperty("")


class ObsoLine(BoxLayout):
    """A line of a list: a text, and a coloured mark (a chip's colour) in front of it when given."""
    text = StringProperty("")
    mark_rgba = ListProperty([0, 0, 0, 0])
    font_size = NumericProperty(sp(26))
    one_line = BooleanProperty(False)   # on one line, in a smaller font if it must


class ObsoWrapLabel(Label):
    """Text that wraps at its width and, with `fit_font` set, takes the largest font up to it at which its longest
    word still fits on a line (a trap's name in a narrow column is never broken in the middle)."""

    fit_font = NumericProperty(0)
    one_line = BooleanProperty(False)   # the whole text on one line (smaller), rather than wrapped
    fit_height = BooleanProperty(False) # also small enough that the wrapped text fits the label's height

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for prop in ("fit_font", "text", "width", "height", "text_size", "one_line", "fit_height"):
            self.fbind(prop, self._fit)

    def _fit(self, *_):
        if self.fit_font and self.text.strip() and self.width >= 2:
            room = (self.text_size[0] or self.width - dp(12)) - dp(2)
            height = self.height - dp(2) if self.fit_height else None
            self.font_size = fitted_font(self, self.fit_font, room, height, one_line=self.one_line)


class ObsoTile(BoxLayout):
    """A number the group argues over (value) and what it counts (caption); `key` names it."""
    key = StringProperty("")
    value = StringProperty("")
    caption = StringProperty("")
    value_rgba = ListProperty([1, 1, 1, 1])


class ObsoFitLabel(Label):
    """One line as large as its box allows: `max_font` when it fits, smaller down to `min_font` when the box is
    narrow (a number in a narrow column), never cut and never broken."""

    max_font = NumericProperty(sp(40))
    min_font = NumericProperty(sp(18))
    fitted = NumericProperty(sp(40))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for prop in ("text", "max_font", "min_font", "width", "height", "bold"):
            self.fbind(prop, self._fit)
        self._fit()

    def _fit(self, *_):
        if not self.text or self.width < 2:
            self.fitted = self.max_font
            return
        core = CoreLabel(text=self.text, font_size=self.max_font, bold=self.bold, font_name=self.font_name)
        w, h = core.get_extents(self.text)
        scale = min(1.0, (self.width - dp(4)) / max(1, w), max(1.0, self.height) / max(1, h))
        self.fitted = max(self.min_font, self.max_font * scale)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
