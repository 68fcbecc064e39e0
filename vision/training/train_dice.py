"""Train the dice reader's two networks on CPU and export them for the app (ONNX + the model card).

    nice -n 15 python -m vision.training.train_dice --out vision/models/dice          # the committed weights
    nice -n 15 python -m vision.training.train_dice --fold 2 --out /tmp/fold2          # leave block 2 out, report it

First the face reader (32x32 crops of the labelled dice, turned at every angle, jittered as the finder's boxes
are, plus rendered dice and "not a die" patches of tables and distractors), then the finder (CenterNet heat map,
size and offset on 256x256 views; vision/training/augment.py has the recipe).

Needs the `train` extra (torch, onnx) and the shared photos (../shared/data/dice_photos, or --photos). The folds are
five contiguous blocks of the photos sorted by name (the photos were shot in sessions: neighbours look alike, so a
random split would flatter). One thread by default: the machine is shared. Seeds are fixed, so a run is repeatable
up to the CPU's floating-point order.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from ..detections import f1, match_dice
from ..dice import DiceModelCard, DiceReader, crop_die
from ..render.dice import render_dice
from .augment import photometric, real_sample, rendered_sample
from .model import CLASSES, DiceNet, FaceNet, STRIDE

DEFAULT_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice_photos"
FOLDS = 5
CROP = 256
# The rendered scenes we train on use these tables; "tiles" and "paper" tables, and held-out seeds, are only ever
# used to measure (bench/bench_vision_dice.py), so that measurement is on scenes the network has not seen.
TRAIN_TABLES = ("wood", "felt", "plain", "cloth", "dark")
HELD_OUT_TABLES = ("tiles", "paper")


def load_photos(folder: Path) -> list[tuple[str, np.ndarray, list]]:
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for name in sorted(labels):
        img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        out.append((name, img, [(d["face"], tuple(d["box"])) for d in labels[name]]))
    return out


def fold_of(index: int, total: int) -> int:
    return index * FOLDS // total


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


def to_input(img: np.ndarray) -> np.ndarray:
    """As the app feeds the networks (vision.dice._blob): BGR, (pixel - 127.5) / 255, channels first."""
    return ((img.astype(np.float32) - 127.5) / 255.0).transpose(2, 0, 1)


def export(model: torch.nn.Module, path: Path, faces: bool = False) -> None:
    model.eval()
    if faces:
        torch.onnx.export(model, torch.zeros(1, 3, CROP_SIDE, CROP_SIDE), str(path), input_names=["crops"],
                          output_names=["logits"], opset_version=17, dynamo=False,
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    else:
        torch.onnx.export(model, torch.zeros(1, 3, 640, 640), str(path), input_names=["image"],
                          output_names=["grid"], opset_version=17, dynamo=False,
                          dynamic_axes={"image": {2: "h", 3: "w"}, "grid": {2: "gh", 3: "gw"}})


CROP_SIDE = 32
NOT_A_DIE = CLASSES - 1


def face_pool(photos, rng: np.random.Generator, rendered_scenes: int) -> tuple[list, list, list]:
    """(real dice, rendered dice, backgrounds): each die as (image, box, face); backgrounds as (image, box)
    patches of table, tray and distractors that overlap no die."""
    dice, backgrounds = [], []
    for _n, img, truth in photos:
        dice += [(img, b, f) for f, b in truth]
        for _ in range(6):
            side = rng.uniform(18, 75)
            x, y = rng.uniform(0, img.shape[1] - side), rng.uniform(0, img.shape[0] - side)
            box = (x, y, x + side, y + side)
            if all(_overlap(box, b) < 0.15 for _f, b in truth):
                backgrounds.append((img, box))
    real = len(dice)
    for _ in range(rendered_scenes):
        img, truths = render_dice(rng, (480, 480), tables=TRAIN_TABLES)
        dice += [(img, d.box, d.face) for d in truths]
        for _ in range(4):
            side = rng.uniform(15, 90)
            x, y = rng.uniform(0, 480 - side), rng.uniform(0, 480 - side)
            box = (x, y, x + side, y + side)
            if all(_overlap(box, d.box) < 0.15 for d in truths):
                backgrounds.append((img, box))
    return dice[:real], dice[real:], backgrounds


def _overlap(a, b) -> float:
    """Share of box a covered by box b."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy / max((a[2] - a[0]) * (a[3] - a[1]), 1e-9)


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
    crop = crop_die(img, box, angle=rng.uniform(0, 360))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return photometric(np.ascontiguousarray(crop), rng), label


def train_faces(photos, rng: np.random.Generator, steps: int, batch_size: int = 64, init: Path | None = None
                ) -> FaceNet:
    real, rendered, backgrounds = face_pool(photos, rng, rendered_scenes=250)
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
            xs.append(to_input(crop_die(img, box)))
            ys.append(face - 1)
    with torch.no_grad():
        out = model(torch.from_numpy(np.stack(xs)))
    return float((out.argmax(1).numpy() == np.array(ys)).mean())


def evaluate(reader: DiceReader, photos, min_confidence=None) -> dict:
    tp = fp = fn = 0
    for _name, img, truth in photos:
        found = reader.read(img, min_confidence)
        a, b, c = match_dice(found, truth)
        tp, fp, fn = tp + a, fp + b, fn + c
    return {"tp": tp, "fp": fp, "fn": fn, "f1": f1(tp, fp, fn)}


def pick_threshold(reader: DiceReader, photos) -> float:
    """The confidence threshold with the best F1 on the photos trained on (never on the held-out fold). The dice
    are read once at the lowest threshold; a higher one keeps a subset."""
    found = [(reader.read(img, 0.15), truth) for _n, img, truth in photos]
    best = (0.0, 0.35)
    for t in np.arange(0.15, 0.75, 0.05):
        tp = fp = fn = 0
        for dice, truth in found:
            a, b, c = match_dice([d for d in dice if d.confidence >= t], truth)
            tp, fp, fn = tp + a, fp + b, fn + c
        score = f1(tp, fp, fn)
        if score > best[0] + 1e-9:
            best = (score, float(t))
    return round(best[1], 2)


def rendered_set(seed: int, count: int, tables) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        img, truths = render_dice(rng, (640, 640), tables=tables)
        out.append((f"render-{seed}-{i}", img, [(d.face, d.box) for d in truths]))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    ap.add_argument("--out", type=Path, required=True, help="path without suffix: writes OUT.onnx, OUT.json, OUT.pt")
    ap.add_argument("--fold", type=int, default=None, help="hold this block (0-4) out and report F1 on it")
    ap.add_argument("--steps", type=int, default=3000, help="finder steps")
    ap.add_argument("--face-steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--render-share", type=float, default=0.3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--faces-only", action="store_true",
                    help="train and export the face reader alone; report its accuracy on the held-out dice' boxes")
    ap.add_argument("--faces-init", type=Path, default=None,
                    help="start the face reader from these weights (.pt) and train it --face-steps more")
    ap.add_argument("--faces-from", type=Path, default=None,
                    help="reuse a trained face reader (its .pt) instead of training one: resume after a stop")
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.photos)
    train = [p for i, p in enumerate(photos) if args.fold is None or fold_of(i, len(photos)) != args.fold]
    held = [p for i, p in enumerate(photos) if args.fold is not None and fold_of(i, len(photos)) == args.fold]
    print(f"training on {len(train)} photos, holding out {len(held)}", flush=True)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.faces_from:
        faces = FaceNet()
        faces.load_state_dict(torch.load(args.faces_from))
    else:
        faces = train_faces(train, rng, args.face_steps, init=args.faces_init)
    torch.save(faces.state_dict(), args.out.with_name(args.out.name + "_faces.pt"))
    export(faces, args.out.with_name(args.out.name + "_faces.onnx"), faces=True)
    if args.faces_only:
        if held:
            print(f"fold {args.fold}: faces read right on the true boxes: {face_accuracy(faces, held):.4f}", flush=True)
        return 0

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
    export(model, args.out.with_suffix(".onnx"))
    card_path = args.out.with_suffix(".json")
    card_path.write_text(json.dumps(DiceModelCard().__dict__, indent=1))
    reader = DiceReader(args.out)
    threshold = pick_threshold(reader, train[::2])
    card = dict(DiceModelCard().__dict__, min_confidence=threshold,
                trained={"photos": len(train), "fold": args.fold, "steps": args.steps, "face_steps": args.face_steps,
                         "batch": args.batch,
                         "seed": args.seed, "seconds": round(time.time() - t0)})
    reader.card = DiceModelCard(**{k: v for k, v in card.items() if k in DiceModelCard.__dataclass_fields__})
    if held:
        card["held_out"] = evaluate(reader, held)
        print(f"fold {args.fold}: {card['held_out']}", flush=True)
    card["rendered_unlike"] = evaluate(reader, rendered_set(9000 + (args.fold or 0), 40, HELD_OUT_TABLES))
    print(f"rendered unlike scenes: {card['rendered_unlike']}", flush=True)
    card_path.write_text(json.dumps(card, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
