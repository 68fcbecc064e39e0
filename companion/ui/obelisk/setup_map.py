"""The group's map at setup (setup.kv): the map view, with a cell the camera could not read (camera_map.py: "??")
drawn as a gold square with a question mark, for the group to tap and fill in."""
from __future__ import annotations

from kivy.graphics import Color, Line
from kivy.metrics import sp

from companion.ui.obelisk import look
from companion.ui.obelisk.camera_map import UNKNOWN
from companion.ui.obelisk.mapview import ObeliskMap


class SetupMap(ObeliskMap):
    def _tile(self, cell, tile, pic) -> None:
        if tile != UNKNOWN:
            super()._tile(cell, tile, pic)
            return
        t = self.tile
        x0, top = self.origin
        x, y = x0 + cell[1] * t, top - (cell[0] + 1) * t
        Color(*look.GOLD)
        Line(rectangle=(x + t * 0.08, y + t * 0.08, t * 0.84, t * 0.84), width=2)
        self._text("?", (x + t / 2, y + t / 2), max(sp(16), t * 0.5), look.GOLD)
