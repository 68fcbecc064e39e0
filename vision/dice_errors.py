"""Where a dice reading goes wrong, die by die: the breakdown behind an F1 figure (bench and tests).

Each true die is `right` (a reading's box overlaps it with IoU >= 0.5 and says its face), `face wrong` (the box is
right, the face is not), `box off` (a reading is on it, IoU 0.1-0.5: the die was found, its box missed), or
`not found`. Each reading on no die is `extra` (a reading whose box is right but which lost the match to a surer
reading on the same die is `extra` too: a double).
"""
from __future__ import annotations

from collections import Counter

from .detections import Box, DieDetection, iou


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
