"""Where a dice reading goes wrong, die by die: the breakdown behind an F1 figure (bench and tests); and the
close-up and far-away views of a labelled photo, and the rendered close-ups, both measure on.

Each true die is `right` (a reading's box overlaps it with IoU >= 0.5 and says its face), `face wrong` (the box is
right, the face is not), `box off` (a reading is on it, IoU 0.1-0.5: the die was found, its box missed), or
`not found`. Each reading on no die is `extra` (a reading whose box is right but which lost the match to a surer
reading on the same die is `extra` too: a double).
"""
from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from .detections import Box, DieDetection, iou
from .render.dice import render_dice


def breakdown(found: list[DieDetection], truth: list[tuple[int, Box]], min_iou: float = 0.5) -> Counter:
    out = Counter()
    used: set[int] = set()
    matched: dict[int, DieDetection] = {}
    for det in sorted(found, key=lambda d: -d.confidence):       # box first, as match_dice but ignoring the face
        best, best_iou = None, min_iou
        for i, (_face, box) in enumerate(truth):
            if i not in used and iou(det.box, box) >= best_iou:
                best, best_iou = i, iou(det.box, box)
        if best is None:
            out["extra"] += 1
        else:
            used.add(best)
            matched[best] = det
    for i, (face, box) in enumerate(truth):
        if i in matched:
            out["right" if matched[i].face == face else "face wrong"] += 1
        elif any(iou(d.box, box) >= 0.1 for d in found):
            out["box off"] += 1
        else:
            out["not found"] += 1
    return out


def wholly_inside(box: Box, shape: tuple, edge: float = 2.0) -> bool:
    """Whether a box lies wholly inside a picture of `shape` (a die cut by the edge is neither counted nor missed)."""
    return box[0] >= edge and box[1] >= edge and box[2] <= shape[1] - edge and box[3] <= shape[0] - edge


def zoomed(img: np.ndarray, truth: list[tuple[int, Box]], side: float) -> tuple[np.ndarray, list[tuple[int, Box]]]:
    """A close-up of a labelled photo, as a phone held close would take it: the photo scaled so that its median die
    is `side` px, a 640x640 window around its first die, and the truth of the dice wholly inside the window."""
    f = side / float(np.median([np.sqrt((b[2] - b[0]) * (b[3] - b[1])) for _f, b in truth]))
    big = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC if f > 1 else cv2.INTER_AREA)
    b0 = truth[0][1]
    x0 = int(np.clip((b0[0] + b0[2]) / 2 * f - 320, 0, max(0, big.shape[1] - 640)))
    y0 = int(np.clip((b0[1] + b0[3]) / 2 * f - 320, 0, max(0, big.shape[0] - 640)))
    win = big[y0:y0 + 640, x0:x0 + 640]
    boxes = [(face, (b[0] * f - x0, b[1] * f - y0, b[2] * f - x0, b[3] * f - y0)) for face, b in truth]
    return win, [(face, b) for face, b in boxes if wholly_inside(b, win.shape)]


def far_away(img: np.ndarray, truth: list[tuple[int, Box]], times: float,
             rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[int, Box]]]:
    """A labelled photo as a camera `times` as far away would take it, its pixels kept: the photo laid at a random
    place on a table `times` its size (the photo's median colour, with grain), so its dice are `times` smaller
    against the picture's side."""
    h, w = img.shape[:2]
    big_h, big_w = round(h * times), round(w * times)
    table = np.median(img.reshape(-1, img.shape[2]), 0)
    out = np.clip(table + rng.normal(0, 6, (big_h, big_w, img.shape[2])), 0, 255).astype(np.uint8)
    y0, x0 = int(rng.integers(0, big_h - h + 1)), int(rng.integers(0, big_w - w + 1))
    out[y0:y0 + h, x0:x0 + w] = img
    return out, [(face, (b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0)) for face, b in truth]


def close_ups(seed: int, count: int, sides: tuple[float, float] = (110.0, 220.0),
              most: int = 5) -> list[tuple[np.ndarray, list[tuple[int, Box]]]]:
    """`count` rendered close-ups, as a phone held close would take them, on the tables the nets are never taught
    (tiles and paper): 1 to `most` dice of `sides` px in a 640x640 photo, with the truth of the dice wholly inside it
    (a die cut by the edge is neither counted nor missed: read them without the readings cut by the edge)."""
    rng = np.random.default_rng(seed)
    items = []
    for _ in range(count):
        img, truths = render_dice(rng, (640, 640), tables=("tiles", "paper"), n=int(rng.integers(1, most + 1)),
                                  side=rng.uniform(*sides))
        items.append((img, [(d.face, d.box) for d in truths if wholly_inside(d.box, img.shape)]))
    return items
