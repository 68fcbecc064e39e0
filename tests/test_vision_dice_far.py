"""Dice far away (issue 19 §2: "a phone camera nobody here has seen"): a phone's photo of a whole table holds its
dice at 2-3 % of its width, 13-19 px once the finder has scaled it to 640, near the least it was taught (12 px).
The reader then looks again with the photo scaled so that the dice are about 38 px (DiceModelCard.closer_below,
closer_side), from the photo's own pixels.

- The shared photos held out, laid on a table three times their size (vision/dice_errors.far_away): read far
  better with the second look than without.
- A rendered high-resolution photo of small crisp dice on tables the nets never saw (read well either way): the
  closer look costs nothing, though one table's tiles, scaled up, look like big dice to the finder.
- A close-up, whose big die's pips the finder also finds, is not looked at closer; nor are dice of usual size.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.dice_sets import FOLDS, labelled, tally
from vision.detections import f1
from vision.dice import DiceReader, default_reader
from vision.dice_errors import far_away
from vision.render.dice import render_dice
from vision.training.runs import split

# every 4th held-out photo, three times as far (dice ~13 px at 640), each fold's nets: measured 0.870 with the
# second look, 0.694 without
FAR_FLOOR = 0.84
FAR_GAIN = 0.1
# rendered 1920x1440 photos of crisp dice of 36-48 px (12-16 px at 640), committed model: measured 0.891 with the
# second look, 0.876 without; 0.667 with it when any size it finds stands (SAME_SIZE): on a tiles table scaled up,
# the tiles were taken for dice of their own size
RENDERED_FAR_FLOOR = 0.85


def without_second_look(reader: DiceReader) -> DiceReader:
    reader.card = replace(reader.card, closer_below=0.0)
    return reader


def test_the_shared_photos_from_three_times_as_far():
    photos = [(cv2.imread(str(path)), truth) for path, truth in labelled()]
    far = [[far_away(img, truth, 3.0, np.random.default_rng(100 * fold + k))
            for k, (img, truth) in enumerate(split(photos, fold)[1][::4])] for fold in range(5)]
    scores = {}
    for look_closer in (True, False):
        readers = [DiceReader(FOLDS / str(fold) / "dice") for fold in range(5)]
        if not look_closer:
            readers = [without_second_look(reader) for reader in readers]
        counts = [tally(reader, items) for reader, items in zip(readers, far)]
        scores[look_closer] = f1(*(sum(c) for c in zip(*counts)))
    assert scores[True] >= FAR_FLOOR, scores
    assert scores[True] >= scores[False] + FAR_GAIN, scores


def test_a_high_resolution_photo_of_small_dice_on_a_table_it_never_saw():
    rng = np.random.default_rng(71)
    items = []
    for _ in range(4):
        img, truths = render_dice(rng, (1920, 1440), n=int(rng.integers(6, 16)), side=rng.uniform(36, 48),
                                  tables=("tiles", "paper"))
        items.append((img, [(d.face, d.box) for d in truths]))
    with_look = f1(*tally(default_reader(), items))
    without = f1(*tally(without_second_look(DiceReader()), items))
    assert with_look >= RENDERED_FAR_FLOOR and with_look >= without, (with_look, without)


def _box(cx, cy, side):
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def test_only_small_dice_are_looked_at_closer():
    reader = default_reader()
    pips = [(_box(300 + dx, 300 + dy, 30), 0.9) for dx, dy in ((-50, -50), (50, -50), (0, 0), (-50, 50), (50, 50))]
    die = [(_box(300, 300, 190), 0.6)]
    assert reader.closer_side(pips + die, 1.0) == 0                # a close-up: the die is big, its pips are not dice
    usual = [(_box(100 + 60 * k, 200, 38), 0.8) for k in range(6)]
    assert reader.closer_side(usual, 1.0) == 0                     # dice as the shared photos hold them
    tiny = [(_box(100 + 30 * k, 200, 13), 0.8) for k in range(6)]
    side = reader.closer_side(tiny, 1.0)
    assert side == pytest.approx(640 * 38 / 13, abs=1)             # scaled so that they are about 38 px
    assert reader.closer_side([(_box(100, 100, 2), 0.8)], 1.0) == reader.card.max_input_side   # never past it
    assert reader.closer_side([(_box(100, 100, 10), 0.2)], 1.0) == 0                           # none sure enough
