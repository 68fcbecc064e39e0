"""A row of coloured pills drawn by one widget (`PillRow`): a player's goods, a character card's chips; the pills
showing one text share one text texture."""
from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Rectangle, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

_PILL_TEXTURES: dict = {}


def pill_texture(text: str, font_size: float):
    """The texture of a pill's text in white (tinted when drawn), shared by every pill showing the same text."""
    key = (text, round(font_size))
    tex = _PILL_TEXTURES.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=font_size, bold=True, color=(1, 1, 1, 1))
        label.refresh()
        tex = _PILL_TEXTURES[key] = label.texture
    return tex


class PillRow(Widget):
    """A row of goods pills (wrapping onto more lines when needed), drawn by one widget.

    `data`: dicts with `text`, `rgba` (the pill) and `ink` (the text). Each pill is one rounded rectangle and one
    rectangle showing a shared text texture (`pill_texture`): no widget and no texture of its own per pill.
    """

    data = ListProperty()
    pill_height = NumericProperty(dp(40))
    font_size = NumericProperty(sp(20))
    spacing = NumericProperty(dp(5))
    pad_x = NumericProperty(dp(8))          # text padding left and right inside a pill
    minimum_height = NumericProperty(0)

    def __init__(self, **kwargs):
        self._pills = []  # per pill: (group, bg colour, bg, ink colour, text rect)
        super().__init__(**kwargs)
        # Drawn once per frame, after the layouts of that frame have moved it (a redraw on every intermediate
        # position could leave the pills where the widget was, not where it ended up).
        from kivy.clock import Clock

        self._trigger_redraw = Clock.create_trigger(self._redraw, -1)
        for prop in ("data", "pill_height", "font_size", "spacing", "pad_x", "pos", "size"):
            self.fbind(prop, self._trigger_redraw)
        self._redraw()

    def _redraw(self, *_):
        while len(self._pills) > len(self.data):
            self.canvas.remove(self._pills.pop()[0])
        while len(self._pills) < len(self.data):
            group, bg_colour, bg = InstructionGroup(), Color(), RoundedRectangle(radius=[dp(8)])
            ink, rect = Color(), Rectangle()
            for ins in (bg_colour, bg, ink, rect):
                group.add(ins)
            self.canvas.add(group)
            self._pills.append((group, bg_colour, bg, ink, rect))
        h, gap = self.pill_height, self.spacing
        x, top, lines = self.x, self.top, 1
        for item, (_, bg_colour, bg, ink, rect) in zip(self.data, self._pills):
            tex = pill_texture(item["text"], self.font_size)
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
