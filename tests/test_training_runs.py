"""The training runs' shared start (vision/training/runs.py), read without torch: the folds are five contiguous
blocks of the photos in name order (neighbouring photos show the same dice, so a random split would flatter), a
fold's photos are held out and never trained on, and with no fold every photo is trained on."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.training.runs import FOLDS, load_photos, split


@pytest.fixture
def photos(tmp_path):
    labels = {}
    for i in (7, 3, 12, 0, 9, 1, 6, 5, 11, 2, 8, 4, 10):       # written out of order: the runs read them by name
        name = f"p{i:02d}.png"
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), i, np.uint8))
        labels[name] = [{"face": 1 + i % 6, "box": [1, 1, 5, 5]}]
    (tmp_path / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return load_photos(tmp_path)


def test_the_photos_are_read_in_name_order_with_their_labels(photos):
    assert [name for name, _img, _truth in photos] == [f"p{i:02d}.png" for i in range(13)]
    assert all(int(img[0, 0, 0]) == i and truth == [(1 + i % 6, (1, 1, 5, 5))]
               for i, (_name, img, truth) in enumerate(photos))


def test_each_fold_holds_out_one_contiguous_block_and_trains_on_the_rest(photos):
    order = [name for name, _img, _truth in photos]
    held_out = []
    for fold in range(FOLDS):
        trained, held = split(photos, fold)
        indices = [order.index(name) for name, _img, _truth in held]
        assert held and indices == list(range(indices[0], indices[0] + len(indices)))
        assert sorted(order.index(name) for name, _img, _truth in trained + held) == list(range(len(photos)))
        held_out += indices
    assert held_out == list(range(len(photos)))                # the blocks, in order, cover every photo once


def test_with_no_fold_every_photo_is_trained_on(photos):
    trained, held = split(photos, None)
    assert [name for name, _img, _truth in trained] == [name for name, _img, _truth in photos] and held == []
