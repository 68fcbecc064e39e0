"""The dice sets the reader's tests measure on: the shared labelled photos (../shared/data/dice_photos beside this
clone; a clone with nothing beside it passes `make test`: those tests skip and say why, CI has ../shared and runs
them), and rendered scenes on the tables the nets never saw."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.detections import match_dice
from vision.dice_errors import wholly_inside
from vision.render.dice import render_dice

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "data" / "dice_photos"
FOLDS = ROOT / "bench" / "dice_folds"     # the five folds' nets, each trained on the other 160 photos
NOT_BESIDE = (f"the shared dice photos are not at {PHOTOS} (../shared beside this clone): the reader cannot be "
              "measured on real photos here")


def labelled() -> list[tuple[Path, list]]:
    """(path, [(face, box)]) for every shared photo in name order (the folds' order); skips when they are absent."""
    if not (PHOTOS / "labels.json").exists():
        pytest.skip(NOT_BESIDE)
    labels = json.loads((PHOTOS / "labels.json").read_text(encoding="utf-8"))
    return [(PHOTOS / n, [(d["face"], tuple(d["box"])) for d in labels[n]]) for n in sorted(labels)]


def unseen_tables(style: str, seed: int, count: int) -> list[tuple[np.ndarray, list]]:
    """(photo, [(face, box)]) of `count` rendered scenes of `style` dice ("smoke": translucent, every one a smoke
    die) on the tiles and paper tables, which the nets were never taught."""
    rng = np.random.default_rng(seed)
    items = []
    for _ in range(count):
        img, truths = render_dice(rng, (640, 640), tables=("tiles", "paper"),
                                  style="translucent" if style == "smoke" else style, smoke=float(style == "smoke"))
        items.append((img, [(d.face, d.box) for d in truths]))
    return items


def tally(reader, items, cut: bool = False) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of `reader` over (photo, truth) items; `cut`: a reading of a
    die cut by the photo's edge is not counted (the truth of such photos holds only the dice wholly inside)."""
    tp = fp = fn = 0
    for img, truth in items:
        found = [d for d in reader.read(img) if not cut or wholly_inside(d.box, img.shape)]
        a, b, c = match_dice(found, truth)
        tp, fp, fn = tp + a, fp + b, fn + c
    return tp, fp, fn
