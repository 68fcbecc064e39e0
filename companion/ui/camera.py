"""The camera screen (any game): the camera's live picture with what it read drawn over it, and four buttons —
Read dice, Read map, Count goods, Calibrate goods (companion/ui/calibrate.py). Opened from Dice and boards (a
camera's "Open camera"), where cameras are added by URL (camera://0, file://photo.jpg, sim://camera?scene=dice).

The camera is a device in the app's DeviceService (vision/camera_device.py): it grabs frames in a worker thread and
reads the dice itself whenever a throw has settled. This screen only shows its newest frame (companion/ui/photo.py)
and asks it for readings; every reading runs in a worker thread, so the preview and the table never wait for it.
Dice read here are reported by the device like a settled throw: they reach the open table only through the
session's observation door (docs/observations.md), which checks them and asks about a doubtful or illegal reading.
The map and the goods are shown here for the players to look at; opened over a table, the map also goes to the table's
game (GamePlugin.map_read: Obelisk proposes the Rotate of a turned tile, which the players confirm there).

`CameraModel` is the view-model; `CameraScreen` is layout only (camera.kv).
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from urllib.parse import urlsplit

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.session.observe import MIN_CONFIDENCE
from companion.ui import photo
from companion.ui.calibrate import calibration_path
from companion.ui.widgets.buttons import BigButton  # noqa: F401  (the shared widgets and their kv rules first)
from firmware_bridge.errors import DeviceError
from firmware_bridge.observations import DiceSettled, DieRolling

log = logging.getLogger(__name__)

GOODS_SURE = 0.6                         # a heap whose area is far from whole pieces is shown amber (vision/goods.py)


def is_camera(url: str) -> bool:
    """Does this device URL name a camera (camera://N, file://photo, sim://camera)?"""
    parts = urlsplit(url)
    return parts.scheme in ("camera", "file") or (parts.scheme == "sim" and parts.netloc == "camera")


def camera_title(app, url: str) -> str:
    """"Camera: 0", "Camera: tray.jpg", "Camera: sim://camera" — short enough for a heading."""
    parts = urlsplit(url)
    where = (Path(parts.netloc + parts.path).name if parts.scheme == "file" else
             parts.netloc + parts.path if parts.scheme == "camera" else url.split("?")[0])
    return app.t(N_("Camera: {where}")).format(where=where)


def first_camera(app) -> str | None:
    """The URL of the first camera among the group's devices (None: no camera added)."""
    devices = getattr(app, "devices", None)
    return next((d["url"] for d in devices.devices if is_camera(d["url"])), None) if devices is not None else None


def dice_boxes(dice, t) -> list[dict]:
    return photo.box_rows(dice, MIN_CONFIDENCE, lambda d: f"{d.face} · {round(d.confidence * 100)} %")


def goods_boxes(blobs, t) -> list[dict]:
    """A box per heap of goods; the words ("3 red") only on heaps of several pieces and doubtful ones — a label on
    every single piece would hide the goods. The kinds are the calibration's names (colours are translated by the
    catalogue's colour words; the shell knows no game's vocabulary)."""
    rows = photo.box_rows(blobs, GOODS_SURE, lambda b: f"{b.count} {t(b.kind)}" if b.count > 1 else t(b.kind))
    for row, blob in zip(rows, blobs):
        if blob.count == 1 and blob.confidence >= GOODS_SURE:
            row["text"] = ""
    return rows


def load_calibration(app):
    """The table's goods calibration, or a sentence saying why there is none (never an exception)."""
    from vision.goods import Calibration, CalibrationError

    path = calibration_path(app)
    if not path.exists():
        return None, app.t(N_("No goods calibration yet: tap Calibrate goods on the camera screen (once per "
                              "table: the players' zones and a piece of each kind)."))
    try:
        return Calibration.load(path), ""
    except (CalibrationError, OSError, ValueError) as err:
        return None, app.t(N_("The goods calibration {name} cannot be used: {reason}")).format(name=path.name,
                                                                                               reason=err)


class CameraModel(EventDispatcher):
    url = StringProperty("")
    title = StringProperty("")
    status = StringProperty("")       # one or two sentences: what was read, or why nothing was
    busy = BooleanProperty(False)     # a reading is running (the buttons wait; the preview does not)
    boxes = ListProperty()            # what the last reading found, drawn over the preview

    def __init__(self, app, url: str, **kwargs):
        super().__init__(**kwargs)
        self.app = app
        self.url = url
        self.title = camera_title(app, url)
        self.status = app.t(N_("Put the dice, the map or the goods under the camera and tap what to read."))
        self._unsubscribe = app.devices.subscribe(self._on_observation)

    def close(self) -> None:
        self._unsubscribe()

    def device(self):
        return self.app.devices.manager.device(self.url)

    def newest(self):
        """The camera's newest frame (None while it connects): the preview shows it."""
        device = self.device()
        return getattr(device, "last_frame", None)

    # -- intents (one per tap) -------------------------------------------------------------------------------------
    def read_dice(self) -> None:
        self._start(self._read_dice(), N_("Reading the dice…"))

    def read_map(self) -> None:
        self._start(self._read_map(), N_("Reading the map…"))

    def count_goods(self) -> None:
        calibration, why = load_calibration(self.app)
        if calibration is None:
            self.status = why
            return
        self._start(self._count_goods(calibration), N_("Counting the goods…"))

    def calibrate(self) -> None:
        """Calibrate the goods on the camera's picture as it is now (companion/ui/calibrate.py)."""
        from companion.ui.calibrate import CalibrateModel, CalibrateScreen

        image = self.newest()
        if image is None:
            self.status = self.app.t(N_("The camera gives no picture yet{detail}.")).format(detail="")
            return
        self.close()
        self.app.show("calibrate", CalibrateScreen, CalibrateModel(self.app, self.url, image.copy()))

    def back(self) -> None:
        """To the table it was opened from (its menu), else to Dice and boards."""
        self.close()
        if self.app.table is not None and self.app.plugin is not None:
            self.app.plugin.show()
        else:
            self.app.show_devices()

    def home(self) -> None:
        self.close()
        self.app.go_home()

    # -- the readings (worker threads, through the device) ---------------------------------------------------------
    def _start(self, coro, doing: str) -> None:
        t = self.app.t
        if self.busy:
            coro.close()
            self.status = t(N_("Still reading: a moment."))
            return
        if self.newest() is None:
            coro.close()
            state = self.app.devices.manager.state(self.url)
            detail = f" ({state.detail})" if state is not None and state.detail else ""
            self.status = t(N_("The camera gives no picture yet{detail}.")).format(detail=detail)
            return
        self.busy = True
        self.status = t(doing)
        task = asyncio.ensure_future(coro)
        task.add_done_callback(self._done)

    def _done(self, task) -> None:
        self.busy = False
        err = None if task.cancelled() else task.exception()
        if isinstance(err, DeviceError):
            self.status = str(err)
        elif err is not None:
            log.error("a camera reading failed", exc_info=err)
            self.status = self.app.t(N_("The camera could not read this: {what}")).format(what=err)

    async def _read_dice(self) -> None:
        reading = await self.device().read_now()
        self._show_dice(reading.dice)

    def _show_dice(self, dice) -> None:
        t = self.app.t
        self.boxes = dice_boxes(dice, t)
        if not dice:
            self.status = t(N_("No dice found in the picture."))
            return
        text = t(N_("{n} dice: {faces}")).format(n=len(dice), faces=", ".join(str(d.face) for d in dice))
        doubtful = sum(d.confidence < MIN_CONFIDENCE for d in dice)
        if doubtful == 1:       # one die asked about is the usual case: a sentence of its own
            text += "\n" + t(N_("One of them is doubtful (amber): the table will ask about it."))
        elif doubtful:
            text += "\n" + t(N_("{n} of them doubtful (amber): the table will ask about them.")).format(n=doubtful)
        from companion.session.devices import plays_by_itself

        if self.app.devices.door is None:
            text += "\n" + t(N_("No table is open: the dice are only shown here."))
        elif plays_by_itself(self.url):
            text += "\n" + t(N_("A simulated camera's dice land by themselves: they are shown here, never played "
                                 "into a table."))
        self.status = text

    async def _read_map(self) -> None:
        from vision.tiles import read_map

        _image, reading = await self.device().look(read_map)
        t = self.app.t
        self.boxes = [{"box": list(o.box), "rgba": photo.SURE_RGBA if o.colour else photo.DOUBT_RGBA,
                       "text": f"{t(o.colour) if o.colour else '?'} {o.strength}"} for o in reading.obelisks]
        if not reading.markers:
            self.status = t(N_("No map stickers found in the picture."))
            return
        text = t(N_("Map: {map}")).format(map=reading.notation)
        if reading.unknown:
            text += "\n" + t(N_("{n} cells could not be read (??): nothing is guessed.")).format(n=len(reading.unknown))
        # opened over an open table (its menu): the table's game judges the map, as its own menu's reading does
        said = self.app.plugin.map_read(reading) if self.app.table is not None and self.app.plugin else None
        if said:
            self.app.dismiss_banner()    # what the table said of an earlier reading no longer applies
            text += "\n" + said
        self.status = text

    async def _count_goods(self, calibration) -> None:
        from vision.goods import count_goods

        _image, reading = await self.device().look(lambda image: count_goods(image, calibration))
        t = self.app.t
        self.boxes = goods_boxes(reading.blobs, t)
        self.status = goods_summary(reading, t)

    # -- what the camera reads by itself ---------------------------------------------------------------------------
    def _on_observation(self, obs) -> None:
        if getattr(obs, "source", None) != self.url:
            return
        if isinstance(obs, DieRolling):
            self.boxes = []                  # the dice move: the old boxes would point at nothing
        elif isinstance(obs, DiceSettled) and not self.busy:
            reading = getattr(self.device(), "last_reading", None)
            if reading is not None:
                self._show_dice(reading.dice)


def goods_summary(reading, t) -> str:
    lines = []
    for zone, counts in reading.zones.items():
        items = ", ".join(f"{n} {t(k)}" for k, n in counts.items() if n)
        lines.append(f"{zone}: {items or t(N_('nothing'))}")
    doubtful = sum(b.confidence < GOODS_SURE for b in reading.blobs)
    if doubtful:
        lines.append(t(N_("{n} heaps are doubtful (amber): count them by hand.")).format(n=doubtful))
    return "\n".join(lines)


class CameraScreen(Screen):
    model = ObjectProperty(None, rebind=True)

    def on_enter(self, *_):
        self.ids.photo.follow(self.model.newest)

    def on_pre_leave(self, *_):
        self.ids.photo.follow(None)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
