"""The shared labelled dice photos (../shared/data/dice_photos beside this clone) for the tests that measure on them.
A clone with nothing beside it passes `make test`: those tests skip and say why; CI has ../shared and runs them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

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
