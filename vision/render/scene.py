"""What every rendered photo shares: a table top, the camera's slant, light, blur, noise and JPEG loss."""
from __future__ import annotations

import math

import cv2
import numpy as np

TABLES = ("wood", "felt", "plain", "cloth", "dark", "tiles", "paper")


def rounded_square(side: float, radius: float, angle: float = 0.0, steps: int = 4) -> np.ndarray:
    """Outline of a square of `side` centred on 0 with corners rounded by `radius`, turned by `angle`."""
    h = side / 2
    radius = min(max(radius, 0.0), h)
    pts = []
    for cx, cy, a0 in ((h - radius, h - radius, 0), (-h + radius, h - radius, 90),
                       (-h + radius, -h + radius, 180), (h - radius, -h + radius, 270)):
        for k in range(steps + 1):
            a = math.radians(a0 + 90 * k / steps)
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    pts = np.array(pts)
    c, s = math.cos(angle), math.sin(angle)
    return pts @ np.array([[c, s], [-s, c]])


def transform_points(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), m).reshape(-1, 2)


def perspective_matrix(rng: np.random.Generator, w: int, h: int, strength: float) -> np.ndarray:
    """A camera slanted by up to `strength` of the frame: each corner moves inwards at random."""
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.uniform(0, strength, (4, 2)) * [w, h]
    dst = src + np.float32([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * jitter
    # widen back so the table still fills the frame (corners outside are reflected)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _noise_field(rng, shape, cells) -> np.ndarray:
    h, w = shape
    small = rng.random((max(2, cells), max(2, cells))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def random_table(rng: np.random.Generator, shape: tuple[int, int], kinds: tuple[str, ...] | None = None) -> np.ndarray:
    """A table top (float32 BGR 0-255) of a random kind."""
    h, w = shape
    kind = rng.choice(list(kinds or TABLES))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(30, 90), rng.uniform(70, 140), rng.uniform(110, 200)])
        warp = _noise_field(rng, (h, w), 4) * rng.uniform(20, 60)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a) + warp
        grain = 0.5 + 0.5 * np.sin(u * rng.uniform(0.05, 0.3))
        img = base * (0.75 + 0.35 * grain[..., None])
    elif kind == "felt":
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(100, 255), rng.integers(50, 160)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        img = base * (0.9 + 0.2 * rng.random((h, w, 1)).astype(np.float32))
        img = cv2.GaussianBlur(img, (3, 3), 0)
    elif kind == "cloth":
        base = rng.uniform(40, 230, 3)
        f = rng.uniform(0.2, 0.9)
        weave = 0.5 + 0.25 * (np.sin(xx * f) + np.sin(yy * f))
        img = base * (0.8 + 0.3 * weave[..., None])
    elif kind == "dark":
        img = rng.uniform(10, 60, 3) * (0.8 + 0.4 * _noise_field(rng, (h, w), 8)[..., None])
    elif kind == "tiles":
        period = rng.uniform(40, 160)
        a, b = rng.uniform(60, 230, 3), rng.uniform(60, 230, 3)
        check = ((np.floor(xx / period) + np.floor(yy / period)) % 2)[..., None]
        img = a * check + b * (1 - check)
        grout = ((xx % period) < 3) | ((yy % period) < 3)
        img[grout] = rng.uniform(100, 200)
    elif kind == "paper":
        img = rng.uniform(200, 250, 3) * (0.95 + 0.05 * rng.random((h, w, 1)))
        for _ in range(rng.integers(0, 6)):   # ruled lines
            y = rng.integers(0, h)
            img[y:y + 2] = rng.uniform(100, 200, 3)
    else:  # plain, with a stain or two
        img = rng.uniform(60, 250, 3) * (0.9 + 0.2 * _noise_field(rng, (h, w), 3)[..., None])
    return np.clip(img, 0, 255).astype(np.float32)


def finish_photo(canvas: np.ndarray, rng: np.random.Generator, *, blur: float | None = None,
                 noise: float | None = None, jpeg: int | None = None) -> np.ndarray:
    """Light falling unevenly, lens blur, sensor noise, JPEG: float canvas in, uint8 photo out."""
    h, w = canvas.shape[:2]
    # uneven light: a linear gradient times a soft blob, and a colour cast
    g = rng.normal(size=2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = ((xx / w - 0.5) * g[0] + (yy / h - 0.5) * g[1]) * rng.uniform(0, 0.6)
    light = (1 + grad)[..., None] * rng.uniform(0.6, 1.25) * rng.uniform(0.85, 1.15, 3)
    canvas = canvas * light.astype(np.float32)
    blur = rng.choice([0, 0, 0.6, 1.0, 1.6]) if blur is None else blur
    if blur > 0:
        canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    sigma = rng.uniform(0, 8) if noise is None else noise
    if sigma > 0:
        canvas = canvas + rng.normal(0, sigma, canvas.shape).astype(np.float32)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    q = int(rng.integers(40, 96)) if jpeg is None else jpeg
    if q < 100:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img
