"""A part of the screen turned to face one side of the table (`Turned`)."""
from __future__ import annotations

from kivy.graphics.transformation import Matrix
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.scatter import Scatter


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
