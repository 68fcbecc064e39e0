"""What recognisers return: small frozen values with a confidence, in the photo's pixels."""
from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]   # x0, y0, x1, y1 in pixels


@dataclass(frozen=True)
class DieDetection:
    """A six-sided die showing `face` pips, inside `box`; `confidence` 0-1 that both are right."""
    face: int
    box: Box
    confidence: float

    def to_json(self) -> dict:
        return {"face": self.face, "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3)}


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def right_readings(found: list[DieDetection], truth: list[tuple[int, Box]], min_iou: float = 0.5) -> list[bool]:
    """For each detection, in the order given: does it count? It does when its box overlaps a truth not yet taken
    with IoU >= `min_iou` and its face is right; the surest detections take their truth first."""
    used = set()
    right = [False] * len(found)
    for k in sorted(range(len(found)), key=lambda k: -found[k].confidence):
        best, best_iou = None, min_iou
        for i, (face, box) in enumerate(truth):
            if i in used or face != found[k].face:
                continue
            o = iou(found[k].box, box)
            if o >= best_iou:
                best, best_iou = i, o
        if best is not None:
            used.add(best)
            right[k] = True
    return right


def match_dice(found: list[DieDetection], truth: list[tuple[int, Box]], min_iou: float = 0.5) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) as `right_readings` counts them."""
    tp = sum(right_readings(found, truth, min_iou))
    return tp, len(found) - tp, len(truth) - tp


def f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0
