"""A stand-in set of six symbol dice faces (we have no pictures of the Obscurians henchmen dice), drawn here, and
rendered photos of such dice thrown on a table, with their truth.

The symbols are deliberately simple and unlike pips: a star, a crescent, a triangle, a cross, a ring with a dot, a
lightning bolt. They stand for the henchmen faces steal, donate, swap, secure, relocate, wild.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .scene import finish_photo, perspective_matrix, random_table, rounded_square, transform_points

FACES = ("steal", "donate", "swap", "secure", "relocate", "wild")


def draw_symbol(face: str, size: int = 96) -> np.ndarray:
    """The symbol of `face` as a grey mask (255 = ink) on a `size` square, upright."""
    img = np.zeros((size, size), np.uint8)
    c = size / 2
    r = size * 0.36
    if face == "steal":      # a five-pointed star
        pts = [(c + (r if k % 2 == 0 else r * 0.42) * math.sin(k * math.pi / 5),
                c - (r if k % 2 == 0 else r * 0.42) * math.cos(k * math.pi / 5)) for k in range(10)]
        cv2.fillPoly(img, [np.int32(pts)], 255, cv2.LINE_AA)
    elif face == "donate":   # a crescent
        cv2.circle(img, (int(c), int(c)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c + r * 0.45), int(c - r * 0.2)), int(r * 0.85), 0, -1, cv2.LINE_AA)
    elif face == "swap":     # a triangle
        pts = [(c, c - r), (c + r * 0.9, c + r * 0.7), (c - r * 0.9, c + r * 0.7)]
        cv2.fillPoly(img, [np.int32(pts)], 255, cv2.LINE_AA)
    elif face == "secure":   # a cross
        t = int(r * 0.32)
        cv2.rectangle(img, (int(c - t), int(c - r)), (int(c + t), int(c + r)), 255, -1)
        cv2.rectangle(img, (int(c - r), int(c - t)), (int(c + r), int(c + t)), 255, -1)
    elif face == "relocate":  # a ring with a dot off-centre
        cv2.circle(img, (int(c), int(c)), int(r), 255, int(r * 0.25), cv2.LINE_AA)
        cv2.circle(img, (int(c + r * 0.35), int(c - r * 0.35)), int(r * 0.2), 255, -1, cv2.LINE_AA)
    elif face == "wild":     # a lightning bolt
        pts = [(c + r * 0.2, c - r), (c - r * 0.55, c + r * 0.1), (c - r * 0.05, c + r * 0.1),
               (c - r * 0.25, c + r), (c + r * 0.55, c - r * 0.15), (c + r * 0.05, c - r * 0.15)]
        cv2.fillPoly(img, [np.int32(pts)], 255, cv2.LINE_AA)
    else:
        raise ValueError(f"no stand-in symbol for {face!r}")
    return img


def _draw_symbol_die(canvas, rng, centre, side, face, body, ink, angle, light):
    h, w = canvas.shape[:2]
    outline = rounded_square(side, side * 0.15, angle) + centre
    shadow = outline - light * side * 0.12
    cv2.fillPoly(canvas, [np.int32(np.round(shadow * 4))], (canvas[int(centre[1]) % h, int(centre[0]) % w] * rng.uniform(0.6, 0.85))
                 .tolist(), cv2.LINE_AA, 2)
    cv2.fillPoly(canvas, [np.int32(np.round(outline * 4))], body.tolist(), cv2.LINE_AA, 2)
    sym = draw_symbol(face, 96).astype(np.float32) / 255.0
    scale = side * 0.9 / 96
    m = cv2.getRotationMatrix2D((48, 48), -math.degrees(angle), scale)
    m[0, 2] += centre[0] - 48
    m[1, 2] += centre[1] - 48
    mask = cv2.warpAffine(sym, m, (w, h))[..., None]
    canvas[:] = canvas * (1 - mask) + ink * mask
    return outline


def render_symbols(rng: np.random.Generator, size: tuple[int, int] = (960, 720), *, faces=None, n: int | None = None,
                   side: float | None = None, set_colours=None, tables=("wood", "felt", "plain", "cloth", "dark")
                   ) -> tuple[np.ndarray, list[dict]]:
    """A photo of symbol dice and their truth [{"face", "box"}]. `set_colours` = (body BGR, ink BGR) keeps one die
    set's look across photos (teach photos and game photos of the same dice)."""
    w, h = size
    if set_colours is None:
        body = rng.uniform(150, 255, 3)
        ink = rng.uniform(0, 90, 3)
        if rng.random() < 0.4:
            body, ink = ink * 0.6, body
    else:
        body, ink = (np.asarray(c, np.float32) for c in set_colours)
    for _ in range(20):     # a table a person can tell the dice from (a dark die on a dark cloth is not fair)
        canvas = random_table(rng, (h, w), kinds=tables).astype(np.float32)
        if abs(float(canvas.mean()) - float(np.mean(body))) > 70:
            break
    n = int(rng.integers(1, 6)) if n is None else n
    side = float(rng.uniform(50, 90)) if side is None else side
    light = rng.normal(size=2)
    light /= np.linalg.norm(light)
    truths, placed = [], []
    for i in range(n):
        for _ in range(100):
            c = rng.uniform([side * 1.2, side * 1.2], [w - side * 1.2, h - side * 1.2])
            if all(np.linalg.norm(c - p) > side * 1.6 for p in placed):
                break
        else:
            continue
        placed.append(c)
        face = faces[i % len(faces)] if faces else FACES[int(rng.integers(6))]
        outline = _draw_symbol_die(canvas, rng, c, side * rng.uniform(0.95, 1.05), face,
                                   np.asarray(body, np.float32) * rng.uniform(0.9, 1.05), np.asarray(ink, np.float32),
                                   rng.uniform(0, 2 * math.pi), light)
        truths.append((face, outline))
    m = perspective_matrix(rng, w, h, strength=rng.uniform(0, 0.08))
    photo = cv2.warpPerspective(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    photo = finish_photo(photo, rng, blur=rng.choice([0, 0.6, 1.0]), noise=rng.uniform(0, 5))
    out = []
    for face, outline in truths:
        q = transform_points(m, outline)
        out.append({"face": face, "box": [float(v) for v in (*q.min(0), *q.max(0))]})
    return photo, out
