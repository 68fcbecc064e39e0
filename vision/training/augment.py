"""The data recipe: how one training sample is made from a labelled photo or from a rendered scene.

A real photo is cropped at a random scale (dice from ~12 to ~110 px, close-ups to ~220 px), turned by quarter turns
and a few degrees, slanted, mirrored, and then its colours are shaken hard: hue turned, channels swapped, negative,
grey, gamma, contrast, a light gradient and shadows, blur, noise and JPEG loss; sometimes its plain table is swapped for wood,
felt or tiles (the table is found as what a large median filter leaves). The aim is the hidden photos: other dice,
another table, another camera. Rendered scenes (vision/render/dice.py) add what the photos lack.
The face net's and the reader's crops are cut from one pool (crop_pool): the photos' dice, rendered dice and
patches that hold no die.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..render.dice import render_dice
from ..render.scene import random_table

Truth = list[tuple[int, tuple[float, float, float, float]]]
# The rendered scenes we train on use these tables; "tiles" and "paper" tables, and held-out seeds, are only ever
# used to measure (bench/bench_vision_dice.py), so that measurement is on scenes the network has not seen.
TRAIN_TABLES = ("wood", "felt", "plain", "cloth", "dark")
HELD_OUT_TABLES = ("tiles", "paper")
# The finder's views show dice of DIE_SIDES pixels, and one in CLOSE_UP_SHARE of them dice of CLOSE_UP pixels: a
# phone held close to a few dice (at 640 px a finder trained only to 110 px read dice of 180 px at F1 0.24). At
# 0.35 and 2,000 steps (0.2 and 1,500 before: about as many views of usual dice) rendered close-ups read 0.870 ->
# 0.930 and the held-out folds together 0.953 -> 0.956 (docs/vision.md, Measured).
DIE_SIDES = (12.0, 110.0)
CLOSE_UP = (110.0, 220.0)
CLOSE_UP_SHARE = 0.35


def geometric(img: np.ndarray, truth: Truth, rng: np.random.Generator, out: int) -> tuple[np.ndarray, Truth]:
    """A random `out`x`out` view of the photo: scale, quarter turns, a small tilt and slant, a mirror."""
    h, w = img.shape[:2]
    sides = [b[2] - b[0] for _, b in truth] or [40.0]
    target = math.exp(rng.uniform(*np.log(CLOSE_UP if rng.random() < CLOSE_UP_SHARE else DIE_SIDES)))
    s = target / float(np.median(sides))
    s = float(np.clip(s, 0.3, CLOSE_UP[1] / 40))
    a = math.radians(rng.uniform(-10, 10)) + rng.integers(0, 4) * math.pi / 2
    flip = -1.0 if rng.random() < 0.5 else 1.0
    c, si = math.cos(a) * s, math.sin(a) * s
    lin = np.array([[c * flip, -si, 0], [si * flip, c, 0], [0, 0, 1]])
    # centre on a random point of the photo (often a die, so crowded crops are common)
    if truth and rng.random() < 0.6:
        b = truth[rng.integers(len(truth))][1]
        px, py = (b[0] + b[2]) / 2 + rng.normal(0, out / 4 / s), (b[1] + b[3]) / 2 + rng.normal(0, out / 4 / s)
    else:
        px, py = rng.uniform(0, w), rng.uniform(0, h)
    t1 = np.array([[1, 0, -px], [0, 1, -py], [0, 0, 1]])
    t2 = np.array([[1, 0, out / 2], [0, 1, out / 2], [0, 0, 1]])
    persp = np.eye(3)
    persp[2, :2] = rng.normal(0, 0.0006 / max(s, 0.5), 2)
    m = t2 @ persp @ lin @ t1
    border = tuple(float(v) for v in np.median(img[::16, ::16].reshape(-1, 3), 0))
    warped = cv2.warpPerspective(img, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=border)
    new = []
    for face, b in truth:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        bw, bh = b[2] - b[0], b[3] - b[1]
        corners = np.array([[cx - bw / 2, cy], [cx + bw / 2, cy], [cx, cy - bh / 2], [cx, cy + bh / 2]])
        q = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), m).reshape(-1, 2)
        ncx, ncy = q.mean(0)
        # the box of a die turned a little keeps its size (not the outline of the turned old box); quarter turns
        # swap width and height exactly
        ex, ey = q[1] - q[0], q[3] - q[2]
        side_x = max(abs(ex[0]), abs(ey[0]))
        side_y = max(abs(ex[1]), abs(ey[1]))
        nb = (ncx - side_x / 2, ncy - side_y / 2, ncx + side_x / 2, ncy + side_y / 2)
        inside = min(nb[2], out) - max(nb[0], 0), min(nb[3], out) - max(nb[1], 0)
        if inside[0] > 0.6 * side_x and inside[1] > 0.6 * side_y:
            new.append((face, nb))
        elif inside[0] > 0 and inside[1] > 0:
            new.append((-face, nb))     # mostly outside the crop: neither taught nor punished
    return warped, new


def swap_table(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Replace the plain table around the dice by another surface (the dice and their shadows stay)."""
    small = cv2.resize(img, (img.shape[1] // 8, img.shape[0] // 8), interpolation=cv2.INTER_AREA)
    bg = cv2.resize(cv2.medianBlur(small, 7), (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    diff = np.abs(img.astype(np.int16) - bg.astype(np.int16)).max(2)
    fg = (diff > 28).astype(np.uint8)
    fg = cv2.dilate(fg, np.ones((5, 5), np.uint8))
    alpha = cv2.GaussianBlur(fg.astype(np.float32), (7, 7), 0)[..., None]
    table = random_table(rng, img.shape[:2])
    shade = (bg.astype(np.float32).mean(2, keepdims=True) / max(1.0, float(bg.mean())))   # keep the light's fall
    out = img.astype(np.float32) * alpha + table * np.clip(shade, 0.5, 1.5) * (1 - alpha)
    return np.clip(out, 0, 255).astype(np.uint8)


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + rng.integers(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.3, 1.6), 0, 255)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.3:
        img = img[..., rng.permutation(3)]
    if rng.random() < 0.15:
        img = 255 - img                 # white dice with black pips ↔ black dice with white pips
    if rng.random() < 0.1:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    f = img.astype(np.float32) / 255.0
    f = f ** rng.uniform(0.6, 1.6)
    f = (f - 0.5) * rng.uniform(0.6, 1.3) + 0.5 + rng.uniform(-0.15, 0.15)
    h, w = f.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.normal(size=2)
    f *= (1 + ((xx / w - 0.5) * g[0] + (yy / h - 0.5) * g[1]) * rng.uniform(0, 0.6))[..., None]
    f *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.random() < 0.3:   # a soft shadow (a hand, a lamp)
        mask = np.zeros((h, w), np.float32)
        cv2.ellipse(mask, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(w / 16, w / 2)), int(rng.uniform(h / 16, h / 2))), rng.uniform(0, 180), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(5, 30))
        f *= (1 - mask * rng.uniform(0.2, 0.6))[..., None]
    img = np.clip(f * 255, 0, 255).astype(np.uint8)
    r = rng.random()
    soft = min(1.0, h / 128) ** 1.5   # a 32 px crop is blurred, shaken and compressed less than a 256 px view
    if r < 0.25:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 0.5 + 1.1 * soft))
    elif r < 0.35:
        k = int(rng.integers(3, 4 + int(3 * soft)))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    if rng.random() < 0.5:
        img = np.clip(img + rng.normal(0, rng.uniform(2, 4 + 6 * soft), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(int(75 - 45 * soft), 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def real_sample(img: np.ndarray, truth: Truth, rng: np.random.Generator, out: int) -> tuple[np.ndarray, Truth]:
    img, truth = geometric(img, truth, rng, out)
    if rng.random() < 0.3:
        img = swap_table(img, rng)
    return photometric(img, rng), truth


def rendered_sample(rng: np.random.Generator, out: int, tables: tuple[str, ...] | None = None
                    ) -> tuple[np.ndarray, Truth]:
    side = rng.uniform(*CLOSE_UP) if rng.random() < CLOSE_UP_SHARE else rng.uniform(12, 100)
    img, truths = render_dice(rng, (out, out), side=side, n=int(rng.integers(1, 20)), tables=tables)
    # a die cut by the view's edge is neither taught nor punished (a negative face, as geometric() marks them)
    t = [(d.face if min(d.box[:2]) > 0.5 and max(d.box[2:]) < out - 0.5 else -d.face, d.box) for d in truths]
    if rng.random() < 0.5:
        img = photometric(img, rng)
    return img, t


def crop_pool(photos, rng: np.random.Generator, rendered_scenes: int, smoke: float = 0.0,
              pips: float = 0.0) -> tuple[list, list, list]:
    """(real dice, rendered dice, backgrounds): each die as (image, box, face); backgrounds as (image, box)
    patches of table, tray and distractors that overlap no die. `smoke`: the renderer's share of smoke dice among
    its translucent ones; `pips`: for that share of the photos' dice a patch around one spot of the die's face, a
    pip's size, is a background too (a phone held close shows pips as big as small dice)."""
    dice, backgrounds = [], []
    for _n, img, truth in photos:
        dice += [(img, b, f) for f, b in truth]
        for _f, b in truth if pips else ():
            if rng.random() < pips:
                side = np.sqrt((b[2] - b[0]) * (b[3] - b[1]))
                cx = (b[0] + b[2]) / 2 + rng.uniform(-0.3, 0.3) * side
                cy = (b[1] + b[3]) / 2 + rng.uniform(-0.3, 0.3) * side
                half = side * rng.uniform(0.2, 0.45) / 2
                backgrounds.append((img, (cx - half, cy - half, cx + half, cy + half)))
        for _ in range(6):
            side = rng.uniform(18, 75)
            x, y = rng.uniform(0, img.shape[1] - side), rng.uniform(0, img.shape[0] - side)
            box = (x, y, x + side, y + side)
            if all(_overlap(box, b) < 0.15 for _f, b in truth):
                backgrounds.append((img, box))
    real = len(dice)
    for _ in range(rendered_scenes):
        img, truths = render_dice(rng, (480, 480), tables=TRAIN_TABLES, smoke=smoke)
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
