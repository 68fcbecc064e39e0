"""The dice reader's confidence as what it has been worth: for a raw score (√(centre score) x face probability), the
share of readings that sure, on photos the nets never saw, that were a die showing that face. Written into the
model cards as `confidence_map` (vision/dice.py), so that "0.97" means right 97 times in 100, and the table's door
(companion/session/observe.py, 0.9) applies the sure dice on its own and asks about the rest.

The readings are the five folds' (bench/dice_folds/k: nets trained on the other 160 photos) on their own 40
held-out photos. Fold k's card gets the map of the other four folds' readings, so that a fold's held-out photos
measure a map fitted without them (bench/bench_vision_dice.py, tests/test_vision_dice_confidence.py); the
committed model gets the map of all five. A reading is right for the table when it lies on a labelled die (IoU >=
MIN_IOU, looser than the F1 score's 0.5: fold 0's labels are loose, 0.37-0.49 to a tight box) and says its face.

The fit: the readings sorted by raw score, the share right made never to fall as the score rises (pool adjacent
violators), each pool's share then taken as (right + 1) / (readings + 2) (so a pool of 40 right readings says 0.976,
not 1: no reading is certain) and pooled again where that made it fall. A knot per pool, at its mean raw score.

Run (needs ../shared/data/dice_photos and the fold nets; no torch; about 15 s):
    python -m vision.training.dice_confidence [--folds bench/dice_folds] [--model vision/models/dice]
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..detections import right_readings
from ..dice import DEFAULT_MODEL, DiceReader
from .runs import DEFAULT_PHOTOS, FOLDS, load_photos, split

MIN_IOU = 0.3
ROOT = Path(__file__).resolve().parents[2]
FOLD_NETS = ROOT / "bench" / "dice_folds"


def pool_adjacent(values: np.ndarray, weights: np.ndarray) -> list[tuple[int, int, float, float]]:
    """The weighted least-squares non-decreasing fit of `values` (in order), as pools (start, end, mean, weight) whose
    means rise strictly."""
    pools: list[list] = []
    for i, (v, w) in enumerate(zip(values, weights)):
        pools.append([i, i + 1, float(v), float(w)])
        while len(pools) > 1 and pools[-2][2] >= pools[-1][2]:   # equal neighbours are one pool too
            s, _e, v1, w1 = pools[-2]
            _s, e, v2, w2 = pools.pop()
            pools[-1] = [s, e, (v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2]
    return [tuple(p) for p in pools]


def fit(raw, right) -> tuple[tuple[float, float], ...]:
    """(raw score, share right) knots, raw rising, shares never falling, from readings' raw scores and whether
    each was right."""
    raw = np.asarray(raw, np.float64)
    right = np.asarray(right, np.float64)
    if len(raw) < 2:
        raise ValueError("a confidence map needs readings to be fitted on")
    order = np.argsort(raw, kind="stable")
    raw, right = raw[order], right[order]
    first = pool_adjacent(right, np.ones(len(right)))
    counts = np.array([e - s for s, e, _m, _w in first], np.float64)
    hits = np.array([m * (e - s) for s, e, m, _w in first])
    middles = np.array([raw[s:e].mean() for s, e, _m, _w in first])
    knots = []
    for s, e, share, _w in pool_adjacent((hits + 1) / (counts + 2), counts + 2):
        knots.append((round(float(middles[s:e] @ counts[s:e] / counts[s:e].sum()), 4), round(share, 4)))
    if len(knots) == 1:            # one pool (every reading as likely right): a flat map
        return ((0.0, knots[0][1]), (1.0, knots[0][1]))
    out = []                       # rounding may make two knots' raw scores meet: the later one stands
    for x, y in knots:
        if out and x <= out[-1][0]:
            out.pop()
        out.append((min(x, 1.0), y))
    return tuple(out)


def held_out_readings(photos: list, folds: Path) -> list[tuple[int, float, bool]]:
    """(fold, raw score, right) for every reading of each fold's nets on its own held-out photos."""
    out = []
    for k in range(FOLDS):
        reader = DiceReader(folds / str(k) / "dice")
        reader.card = replace(reader.card, confidence_map=())
        for _name, img, truth in split(photos, k)[1]:
            found = reader.read(img)
            out += [(k, d.confidence, ok) for d, ok in zip(found, right_readings(found, truth, MIN_IOU))]
    return out


def write_map(card: Path, knots, readings: int, folds: list[int]) -> None:
    data = json.loads(card.read_text(encoding="utf-8"))
    data["confidence_map"] = [list(k) for k in knots]
    data["confidence_from"] = {"readings": readings, "folds": folds, "min_iou": MIN_IOU,
                               "command": "python -m vision.training.dice_confidence"}
    card.write_text(json.dumps(data, indent=1), encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    ap.add_argument("--folds", type=Path, default=FOLD_NETS, help="DIR/0/dice … DIR/4/dice")
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the committed model (path without suffix)")
    args = ap.parse_args(argv)
    readings = held_out_readings(load_photos(args.photos), args.folds)
    folds = np.array([k for k, _r, _ok in readings])
    raw = np.array([r for _k, r, _ok in readings])
    right = np.array([ok for _k, _r, ok in readings])
    for k in range(FOLDS):
        others = folds != k
        knots = fit(raw[others], right[others])
        write_map(args.folds / str(k) / "dice.json", knots, int(others.sum()), [j for j in range(FOLDS) if j != k])
        mine = ~others
        sure = np.interp(raw[mine], *zip(*knots)) >= 0.9
        print(f"fold {k}: {len(knots)} knots from the other folds' {others.sum()} readings; of its own "
              f"{mine.sum()}, {sure.sum()} reach 0.9 and {right[mine][sure].mean():.3f} of those are right")
    knots = fit(raw, right)
    write_map(args.model.with_suffix(".json"), knots, len(raw), list(range(FOLDS)))
    print(f"committed: {len(knots)} knots from {len(raw)} readings: " +
          ", ".join(f"{x:.2f}→{y:.3f}" for x, y in knots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
