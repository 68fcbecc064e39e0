"""A camera as a device (firmware_bridge.device.Device): frames in, dice observations out, like a dice tower's tray.

    camera://0                     the first camera (OpenCV); camera://1 …
    file://photo.jpg               a photo, read again and again (a still table): for trying things out
    sim://camera?scene=dice&seed=7 rendered throws: dice tumbling, then still

Capture and reading block, so they run in a worker thread (asyncio.to_thread), never on the app's loop. Each frame
goes through the stillness gate; when a throw has settled the dice are read once and reported as one
`DiceSettled` (each die a `DieRolled` with the reader's confidence; the dice numbered left to right, top to
bottom: `camera://0#1`, `#2`, …), after a `DieRolling` for each when the table starts moving. `read_now()` reads
the newest frame at once (a screen's "Read dice") and reports it the same way; `look(fn)` runs another recogniser
(the map, the goods) on the newest frame in a worker thread and only returns what it found. The session's
observation door then does what it does with any dice: the engine checks the reading, and a doubtful one (below the
door's confidence) or an illegal one becomes a question for the players. The last read frame and its boxes are kept
(`last_reading`) for a screen to show.
"""
from __future__ import annotations

import asyncio
import collections
import threading
import time
from dataclasses import dataclass
from typing import AsyncIterator
from urllib.parse import urlencode

import numpy as np

from firmware_bridge.device import Device, DeviceURL
from firmware_bridge.errors import ConnectionLost, DeviceError, DeviceNotFound
from firmware_bridge.observations import DiceSettled, DieRolled, DieRolling

from .detections import DieDetection
from .frames import FrameError, FrameSource, StillnessGate, open_source


@dataclass(frozen=True)
class CameraReading:
    """What the camera read last: the frame and the dice on it (for a screen: the photo with its boxes)."""
    image: np.ndarray
    dice: tuple[DieDetection, ...]
    ids: tuple[str, ...]
    at: float


def frame_url(url: DeviceURL) -> str:
    """The frame source (vision.frames) behind a device URL."""
    if url.scheme == "camera":
        return f"camera://{url.address}"
    if url.scheme == "file":
        return url.text
    params = dict(url.params)
    scene = params.pop("scene", "dice")
    params.setdefault("moving", "6")
    params.setdefault("still", "30")
    return f"sim://{scene}?{urlencode(params)}"


class CameraDevice(Device):
    """Reads dice from a camera whenever the table has settled after moving."""

    fps = 30.0                   # frames looked at per second: what a camera gives, so a preview of them is smooth

    def __init__(self, url: DeviceURL):
        super().__init__(url)
        self._source: FrameSource | None = None
        self._reader = None
        self._closed = threading.Event()
        self.last_reading: CameraReading | None = None
        self.last_frame: np.ndarray | None = None
        self._throw = 0
        self._reading = threading.Lock()  # one dice net, used by the settled throws and by read_now
        self._asked: collections.deque = collections.deque()   # readings asked for, reported by the frame loop
        self.frames_seen = 0

    @property
    def name(self) -> str:
        return f"Camera {self.url.address}" if self.url.scheme == "camera" else f"Camera ({self.url.text})"

    async def open(self) -> None:
        def start():
            import cv2

            # A reading takes one core, never every core: the other one keeps the app's picture and taps going.
            cv2.setNumThreads(1)
            source = open_source(frame_url(self.url))
            source.read()                                # a camera that opens but gives nothing is not there
            from .dice import DiceReader
            return source, DiceReader()
        try:
            self._source, self._reader = await asyncio.to_thread(start)
        except FrameError as err:
            raise DeviceNotFound(str(err)) from err
        except FileNotFoundError as err:                 # the dice model is missing from the install
            raise DeviceError(str(err)) from err
        self._closed.clear()

    async def close(self) -> None:
        self._closed.set()
        source, self._source = self._source, None
        if source is not None:
            await asyncio.to_thread(source.close)

    def _grab(self):
        if self._source is None:
            raise ConnectionLost(f"{self.name} is closed")
        try:
            return self._source.read()
        except FrameError as err:
            raise ConnectionLost(str(err)) from err

    def _read(self, image: np.ndarray) -> CameraReading:
        with self._reading:
            found = self._reader.read(image)
        dice = tuple(sorted(found, key=lambda d: (round(d.box[1] / 40), d.box[0])))
        ids = tuple(f"{self.url.text}#{k}" for k in range(1, len(dice) + 1))
        return CameraReading(image, dice, ids, time.monotonic())

    def _settled(self, reading: CameraReading) -> DiceSettled:
        self._throw += 1
        return DiceSettled(tuple(DieRolled(die, d.face, d.confidence, self.url.text, roll=self._throw)
                                 for die, d in zip(reading.ids, reading.dice)), source=self.url.text)

    def _newest(self) -> np.ndarray:
        if self._source is None or self.last_frame is None:
            raise ConnectionLost(f"{self.name} has given no picture yet")
        return self.last_frame

    async def read_now(self) -> CameraReading:
        """Read the dice on the newest frame now and report them like a settled throw (the frame loop yields the
        DiceSettled, so it reaches the manager and the observation door as any throw does)."""
        reading = await asyncio.to_thread(self._read, self._newest())
        self.last_reading = reading
        self._asked.append(self._settled(reading))
        return reading

    async def look(self, recogniser):
        """`recogniser(image)` on the newest frame, in a worker thread: (the frame, what it returned)."""
        image = self._newest()
        return image, await asyncio.to_thread(recogniser, image)

    async def observations(self) -> AsyncIterator:
        gate = StillnessGate()
        moving = False
        known: tuple[str, ...] = ()
        period = 1.0 / self.fps
        while not self._closed.is_set():
            started = time.monotonic()
            frame = await asyncio.to_thread(self._grab)
            self.last_frame = frame.image
            self.frames_seen += 1
            while self._asked:
                yield self._asked.popleft()
            still = gate.feed(frame.image)
            if gate.moving and not moving and frame.index > 0:
                moving = True
                for die in known:
                    yield DieRolling(die, source=self.url.text)
            if still:
                moving = False
                reading = await asyncio.to_thread(self._read, frame.image)
                self.last_reading = reading
                known = reading.ids
                yield self._settled(reading)
            await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))
