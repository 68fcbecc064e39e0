"""The D6 pip reader: a photo in, every die's face, box and confidence out.

Three small networks (vision/training/model.py, trained by vision/training/train_dice.py, train_reader.py and
train_faces.py) run through OpenCV's own DNN module from ONNX files: no heavy runtime in the app. The finder gives,
on a grid of 8-pixel cells, how likely a die's centre is there, its box size and the centre's offset; the reader
places each found die from a 40x40 crop of the full-resolution photo, or says it is no die after all; the face net
reads the placed die's face from a tight 48x48 crop. A die's raw score is the finder's and the face net's together;
the confidence reported is what such a score has been worth: the share of readings that sure, on photos the nets
never saw, that were a die showing that face (the card's `confidence_map`, vision/training/dice_confidence.py).
The thresholds and the map live beside the weights (dice.json): they are data.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from firmware_bridge import strictjson

from .detections import DieDetection, iou

MODELS = Path(__file__).resolve().parent / "models"
DEFAULT_MODEL = MODELS / "dice"          # dice.onnx (finder), dice_reader.onnx (reader), dice.json (card)
CROP = 48                                # the face net's crop side (the card's face_side)
CROP_MARGIN = 1.15                       # the crop is a little larger than the box: the die's edges are in it
READ_SIDE = 40                           # the reader's crop: 40x40 pixels, 1.6 times the found box's side, so the
READ_MARGIN = 1.6                        # whole die is in view even when the finder's box is off
QUARTER_TURNS = (0, 2, 1, 3)             # the turns a die is read at, in this order (2: upright, upside down)
# A reading whose middle lies in a bigger reading's box, at under NESTED_SIDE of its side, is a pip of that die or
# a die in a box drawn round several: pips are 0.15-0.47 of a die, the dice in such a box 0.16-0.25 of it. The
# big box is the odd one out when it is over CLUSTER_SIDE times the side of the readings outside it (no labelled
# die is over 1.67 times its photo's median die).
NESTED_SIDE = 0.6
CLUSTER_SIDE = 2.0
SAME_SIZE = 2.5     # the finder's closer look stands when its dice are within this factor of the first look's size
                    # (a table of tiles scaled up read as dice five times the size)
FAIRLY_SURE = 0.3   # a finder's candidate this sure counts in the dice's size
FARTHER_BIGGER = 2.0    # the farther look adds candidates at least this many times the first look's dice: a die
                        # held close, whose pips (0.15-0.47 of it) the first look took for dice


class DiceModelError(ValueError):
    """The dice model's files cannot be used; one line saying which and why."""


@dataclass(frozen=True)
class DiceModelCard:
    """How to feed and read the network; written by the training script beside the weights."""
    input_side: int = 640          # the photo is scaled so its longer side is this many pixels
    stride: int = 8
    min_peak: float = 0.25         # a cell's centre score must reach this for the die to be looked at
    min_confidence: float = 0.35   # a die is reported when its raw score, √(centre score) x face probability,
                                   # reaches this
    max_dice: int = 100
    size_pull: float = 0.5         # each box's side is pulled this far (in log) toward the photo's median die side
    turns: int = 1                 # the face net reads each die at this many quarter turns and averages
    placements: int = 2            # the reader places each die this many times, each from its last box
    no_die: float = 0.5            # a candidate the reader calls "not a die" this surely is dropped
    same_peak: float = 0.5         # two of the finder's peaks whose boxes overlap by this IoU are one candidate
    same_die: float = 0.6          # two candidates the reader placed with this IoU are one die: the surer stands
    look_again: float = 1.0        # a die is placed again only when its first look moved its box (IoU below this;
                                   # 1.0: unless it left it exactly, which a second look would repeat; docs/vision.md)
    face_side: int = CROP          # the face net reads crops this many pixels square
    least_side: float = 0.63       # a reading whose box side is under this share of the photo's median die side is
                                   # a speck, not a die (in the 200 labelled photos no die is under 0.64 of its throw's)
    closer_below: float = 26.0     # when the found dice's median side is under this many of the finder's pixels
    closer_side: float = 38.0      # (0: never), it looks again with the photo scaled so they are closer_side, as
    max_input_side: int = 1920     # in the shared photos (median 38), but never past max_input_side
    farther_side: int = 224        # the finder also looks at the photo scaled to this side, for dice held close
                                   # (0: never; docs/vision.md, Close-ups)
    confidence_map: tuple = ()     # (raw score, share right) knots, raw rising: the confidence reported for a raw
                                   # score, read between the knots (none: the raw score itself)

    def confidence(self, raw: float) -> float:
        """The confidence reported for a reading of this raw score."""
        if not self.confidence_map:
            return raw
        xs, ys = zip(*self.confidence_map)
        return float(np.interp(raw, xs, ys))

    @classmethod
    def load(cls, path: Path) -> "DiceModelCard":
        try:
            data = strictjson.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, UnicodeDecodeError, strictjson.JSONInputError) as err:
            raise DiceModelError(f"{path}: the dice model card cannot be read ({err})") from None
        if not isinstance(data, dict):
            raise DiceModelError(f"{path}: the dice model card is not a JSON object")
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data and k != "confidence_map"}
        try:
            card = cls(**{k: type(getattr(cls, k))(v) for k, v in known.items()})
        except (TypeError, ValueError):
            raise DiceModelError(f"{path}: the dice model card has a value that is not a number") from None
        if data.get("confidence_map", []) == []:    # no map (train_reader writes an empty one): the raw score
            return card
        knots = _knots(data["confidence_map"])
        if knots is None:
            raise DiceModelError(f"{path}: the dice model card's confidence_map is not a list of [raw score, share "
                                 "right] pairs between 0 and 1, the scores rising and the shares never falling")
        return replace(card, confidence_map=knots)


def _knots(value) -> tuple | None:
    """A card's confidence_map as a tuple of (raw, share) pairs, or None when it is not a usable one."""
    if not isinstance(value, list) or not 2 <= len(value) <= 1000:
        return None
    knots = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(v) in (int, float) for v in pair)):
            return None
        raw, share = float(pair[0]), float(pair[1])
        if not (0.0 <= raw <= 1.0 and 0.0 <= share <= 1.0):
            return None
        if knots and (raw <= knots[-1][0] or share < knots[-1][1]):
            return None
        knots.append((raw, share))
    return tuple(knots)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def find(out: np.ndarray, card: DiceModelCard, scale: float) -> list[tuple[tuple[float, float, float, float], float]]:
    """(box in photo pixels, centre score) of every candidate die in the finder's output (5 x H/8 x W/8) for a
    photo scaled by `scale`, surest first, two peaks on one die merged."""
    heat = _sigmoid(out[0])
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= card.min_peak)
    ys, xs = np.nonzero(peaks)
    s = card.stride
    w = np.exp(np.clip(out[1, ys, xs], -3, 5)) * s
    h = np.exp(np.clip(out[2, ys, xs], -3, 5)) * s
    cx = (xs + out[3, ys, xs]) * s
    cy = (ys + out[4, ys, xs]) * s
    score = heat[ys, xs]
    side = np.sqrt(w * h)
    sure = side[score >= max(card.min_peak, FAIRLY_SURE)]
    if len(sure) and card.size_pull > 0:
        # The dice of one throw are much the same size and the finder's size is its noisiest guess: each side is
        # pulled toward the median of the surer dice (a die twice the others' size keeps most of its own).
        target = np.exp((1 - card.size_pull) * np.log(side) + card.size_pull * np.log(np.median(sure)))
        w, h = w * target / side, h * target / side
    order = np.argsort(-score, kind="stable")
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)[order] / scale
    # two peaks on one box: the surer one stands (neighbours whose boxes merely come close are both read: the
    # reader places each die and drops doubles afterwards)
    kept = _greedy(_iou_matrix(boxes) > card.same_peak, card.max_dice)
    return [(tuple(float(v) for v in boxes[k]), float(score[order[k]])) for k in kept]


def crop_die(image: np.ndarray, box, angle: float = 0.0, margin: float = CROP_MARGIN, shift=(0.0, 0.0),
             size: int = CROP) -> np.ndarray:
    """The die in `box` cut out as a `size`x`size` square (a little larger than the box, turned by `angle`
    degrees about its middle, moved by `shift` box sides): what the face reader sees."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 1.0) * margin
    cx = (x0 + x1) / 2 + shift[0] * side
    cy = (y0 + y1) / 2 + shift[1] * side
    m = cv2.getRotationMatrix2D((cx, cy), angle, size / side)
    # the box's middle goes to the crop's middle pixel-exactly, so a quarter turn of the crop (np.rot90) is the same
    # crop turned about the same point
    m[0, 2] += (size - 1) / 2 - cx
    m[1, 2] += (size - 1) / 2 - cy
    inter = cv2.INTER_AREA if side > 2 * size else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (size, size), flags=inter, borderMode=cv2.BORDER_REPLICATE)


def _blob(images: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """The networks' input: BGR, (pixel - 127.5) / 255, channels first."""
    return cv2.dnn.blobFromImages(images, 1 / 255.0, mean=(127.5, 127.5, 127.5), swapRB=False)


class DiceReader:
    """Reads dice with one loaded pair of networks. Not thread-safe (cv2.dnn nets are not): one reader per thread."""

    def __init__(self, model: Path | str = DEFAULT_MODEL):
        model = Path(model)
        finder = model.with_suffix(".onnx")
        reader, faces = model.with_name(model.name + "_reader.onnx"), model.with_name(model.name + "_faces.onnx")
        for path in (finder, reader, faces):
            if not path.exists():
                raise FileNotFoundError(f"the dice model is missing: {path}")
        self.finder = cv2.dnn.readNetFromONNX(str(finder))
        self.reader = cv2.dnn.readNetFromONNX(str(reader))
        self.faces = cv2.dnn.readNetFromONNX(str(faces))
        self.card = DiceModelCard.load(model.with_suffix(".json"))

    def prepare(self, image: np.ndarray, side: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """(the photo as 3-channel BGR, the finder's input blob, the scale applied to the photo): its longer side
        scaled to `side` pixels (default: the card's input_side)."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        h, w = image.shape[:2]
        scale = (side or self.card.input_side) / max(h, w)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        small = image
        if (nw, nh) != (w, h):
            small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        pw, ph = -(-nw // 32) * 32, -(-nh // 32) * 32   # the finder halves the size five times
        if (pw, ph) != (nw, nh):
            small = cv2.copyMakeBorder(small, 0, ph - nh, 0, pw - nw, cv2.BORDER_REPLICATE)
        return image, _blob([small]), scale

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, list]:
        image, blob, scale = self.prepare(image)
        self.finder.setInput(blob)
        found = find(self.finder.forward()[0], self.card, scale)
        # Dice far smaller than the finder was taught (a whole table in a phone's photo): it looks again with the
        # photo scaled up, so that they are about closer_side pixels. What it finds there stands only when it is
        # the same size of dice: a table's pattern scaled up (tiles) can look like dice of its own size.
        side = self.closer_side(found, scale)
        if side:
            _image, blob, closer = self.prepare(image, side)
            self.finder.setInput(blob)
            again = find(self.finder.forward()[0], self.card, closer)
            first, second = _dice_side(found), _dice_side(again)
            if second is not None and 1 / SAME_SIZE < second / first < SAME_SIZE:
                # small dice: no farther look (seen smaller, a far table's tray was taken for a die, and the
                # dice in it for its pips)
                return image, again
        return image, found + self.farther(image, found)

    def farther(self, image: np.ndarray, found: list) -> list:
        """What a look at the photo scaled down to the card's farther_side adds to the first look's candidates
        `found`: its fairly sure candidates at least FARTHER_BIGGER times the first look's dice (all of them when
        it found none). A phone held close makes a die 100-250 px at 640 and its pips the size of usual dice: the
        first look takes the pips for dice and may miss the die; seen smaller, the die is a die. The reader and the
        face net judge the added candidates like any other, and a die holding its read pips keeps the die
        (_pips_or_cluster). At 224 px the shared photos' dice are ~13 px, too small for two or three touching
        ones to be taken for one big die (at 160-192 px they were, and their dice went)."""
        card = self.card
        if not 0 < card.farther_side < card.input_side:
            return []
        _image, blob, scale = self.prepare(image, card.farther_side)
        self.finder.setInput(blob)
        first = _dice_side(found)
        far = [(b, s) for b, s in find(self.finder.forward()[0], card, scale) if s >= FAIRLY_SURE]
        if first is None or not far:
            return far
        sides = _sides_and_middles_inside([b for b, _s in far])[0]
        return [c for c, side in zip(far, sides) if side >= FARTHER_BIGGER * first]

    def closer_side(self, found: list, scale: float) -> int:
        """The finder's input side for a second, closer look at these candidates (0: none needed)."""
        card = self.card
        dice = _dice_side(found)
        if not dice or card.closer_below <= 0 or dice * scale >= card.closer_below:
            return 0
        side = min(card.max_input_side, round(card.input_side * card.closer_side / (dice * scale)))
        return side if side >= 1.25 * card.input_side else 0

    def look(self, image: np.ndarray, boxes: list, turns: int = 1) -> tuple[np.ndarray, list]:
        """(softmax over faces 1-6 and "not a die", the die's own box) for each box, from 40x40 crops of the
        full-resolution photo 1.6 times the box's side; with `turns` > 1 the crop is also read turned by quarter
        turns and the readings averaged (a die reads the same turned; the net's quirks do not)."""
        if not boxes:
            return np.zeros((0, 7), np.float32), []
        crops = [crop_die(image, b, margin=READ_MARGIN, size=READ_SIDE) for b in boxes]
        probs = np.zeros((len(boxes), 7), np.float32)
        where = np.zeros((len(boxes), 3), np.float32)
        for k in QUARTER_TURNS[:turns]:
            self.reader.setInput(_blob([np.ascontiguousarray(np.rot90(c, k)) for c in crops]))
            out = self.reader.forward().reshape(len(boxes), -1)
            logits = out[:, :7] - out[:, :7].max(1, keepdims=True)
            p = np.exp(logits)
            probs += p / p.sum(1, keepdims=True) / turns
            # the net's offset is in the turned crop: turn it back (np.rot90 turns counter-clockwise on screen)
            a = np.radians(90.0 * k)
            dx, dy = out[:, 7], out[:, 8]
            where[:, 0] += (np.cos(a) * dx - np.sin(a) * dy) / turns
            where[:, 1] += (np.sin(a) * dx + np.cos(a) * dy) / turns
            where[:, 2] += out[:, 9] / turns
        placed = []
        for b, (dx, dy, log_side) in zip(boxes, where):
            crop_side = max(b[2] - b[0], b[3] - b[1], 1.0) * READ_MARGIN
            cx, cy = (b[0] + b[2]) / 2 + dx * crop_side, (b[1] + b[3]) / 2 + dy * crop_side
            half = crop_side * float(np.exp(np.clip(log_side, -2.0, 0.5))) / 2
            placed.append((float(cx - half), float(cy - half), float(cx + half), float(cy + half)))
        return probs, placed

    def face_probabilities(self, image: np.ndarray, boxes: list, turns: int = 1) -> np.ndarray:
        """Softmax over (faces 1-6, not a die) for each placed box, from tight square crops of the full-resolution
        photo (1.15 times the box; the card's face_side pixels), averaged over `turns` quarter turns of the crop."""
        if not boxes:
            return np.zeros((0, 7), np.float32)
        crops = [crop_die(image, b, size=self.card.face_side) for b in boxes]
        probs = np.zeros((len(boxes), 7), np.float32)
        for k in QUARTER_TURNS[:turns]:
            self.faces.setInput(_blob([np.ascontiguousarray(np.rot90(c, k)) for c in crops]))
            logits = self.faces.forward().reshape(len(boxes), -1)
            p = np.exp(logits - logits.max(1, keepdims=True))
            probs += p / p.sum(1, keepdims=True) / turns
        return probs

    def read(self, image: np.ndarray, min_confidence: float | None = None) -> list[DieDetection]:
        """Every die found in a BGR photo, surest first; `min_confidence` (default: the card's) is on the raw score."""
        image, found = self.candidates(image)
        threshold = self.card.min_confidence if min_confidence is None else min_confidence
        # the reader places each candidate's die and drops what it is sure is no die; each net reading costs about
        # half a millisecond a crop, so a crowded tray is kept cheap: candidates it placed on one die go on as one,
        # and only a die whose box the first look moved is looked at again, from its own box (those it left where
        # it was read no better a second time)
        starts = [b for b, _ in found]
        probs, boxes = self.look(image, starts)
        keep = _one_per_die([i for i, p in enumerate(probs) if p[6] < self.card.no_die], boxes, self.card.same_die)
        found, boxes, starts = [found[i] for i in keep], [boxes[i] for i in keep], [starts[i] for i in keep]
        for _ in range(self.card.placements - 1):
            moved = [i for i, (a, b) in enumerate(zip(starts, boxes)) if iou(a, b) < self.card.look_again]
            if not moved:
                break
            starts = list(boxes)
            _p, again = self.look(image, [boxes[i] for i in moved])
            for i, box in zip(moved, again):
                boxes[i] = box
        # the face net reads each placed die from a tight crop, upright and turned
        probs = self.face_probabilities(image, boxes, turns=self.card.turns)
        dice = []
        for (_b, score), p, box in zip(found, probs, boxes):
            face = int(p[:6].argmax())
            dice.append((box, float(np.sqrt(score) * p[face]), face + 1))
        sure = _like_sized(_pips_or_cluster(_surest_apart(dice, threshold)), self.card.least_side)
        return [DieDetection(face, box, self.card.confidence(raw)) for box, raw, face in sure]


def _iou_matrix(boxes: list) -> np.ndarray:
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    ix = np.clip(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area[:, None] + area[None, :] - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)


def _greedy(clash: np.ndarray, most: int | None = None) -> list[int]:
    """Indices 0, 1, … (surest first) kept greedily: one is dropped when it clashes with one kept before it."""
    kept: list[int] = []
    for k in range(len(clash)):
        if most is not None and len(kept) >= most:
            break
        if not kept or not clash[k, kept].any():
            kept.append(k)
    return kept


def _one_per_die(order: list[int], boxes: list, same: float) -> list[int]:
    """Of the candidates `order` (surest first), those whose placed box does not overlap an earlier kept one's by
    IoU > `same` (the finder's peaks merge only when its own boxes overlap; placed, two peaks on one die meet)."""
    if not order:
        return order
    return [order[k] for k in _greedy(_iou_matrix([boxes[i] for i in order]) > same)]


def _surest_apart(readings: list[tuple], threshold: float) -> list[tuple]:
    """The readings (box, confidence, …) that reach `threshold`, surest first, less sure ones on the same die dropped
    (two candidates that led to one die: boxes overlapping, or middles closer than half a die)."""
    sure = sorted((r for r in readings if r[1] >= threshold), key=lambda r: -r[1])
    if not sure:
        return []
    b = np.asarray([r[0] for r in sure], np.float64)
    side = np.minimum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    middle = (b[:, :2] + b[:, 2:]) / 2
    apart = np.hypot(*(middle[:, None, :] - middle[None, :, :]).transpose(2, 0, 1))
    clash = (_iou_matrix(b) > 0.4) | (apart < 0.5 * np.minimum(side[:, None], side[None, :]))
    return [sure[k] for k in _greedy(clash)]


def _dice_side(found: list) -> float | None:
    """The median side of the candidates the finder is fairly sure of (score 0.3), leaving out those inside a
    bigger one (in a close-up the finder also finds a big die's pips; they are not the dice's size)."""
    boxes = [b for b, score in found if score >= FAIRLY_SURE]
    if not boxes:
        return None
    sides, holds = _sides_and_middles_inside(boxes)
    pips = (holds & (sides[None, :] < NESTED_SIDE * sides[:, None])).any(0)
    return float(np.median(sides[~pips]))


def _sides_and_middles_inside(boxes) -> tuple[np.ndarray, np.ndarray]:
    """Each box's side (√ of its area), and [i, j]: whether box j's middle lies inside box i (never a box itself)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    side = np.sqrt(np.clip(b[:, 2] - b[:, 0], 0, None) * np.clip(b[:, 3] - b[:, 1], 0, None))
    middle = (b[:, :2] + b[:, 2:]) / 2
    holds = ((b[:, None, 0] < middle[None, :, 0]) & (middle[None, :, 0] < b[:, None, 2])
             & (b[:, None, 1] < middle[None, :, 1]) & (middle[None, :, 1] < b[:, None, 3]))
    np.fill_diagonal(holds, False)
    return side, holds


def _pips_or_cluster(readings: list[tuple]) -> list[tuple]:
    """The readings (box, …) left when one holds smaller ones (their middles in its box, their side under
    NESTED_SIDE of its): either a big die whose pips were read as dice (a phone held close), and the small ones go;
    or a box drawn round a cluster of dice, over CLUSTER_SIDE times the side of the readings outside it, and the big
    one goes. Biggest first, so a die's pips go before that die is weighed inside a cluster."""
    if len(readings) < 2:
        return readings
    side, holds = _sides_and_middles_inside([r[0] for r in readings])
    gone = np.zeros(len(readings), bool)
    for j in np.argsort(-side, kind="stable"):
        if gone[j]:
            continue
        inside = holds[j] & ~gone & (side < NESTED_SIDE * side[j])
        if not inside.any():
            continue
        outside = ~holds[j] & ~gone
        outside[j] = False
        if outside.any() and side[j] > CLUSTER_SIDE * np.median(side[outside]):
            gone[j] = True
        else:
            gone |= inside
    return [r for r, g in zip(readings, gone) if not g]


def _like_sized(readings: list[tuple], least: float) -> list[tuple]:
    """The readings (box, …) whose side is at least `least` times the median side of them all: the dice of one
    throw are about one size, so a much smaller reading is a speck or a pip-like dot on the table."""
    if len(readings) < 2 or least <= 0:
        return readings
    side = np.asarray([np.sqrt(max(r[0][2] - r[0][0], 0) * max(r[0][3] - r[0][1], 0)) for r in readings])
    return [r for r, s in zip(readings, side) if s >= least * np.median(side)]


@lru_cache(maxsize=1)
def default_reader() -> DiceReader:
    return DiceReader()


def read_dice(image: np.ndarray) -> list[DieDetection]:
    """The recogniser as a function: BGR photo → dice (with the committed model)."""
    return default_reader().read(image)
