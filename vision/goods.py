"""Counting the Obscurians goods (and the magic lamp and the cursed artifact) in each player's zone.

Once per table: the group marks the player zones on a photo from the fixed camera and taps one piece of each kind
(`calibrate`, or `python -m vision calibrate IMG --zones ZONES.json --out FILE`). The calibration file keeps the
zones, each kind's colour (CIE Lab mean and spread around the tapped piece) and the size of one piece.

Counting (`count_goods`): every pixel near a kind's colour belongs to that kind; pieces of one kind that touch are
one blob, counted by area (a blob of 2.1 pieces' area is 2). A blob whose area is far from a whole number of pieces
is counted but marked doubtful. The count of a zone is the pieces whose middle lies in it.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from firmware_bridge import strictjson

COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "turquoise")
UNCOLOURED = ("lamp", "artifact")
KINDS = COLOURS + UNCOLOURED
VERSION = 1


class CalibrationError(ValueError):
    """A calibration or zones file that cannot be used; one line for a player."""


@dataclass
class KindColour:
    lab: list[float]            # mean L, a, b (OpenCV's 8-bit Lab)
    spread: float               # typical distance of the piece's pixels from the mean
    area: float                 # pixels of one piece in the calibration photo


@dataclass
class Calibration:
    zones: dict[str, list[list[float]]]              # name → polygon [[x, y], …] in photo pixels
    kinds: dict[str, KindColour]
    size: list[int] = field(default_factory=lambda: [0, 0])   # the calibration photo's width, height
    table: list[float] = field(default_factory=list)  # the table's BGR in the calibration photo (white balance)
    max_distance: float = 45.0                        # how far (in tenths of a kind's spread) a colour may stray
    min_contrast: float = 16.0                        # Lab distance from the table under it for a pixel to count

    def save(self, path: str | Path) -> None:
        data = {"version": VERSION, "size": self.size, "table": self.table, "max_distance": self.max_distance,
                "min_contrast": self.min_contrast,
                "zones": self.zones,
                "kinds": {k: asdict(v) for k, v in self.kinds.items()}}
        Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Calibration":
        p = Path(path)
        try:
            raw = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"{p}: no such calibration file") from None
        except (OSError, UnicodeDecodeError) as err:
            raise CalibrationError(f"{p}: cannot be read ({err.__class__.__name__})") from None
        try:
            data = strictjson.loads(raw)
        except strictjson.JSONInputError as err:
            raise CalibrationError(f"{p}: not a calibration file ({err})") from None
        return cls.from_json(data, str(p))

    @classmethod
    def from_json(cls, data, name: str = "calibration") -> "Calibration":
        try:
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise CalibrationError(f"{name}: not a calibration file of this app (version {VERSION})")
            zones = {str(z): _polygon(poly, name) for z, poly in dict(data["zones"]).items()}
            kinds = {}
            for k, v in dict(data["kinds"]).items():
                if k not in KINDS:
                    raise CalibrationError(f"{name}: unknown kind of good {k!r}")
                lab = [float(x) for x in v["lab"]]
                spread, area = float(v["spread"]), float(v["area"])
                if len(lab) != 3 or not all(np.isfinite(lab + [spread, area])) or area <= 0 or spread < 0:
                    raise CalibrationError(f"{name}: the colour of {k} is not usable")
                kinds[k] = KindColour(lab, spread, area)
            size = [int(x) for x in data.get("size", [0, 0])][:2]
            if len(size) != 2 or min(size) < 0 or max(size) > 100_000:
                raise CalibrationError(f"{name}: the photo size is not usable")
            table = [float(x) for x in data.get("table", [])]
            if table and (len(table) != 3 or not all(0 < x <= 255 for x in table)):
                raise CalibrationError(f"{name}: the table colour is not usable")
            max_distance = float(data.get("max_distance", 45.0))
            min_contrast = float(data.get("min_contrast", 16.0))
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError):
            raise CalibrationError(f"{name}: a calibration file needs zones and kinds") from None
        if not zones or not kinds:
            raise CalibrationError(f"{name}: a calibration file needs at least one zone and one kind of good")
        if not (0 < max_distance < 200) or not (0 < min_contrast < 200):
            raise CalibrationError(f"{name}: max_distance and min_contrast must be between 0 and 200")
        return cls(zones, kinds, size, table, max_distance, min_contrast)


def _polygon(poly, name: str) -> list[list[float]]:
    pts = [[float(x), float(y)] for x, y in poly]
    if len(pts) < 3 or not np.isfinite(pts).all() or np.abs(pts).max() > 1e6:
        raise CalibrationError(f"{name}: a zone needs at least three corners inside the photo")
    return pts


def load_zones(path: str | Path) -> dict:
    """A zones file: {"zones": {name: polygon}, "samples": {kind: [x, y]}} (one tap on a piece of each kind)."""
    p = Path(path)
    try:
        data = strictjson.loads(p.read_text(encoding="utf-8"))
        zones = {str(z): _polygon(poly, str(p)) for z, poly in dict(data["zones"]).items()}
        samples = {}
        for k, (x, y) in dict(data["samples"]).items():
            if k not in KINDS:
                raise CalibrationError(f"{p}: unknown kind of good {k!r}")
            samples[k] = (float(x), float(y))
    except CalibrationError:
        raise
    except FileNotFoundError:
        raise CalibrationError(f"{p}: no such zones file") from None
    except strictjson.JSONInputError as err:
        raise CalibrationError(f"{p}: not a zones file ({err})") from None
    except (OSError, UnicodeDecodeError, RecursionError, KeyError, TypeError, ValueError):
        raise CalibrationError(f"{p}: a zones file needs zones and samples (see docs/vision.md)") from None
    if not samples:
        raise CalibrationError(f"{p}: tap at least one piece (samples)")
    return {"zones": zones, "samples": samples}


WORK_SIDE = 800        # photos are counted at most this large (a piece stays ~15 px or more)


def _work(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo at the working size and the factor applied."""
    f = min(1.0, WORK_SIDE / max(image.shape[:2]))
    if f < 1.0:
        image = cv2.resize(image, (round(image.shape[1] * f), round(image.shape[0] * f)), interpolation=cv2.INTER_AREA)
    return image, f


def _table_bgr(image: np.ndarray) -> np.ndarray:
    """The table's colour: the median of the photo (the goods cover little of it)."""
    return np.median(image[::4, ::4].reshape(-1, 3), axis=0).astype(np.float32) + 1.0


def _local_table(image: np.ndarray) -> np.ndarray:
    """The table under everything: a median far larger than a piece (float BGR, the photo's size)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 9), (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) + 1.0


def _balanced(image: np.ndarray, table: list[float]) -> np.ndarray:
    """The photo with its light matched to the calibration photo's, place by place: the table under the goods is
    estimated by a median far larger than a piece, and each pixel is scaled so that the table there has the
    calibration photo's table colour (a lamp's colour, a gradient, a shadow of the box lid)."""
    if not table:
        return image
    local = _local_table(image)
    gain = np.clip(np.float32(table) / local, 0.4, 2.5)
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)


def _distance(lab: np.ndarray, ref) -> np.ndarray:
    d = lab - np.asarray(ref, np.float32)
    return np.sqrt((d[..., 0] * 0.5) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _table_colour(lab: np.ndarray) -> np.ndarray:
    return np.median(lab[::8, ::8].reshape(-1, 3), axis=0)


def calibrate(image: np.ndarray, zones_and_samples: dict) -> Calibration:
    """Learns each tapped piece's colour and size: the piece is the region around the tap that differs from the
    table and shares the tapped colour."""
    full_h, full_w = image.shape[:2]
    image, f = _work(image)
    reference = [float(v) for v in _table_bgr(image)]
    image = _balanced(image, reference)
    lab = _lab(image)
    h, w = lab.shape[:2]
    table = _table_colour(lab)
    kinds = {}
    for kind, (x, y) in zones_and_samples["samples"].items():
        xi, yi = int(round(x * f)), int(round(y * f))
        if not (0 <= xi < w and 0 <= yi < h):
            raise CalibrationError(f"the tap for {kind} is outside the photo")
        seed = lab[max(0, yi - 2):yi + 3, max(0, xi - 2):xi + 3].reshape(-1, 3).mean(0)
        if _distance(seed[None], table)[0] < 12:
            raise CalibrationError(f"the tap for {kind} is on the table, not on a piece")
        near = (_distance(lab, seed) < 18).astype(np.uint8)
        n, labels, stats, _c = cv2.connectedComponentsWithStats(near, connectivity=8)
        piece = labels == labels[yi, xi]
        if labels[yi, xi] == 0 or piece.sum() < 12:
            raise CalibrationError(f"the tap for {kind} does not find a piece")
        pix = lab[piece]
        mean = pix.mean(0)
        spread = float(np.percentile(_distance(pix, mean), 80))
        kinds[kind] = KindColour([float(v) for v in mean], spread, float(piece.sum()) / (f * f))
    return Calibration(zones_and_samples["zones"], kinds, [full_w, full_h], reference)


@dataclass(frozen=True)
class GoodsBlob:
    kind: str
    count: int
    box: tuple[float, float, float, float]
    zone: str | None
    confidence: float

    def to_json(self) -> dict:
        return {"good": self.kind, "count": self.count, "box": [round(v, 1) for v in self.box], "zone": self.zone,
                "confidence": round(self.confidence, 3)}


@dataclass
class GoodsReading:
    zones: dict[str, dict[str, int]]
    blobs: list[GoodsBlob]

    def to_json(self) -> dict:
        doubtful = [b.to_json() for b in self.blobs if b.confidence < 0.6]
        return {"zones": self.zones, "detections": [b.to_json() for b in self.blobs], "doubtful": doubtful}

    def describe(self) -> str:
        lines = []
        for zone, counts in self.zones.items():
            items = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "nothing"
            lines.append(f"{zone}: {items}")
        n = sum(1 for b in self.blobs if b.confidence < 0.6)
        if n:
            lines.append(f"{n} heaps of goods are doubtful: check them")
        return "\n".join(lines)


def count_goods(image: np.ndarray, calibration: Calibration) -> GoodsReading:
    """The pieces of each calibrated kind in each zone of a BGR photo from the calibrated camera."""
    full_h, full_w = image.shape[:2]
    image, f = _work(image)
    image = _balanced(image, calibration.table)
    # zones and piece sizes were taken on the calibration photo: follow this photo's size (same camera)
    scale_x = (full_w / calibration.size[0] if calibration.size[0] else 1.0) * f
    scale_y = (full_h / calibration.size[1] if calibration.size[1] else 1.0) * f
    lab = _lab(image)
    table_lab = _lab(np.clip(_local_table(image), 0, 255).astype(np.uint8))
    d = lab - table_lab
    foreground = np.sqrt((d[..., 0] * 0.5) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) > calibration.min_contrast
    names = list(calibration.kinds)
    dist = np.stack([_distance(lab, calibration.kinds[k].lab) / max(1.0, calibration.kinds[k].spread * 0.6 + 6)
                     for k in names])
    best = dist.argmin(0)
    best_d = dist.min(0)
    limit = calibration.max_distance / 10.0
    zones = {z: (np.array(p, np.float32) * np.float32([scale_x, scale_y])).astype(np.float32)
             for z, p in calibration.zones.items()}
    counts = {z: {k: 0 for k in names} for z in zones}
    blobs = []
    kernel = np.ones((3, 3), np.uint8)
    for i, kind in enumerate(names):
        mask = ((best == i) & (best_d < limit) & foreground).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        one = calibration.kinds[kind].area * scale_x * scale_y
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for j in range(1, n):
            area = stats[j, cv2.CC_STAT_AREA]
            if area < one * 0.35:
                continue                     # a speck of the same colour, not a piece
            pieces = area / one
            count = 1 if kind in UNCOLOURED else max(1, int(round(pieces)))
            off = abs(pieces - round(pieces)) if kind not in UNCOLOURED else max(0.0, pieces - 1.6)
            confidence = float(np.clip(1.0 - 2 * off, 0.0, 1.0)) * (1.0 if pieces < 6 else 0.7)
            x, y, bw, bh = stats[j, :4]
            cx, cy = centroids[j]
            zone = next((z for z, poly in zones.items()
                         if cv2.pointPolygonTest(poly, (float(cx), float(cy)), False) >= 0), None)
            box = (float(x / f), float(y / f), float((x + bw) / f), float((y + bh) / f))
            blobs.append(GoodsBlob(kind, count, box, zone, confidence))
            if zone is not None:
                counts[zone][kind] += count
    return GoodsReading(counts, blobs)
