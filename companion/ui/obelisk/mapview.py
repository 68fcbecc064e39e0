"""The map as it lies on the table: 5 × 5 tiles with their land and arrow, the rotation markers, the Obelisks on
their corners (a die in the owner's colour showing its strength), the demons on their tiles by colour, and tonight's
routes drawn over it, red where a route loses the game.

Drawn from Python (one canvas, remade on each change: a few hundred instructions); arrows are drawn, never typed
(Roboto has no arrow glyphs). A touch near a corner is a corner, elsewhere the tile under it: the map hands the
view-model `tap_corner(corner)` or `tap_cell(cell)`.
"""
from __future__ import annotations

from kivy.animation import Animation
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.metrics import sp
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.obelisk.model import SIZE, STEP
from companion.ui.obelisk import look

CORNER_REACH = 0.24   # of a tile: a touch this close to a corner means the corner
GLIDE = 0.45          # seconds a demon takes from one tile to the next when the group watches them walk


class ObeliskMap(Widget):
    """`model` publishes `picture` (a dict, see TableModel.picture); the widget draws it and reports taps."""

    model = ObjectProperty(None, allownone=True)
    # 0 → 1 while the demons that moved glide from their last tile to this one (an Animation over GLIDE seconds);
    # only they are drawn again each frame (canvas.after), the rest of the map once per picture.
    glide = NumericProperty(1.0)
    glides = NumericProperty(0)   # glides completed, the demons resting on their new tiles (a test can follow it)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._labels: list[Label] = []
        self.drawn_demons: list[tuple] = []   # (colour, x, y, gliding) of each disc as last drawn (for tests)
        self.fbind("pos", self.redraw)
        self.fbind("size", self.redraw)

    def on_model(self, *_):
        if self.model is not None:
            self.model.fbind("picture", self._new_picture)
        self.redraw()

    def _new_picture(self, *_):
        """Demons that stepped to another tile glide there; everything else is drawn where it is at once."""
        Animation.cancel_all(self, "glide")
        pic = self.model.picture if self.model is not None else None
        if pic and any(d.get("from") for d in pic.get("demons", ())):
            self.glide = 0.0
            self.redraw()
            anim = Animation(glide=1.0, d=GLIDE, t="in_out_sine")
            anim.bind(on_complete=lambda *_: self._rested())
            anim.start(self)
        else:
            self.glide = 1.0
            self.redraw()
            self._tell_rested()

    def _rested(self) -> None:
        self.redraw()
        self.glides += 1
        self._tell_rested()

    def _tell_rested(self) -> None:
        """The demons stand on the tiles of the walk's step now: the view-model may take the next."""
        pic = self.model.picture if self.model is not None else None
        rested = getattr(self.model, "rested", None)
        if pic and rested is not None:
            rested(pic.get("step"))

    def on_glide(self, *_):
        if self.glide < 1.0:
            self._draw_gliders()

    # -- geometry ----------------------------------------------------------------------------------------------------
    @property
    def tile(self) -> float:
        return min(self.width, self.height) / (SIZE + 0.4)

    @property
    def origin(self) -> tuple[float, float]:
        """(left, top) of the grid, centred in the widget."""
        t = self.tile
        return self.center_x - t * SIZE / 2, self.center_y + t * SIZE / 2

    def cell_centre(self, cell) -> tuple[float, float]:
        x0, top = self.origin
        t = self.tile
        return x0 + (cell[1] + 0.5) * t, top - (cell[0] + 0.5) * t

    def corner_point(self, corner) -> tuple[float, float]:
        x0, top = self.origin
        return x0 + corner[1] * self.tile, top - corner[0] * self.tile

    def at(self, x: float, y: float):
        """("corner", (i, j)) or ("cell", (r, c)) under a point in this widget's coordinates, or None."""
        x0, top = self.origin
        t = self.tile
        fj, fi = (x - x0) / t, (top - y) / t
        j, i = round(fj), round(fi)
        if 0 <= i <= SIZE and 0 <= j <= SIZE and abs(fj - j) < CORNER_REACH and abs(fi - i) < CORNER_REACH:
            return "corner", (i, j)
        r, c = int(fi // 1), int(fj // 1)
        if 0 <= r < SIZE and 0 <= c < SIZE and fi >= 0 and fj >= 0:
            return "cell", (r, c)
        return None

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.model is None:
            return super().on_touch_down(touch)
        touch.grab(self)
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        where = self.at(*touch.pos)
        if where is not None and self.model is not None:
            kind, place = where
            (self.model.tap_corner if kind == "corner" else self.model.tap_cell)(place)
        return True

    # -- drawing -----------------------------------------------------------------------------------------------------
    def redraw(self, *_):
        self.canvas.clear()
        for label in self._labels:
            self.remove_widget(label)
        self._labels = []
        pic = getattr(self.model, "picture", None) if self.model is not None else None
        if not pic:
            return
        self._words: list[tuple] = []
        with self.canvas:
            for cell, tile in pic["tiles"]:
                self._tile(cell, tile, pic)
            for route in pic["routes"]:
                self._route(route)
            self.drawn_demons = []
            for demon in pic["demons"]:
                if not self._gliding(demon):
                    self._demons(demon)
            for o in pic["obelisks"]:
                self._obelisk(o)
            for corner in pic.get("dice", ()):
                self._smart_die(corner)
        # Labels are made outside the canvas block: made inside it, their own instructions would land in it too.
        for args in self._words:
            self._label(*args)
        self._draw_gliders()

    def _text(self, text: str, centre, size: float, colour, bold: bool = True, width: float | None = None) -> None:
        self._words.append((text, centre, size, colour, bold, width))

    def _label(self, text: str, centre, size: float, colour, bold: bool, width: float | None) -> None:
        label = Label(text=text, font_size=size, bold=bold, color=colour, halign="center", valign="middle",
                      size_hint=(None, None))
        label.texture_update()
        label.size = (width or label.texture_size[0] + 4, label.texture_size[1] + 2)
        label.text_size = label.size
        label.center = centre
        self.add_widget(label)
        self._labels.append(label)

    def _tile(self, cell, tile, pic) -> None:
        t = self.tile
        x0, top = self.origin
        x, y = x0 + cell[1] * t, top - (cell[0] + 1) * t
        gap = t * 0.03
        if tile is None:
            Color(*look.EMPTY)
            Line(rectangle=(x + gap, y + gap, t - 2 * gap, t - 2 * gap), width=1.2, dash_length=6, dash_offset=4)
            return
        kind, facing, marked, turned_to, word = tile
        Color(*look.LAND[kind])
        RoundedRectangle(pos=(x + gap, y + gap), size=(t - 2 * gap, t - 2 * gap), radius=[t * 0.08])
        cx, cy = x + t / 2, y + t / 2
        ink = look.LAND_INK[kind]
        if turned_to:
            self._arrow(cx, cy, facing, t, (*ink[:3], 0.30))
            self._arrow(cx, cy, turned_to, t, look.GOLD)
        else:
            self._arrow(cx, cy, facing, t, ink)
        if marked:
            Color(*look.MARKER)
            r = t * 0.07
            Ellipse(pos=(x + t - 3 * r, y + t - 3 * r), size=(2 * r, 2 * r))
            Color(0, 0, 0, 0.6)
            Line(circle=(x + t - 2 * r, y + t - 2 * r, r), width=1)
        if t >= sp(56):   # a land's name only where it can be read; its colour says it anyway
            self._text(word, (cx, y + t * 0.14), max(sp(12), min(sp(22), t * 0.19)), ink, bold=False, width=t * 0.94)

    def _arrow(self, cx, cy, facing, t, rgba) -> None:
        dr, dc = STEP[facing]
        dx, dy = dc, -dr
        length, head = t * 0.26, t * 0.13
        Color(*rgba)
        Line(points=[cx - dx * length, cy - dy * length, cx + dx * (length - head), cy + dy * (length - head)],
             width=max(2.0, t * 0.035))
        tipx, tipy = cx + dx * length, cy + dy * length
        bx, by = cx + dx * (length - head), cy + dy * (length - head)
        px, py = -dy * head * 0.8, dx * head * 0.8
        Triangle(points=[tipx, tipy, bx + px, by + py, bx - px, by - py])

    def _route(self, route) -> None:
        """A route: its cells' centres joined, shifted a little per route so that routes on one tile stay apart;
        red with a cross on the step that would lose."""
        t = self.tile
        shift = (route["lane"] - 1.5) * t * 0.06
        pts = []
        for cell in route["cells"]:
            x, y = self.cell_centre(cell)
            pts += [x + shift, y + shift]
        rgba = look.DANGER if route["loses"] else look.ROUTE
        if route["target"] is not None:
            r, c = route["target"]
            x0, top = self.origin
            x, y = x0 + (c + 0.5) * t, top - (r + 0.5) * t
            last = route["cells"][-1]
            lx, ly = self.cell_centre(last)
            # the losing step goes halfway to where it would lead
            ex, ey = (lx + x) / 2 + shift, (ly + y) / 2 + shift
            pts += [ex, ey]
        width = max(1.5, t * (0.03 if route["loses"] else 0.02))
        if len(pts) >= 4:
            # A dark casing under the line: a white route over Grass or Crystal stays visible.
            Color(0, 0, 0, 0.55)
            Line(points=pts, width=width + 1.5)
        Color(*rgba)
        if len(pts) >= 4:
            Line(points=pts, width=width,
                 dash_length=0 if route["demon"] else 8, dash_offset=0 if route["demon"] else 6)
        if route["target"] is not None:
            ex, ey = pts[-2], pts[-1]
            s = t * 0.09
            Color(*look.DANGER)
            Line(points=[ex - s, ey - s, ex + s, ey + s], width=max(2.0, t * 0.035))
            Line(points=[ex - s, ey + s, ex + s, ey - s], width=max(2.0, t * 0.035))

    def _gliding(self, demon) -> bool:
        return bool(demon.get("from")) and self.glide < 1.0

    def _draw_gliders(self) -> None:
        """The demons on their way between two tiles, where the glide has brought them (drawn over the map)."""
        self.canvas.after.clear()
        pic = getattr(self.model, "picture", None) if self.model is not None else None
        if not pic:
            return
        self.drawn_demons = [d for d in self.drawn_demons if not d[3]]
        with self.canvas.after:
            for demon in pic["demons"]:
                if self._gliding(demon):
                    (x0, y0), (x1, y1) = self.cell_centre(demon["from"]), self.cell_centre(demon["cell"])
                    g = self.glide
                    self._demons(demon, (x0 + (x1 - x0) * g, y0 + (y1 - y0) * g), counts=False)

    def _demons(self, demon, at=None, counts: bool = True) -> None:
        """The demons on one tile (or on their way to it, at `at`): a disc per colour with its count."""
        t = self.tile
        x, y = at if at is not None else self.cell_centre(demon["cell"])
        r = t * 0.15       # big enough to count across the table
        n = len(demon["colours"])
        for k, (colour, count) in enumerate(demon["colours"]):
            dx = (k - (n - 1) / 2) * 2.3 * r
            Color(0, 0, 0, 0.8)
            Ellipse(pos=(x + dx - r - 2, y - r - 2 - t * 0.05), size=(2 * r + 4, 2 * r + 4))
            Color(*look.DEMON[colour])
            Ellipse(pos=(x + dx - r, y - r - t * 0.05), size=(2 * r, 2 * r))
            self.drawn_demons.append((colour, x, y, at is not None))
            if count > 1 and counts:
                self._text(str(count), (x + dx, y - t * 0.05), max(sp(12), r * 1.3), (0, 0, 0, 1))

    def _obelisk(self, o) -> None:
        """An Obelisk: a die on its corner in the owner's colour, its strength on top; gold frame when suggested."""
        t = self.tile
        x, y = self.corner_point(o["corner"])
        s = t * 0.36
        if o["highlight"]:
            Color(*look.GOLD)
            RoundedRectangle(pos=(x - s / 2 - 5, y - s / 2 - 5), size=(s + 10, s + 10), radius=[s * 0.25])
        if o.get("aim"):   # a Longbow: its diagonal, as far as it reaches
            dx = 1 if o["aim"][1] == "E" else -1
            dy = 1 if o["aim"][0] == "N" else -1
            Color(*look.RUNE)
            Line(points=[x, y, x + dx * t * 1.2, y + dy * t * 1.2], width=max(2.0, t * 0.03))
        Color(*(look.RUNE if o.get("rune") else (1, 1, 1, 1)))
        ring = 5 if o.get("rune") else 2   # a charged Scroll: a thick violet ring
        RoundedRectangle(pos=(x - s / 2 - ring, y - s / 2 - ring), size=(s + 2 * ring, s + 2 * ring), radius=[s * 0.2])
        Color(*look.PLAYER[o["owner"]])
        RoundedRectangle(pos=(x - s / 2, y - s / 2), size=(s, s), radius=[s * 0.2])
        self._text(str(o["strength"]), (x, y), s * 0.75, look.PLAYER_INK[o["owner"]])
        for k in range(o["captured"]):
            Color(0, 0, 0, 1)
            Rectangle(pos=(x - s / 2 + k * s * 0.3, y + s / 2 + 2), size=(s * 0.25, s * 0.12))

    def _smart_die(self, corner) -> None:
        """A smart die stands on this corner (Menu → Smart dice on the map): a small cyan dot at its foot."""
        t = self.tile
        x, y = self.corner_point(corner)
        r, off = t * 0.07, t * 0.18
        Color(0, 0, 0, 0.85)
        Ellipse(pos=(x + off - r - 2, y - off - r - 2), size=(2 * r + 4, 2 * r + 4))
        Color(*look.SMART_DIE)
        Ellipse(pos=(x + off - r, y - off - r), size=(2 * r, 2 * r))
