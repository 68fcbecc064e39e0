"""The shared buttons and the banner: big flat touch targets drawn by `Framed`. Their looks are in buttons.kv."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

from companion.ui.widgets.panels import HOVER_RGBA, Framed


class Banner(ButtonBehavior, Label):
    """The calm message strip: a refused move, a saved export. Tap to dismiss."""

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.text else False


class BigButton(Framed, ButtonBehavior, Label):
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


class LangButton(BigButton):
    code = StringProperty("")

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
