"""Train the dice reader's finder on CPU and export it for the app (ONNX): the first of its two nets.

    nice -n 15 python -m vision.training.train_dice --steps 2000 --out vision/models/dice    # the committed finder
    nice -n 15 python -m vision.training.train_dice --fold 2 --steps 2000 --out /tmp/folds/2/dice  # block 2 held out

A CenterNet heat map, box size and offset on 256x256 views of the photos and of rendered scenes
(vision/training/augment.py has the recipe); writes OUT.onnx and OUT.pt. The second net, the reader, and the model
card come from vision/training/train_reader.py with the same --out.

Needs the `train` extra (torch, onnx) and the shared photos (../shared/data/dice_photos, or --photos); the folds,
threads and seeds as every run has them (vision/training/runs.py).
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from .augment import TRAIN_TABLES, real_sample, rendered_sample
from .model import DiceNet, STRIDE
from .runs import arguments, export_onnx, start, to_input

CROP = 256


def targets(truth, size: int):
    """Heat map, log size and offset targets on the STRIDE grid, with their masks."""
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    reg_mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for f, b in truth:
        cx, cy = (b[0] + b[2]) / 2 / STRIDE, (b[1] + b[3]) / 2 / STRIDE
        w, h = (b[2] - b[0]) / STRIDE, (b[3] - b[1]) / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        sigma = max(0.5, 0.15 * math.sqrt(w * h))
        blob = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma ** 2))
        if f < 0:      # half outside the crop: no lesson either way
            ignore = np.maximum(ignore, (blob > 0.1).astype(np.float32))
            continue
        heat = np.maximum(heat, blob)
        reg_mask[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(max(w, 0.5)), math.log(max(h, 0.5)), cx - ix, cy - iy)
    return heat, reg, reg_mask, ignore


def loss_fn(out, heat, reg, reg_mask, ignore):
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    keep = 1 - ignore * (1 - pos)
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos) * keep
    n = pos.sum().clamp(min=1)
    l_heat = (pos_loss.sum() + neg_loss.sum()) / n
    m = reg_mask.unsqueeze(1)
    l_size = (F.l1_loss(out[:, 1:3] * m, reg[:, 0:2] * m, reduction="sum")) / n
    l_off = (F.l1_loss(out[:, 3:5] * m, reg[:, 2:4] * m, reduction="sum")) / n
    return l_heat + 0.5 * l_size + l_off, (l_heat.item(), l_size.item(), l_off.item())


def batch(samples):
    imgs, hs, rs, ms, igs = [], [], [], [], []
    for img, truth in samples:
        imgs.append(to_input(img))
        h, r, m, ig = targets(truth, img.shape[0])
        hs.append(h), rs.append(r), ms.append(m), igs.append(ig)
    return tuple(torch.from_numpy(np.stack(a)) for a in (imgs, hs, rs, ms, igs))


def train_finder(train, rng: np.random.Generator, args) -> DiceNet:
    """The finder on 256x256 views of the photos (and rendered scenes); saved as OUT.pt and exported as OUT.onnx."""
    model = DiceNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.05)
    t0 = time.time()
    model.train()
    for step in range(args.steps):
        samples = []
        for _ in range(args.batch):
            if rng.random() < args.render_share:
                samples.append(rendered_sample(rng, CROP, TRAIN_TABLES))
            else:
                _n, img, truth = train[rng.integers(len(train))]
                samples.append(real_sample(img, truth, rng, CROP))
        x, *t = batch(samples)
        out = model(x)
        loss, parts = loss_fn(out, *t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"finder step {step} loss {loss.item():.3f} heat {parts[0]:.3f} size {parts[1]:.3f} "
                  f"off {parts[2]:.3f} ({time.time() - t0:.0f} s)", flush=True)

    torch.save(model.state_dict(), args.out.with_suffix(".pt"))
    export_onnx(model, args.out.with_suffix(".onnx"), (1, 3, 640, 640), ("image", "grid"),
                {"image": {2: "h", 3: "w"}, "grid": {2: "gh", 3: "gw"}})
    return model


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], "path without suffix: writes OUT.onnx and OUT.pt",
                   "hold this block (0-4) of the photos out")
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--render-share", type=float, default=0.3)
    args = ap.parse_args(argv)

    train, _held, rng = start(args)
    train_finder(train, rng, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
