"""Symbol dice (the Obscurians henchmen dice): taught from one or two photos of each face, then read.

Finding: a die is a square-ish blob that differs from the table under it (the table is a median far larger than
a die). Reading: the die is cut out upright (to the nearest quarter turn of its edges) and its symbol is separated
from its body by colour distance (whatever the dice's colours and the light); the symbol's mask is compared with
every taught mask at every 10° turn and a few pixels' shift (normalised correlation), so the turn of the die, the
light and the dice's colours do not matter. The confidence is high only when one face is clearly better than the
others.

Teaching (`teach`): one photo per face (two are better: a second light or angle), each showing that face up;
the largest die in each photo is learnt.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from firmware_bridge import strictjson

from .imageio import read_image

SIDE = 48          # the symbol mask's size
VERSION = 1
TURNS = range(0, 360, 10)


class SymbolSetError(ValueError):
    """A taught set or teach folder that cannot be used; one line for a player."""


@dataclass(frozen=True)
class SymbolDie:
    face: str | None           # None: a die, but no taught face fits
    box: tuple[float, float, float, float]
    confidence: float

    def to_json(self) -> dict:
        return {"face": self.face, "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3)}


def _local_table(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    f = 64 / max(h, w)
    small = cv2.resize(image, (max(9, round(w * f)), max(9, round(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 9), (w, h), interpolation=cv2.INTER_LINEAR)


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


def find_dice(image: np.ndarray, min_side: int = 18) -> list[np.ndarray]:
    """The rotated rectangles ((cx, cy), (w, h), angle) of square blobs that stand out from the table."""
    local = _local_table(image)
    lab, table = _lab(image), _lab(local)
    d = lab - table
    dist = np.sqrt((d[..., 0] * 0.6) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    # the table in a shadow, or in the bright and dark of its grain, keeps its colour (the same share of blue,
    # green and red) and only changes in brightness: not a die
    f = image.astype(np.float32) + 1
    t = local.astype(np.float32) + 1
    bright_f, bright_t = f.sum(2), t.sum(2)
    same_colour = np.abs(f / bright_f[..., None] - t / bright_t[..., None]).max(2) < 0.03
    ratio = bright_f / bright_t
    table_like = same_colour & (ratio > 0.55) & (ratio < 1.35)
    mask = ((dist > 18) & ~table_like).astype(np.uint8) * 255
    # an open wider than a table's grain or stripes and narrower than a die; a close mends the die's symbol
    k = max(3, (min_side // 3) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_side * min_side:
            continue
        rect = cv2.minAreaRect(c)
        (w, h) = rect[1]
        if min(w, h) < min_side or max(w, h) / max(min(w, h), 1) > 1.35:
            continue
        hull = cv2.contourArea(cv2.convexHull(c))
        if hull <= 0 or area / hull < 0.8 or area / (w * h) < 0.7:
            continue
        rects.append(_refine(image, rect) or rect)
    return rects


def _refine(image: np.ndarray, rect):
    """The die's own outline inside a blob that may have caught a stripe of the table or a shadow: the pixels of
    the die's body colour, holes (its symbol) filled, the largest piece."""
    (cx, cy), (w, h), _a = rect
    r = int(max(w, h) * 0.75) + 2
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    crop = image[y0:int(cy) + r, x0:int(cx) + r]
    if crop.size == 0:
        return None
    lab = _lab(crop)
    ch, cw = lab.shape[:2]
    # the body's colour: a square ring inside the die's edge and outside its symbol, around the blob's middle
    side = min(w, h)
    yy, xx = np.mgrid[0:ch, 0:cw]
    off = np.maximum(np.abs(xx - (cx - x0)), np.abs(yy - (cy - y0)))
    ring = (off > 0.36 * side) & (off < 0.44 * side)
    if ring.sum() < 8:
        return None
    body = np.median(lab[ring], axis=0)
    d = lab - body
    near = (np.sqrt((d[..., 0] * 0.6) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) < 25).astype(np.uint8) * 255
    contours, _ = cv2.findContours(near, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    (nx, ny), (nw, nh), na = cv2.minAreaRect(c)
    if min(nw, nh) < 0.6 * min(w, h) or max(nw, nh) / max(min(nw, nh), 1) > 1.3:
        return None          # not clearly better: keep the blob
    return ((nx + x0, ny + y0), (nw, nh), na)


def symbol_mask(image: np.ndarray, rect) -> np.ndarray:
    """The die in `rect` cut out upright and its symbol as a float mask (SIDE x SIDE, 1 = ink)."""
    (cx, cy), (w, h), angle = rect
    side = (w + h) / 2
    big = SIDE * 2
    m = cv2.getRotationMatrix2D((cx, cy), angle, big / side)
    m[0, 2] += big / 2 - cx
    m[1, 2] += big / 2 - cy
    crop = cv2.warpAffine(image, m, (big, big), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    lab = _lab(crop)
    k = big // 8
    ring = np.concatenate([lab[k:2 * k, k:-k].reshape(-1, 3), lab[-2 * k:-k, k:-k].reshape(-1, 3),
                           lab[k:-k, k:2 * k].reshape(-1, 3), lab[k:-k, -2 * k:-k].reshape(-1, 3)])
    body = np.median(ring, axis=0)
    d = lab - body
    dist = np.sqrt((d[..., 0] * 0.7) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    inner = dist[k:-k, k:-k]
    scaled = np.clip(inner * (255.0 / max(float(inner.max()), 1.0)), 0, 255).astype(np.uint8)
    _t, ink = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    if inner.max() < 25:            # nothing printed stands out: a blank or unreadable face
        ink[:] = 0
    return cv2.resize(ink, (SIDE, SIDE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _turned(mask: np.ndarray, degrees: float) -> np.ndarray:
    m = cv2.getRotationMatrix2D((SIDE / 2 - 0.5, SIDE / 2 - 0.5), degrees, 1.0)
    return cv2.warpAffine(mask, m, (SIDE, SIDE), flags=cv2.INTER_LINEAR)


def turns(template: np.ndarray) -> list[np.ndarray]:
    """The template at every turn (worked out once per taught set)."""
    return [t for t in (_turned(template, deg) for deg in TURNS) if t.std() > 1e-3]


def similarity(candidate: np.ndarray, turned: list[np.ndarray]) -> float:
    """Best normalised correlation of the candidate's symbol with a template at any turn and a small shift."""
    padded = cv2.copyMakeBorder(candidate, 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=0)
    if padded.std() < 1e-3:
        return -1.0
    return max((float(cv2.matchTemplate(padded, t, cv2.TM_CCOEFF_NORMED).max()) for t in turned), default=-1.0)


@dataclass
class SymbolSet:
    faces: dict[str, list[np.ndarray]]

    def __post_init__(self):
        self.turned = {name: [turns(m) for m in masks] for name, masks in self.faces.items()}

    def save(self, path: str | Path) -> None:
        data = {"version": VERSION, "side": SIDE, "faces": {
            name: [base64.b64encode(cv2.imencode(".png", (m * 255).astype(np.uint8))[1].tobytes()).decode()
                   for m in masks] for name, masks in self.faces.items()}}
        Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "SymbolSet":
        p = Path(path)
        try:
            data = strictjson.loads(p.read_text(encoding="utf-8"))
            if data.get("version") != VERSION or data.get("side") != SIDE:
                raise SymbolSetError(f"{p}: not a symbol set of this app")
            faces = {}
            for name, masks in dict(data["faces"]).items():
                decoded = []
                for m in masks:
                    img = cv2.imdecode(np.frombuffer(base64.b64decode(m, validate=True), np.uint8),
                                       cv2.IMREAD_GRAYSCALE)
                    if img is None or img.shape != (SIDE, SIDE):
                        raise SymbolSetError(f"{p}: the face {name!r} is damaged")
                    decoded.append(img.astype(np.float32) / 255.0)
                if not decoded:
                    raise SymbolSetError(f"{p}: the face {name!r} has no picture")
                faces[str(name)] = decoded
        except SymbolSetError:
            raise
        except FileNotFoundError:
            raise SymbolSetError(f"{p}: no such symbol set") from None
        except strictjson.JSONInputError as err:
            raise SymbolSetError(f"{p}: not a symbol set ({err})") from None
        except (OSError, UnicodeDecodeError, RecursionError, KeyError, TypeError, ValueError,
                AttributeError, cv2.error):
            raise SymbolSetError(f"{p}: not a symbol set (bad file)") from None
        if len(faces) < 2:
            raise SymbolSetError(f"{p}: a symbol set needs at least two faces")
        return cls(faces)


def teach(photos: dict[str, list[np.ndarray]]) -> SymbolSet:
    """Learns each face from its photos (the largest die in each)."""
    faces = {}
    for name, images in photos.items():
        masks = []
        for img in images:
            rects = find_dice(img)
            if not rects:
                raise SymbolSetError(f"no die found in the photo of {name!r}: one die, face up, on a plain table")
            rect = max(rects, key=lambda r: r[1][0] * r[1][1])
            m = symbol_mask(img, rect)
            if m.mean() < 0.01:
                raise SymbolSetError(f"the photo of {name!r} shows no symbol on the die")
            masks.append(m)
        faces[name] = masks
    if len(faces) < 2:
        raise SymbolSetError("teach at least two faces")
    return SymbolSet(faces)


def teach_from_folder(folder: str | Path) -> SymbolSet:
    """A folder of photos named FACE.jpg or FACE-1.jpg, FACE-2.jpg (any image type)."""
    p = Path(folder)
    if not p.is_dir():
        raise SymbolSetError(f"{p}: not a folder")
    photos: dict[str, list[np.ndarray]] = {}
    for f in sorted(p.iterdir()):
        if f.suffix.lower() not in (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"):
            continue
        name = f.stem.rsplit("-", 1)[0] if f.stem.rsplit("-", 1)[-1].isdigit() else f.stem
        photos.setdefault(name, []).append(read_image(f))
    return teach(photos)


def read_symbol_dice(image: np.ndarray, symbol_set: SymbolSet, min_margin: float = 0.08) -> list[SymbolDie]:
    """Every symbol die in a BGR photo with its face (None when no taught face fits well)."""
    out = []
    for rect in find_dice(image):
        mask = symbol_mask(image, rect)
        scores = {name: max(similarity(mask, t) for t in turned) for name, turned in symbol_set.turned.items()}
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        (best, s1), s2 = ranked[0], ranked[1][1]
        confidence = float(np.clip((s1 - 0.4) / 0.4, 0, 1) * np.clip((s1 - s2) / (2 * min_margin), 0, 1))
        pts = cv2.boxPoints(rect)
        box = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
        out.append(SymbolDie(best if s1 - s2 >= min_margin / 2 and s1 > 0.4 else None, box, confidence))
    return out
