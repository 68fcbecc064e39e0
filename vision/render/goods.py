"""Rendered photos of Obscurians goods in front of each player, with the truth (per zone and kind) and the zones.

Goods are small wooden cubes in seven colours; the magic lamp and the cursed artifact are larger pieces of their
own colour. Pieces of one kind often touch (a player's heap). `calibration_scene` lays one piece of each kind with
the points a person would tap.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .scene import finish_photo, perspective_matrix, rounded_square, transform_points

KIND_BGR = {
    "red": (40, 35, 200), "orange": (30, 125, 240), "yellow": (40, 215, 240), "green": (60, 160, 40),
    "blue": (190, 90, 25), "pink": (190, 120, 245), "turquoise": (190, 185, 30),
    "lamp": (215, 215, 220), "artifact": (45, 25, 60),
}
PLAYERS = ("north", "east", "south", "west")


def _table(rng, h, w) -> np.ndarray:
    base = rng.uniform([40, 60, 90], [110, 140, 190])       # wood-ish browns, never a goods colour
    img = np.ones((h, w, 3), np.float32) * base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img *= (0.9 + 0.1 * np.sin(xx * rng.uniform(0.02, 0.08) + yy * 0.01))[..., None]
    return img


def _piece(canvas, rng, centre, side, kind, light):
    """One piece: a cube seen from above (square with a darker side) or, for lamp/artifact, a larger disc/shape."""
    colour = np.array(KIND_BGR[kind], np.float32) * rng.uniform(0.9, 1.08)
    if kind in ("lamp", "artifact"):
        side *= 1.6
        pts = rounded_square(side, side * 0.45, rng.uniform(0, math.pi)) + centre
    else:
        pts = rounded_square(side, side * 0.08, rng.uniform(0, math.pi / 2)) + centre
    shadow = (pts - light * side * 0.15)
    cv2.fillPoly(canvas, [np.int32(np.round(shadow * 4))], (canvas[int(centre[1]) % canvas.shape[0],
                                                                   int(centre[0]) % canvas.shape[1]] * 0.6).tolist(),
                 cv2.LINE_AA, 2)
    cv2.fillPoly(canvas, [np.int32(np.round(pts * 4))], (colour * 0.8).tolist(), cv2.LINE_AA, 2)
    inner = (pts - centre) * 0.85 + centre + light * side * 0.04
    cv2.fillPoly(canvas, [np.int32(np.round(inner * 4))], colour.tolist(), cv2.LINE_AA, 2)


def _zones(w, h):
    """Four player zones along the table's edges (polygons, before the camera's slant)."""
    m = 0.04
    return {
        "north": [[w * 0.2, h * m], [w * 0.8, h * m], [w * 0.8, h * 0.3], [w * 0.2, h * 0.3]],
        "south": [[w * 0.2, h * 0.7], [w * 0.8, h * 0.7], [w * 0.8, h * (1 - m)], [w * 0.2, h * (1 - m)]],
        "west": [[w * m, h * 0.2], [w * 0.18, h * 0.2], [w * 0.18, h * 0.8], [w * m, h * 0.8]],
        "east": [[w * 0.82, h * 0.2], [w * (1 - m), h * 0.2], [w * (1 - m), h * 0.8], [w * 0.82, h * 0.8]],
    }


def _scatter(rng, zone, count, side, taken):
    """`count` piece centres inside `zone`, in heaps: some touching, none overlapping."""
    poly = np.array(zone, np.float32)
    x0, y0 = poly.min(0) + side
    x1, y1 = poly.max(0) - side
    out = []
    for _ in range(count):
        for _attempt in range(200):
            if out and rng.random() < 0.5:      # next to the last piece: a heap
                a = rng.uniform(0, 2 * math.pi)
                c = out[-1] + np.array([math.cos(a), math.sin(a)]) * side * rng.uniform(1.5, 1.7)
            else:
                c = rng.uniform([x0, y0], [x1, y1])
            if not (x0 <= c[0] <= x1 and y0 <= c[1] <= y1):
                continue
            if all(np.linalg.norm(c - t) > side * 1.5 for t in taken + out):
                out.append(c)
                break
    taken += out
    return out


def render_goods(rng: np.random.Generator, size: tuple[int, int] = (1280, 960), *, counts=None, camera=None,
                 table: int | None = None, lighting: bool = True) -> tuple[np.ndarray, dict]:
    """A photo of the goods in four zones and its truth: {"zones": polygons in the photo, "counts": {zone: {kind:
    n}}, "camera": the plane-to-photo matrix, "table": the table's seed (pass both back for the same table)}."""
    w, h = size
    table = int(rng.integers(1 << 30)) if table is None else table
    canvas = _table(np.random.default_rng(table), h, w)
    side = min(w, h) * 0.035
    light = rng.normal(size=2)
    light /= np.linalg.norm(light)
    zones = _zones(w, h)
    if counts is None:
        counts = {}
        extras = list(rng.permutation(["lamp", "artifact", None, None]))
        for z in PLAYERS:
            c = {k: int(rng.integers(0, 5)) if rng.random() < 0.6 else 0 for k in KIND_BGR if k not in ("lamp", "artifact")}
            extra = extras.pop()
            if extra:
                c[extra] = 1
            counts[z] = c
    taken: list = []
    placed = {z: {} for z in counts}
    for z, c in counts.items():
        for kind, n in c.items():
            pts = _scatter(rng, zones[z], n * 1, side * (1.6 if kind in ("lamp", "artifact") else 1.0), taken)
            placed[z][kind] = len(pts)
            for p in pts:
                _piece(canvas, rng, p, side, kind, light)
    m = camera if camera is not None else perspective_matrix(rng, w, h, strength=rng.uniform(0, 0.08))
    photo = cv2.warpPerspective(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    if lighting:
        photo = finish_photo(photo, rng, blur=rng.choice([0, 0.6]), noise=rng.uniform(0, 4), jpeg=90)
    else:
        photo = finish_photo(photo, np.random.default_rng(0), blur=0, noise=0, jpeg=95)
    zones_px = {z: transform_points(m, np.array(p)).tolist() for z, p in zones.items()}
    truth_counts = {z: {k: n for k, n in c.items() if n} for z, c in placed.items()}
    return photo, {"zones": zones_px, "counts": truth_counts, "camera": m, "table": table}


def calibration_scene(rng: np.random.Generator, size=(1280, 960), camera=None, table: int | None = None
                      ) -> tuple[np.ndarray, dict]:
    """One piece of each kind in a row in the middle, as a group lays them to calibrate; the taps are their
    middles. Returns (photo, {"zones", "samples", "camera", "table"})."""
    w, h = size
    table = int(rng.integers(1 << 30)) if table is None else table
    canvas = _table(np.random.default_rng(table), h, w)
    side = min(w, h) * 0.035
    light = np.array([0.6, 0.8])
    kinds = list(KIND_BGR)
    points = {}
    for i, kind in enumerate(kinds):
        c = np.array([w * (0.25 + 0.5 * i / (len(kinds) - 1)), h / 2])
        _piece(canvas, rng, c, side, kind, light)
        points[kind] = c
    m = camera if camera is not None else perspective_matrix(rng, w, h, strength=0.05)
    photo = finish_photo(cv2.warpPerspective(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT), rng, blur=0,
                         noise=2, jpeg=92)
    zones_px = {z: transform_points(m, np.array(p)).tolist() for z, p in _zones(w, h).items()}
    samples = {k: transform_points(m, p[None])[0].tolist() for k, p in points.items()}
    return photo, {"zones": zones_px, "samples": samples, "camera": m, "table": table}
