"""Calibrating the goods count at a table (issue 19 §5), by touch, on one photo from the fixed camera: first a finger
drawn across each player's zone (a rectangle per seat, in seat order), then one tap on a piece of each kind the app
names in turn ("Tap a piece: red"), skipping kinds not on the table. `vision.goods.calibrate` learns the colours
and a piece's size; the file is saved where the camera screen and the end screen's "Goods from a photo" look
(`calibration_path`).

The photo is the camera's newest frame when the screen opens, held still: a hand that moves over the table later
does not move the taps. Every tap is checked at once in a worker thread (the piece under it must stand out from the
table), so a tap beside a piece is said there and then, not at the end.

`CalibrateModel` is the view-model (one method per touch); `CalibrateScreen` is layout only (calibrate.kv).
"""
from __future__ import annotations

import asyncio
import logging
import math
from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.ui import photo
from companion.ui.widgets.buttons import BigButton  # noqa: F401  (the shared widgets and their kv rules first)

log = logging.getLogger(__name__)

# The words of vision.goods.KINDS, in the catalogue's words (the shell names no game: these are the camera's kinds).
KIND_WORD = {"red": N_("red"), "orange": N_("orange"), "yellow": N_("yellow"), "green": N_("green"),
             "blue": N_("blue"), "pink": N_("pink"), "turquoise": N_("turquoise"), "lamp": N_("magic lamp"),
             "artifact": N_("cursed artifact")}
SEAT = N_("Seat {n}")
CALIBRATION = "goods-calibration.json"   # in the data folder: zones and colours, read by Count goods and the end screen
MIN_ZONE = 24          # picture pixels: a shorter drag is a tap, not a zone
ZONE_RGBA = [0.45, 0.75, 1.0, 1]


def calibration_path(app) -> Path:
    """Where the group's goods calibration is kept (the camera screen's Count goods and the end screen read it)."""
    return Path(app.store.data_dir) / CALIBRATION


class CalibrateModel(EventDispatcher):
    step = StringProperty("zones")     # "zones": a drag per seat; "samples": a tap per kind
    prompt = StringProperty("")        # what to do now, in one or two sentences
    boxes = ListProperty()             # the zones and the tapped pieces, drawn over the photo
    busy = BooleanProperty(False)      # a tap is being checked
    done_text = StringProperty("")
    can_skip = BooleanProperty(False)

    def __init__(self, app, url: str, image, **kwargs):
        super().__init__(**kwargs)
        from vision.goods import KINDS

        self.app = app
        self.url = url
        self.image = image
        self.kinds = list(KINDS)
        self.zones: list[list[float]] = []          # [x0, y0, x1, y1] per seat, in drawing order
        self.samples: dict[str, tuple[float, float]] = {}
        self.pieces: dict[str, float] = {}          # kind → one piece's side in pixels (for its box)
        self.skipped: list[str] = []
        self.refresh()

    # -- what the screen shows -----------------------------------------------------------------------------------------
    @property
    def kind(self) -> str | None:
        """The kind asked for now (None: every kind tapped or skipped)."""
        return next((k for k in self.kinds if k not in self.samples and k not in self.skipped), None)

    def refresh(self) -> None:
        t = self.app.t
        rows = [{"box": z, "rgba": ZONE_RGBA, "text": t(SEAT).format(n=i + 1)} for i, z in enumerate(self.zones)]
        newest = next(reversed(self.samples), None)
        for k, (x, y) in self.samples.items():
            # only the newest piece is named: the pieces lie side by side and their words would cover each other
            h = self.pieces.get(k, 20) / 2 + 4
            rows.append({"box": [x - h, y - h, x + h, y + h], "rgba": photo.SURE_RGBA,
                         "text": t(KIND_WORD[k]) if k == newest else ""})
        self.boxes = rows
        if self.step == "zones":
            self.prompt = t(N_("1. Draw a finger across each player's zone, seat by seat ({n} drawn). Then tap "
                               "Zones done.")).format(n=len(self.zones))
            self.done_text = t(N_("Zones done"))
            self.can_skip = False
        else:
            kind = self.kind
            self.prompt = (t(N_("2. Tap one piece: {good}. Not on the table? Skip it.")).format(good=t(KIND_WORD[kind]))
                           if kind else t(N_("Every kind tapped or skipped: save the calibration.")))
            self.done_text = t(N_("Save"))
            self.can_skip = kind is not None

    # -- touches on the photo (picture pixels) ------------------------------------------------------------------------
    def dragged(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """A finger drawn across the photo: a seat's zone (a rectangle), or a tap when it hardly moved."""
        if max(abs(x1 - x0), abs(y1 - y0)) < MIN_ZONE:
            self.tapped(x1, y1)
            return
        if self.step != "zones":
            self.app.say(self.app.t(N_("Tap one piece, do not draw: the zones are done.")))
            return
        self.zones.append([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)])
        self.refresh()

    def tapped(self, x: float, y: float) -> None:
        t = self.app.t
        if self.step == "zones":
            self.app.say(t(N_("Draw a finger from one corner of the zone to the other.")))
            return
        kind = self.kind
        if kind is None or self.busy:
            return
        self.busy = True
        task = asyncio.ensure_future(asyncio.to_thread(self._learn, kind, (x, y)))
        task.add_done_callback(lambda done: self._learnt(kind, (x, y), done))

    def _learn(self, kind: str, at):
        from vision.goods import calibrate

        return calibrate(self.image, {"zones": self._zones(), "samples": {kind: at}})

    def _learnt(self, kind: str, at, task) -> None:
        from vision.goods import CalibrationError

        self.busy = False
        err = None if task.cancelled() else task.exception()
        if isinstance(err, CalibrationError):
            self.app.say(self.app.t(N_("No {good} piece there: tap the middle of one piece.")).format(
                good=self.app.t(KIND_WORD[kind])))
            return
        if err is not None:
            log.error("a calibration tap failed", exc_info=err)
            self.app.say(str(err))
            return
        self.app.dismiss_banner()   # a refusal said before this tap no longer applies
        self.samples[kind] = at
        self.pieces[kind] = math.sqrt(task.result().kinds[kind].area)
        self.refresh()

    # -- buttons ------------------------------------------------------------------------------------------------------
    def undo(self) -> None:
        """The last zone drawn, or the last piece tapped (or kind skipped), taken back."""
        if self.step == "samples":
            order = [k for k in self.kinds if k in self.samples or k in self.skipped]
            last = max(order, key=lambda k: self.kinds.index(k), default=None)
            if last is None:
                self.step = "zones"
            else:
                self.samples.pop(last, None)
                if last in self.skipped:
                    self.skipped.remove(last)
        elif self.zones:
            self.zones.pop()
        self.refresh()

    def skip(self) -> None:
        if self.kind is not None:
            self.skipped.append(self.kind)
            self.refresh()

    def done(self) -> None:
        t = self.app.t
        if self.step == "zones":
            if not self.zones:
                self.app.say(t(N_("Draw at least one player's zone first.")))
                return
            self.step = "samples"
            self.refresh()
            return
        if not self.samples:
            self.app.say(t(N_("Tap at least one piece first.")))
            return
        self.save()

    def save(self) -> None:
        from vision.goods import CalibrationError, calibrate

        t = self.app.t
        path = calibration_path(self.app)
        try:
            calibration = calibrate(self.image, {"zones": self._zones(), "samples": dict(self.samples)})
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_name(path.name + ".part")
            calibration.save(part)
            part.replace(path)       # written whole: the old calibration stays until the new one is complete
        except (CalibrationError, OSError) as err:
            self.app.say(t(N_("The calibration was not saved: {reason}")).format(reason=err))
            return
        self.app.show_camera(self.url, keep_table=self.app.table is not None)
        self.app.say(t(N_("Goods calibration saved: {zones} zones, {kinds} kinds of goods.")).format(
            zones=len(self.zones), kinds=len(self.samples)))

    def back(self) -> None:
        """Back to the camera, nothing saved."""
        self.app.show_camera(self.url, keep_table=self.app.table is not None)

    def _zones(self) -> dict:
        """The zones as vision.goods wants them: name → polygon; seat n's name, in the order drawn (the end screen
        gives unnamed zones to the seats in order: obscurians/goods_photo.py)."""
        return {self.app.t(SEAT).format(n=i + 1): [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
                for i, (x0, y0, x1, y1) in enumerate(self.zones)}


class TouchPhoto(photo.PhotoView):
    """A still photo that reports a finger's drag (or tap) in picture pixels; the drag is drawn as it goes."""

    model = ObjectProperty(None, allownone=True)

    def to_picture(self, wx: float, wy: float) -> tuple[float, float]:
        w, h = self.frame_size
        nw, nh = self.norm_image_size
        s = nw / w if w else 1.0
        left, bottom = self.center_x - nw / 2, self.center_y - nh / 2
        return min(max((wx - left) / s, 0), w - 1), min(max(h - (wy - bottom) / s, 0), h - 1)

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.model is None or not self.frame_size[0]:
            return super().on_touch_down(touch)
        touch.grab(self)
        touch.ud["picture_from"] = self.to_picture(*touch.pos)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        if self.model.step == "zones":
            (x0, y0), (x1, y1) = touch.ud["picture_from"], self.to_picture(*touch.pos)
            self.boxes = self.model.boxes + [{"box": [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)],
                                              "rgba": ZONE_RGBA, "text": ""}]
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        (x0, y0), (x1, y1) = touch.ud["picture_from"], self.to_picture(*touch.pos)
        self.boxes = self.model.boxes
        self.model.dragged(x0, y0, x1, y1)
        return True


class CalibrateScreen(Screen):
    model = ObjectProperty(None, rebind=True)

    def on_enter(self, *_):
        self.ids.photo.set_frame(self.model.image)
        # the prompt and the zones' names are sentences made in a language: made again when it is switched
        self.model.app.bind(lang=self._language)

    def on_pre_leave(self, *_):
        self.model.app.unbind(lang=self._language)

    def _language(self, *_):
        self.model.refresh()


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
