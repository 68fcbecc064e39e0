"""Train the dice reader's face net (FaceNet): a tight 48x48 crop of a placed die -> face 1-6 or not a die.

    nice -n 15 python -m vision.training.train_faces --steps 6000 --out vision/models/dice   # the committed net
    nice -n 15 python -m vision.training.train_faces --fold 0 --steps 6000 --out /tmp/folds/0/dice   # block 0 out

Writes OUT_faces.onnx and OUT_faces.pt (about 25 minutes on one idle core); a run from --init trains on from
earlier weights with a gentler schedule. Crops are cut around each labelled die's box as the reader
will have placed it (its size off by up to 15 %, its centre by ~5 % of a side), turned at any angle, mirrored,
colours shaken (vision/training/augment.py); rendered dice 25 % (half the translucent ones smoke dice), "not a die"
patches 15 % (among them pips cut out of the photos' dice).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ..dice import CROP, crop_die
from .augment import crop_pool, photometric
from .model import NOT_A_DIE_CLASS as NOT_A_DIE, FaceNet
from .runs import arguments, export_onnx, start, to_input

CROP_SIDE = CROP   # the app's face crop, which the model card written beside these weights names (face_side)
# Half the rendered translucent dice are smoke dice (the shared photos' dark smoke dice with red pips were read
# 94 % right from their true boxes by a net that never saw them, against 98-99 % for other dice); a pip cut out
# of one die in three is taught as "not a die" (a close-up's pips were read as small 1s).
SMOKE = 0.5
PIP_PATCHES = 1 / 3


def face_sample(source, rng: np.random.Generator, background: bool) -> tuple[np.ndarray, int]:
    """One crop as the reader will see it: the finder's box jittered, any turn, mirrored, colours shaken."""
    if background:
        img, box = source
        label = NOT_A_DIE
    else:
        img, box, face = source
        label = face - 1
        # the finder's boxes are a little off: the crop follows
        side = box[2] - box[0]
        s = rng.uniform(0.88, 1.15)
        cx, cy = (box[0] + box[2]) / 2 + rng.normal(0, 0.05) * side, (box[1] + box[3]) / 2 + rng.normal(0, 0.05) * side
        box = (cx - side * s / 2, cy - (box[3] - box[1]) * s / 2, cx + side * s / 2, cy + (box[3] - box[1]) * s / 2)
    crop = crop_die(img, box, angle=rng.uniform(0, 360), size=CROP_SIDE)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return photometric(np.ascontiguousarray(crop), rng), label


def train_faces(photos, rng: np.random.Generator, steps: int, batch_size: int = 64, init: Path | None = None
                ) -> FaceNet:
    real, rendered, backgrounds = crop_pool(photos, rng, rendered_scenes=250, smoke=SMOKE, pips=PIP_PATCHES)
    print(f"face reader: {len(real)} real dice, {len(rendered)} rendered, {len(backgrounds)} background patches",
          flush=True)
    model = FaceNet()
    lr = 3e-3
    if init is not None:          # a second round from earlier weights: a gentler schedule
        model.load_state_dict(torch.load(init))
        lr = 1e-3
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    model.train()
    for step in range(steps):
        xs, ys = [], []
        for _ in range(batch_size):
            r = rng.random()      # real dice 60 %, rendered 25 %, not a die 15 %
            if r < 0.15:
                crop, label = face_sample(backgrounds[rng.integers(len(backgrounds))], rng, True)
            elif r < 0.4:
                crop, label = face_sample(rendered[rng.integers(len(rendered))], rng, False)
            else:
                crop, label = face_sample(real[rng.integers(len(real))], rng, False)
            xs.append(to_input(crop))
            ys.append(label)
        out = model(torch.from_numpy(np.stack(xs)))
        loss = F.cross_entropy(out, torch.tensor(ys), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == steps - 1:
            acc = (out.argmax(1) == torch.tensor(ys)).float().mean().item()
            print(f"faces step {step} loss {loss.item():.3f} acc {acc:.3f} ({time.time() - t0:.0f} s)", flush=True)
    return model


def face_accuracy(model: FaceNet, photos) -> float:
    """Share of the labelled dice whose face the reader gets right from the true box."""
    model.eval()
    xs, ys = [], []
    for _n, img, truth in photos:
        for face, box in truth:
            xs.append(to_input(crop_die(img, box, size=CROP_SIDE)))
            ys.append(face - 1)
    with torch.no_grad():
        out = model(torch.from_numpy(np.stack(xs)))
    return float((out.argmax(1).numpy() == np.array(ys)).mean())


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], "path without suffix: writes OUT_faces.onnx and .pt",
                   "hold this block (0-4) out and report on it")
    ap.add_argument("--init", type=Path, default=None, help="train on from these weights (.pt)")
    args = ap.parse_args(argv)
    train, held, rng = start(args)
    faces = train_faces(train, rng, args.steps, init=args.init)
    torch.save(faces.state_dict(), args.out.with_name(args.out.name + "_faces.pt"))
    export_onnx(faces, args.out.with_name(args.out.name + "_faces.onnx"), (1, 3, CROP_SIDE, CROP_SIDE),
                ("crops", "logits"), {"crops": {0: "n"}, "logits": {0: "n"}})
    if held:
        print(f"fold {args.fold}: faces read right on the true boxes: {face_accuracy(faces, held):.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
