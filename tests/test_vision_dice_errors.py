"""The bench's breakdown of a dice reading (vision/dice_errors.py): each true die is right, face wrong, box off or not
found, each reading on no die is extra, and a double on one die counts once as the die and once as extra."""
from __future__ import annotations

from vision.detections import DieDetection
from vision.dice_errors import breakdown

TRUTH = [(1, (0, 0, 40, 40)), (2, (100, 0, 140, 40)), (3, (200, 0, 240, 40)), (4, (300, 0, 340, 40))]


def test_each_die_falls_in_one_kind():
    found = [DieDetection(1, (2, 1, 41, 40), 0.9),          # right
             DieDetection(5, (100, 0, 140, 40), 0.9),       # the box is right, the face is not
             DieDetection(3, (215, 15, 255, 55), 0.9),      # on the third die, IoU about 0.36: box off
             DieDetection(6, (500, 500, 540, 540), 0.9)]    # on nothing: extra; the fourth die is not found
    assert breakdown(found, TRUTH) == {"right": 1, "face wrong": 1, "box off": 1, "not found": 1, "extra": 2}


def test_a_double_on_one_die_is_one_die_and_one_extra():
    found = [DieDetection(1, (0, 0, 40, 40), 0.9), DieDetection(1, (1, 1, 41, 41), 0.5)]
    assert breakdown(found, TRUTH[:1]) == {"right": 1, "extra": 1}
