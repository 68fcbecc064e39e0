"""Rendered photos of rolled D6 dice with their truth: training data, tests, and the `sim://dice` camera.

The scenes are deliberately unlike the shared photos (one table, one tray, white light): wood, felt, cloth, dark
and patterned tables; white, black, coloured, translucent and marbled dice from 14 to 110 pixels; tilted dice that
show a side; shadows, a slanted camera, uneven light, blur, noise and JPEG loss; paper scraps with dots and coins
as distractors. `style` picks a family of scenes so that a measurement can hold some families out of training.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .scene import (finish_photo, perspective_matrix, random_table, rounded_square, transform_points)

# Pip centres on a face spanning [-1, 1] (the usual Western layout: 6 is two columns of three).
_A = 0.52
PIPS = {
    1: [(0, 0)],
    2: [(-_A, -_A), (_A, _A)],
    3: [(-_A, -_A), (0, 0), (_A, _A)],
    4: [(-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)],
    5: [(-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)],
    6: [(-_A, -_A), (_A, -_A), (-_A, 0), (_A, 0), (-_A, _A), (_A, _A)],
}

BODY_STYLES = ("opaque", "translucent", "marbled")


@dataclass(frozen=True)
class DieTruth:
    face: int
    box: tuple[float, float, float, float]


def _body_colour(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(body, pips) colours in BGR, with enough contrast to be read by a person."""
    kind = rng.choice(["white", "black", "colour", "colour", "pastel", "ivory"])
    if kind == "white":
        body = rng.uniform(215, 255, 3)
    elif kind == "ivory":
        body = np.array([rng.uniform(170, 215), rng.uniform(210, 240), rng.uniform(225, 255)])
    elif kind == "black":
        body = rng.uniform(10, 50, 3)
    else:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(120, 256) if kind == "colour" else rng.integers(40, 120),
                          rng.integers(90, 256) if kind == "colour" else rng.integers(180, 256)]]])
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
    lum = body @ [0.114, 0.587, 0.299]
    if lum > 140:
        pips = rng.choice([rng.uniform(0, 60, 3), np.array([rng.uniform(0, 80), rng.uniform(0, 60), rng.uniform(100, 220)]),
                           rng.uniform(0, 60, 3) + [rng.uniform(0, 150), 0, 0]])
    else:
        # dark bodies also come with strongly coloured pips (smoke dice with red pips, black with gold): a colour
        # the face net must count by shape, not by light-on-dark
        coloured = cv2.cvtColor(np.uint8([[[rng.integers(0, 180), rng.integers(150, 256), rng.integers(150, 256)]]]),
                                cv2.COLOR_HSV2BGR)[0, 0].astype(float)
        pips = rng.choice([rng.uniform(215, 255, 3), rng.uniform(200, 255, 3) * [0.7, 0.95, 1.0], coloured,
                           rng.uniform(0, 40, 3) if lum > 90 and rng.random() < 0.3 else rng.uniform(215, 255, 3)])
    return body, np.asarray(pips, float)


def _smoke_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(body, pips) of a smoke die: a dark grey or brown see-through body, pips red, white or gold."""
    body = rng.uniform(35, 95) * np.array([rng.uniform(0.8, 1.0), rng.uniform(0.85, 1.0), 1.0])
    red = np.array([rng.uniform(0, 60), rng.uniform(0, 60), rng.uniform(150, 235)])
    white = rng.uniform(210, 255, 3)
    gold = np.array([rng.uniform(0, 60), rng.uniform(150, 210), rng.uniform(200, 250)])
    pips = rng.choice([red, white, gold])
    return body, np.asarray(pips, float)


def _marble(rng, shape) -> np.ndarray:
    """A swirl in [0, 1]: sines of a noisy field, like marbled resin."""
    h, w = shape
    small = cv2.resize(rng.random((6, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    f = rng.uniform(0.05, 0.15)
    return (0.5 + 0.5 * np.sin(xx * f + yy * f * rng.uniform(-1, 1) + small * rng.uniform(6, 14))).astype(np.float32)


def draw_die(canvas: np.ndarray, rng: np.random.Generator, centre, side: float, face: int, *, angle: float,
             tilt: np.ndarray, body: np.ndarray, pips: np.ndarray, style: str, light: np.ndarray,
             smoke: bool = False) -> np.ndarray:
    """Draws one die (shadow, visible sides, top face with its pips) on `canvas` (float32 BGR, in place).
    Returns the silhouette's corner points (for the box). Works in a window around the die, for speed."""
    H, W = canvas.shape[:2]
    pad = side * 1.6 + np.abs(tilt).max()
    x0, y0 = int(max(0, centre[0] - pad)), int(max(0, centre[1] - pad))
    x1, y1 = int(min(W, centre[0] + pad + 1)), int(min(H, centre[1] + pad + 1))
    hull = _draw_die(canvas[y0:y1, x0:x1], rng, (centre[0] - x0, centre[1] - y0), side, face, angle=angle, tilt=tilt,
                     body=body, pips=pips, style=style, light=light, smoke=smoke)
    return hull + [x0, y0]


def _draw_die(canvas, rng, centre, side, face, *, angle, tilt, body, pips, style, light, smoke=False):
    cx, cy = centre
    top = rounded_square(side, radius=side * rng.uniform(0.08, 0.22), angle=angle) + [cx, cy]
    base = top + tilt                                   # the bottom edge seen through the tilt: the sides show
    hull = cv2.convexHull(np.vstack([top, base]).astype(np.float32))[:, 0, :]
    h, w = canvas.shape[:2]
    # Shadow: the hull pushed away from the light, blurred, multiplied in.
    shadow = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(shadow, np.round((hull - light * side * 0.25) * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
    k = int(side * 0.35) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    canvas *= (1 - shadow * rng.uniform(0.25, 0.55))[..., None]

    layer = np.zeros_like(canvas)
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(layer, np.round(hull * 4).astype(np.int32), (body * rng.uniform(0.45, 0.75)).tolist(),
                       cv2.LINE_AA, 2)
    cv2.fillConvexPoly(mask, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
    top_mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(top_mask, [np.round(top * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
    shade = np.clip(1.0 + rng.uniform(-0.15, 0.15), 0.7, 1.2)
    top_colour = np.clip(body * shade, 0, 255)
    layer = layer * (1 - top_mask[..., None]) + top_mask[..., None] * top_colour
    if style == "marbled" or smoke:
        x0, y0 = np.floor(hull.min(0)).astype(int).clip(0)
        x1, y1 = np.ceil(hull.max(0)).astype(int) + 1
        x1, y1 = min(x1, w), min(y1, h)
        if x1 > x0 and y1 > y0:
            if smoke:       # a smoke die's swirl is its own colour, lighter and darker
                other = np.clip(body * rng.uniform(0.4, 1.8), 0, 255)
            else:
                other = np.clip(body[::-1] * rng.uniform(0.6, 1.4) + rng.uniform(-60, 60, 3), 0, 255)
            m = _marble(rng, (y1 - y0, x1 - x0))[..., None] * rng.uniform(0.4, 0.9)
            layer[y0:y1, x0:x1] = layer[y0:y1, x0:x1] * (1 - m) + other * m
    # Pips: dark (or light) discs with a soft inner shade, rotated with the face.
    r = side * rng.uniform(0.085, 0.115)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    half = side / 2 * rng.uniform(0.92, 1.0)
    if style == "translucent":
        # Through a translucent body the bottom face's pips show, mirrored, smaller and shifted toward the tilt's
        # far side: faint extra pips that a reader counting blobs would add (the shared photos' smoke dice do this).
        faint = rng.uniform(0.25, 0.6)
        for p in PIPS[7 - face]:
            shrink, drift = rng.uniform(0.7, 0.85), rng.uniform(0.6, 1.0)     # each pip a little apart: refraction
            q = rot @ (np.array((-p[0], p[1])) * half * shrink) + [cx, cy] + tilt * drift
            blob = np.zeros((h, w), np.float32)
            cv2.circle(blob, tuple(np.round(q * 4).astype(int)), int(round(r * 0.85 * 4)), faint, -1, cv2.LINE_AA, 2)
            blob *= top_mask
            layer = layer * (1 - blob[..., None]) + pips * blob[..., None]
    # a smoke die's pips are cups in clear resin: their rim catches the light, a pale ring round the paint
    rim = np.clip(pips * 0.35 + 255 * 0.65, 0, 255) if smoke else None
    rim_r = r * rng.uniform(1.12, 1.3) if smoke else r
    spots = [tuple(np.round((rot @ (np.array(p) * half) + [cx, cy]) * 4).astype(int)) for p in PIPS[face]]
    for q in spots:
        if rim is not None:
            cv2.circle(layer, q, int(round(rim_r * 4)), rim.tolist(), -1, cv2.LINE_AA, 2)
        cv2.circle(layer, q, int(round(r * 4)), pips.tolist(), -1, cv2.LINE_AA, 2)
    alpha = mask
    if style == "translucent":
        alpha = mask * rng.uniform(0.55, 0.8)
        edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        layer += edge[..., None] * 60
        # pips stay opaque on a translucent die
        pipmask = np.zeros((h, w), np.float32)
        for q in spots:
            cv2.circle(pipmask, q, int(round(rim_r * 4)), 1.0, -1, cv2.LINE_AA, 2)
        alpha = np.maximum(alpha, pipmask)
    canvas[:] = canvas * (1 - alpha[..., None]) + layer * alpha[..., None]
    # A highlight along the lit edge.
    spec = np.zeros((h, w), np.float32)
    cv2.polylines(spec, [np.round(top * 4).astype(np.int32)], True, 1.0, max(1, int(side * 0.04)) * 1, cv2.LINE_AA, 2)
    canvas += (spec * rng.uniform(0, 50))[..., None]
    return hull


def _distractors(canvas: np.ndarray, rng: np.random.Generator, base_side: float) -> None:
    """Things on a table that are not dice: coins, paper scraps with printed dots, pencils, game tokens."""
    h, w = canvas.shape[:2]
    for _ in range(rng.integers(0, 5)):
        kind = rng.choice(["coin", "paper", "stick", "token"])
        c = rng.uniform([0, 0], [w, h])
        colour = rng.uniform(0, 255, 3).tolist()
        if kind == "coin":
            cv2.circle(canvas, tuple(np.round(c * 4).astype(int)), int(base_side * rng.uniform(0.3, 0.6) * 4), colour,
                       -1, cv2.LINE_AA, 2)
        elif kind == "paper":
            pts = rounded_square(base_side * rng.uniform(1.2, 3), radius=1, angle=rng.uniform(0, math.pi)) + c
            cv2.fillPoly(canvas, [np.round(pts * 4).astype(np.int32)], rng.uniform(200, 255, 3).tolist(), cv2.LINE_AA, 2)
            for _ in range(rng.integers(1, 8)):  # printed dots and letters: not pips of a die
                q = c + rng.uniform(-base_side * 0.5, base_side * 0.5, 2)
                cv2.circle(canvas, tuple(np.round(q * 4).astype(int)), int(base_side * 0.06 * 4) + 1,
                           rng.uniform(0, 80, 3).tolist(), -1, cv2.LINE_AA, 2)
        elif kind == "stick":
            d = rng.normal(size=2)
            d = d / (np.linalg.norm(d) + 1e-9) * base_side * rng.uniform(2, 6)
            cv2.line(canvas, tuple(np.round((c - d) * 4).astype(int)), tuple(np.round((c + d) * 4).astype(int)),
                     colour, int(base_side * 0.15 * 4) + 1, cv2.LINE_AA, 2)
        else:
            cv2.circle(canvas, tuple(np.round(c * 4).astype(int)), int(base_side * rng.uniform(0.4, 0.8) * 4), colour,
                       -1, cv2.LINE_AA, 2)


def render_dice(rng: np.random.Generator, size: tuple[int, int] = (640, 640), *, n: int | None = None,
                side: float | None = None, faces: list[int] | None = None, style: str | None = None,
                tables: tuple[str, ...] | None = None, smoke: float = 0.0) -> tuple[np.ndarray, list[DieTruth]]:
    """A photo (uint8 BGR, `size` = (width, height)) of rolled dice and the truth for each die: face and box (the
    die's outline, corners included, after the camera's perspective). `smoke`: the share of translucent dice drawn
    as smoke dice (dark, swirled, pips with a pale rim); at 0 no random draw is spent on it, so the scenes are
    those of the renderer before smoke dice (the finder's training and the tests' seeds)."""
    w, h = size
    canvas = random_table(rng, (h, w), kinds=tables).astype(np.float32)
    n = int(n if n is not None else rng.integers(1, 26))
    base = float(side if side is not None else rng.uniform(16, 95) * min(w, h) / 640)
    _distractors(canvas, rng, base)
    light = rng.normal(size=2)
    light /= np.linalg.norm(light) + 1e-9
    placed: list[tuple[np.ndarray, float]] = []
    truths = []
    same_set = rng.random() < 0.5
    colours = _body_colour(rng)
    die_style = style or rng.choice(BODY_STYLES, p=[0.6, 0.2, 0.2])
    for i in range(n):
        s = base * rng.uniform(0.85, 1.15)
        edge = min(s, min(w, h) / 2 - 1)                  # a close-up's die may reach past the photo's edge
        for _attempt in range(30):
            c = rng.uniform([edge, edge], [w - edge, h - edge])
            if all(np.linalg.norm(c - pc) > (s + ps) * 0.8 for pc, ps in placed):
                break
        else:
            continue
        placed.append((c, s))
        face = int(faces[i % len(faces)] if faces else rng.integers(1, 7))
        tilt_dir = (c - [w / 2, h / 2]) / max(w, h)            # a camera above the middle sees the outer sides
        tilt = tilt_dir * s * rng.uniform(0.1, 0.6) + rng.normal(0, 0.04, 2) * s
        body, pips = colours if same_set else _body_colour(rng)
        st = die_style if same_set else (style or rng.choice(BODY_STYLES, p=[0.6, 0.2, 0.2]))
        smoky = bool(smoke) and st == "translucent" and rng.random() < smoke
        if smoky:
            body, pips = _smoke_colours(rng)
        hull = draw_die(canvas, rng, c, s, face, angle=rng.uniform(0, math.pi / 2), tilt=tilt, body=body, pips=pips,
                        style=st, light=light, smoke=smoky)
        truths.append((face, hull))
    m = perspective_matrix(rng, w, h, strength=rng.uniform(0, 0.12))
    canvas = cv2.warpPerspective(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    out = []
    for face, hull in truths:
        q = transform_points(m, hull)
        x0, y0 = np.clip(q.min(0), 0, [w, h])
        x1, y1 = np.clip(q.max(0), 0, [w, h])
        if (x1 - x0) > 4 and (y1 - y0) > 4:
            out.append(DieTruth(face, (float(x0), float(y0), float(x1), float(y1))))
    return finish_photo(canvas, rng), out
