"""Rendered photos of an Obelisk map with marker stickers, obelisk dice on corners, hands and glare, with the truth.

The truth is what a careful person would say from the photo: the map notation with every cell whose sticker a hand
covers (or that lies outside the picture) as unknown ("??"), and the obelisks whose die is fully in view.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..stickers import STICKER_SHARE, TILE_KINDS, marker_image
from .dice import draw_die
from .scene import finish_photo, perspective_matrix, random_table, transform_points

KIND_COLOURS = {  # BGR, as printed-ish
    "P": (150, 60, 120), "G": (90, 190, 140), "F": (40, 110, 50), "C": (200, 170, 80), "M": (130, 130, 140),
}
OBELISK_COLOURS = {"blue": (200, 90, 30), "yellow": (40, 200, 235), "green": (60, 160, 40), "black": (30, 30, 30)}
DIRS = "NESW"


def random_map(rng: np.random.Generator, empty: int | None = None) -> list[list[str]]:
    """A shuffled 5x5 map as cells ('FE', '--', …); mountains removed (empty) unless `empty` says how many stay."""
    ids = rng.permutation(len(TILE_KINDS))
    cells = [[TILE_KINDS[ids[r * 5 + c]] + DIRS[rng.integers(4)] for c in range(5)] for r in range(5)]
    gone = rng.integers(0, 5) if empty is None else empty
    mountains = [(r, c) for r in range(5) for c in range(5) if cells[r][c][0] == "M"]
    for r, c in mountains[:gone]:
        cells[r][c] = "--"
    return cells


def notation(cells: list[list[str]]) -> str:
    return " / ".join(" ".join(row) for row in cells)


def _tile_art(kind: str, direction: str, px: int, rng: np.random.Generator) -> np.ndarray:
    """A tile's face: its land's colour and texture and its arrow (BGR float)."""
    base = np.array(KIND_COLOURS[kind], np.float32) * rng.uniform(0.85, 1.1)
    tile = np.ones((px, px, 3), np.float32) * base
    for _ in range(int(rng.integers(5, 15))):
        c = tuple(int(v) for v in rng.integers(0, px, 2))
        cv2.circle(tile, c, int(rng.integers(px // 20, px // 7)), (base * rng.uniform(0.6, 1.3)).tolist(), -1,
                   cv2.LINE_AA)
    # the printed arrow along one edge, pointing in the tile's direction
    a = np.array([[0.5, 0.92], [0.5, 0.72]]) * px
    cv2.arrowedLine(tile, tuple(a[0].astype(int)), tuple(a[1].astype(int)), (240, 240, 240), max(2, px // 40),
                    cv2.LINE_AA, tipLength=0.5)
    k = DIRS.index(direction)
    return np.ascontiguousarray(np.rot90(tile, -k))     # N: arrow up; E: turned a quarter clockwise …


def _hand(canvas: np.ndarray, rng: np.random.Generator, reach: float) -> np.ndarray:
    """A hand and forearm reaching in from an edge (skin tone); returns its mask."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    edge = rng.integers(4)
    start = [(rng.uniform(0, w), -20), (w + 20, rng.uniform(0, h)), (rng.uniform(0, w), h + 20),
             (-20, rng.uniform(0, h))][edge]
    centre = np.array([w / 2, h / 2]) + rng.normal(0, 0.25, 2) * [w, h]
    d = centre - start
    end = np.array(start) + d * reach
    width = int(min(w, h) * rng.uniform(0.07, 0.11))
    cv2.line(mask, tuple(np.int32(start)), tuple(np.int32(end)), 1.0, width * 2, cv2.LINE_AA)
    cv2.circle(mask, tuple(np.int32(end)), int(width * 1.3), 1.0, -1, cv2.LINE_AA)
    ang = math.atan2(d[1], d[0])
    for k in range(4):                                   # fingers
        a = ang + (k - 1.5) * 0.3
        tip = end + np.array([math.cos(a), math.sin(a)]) * width * rng.uniform(1.8, 2.6)
        cv2.line(mask, tuple(np.int32(end)), tuple(np.int32(tip)), 1.0, int(width * 0.5), cv2.LINE_AA)
    skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(140, 240)], np.float32)
    m = cv2.GaussianBlur(mask, (5, 5), 0)[..., None]
    canvas[:] = canvas * (1 - m) + skin * m
    return mask


def render_map(rng: np.random.Generator, size: tuple[int, int] = (1280, 960), *, cells=None, obelisks=None,
               hands: int | None = None, glare: bool | None = None, corner_markers: bool | None = None,
               slant: float | None = None, tables: tuple[str, ...] | None = None) -> tuple[np.ndarray, dict]:
    """A photo of the map (uint8 BGR) and its truth: {"map", "obelisks", "cells": 5x5 of cell-or-'??'}."""
    w, h = size
    cells = cells or random_map(rng)
    tile_px = 120
    gap = int(rng.uniform(0, 6))
    margin = tile_px * 2
    board = 5 * tile_px + 4 * gap
    plane_side = board + 2 * margin
    plane = random_table(rng, (plane_side, plane_side), kinds=tables).astype(np.float32)
    ids = {}
    used: dict[str, list[int]] = {}
    for k, kind in enumerate(TILE_KINDS):
        used.setdefault(kind, []).append(k)
    sticker_centres = {}
    for r in range(5):
        for c in range(5):
            cell = cells[r][c]
            if cell == "--":
                continue
            kind, direction = cell[0], cell[1]
            marker_id = used[kind].pop(int(rng.integers(len(used[kind]))))
            ids[(r, c)] = marker_id
            x0 = margin + c * (tile_px + gap)
            y0 = margin + r * (tile_px + gap)
            art = _tile_art(kind, direction, tile_px, rng)
            s = int(tile_px * STICKER_SHARE)
            m = marker_image(marker_id, s)
            m = np.rot90(m, -DIRS.index(direction))           # the sticker's arrow along the tile's arrow
            o = (tile_px - s) // 2
            art[o:o + s, o:o + s] = m[..., None].astype(np.float32) * rng.uniform(0.85, 1.0)
            plane[y0:y0 + tile_px, x0:x0 + tile_px] = art
            sticker_centres[(r, c)] = (x0 + tile_px / 2, y0 + tile_px / 2, s)
    use_corners = rng.random() < 0.5 if corner_markers is None else corner_markers
    if use_corners:
        s = int(tile_px * STICKER_SHARE)
        for marker_id, (cr, cc) in zip((25, 26, 27, 28), ((-1, -1), (-1, 5), (5, 5), (5, -1))):
            x = int(margin + cc * (tile_px + gap) + (tile_px - s) / 2)
            y = int(margin + cr * (tile_px + gap) + (tile_px - s) / 2)
            plane[y:y + s, x:x + s] = marker_image(marker_id, s)[..., None]
    # obelisk dice on free corners
    truth_obelisks = []
    if obelisks is None:
        obelisks = []
        corners = [(i, j) for i in range(6) for j in range(6)]
        for k in rng.permutation(len(corners))[:int(rng.integers(0, 8))]:
            obelisks.append({"corner": list(corners[k]), "colour": str(rng.choice(list(OBELISK_COLOURS))),
                             "strength": int(rng.integers(1, 7))})
    light = rng.normal(size=2)
    light /= np.linalg.norm(light)
    die_hulls = []
    for ob in obelisks:
        i, j = ob["corner"]
        cx = margin + j * (tile_px + gap) - gap / 2
        cy = margin + i * (tile_px + gap) - gap / 2
        body = np.array(OBELISK_COLOURS[ob["colour"]], float) * rng.uniform(0.85, 1.1)
        pips = np.array([245, 245, 245.0]) if ob["colour"] in ("black", "blue", "green") else np.array([30, 30, 30.0])
        hull = draw_die(plane, rng, (cx, cy), tile_px * rng.uniform(0.30, 0.36), ob["strength"],
                        angle=rng.uniform(0, math.pi / 2), tilt=rng.normal(0, 3, 2), body=body, pips=pips,
                        style="opaque", light=light)
        die_hulls.append((ob, hull))
    # the camera: plane → photo, slanted and turned a little
    fit = min(w, h) * rng.uniform(0.75, 0.95) / board
    rot = math.radians(rng.uniform(-12, 12))
    c, s_ = math.cos(rot) * fit, math.sin(rot) * fit
    centre_plane = plane_side / 2
    a = np.array([[c, -s_, w / 2 - (c * centre_plane - s_ * centre_plane)],
                  [s_, c, h / 2 - (s_ * centre_plane + c * centre_plane)], [0, 0, 1]])
    p = perspective_matrix(rng, w, h, strength=rng.uniform(0.0, 0.16) if slant is None else slant)
    m = p @ a
    photo = cv2.warpPerspective(plane, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    hidden = np.zeros((h, w), np.float32)
    n_hands = int(rng.integers(0, 3)) if hands is None else hands
    for _ in range(n_hands):
        hidden = np.maximum(hidden, _hand(photo, rng, rng.uniform(0.3, 0.9)))
    if glare if glare is not None else rng.random() < 0.5:
        g = np.zeros((h, w), np.float32)
        cv2.ellipse(g, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(40, w / 4)), int(rng.uniform(30, h / 5))), rng.uniform(0, 180), 0, 360, 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), rng.uniform(10, 40))
        photo += (g * rng.uniform(80, 220))[..., None]
    photo = finish_photo(photo, rng, blur=rng.choice([0, 0.5, 1.0, 1.5]), noise=rng.uniform(0, 6))
    # truth: a cell is unknown when its sticker is covered by a hand or leaves the photo
    truth_cells = [row[:] for row in cells]
    for (r, cc), (x, y, s) in sticker_centres.items():
        corners = np.array([[x - s / 2, y - s / 2], [x + s / 2, y - s / 2], [x + s / 2, y + s / 2],
                            [x - s / 2, y + s / 2]])
        q = transform_points(m, corners)
        inside = (q[:, 0] >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] >= 0).all() and (q[:, 1] < h).all()
        poly = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(poly, np.int32(np.round(q)), 1)
        covered = hidden[poly > 0].mean() if poly.any() else 1.0
        if not inside or covered > 0.02:
            truth_cells[r][cc] = "??"
    for ob, hull in die_hulls:
        q = transform_points(m, hull)
        inside = (q >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] < h).all()
        poly = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(poly, np.int32(np.round(cv2.convexHull(np.float32(q))[:, 0])), 1)
        if inside and hidden[poly > 0].mean() < 0.02:
            truth_obelisks.append(dict(ob, box=[float(v) for v in (*q.min(0), *q.max(0))]))
    return photo, {"map": notation(cells), "cells": truth_cells, "obelisks": truth_obelisks,
                   "ids": {f"{r},{c}": i for (r, c), i in ids.items()}, "corner_markers": use_corners}
