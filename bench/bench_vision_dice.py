"""The D6 pip reader: accuracy (per-die F1: box IoU >= 0.5 and the right face) and milliseconds per photo on ONE
core (cv2.setNumThreads(1)).

Run: .venv/bin/python bench/bench_vision_dice.py [--folds DIR] [--renders N]
  - the committed model on rendered scenes unlike the photos (tables it never saw in training, held-out seeds);
  - the committed model on the 200 shared photos (../shared/data/dice_photos; it was trained on them: a
    regression check, not a measure of generalisation);
  - with --folds DIR (DIR/0/dice … DIR/4/dice from `python -m vision.training.train_dice --fold k --out
    DIR/k/dice`): each fold model on the block of 40 photos it never saw — the cross-validated figure;
  - ms per 640x640 photo, median and 90th percentile, one core.
Times are CPU time of this one thread (time.process_time, OpenCV pinned to one thread), so they measure one
core even when the machine is busy with other work. No assertions: it prints figures.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detections import f1, match_dice  # noqa: E402
from vision.dice import DEFAULT_MODEL, DiceReader  # noqa: E402
from vision.render.dice import render_dice  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "dice_photos"
HELD_OUT_TABLES = ("tiles", "paper")     # vision/training/train_dice.py trains on the other kinds of table


def load_photos():
    import json
    labels = json.loads((PHOTOS / "labels.json").read_text(encoding="utf-8"))
    return [(n, cv2.imread(str(PHOTOS / n)), [(d["face"], tuple(d["box"])) for d in labels[n]]) for n in sorted(labels)]


def score(reader, items):
    tp = fp = fn = 0
    times = []
    for _n, img, truth in items:
        t0 = time.process_time()
        found = reader.read(img)
        times.append((time.process_time() - t0) * 1000)
        a, b, c = match_dice(found, truth)
        tp, fp, fn = tp + a, fp + b, fn + c
    return {"tp": tp, "fp": fp, "fn": fn, "f1": f1(tp, fp, fn), "ms": times}


def rendered(seed: int, count: int, style=None):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        img, truths = render_dice(rng, (640, 640), tables=HELD_OUT_TABLES, style=style)
        out.append((f"r{i}", img, [(d.face, d.box) for d in truths]))
    return out


def row(name, s):
    print(f"{name:44s} {s['f1']:6.3f} {s['tp']:6d} {s['fp']:5d} {s['fn']:5d}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=Path, default=None)
    ap.add_argument("--renders", type=int, default=60)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(DEFAULT_MODEL)
    print(f"{'set':44s} {'F1':>6s} {'TP':>6s} {'FP':>5s} {'FN':>5s}")
    times = []
    for style in ("opaque", "translucent", "marbled"):
        s = score(reader, rendered(9100, args.renders // 3, style))
        row(f"rendered, unseen tables, {style} dice", s)
        times += s["ms"]
    if PHOTOS.exists():
        photos = load_photos()
        s = score(reader, photos)
        row("shared photos (trained on: regression only)", s)
        times += s["ms"]
        if args.folds:
            total = [0, 0, 0]
            for k in range(5):
                model = args.folds / str(k) / "dice"
                if not model.with_suffix(".onnx").exists():
                    print(f"fold {k}: no model at {model}")
                    continue
                held = [p for i, p in enumerate(photos) if i * 5 // len(photos) == k]
                s = score(DiceReader(model), held)
                row(f"fold {k} (photos {k * 40}-{k * 40 + 39}, held out)", s)
                total = [total[0] + s["tp"], total[1] + s["fp"], total[2] + s["fn"]]
            if any(total):
                row("folds together", {"f1": f1(*total), "tp": total[0], "fp": total[1], "fn": total[2]})
    else:
        print(f"(no shared photos at {PHOTOS}: skipped)")
    print(f"ms per photo, one core: median {statistics.median(times):.1f}, "
          f"90th percentile {sorted(times)[int(0.9 * len(times))]:.1f}, n={len(times)}")


if __name__ == "__main__":
    main()
