"""Frame sources, opened by URL like the devices (docs/architecture.md, convention 5): where pictures come from, apart from
what is read in them (the recognisers never know the source).

    camera://0                 the first camera OpenCV finds (camera://1 the second; camera:///dev/video2 by path)
    file://photo.jpg           one photo, or several: file://a.jpg,b.jpg — given again and again, like a still table
    sim://dice?seed=7          rendered scenes with their truth: dice thrown, rolling, then still; also
    sim://tiles?seed=7, sim://goods?seed=7, sim://symbols?seed=7

A source's `read()` gives the newest `Frame` or raises `FrameError` (one sentence) when the source is gone.
Blocking sources (a camera) are read from a worker thread by the app, never on the UI thread.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, unquote, urlsplit

import cv2
import numpy as np

from .imageio import UnreadableImage, read_image


class FrameError(RuntimeError):
    """A frame source that cannot give pictures (no camera, file gone); the message is one line for a player."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray                 # BGR uint8
    index: int                        # 0, 1, 2, … from this source
    time: float                       # seconds, monotonic, when the frame was taken
    truth: Any = None                 # rendered frames carry what is in them (tests, the simulator); else None


class FrameSource:
    """One camera-like thing. Subclasses implement `_grab()`."""
    url: str = ""

    def __init__(self):
        self._index = 0

    def _grab(self) -> tuple[np.ndarray, Any]:
        raise NotImplementedError

    def read(self) -> Frame:
        image, truth = self._grab()
        frame = Frame(image, self._index, time.monotonic(), truth)
        self._index += 1
        return frame

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ImageFiles(FrameSource):
    """Photos from files, one per read, starting over after the last (a still table photographed again)."""

    def __init__(self, paths: list[str | Path]):
        super().__init__()
        if not paths:
            raise FrameError("no photo given")
        self.paths = [Path(p) for p in paths]
        self.url = "file://" + ",".join(str(p) for p in self.paths)
        self._cache: dict[int, np.ndarray] = {}

    def _grab(self):
        i = self._index % len(self.paths)
        if i not in self._cache:
            try:
                self._cache[i] = read_image(self.paths[i])
            except UnreadableImage as err:
                raise FrameError(str(err)) from err
        return self._cache[i].copy(), None


class Camera(FrameSource):
    """A camera through OpenCV's VideoCapture. Opening and reading block: use it from a worker thread."""

    def __init__(self, device: int | str = 0, width: int | None = None, height: int | None = None):
        super().__init__()
        self.url = f"camera://{device}"
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise FrameError(f"no camera at {self.url}")
        if width and height:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def _grab(self):
        ok, image = self._cap.read()
        if not ok or image is None:
            raise FrameError(f"the camera {self.url} stopped giving pictures")
        return image, None

    def close(self) -> None:
        self._cap.release()


@dataclass
class _Motion:
    """The simulated throw: some frames of dice tumbling, then the same still scene for a while."""
    moving: int = 6
    still: int = 18


class Rendered(FrameSource):
    """Rendered scenes with their truth (vision/render). A new scene is 'thrown' every few frames: while it moves the
    picture jitters; then it stays still, as a table does after a roll."""

    def __init__(self, kind: str = "dice", seed: int = 0, size: tuple[int, int] = (640, 480), **options):
        super().__init__()
        from .render import RENDERERS   # the renderers are only loaded when a simulated camera is opened
        if kind not in RENDERERS:
            raise FrameError(f"no simulated camera of kind {kind!r} (known: {', '.join(sorted(RENDERERS))})")
        self.url = f"sim://{kind}?seed={seed}"
        self.kind = kind
        self._render: Callable = RENDERERS[kind]
        self._rng = np.random.default_rng(seed)
        self._size = size
        self._options = options
        self.motion = _Motion(**{k: int(options.pop(k)) for k in ("moving", "still") if k in options})
        self._scene: tuple[np.ndarray, Any] | None = None

    def _grab(self):
        period = self.motion.moving + self.motion.still
        phase = self._index % period
        if phase == 0 or self._scene is None:
            self._scene = self._render(self._rng, self._size, **self._options)
        image, truth = self._scene
        if phase < self.motion.moving:   # dice still tumbling: the picture shifts and blurs, no truth yet
            shift = self._rng.normal(0, 6, 2)
            m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
            moved = cv2.warpAffine(image, m, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REFLECT)
            return cv2.GaussianBlur(moved, (0, 0), 2.0), None
        return image.copy(), truth


def open_source(url: str) -> FrameSource:
    """The frame source a URL names (see the module's doc); FrameError with one line when it cannot be opened."""
    if not isinstance(url, str) or "://" not in url:
        raise FrameError(f"not a camera address: {url!r} (try camera://0, file://photo.jpg or sim://dice)")
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    if parts.scheme == "camera":
        where = unquote(parts.netloc + parts.path)
        device: int | str = int(where) if where.isdigit() else where
        size = [int(query[k]) for k in ("width", "height") if k in query and query[k].isdigit()]
        return Camera(device, *(size if len(size) == 2 else ()))
    if parts.scheme == "file":
        names = unquote(parts.netloc + parts.path)
        return ImageFiles([n for n in names.split(",") if n])
    if parts.scheme == "sim":
        kind = parts.netloc or parts.path.strip("/") or "dice"
        seed = int(query.pop("seed", "0")) if query.get("seed", "0").isdigit() else 0
        options: dict[str, Any] = {}
        for k in ("moving", "still"):
            if query.get(k, "").isdigit():
                options[k] = int(query[k])
        size = (int(query.get("width", 640)), int(query.get("height", 480))) \
            if query.get("width", "640").isdigit() and query.get("height", "480").isdigit() else (640, 480)
        return Rendered(kind, seed, size, **options)
    raise FrameError(f"unknown camera address {parts.scheme}:// (try camera://0, file://photo.jpg or sim://dice)")


@dataclass
class StillnessGate:
    """Live reading waits until the scene is still: feed it every frame; it says True once per settled scene.

    Motion is the mean absolute difference of two successive small grey frames (0-255). The scene is still when the
    motion stays under `threshold` for `frames` frames in a row; it is read once and not again until something
    moved (a new throw, a hand) and settled again.
    """
    threshold: float = 2.5
    frames: int = 5
    last_motion: float = 0.0
    _previous: np.ndarray | None = field(default=None, repr=False)
    _quiet: int = 0
    _reported: bool = False

    def motion(self, image: np.ndarray) -> float:
        small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image, (80, 60),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        small = cv2.GaussianBlur(small, (3, 3), 0)
        previous, self._previous = self._previous, small
        return 255.0 if previous is None else float(np.abs(small - previous).mean())

    @property
    def moving(self) -> bool:
        return self.last_motion >= self.threshold

    def feed(self, image: np.ndarray) -> bool:
        self.last_motion = self.motion(image)
        if self.last_motion < self.threshold:
            self._quiet += 1
        else:
            self._quiet = 0
            self._reported = False
        if self._quiet >= self.frames and not self._reported:
            self._reported = True
            return True
        return False
