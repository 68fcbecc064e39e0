"""The D6 pip reader: accuracy (per-die F1: box IoU >= 0.5 and the right face), where it goes wrong, and milliseconds
per photo on ONE core (cv2.setNumThreads(1)).

Run: .venv/bin/python bench/bench_vision_dice.py [--folds DIR] [--renders N] [--profile]
  - 5-fold cross-validation on the 200 shared photos (../shared/data/dice_photos): each fold's nets (DIR/k/dice*,
    default bench/dice_folds, made by the recipe in docs/vision.md) read the block of 40 photos they never saw;
  - the committed model (vision/models) on rendered scenes unlike the photos (tables it never saw in training, dice
    styles per row, held-out seeds; a row of smoke dice), and on the 200 photos (it was trained on them: a
    regression check only);
  - per set: F1, TP, FP, FN, then each true die as right / face wrong / box off / not found, and extra readings
    (vision/dice_errors.py); then the confidence: readings at least 0.9 sure (the door applies them on its own,
    companion/session/observe.py), the share of those right (on a labelled die, IoU >= 0.3, its face), and the
    share of true dice read so (each fold's card holds the map fitted without its photos);
  - close-ups: each fold's held-out photos zoomed so that their dice are 80, 120, 180 and 250 px in a 640x640 window
    (a phone held close), and rendered close-ups (dice of 110-220 px) read by the committed model; dice cut by the
    window's edge are neither counted nor missed; and far away: each held-out photo laid on a table 2 and 3 times
    its size (dice ~19 and ~13 px once scaled to 640: the reader's closer look), with their milliseconds;
  - ms per 640x640 photo with the committed model, median and 90th percentile, one core;
  - --profile: only where the time goes, stage by stage, on the rendered scenes and the photos (no accuracy).
Times are CPU time of this one thread (time.process_time, OpenCV pinned to one thread), so they measure one
core even when the machine is busy with other work. No assertions: it prints figures.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detections import f1, match_dice, right_readings  # noqa: E402
from vision.dice import DEFAULT_MODEL, DiceReader  # noqa: E402
from vision.dice_errors import breakdown, close_ups, far_away, wholly_inside, zoomed  # noqa: E402
from vision.render.dice import render_dice  # noqa: E402
from vision.training.dice_confidence import MIN_IOU  # noqa: E402
from vision.training.runs import DEFAULT_PHOTOS, load_photos, split  # noqa: E402

PHOTOS = DEFAULT_PHOTOS                  # ../shared/data/dice_photos beside this clone
FOLDS = ROOT / "bench" / "dice_folds"
HELD_OUT_TABLES = ("tiles", "paper")     # vision/training trains on the other kinds of table
KINDS = ("right", "face wrong", "box off", "not found", "extra")
SURE = 0.9                               # the door's MIN_CONFIDENCE (the bench does not import the app)


def score(reader, items, cut: bool = False):
    """F1 and its breakdown; `cut`: readings of dice cut by the picture's edge are not counted (close-ups)."""
    tp = fp = fn = 0
    times = []
    kinds = Counter()
    sure = Counter()
    for _n, img, truth in items:
        t0 = time.process_time()
        found = reader.read(img)
        times.append((time.process_time() - t0) * 1000)
        if cut:
            found = [d for d in found if wholly_inside(d.box, img.shape)]
        a, b, c = match_dice(found, truth)
        tp, fp, fn = tp + a, fp + b, fn + c
        kinds += breakdown(found, truth)
        for d, ok in zip(found, right_readings(found, truth, MIN_IOU)):
            sure["sure"] += d.confidence >= SURE
            sure["sure right"] += d.confidence >= SURE and ok
        sure["dice"] += len(truth)
    return {"tp": tp, "fp": fp, "fn": fn, "f1": f1(tp, fp, fn), "ms": times, "kinds": kinds, "sure": sure}


def rendered(seed: int, count: int, style=None, smoke: float = 0.0):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        img, truths = render_dice(rng, (640, 640), tables=HELD_OUT_TABLES, style=style, smoke=smoke)
        out.append((f"r{i}", img, [(d.face, d.box) for d in truths]))
    return out


class Stages:
    """Wraps a reader's stages to time them (CPU time of this thread) and count the crops its two nets read."""

    def __init__(self, reader: DiceReader):
        self.ms = Counter()
        self.crops = Counter()
        for name in ("prepare", "candidates", "look", "face_probabilities"):
            setattr(reader, name, self._timed(name, getattr(reader, name)))

    def _timed(self, name, method):
        def run(*args, **kwargs):
            t0 = time.thread_time()
            out = method(*args, **kwargs)
            self.ms[name] += (time.thread_time() - t0) * 1000
            if name in ("look", "face_probabilities"):
                self.crops[name] += len(args[1])
            return out
        return run


def profile(reader: DiceReader, sets) -> None:
    """Per photo, medians: the finder's input, the finder (its net and its peaks), the reader's looks, the face
    net, and what is left (merging doubles, thresholds); and the crops each net read."""
    stages = Stages(reader)
    for name, items in sets:
        rows = []
        for _n, img, truth in items:
            stages.ms.clear()
            stages.crops.clear()
            t0 = time.thread_time()
            reader.read(img)
            total = (time.thread_time() - t0) * 1000
            ms = stages.ms
            rows.append({"prepare": ms["prepare"], "finder": ms["candidates"] - ms["prepare"],
                         "reader looks": ms["look"], "face net": ms["face_probabilities"],
                         "rest": total - ms["candidates"] - ms["look"] - ms["face_probabilities"], "total": total,
                         "reader crops": stages.crops["look"], "face crops": stages.crops["face_probabilities"],
                         "dice": len(truth)})
        print(f"{name} (n={len(rows)}), median per photo:")
        for key in rows[0]:
            values = [r[key] for r in rows]
            print(f"  {key:14s} {statistics.median(values):7.1f}   90th percentile "
                  f"{sorted(values)[int(0.9 * len(values))]:7.1f}")


def header():
    print(f"{'set':46s} {'F1':>6s} {'TP':>5s} {'FP':>4s} {'FN':>4s} | " + " ".join(f"{k:>10s}" for k in KINDS)
          + f" | {'>=0.9':>6s} {'right':>6s} {'of dice':>7s}")


def row(name, s):
    k = s.get("kinds", Counter())
    c = s.get("sure", Counter())
    print(f"{name:46s} {s['f1']:6.3f} {s['tp']:5d} {s['fp']:4d} {s['fn']:4d} | "
          + " ".join(f"{k[x]:10d}" for x in KINDS)
          + f" | {c['sure']:6d} {c['sure right'] / max(1, c['sure']):6.3f} {c['sure right'] / max(1, c['dice']):7.3f}",
          flush=True)


def add(total, s):
    for key in ("tp", "fp", "fn"):
        total[key] = total.get(key, 0) + s[key]
    total["kinds"] = total.get("kinds", Counter()) + s["kinds"]
    total["sure"] = total.get("sure", Counter()) + s["sure"]
    total["f1"] = f1(total["tp"], total["fp"], total["fn"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=Path, default=FOLDS, help="DIR/0/dice … DIR/4/dice (default bench/dice_folds)")
    ap.add_argument("--renders", type=int, default=60)
    ap.add_argument("--profile", action="store_true", help="only the time per stage (rendered scenes, photos)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(DEFAULT_MODEL)
    if args.profile:
        scenes = [x for style in ("opaque", "translucent", "marbled") for x in rendered(9100, args.renders // 3, style)]
        photos = [("the 200 photos", load_photos(PHOTOS))] if PHOTOS.exists() else []
        profile(reader, [("rendered scenes", scenes)] + photos)
        return
    header()
    times, photo_ms = [], []
    if PHOTOS.exists():
        photos = load_photos(PHOTOS)
        total: dict = {}
        for k in range(5):
            model = args.folds / str(k) / "dice"
            if not model.with_suffix(".onnx").exists():
                print(f"fold {k}: no model at {model}")
                continue
            held = split(photos, k)[1]
            s = score(DiceReader(model), held)
            row(f"fold {k} (photos {k * 40}-{k * 40 + 39}, held out)", s)
            add(total, s)
        if total:
            row("folds together (cross-validated)", total)
        for side in (80, 120, 180, 250):
            total = {}
            for k in range(5):
                model = args.folds / str(k) / "dice"
                if model.with_suffix(".onnx").exists():
                    held = split(photos, k)[1]
                    views = [(n, *zoomed(img, truth, side)) for n, img, truth in held]
                    add(total, score(DiceReader(model), views, cut=True))
            if total:
                row(f"held-out photos zoomed: dice {side} px", total)
        for far in (2, 3):
            total, far_ms = {}, []
            for k in range(5):
                model = args.folds / str(k) / "dice"
                if model.with_suffix(".onnx").exists():
                    held = split(photos, k)[1]
                    views = [(n, *far_away(img, truth, far, np.random.default_rng(100 * k + i)))
                             for i, (n, img, truth) in enumerate(held)]
                    s = score(DiceReader(model), views)
                    add(total, s)
                    far_ms += s["ms"]
            if total:
                row(f"held-out photos {far}x as far: dice ~{38 // far} px", total)
                print(f"    ms per photo ({640 * far}x{640 * far}), one core: median "
                      f"{statistics.median(far_ms):.1f}, 90th percentile {sorted(far_ms)[int(0.9 * len(far_ms))]:.1f}")
        s = score(reader, photos)
        row("committed model, 200 photos (trained on them)", s)
        photo_ms = s["ms"]
    else:
        print(f"the shared photos are not at {PHOTOS}: no figures on real photos")
    total = {}
    for style in ("opaque", "translucent", "marbled"):
        s = score(reader, rendered(9100, args.renders // 3, style))
        row(f"rendered, unseen tables, {style} dice", s)
        add(total, s)
        times += s["ms"]
    row("rendered, unseen tables, together", total)
    smoke = rendered(9200, args.renders // 3, "translucent", smoke=1.0)
    row("rendered, unseen tables, smoke dice", score(reader, smoke))
    ups = [(f"c{i}", img, truth) for i, (img, truth) in enumerate(close_ups(9300, args.renders // 2))]
    row("rendered close-ups (dice 110-220 px)", score(reader, ups, cut=True))
    for name, ms in (("the 200 photos", photo_ms), ("the rendered scenes (1-25 dice)", times)):
        if ms:
            print(f"ms per 640x640 picture, one core, {name}: median {statistics.median(ms):.1f}, "
                  f"90th percentile {sorted(ms)[int(0.9 * len(ms))]:.1f}, n={len(ms)}")


if __name__ == "__main__":
    main()
