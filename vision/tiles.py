"""The Obelisk map from a photo: the tiles' marker stickers (vision/stickers.py) and the obelisk dice on corners.

1. Find the ArUco markers. Each is a square lying flat on the table, so one marker's corners give the table
   plane (a homography); all markers' corners together, each at its cell's middle, refine it (RANSAC drops a
   marker that does not fit the grid).
2. Snap every marker to its cell and its turn to N/E/S/W. "Up" is the photo's top (the side the camera faces),
   unless the corner markers say otherwise; they also fix the map's edges when a whole row is hidden.
3. A cell without a readable marker is unknown ("??"), never guessed: a hand, glare, or a removed tile are told
   apart by the players, who are asked.
4. Dice standing on tile corners are obelisks: their pips from the dice reader, their colour from their body.

Output in the Obelisk notation (issue 18): {"map": "PE GE … / …", "obelisks": [{"corner": [i, j], "colour",
"strength"}], "unknown": [[r, c], …]}.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .stickers import CORNER_IDS, STICKER_SHARE, TILE_KINDS, dictionary

DIRS = "NESW"
UNKNOWN = "??"
CORNER_CELLS = {25: (-1, -1), 26: (-1, 5), 27: (5, 5), 28: (5, -1)}   # (row, col) on the cell lattice
OBELISK_COLOURS = ("blue", "yellow", "green", "black")


@dataclass(frozen=True)
class Obelisk:
    corner: tuple[int, int]
    colour: str | None          # None when the die's colour is not one of the obelisks'
    strength: int
    confidence: float
    box: tuple[float, float, float, float]

    def to_json(self) -> dict:
        return {"corner": list(self.corner), "colour": self.colour, "strength": self.strength,
                "confidence": round(self.confidence, 3), "box": [round(v, 1) for v in self.box]}


@dataclass
class MapReading:
    cells: list[list[str]]                                   # 5x5 of "FE", "--" or "??"
    obelisks: list[Obelisk] = field(default_factory=list)
    markers: int = 0                                         # tile markers seen
    edges_known: bool = True                                 # False when the map's position was inferred
    problems: list[str] = field(default_factory=list)        # plain sentences (a marker seen twice, …)
    homography: np.ndarray | None = None                     # plane (cell units) → photo, for drawing overlays

    @property
    def notation(self) -> str:
        return " / ".join(" ".join(row) for row in self.cells)

    @property
    def unknown(self) -> list[list[int]]:
        return [[r, c] for r in range(5) for c in range(5) if self.cells[r][c] == UNKNOWN]

    def to_json(self) -> dict:
        return {"map": self.notation, "obelisks": [o.to_json() for o in self.obelisks], "unknown": self.unknown,
                "markers": self.markers, "edges_known": self.edges_known, "problems": self.problems}

    def describe(self) -> str:
        lines = [" ".join(row) for row in self.cells]
        lines += [f"obelisk at corner {o.corner[0]},{o.corner[1]}: {o.colour or 'unknown colour'} {o.strength}"
                  for o in self.obelisks]
        if self.unknown:
            lines.append(f"{len(self.unknown)} cells could not be read (shown as ??)")
        lines += self.problems
        return "\n".join(lines)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMax = 53
    return cv2.aruco.ArucoDetector(dictionary(), params)


def _canonical(row: float, col: float, turn: int, share: float) -> np.ndarray:
    """A marker's corners (top-left, top-right, bottom-right, bottom-left as printed) on the plane, in cell units
    (cell (r, c) centred at x=c, y=r), for a marker whose top faces direction `turn` (0 N, 1 E, 2 S, 3 W) and
    whose side is `share` of a cell."""
    h = share / 2
    pts = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    a = turn * math.pi / 2
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return pts @ rot.T + [col, row]


def _to_plane(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), m).reshape(-1, 2)


def _turn_of(plane_corners: np.ndarray) -> int:
    """Which way the marker's top (corner 0 → corner 1 edge, its outward normal) points on the plane."""
    top_mid = (plane_corners[0] + plane_corners[1]) / 2
    centre = plane_corners.mean(0)
    v = top_mid - centre                               # points from the middle towards the marker's top
    ang = math.atan2(v[0], -v[1])                       # 0 when pointing up (−y), clockwise positive
    return int(round(ang / (math.pi / 2))) % 4


def read_map(image: np.ndarray, dice_reader=None) -> MapReading:
    """The map and its obelisks in a BGR photo. `dice_reader` (vision.dice.DiceReader) is loaded when not given."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _rejected = _detector().detectMarkers(gray)
    reading = MapReading([[UNKNOWN] * 5 for _ in range(5)])
    if ids is None or len(ids) == 0:
        reading.edges_known = False
        reading.problems.append("no marker sticker found: is the map in view?")
        return reading
    ids = ids.ravel()
    quads = [c.reshape(4, 2).astype(np.float64) for c in corners]
    seen: dict[int, int] = {}
    for k, i in enumerate(ids):
        seen[int(i)] = seen.get(int(i), 0) + 1
    twice = sorted(i for i, n in seen.items() if n > 1)
    for i in twice:
        reading.problems.append(f"marker {i} is seen twice: those tiles are not read")
    keep = [k for k, i in enumerate(ids) if seen[int(i)] == 1 and (int(i) < len(TILE_KINDS) or int(i) in CORNER_IDS)]
    if not keep:
        reading.edges_known = False
        return reading
    # 1-2. the plane, tried from a few well-placed markers: the fit that puts the most markers on the grid wins
    sides = [math.sqrt(max(cv2.contourArea(quads[k].astype(np.float32)), 1.0)) for k in keep]
    centres_px = np.array([quads[k].mean(0) for k in keep])
    crowd = []
    for a, k in enumerate(keep):
        reach_px = 1.6 * sides[a] / STICKER_SHARE
        near = int((np.linalg.norm(centres_px - centres_px[a], axis=1) < reach_px).sum()) - 1
        crowd.append((int(ids[k]) < len(TILE_KINDS), near, sides[a], k))
    best = None
    for _tile, _near, _side, ref in sorted(crowd, reverse=True)[:3]:
        fit = _fit_plane(quads, ids, keep, ref)
        if best is None or len(fit[1]) > len(best[1]):
            best = fit
    img_to_plane, placed_final = best
    try:
        plane_to_img = np.linalg.inv(img_to_plane)
    except np.linalg.LinAlgError:
        reading.edges_known = False
        reading.problems.append("the markers do not lie on one plane: take the photo again from above")
        return reading
    # 3. which way is up, and where the 5x5 map lies on the lattice
    corner_marks = {i: (r, c, t) for i, r, c, t in placed_final if i in CORNER_IDS}
    tiles = [(i, r, c, t) for i, r, c, t in placed_final if i < len(TILE_KINDS)]
    reading.markers = len(tiles)
    turn = _up_turn(plane_to_img, corner_marks, tiles)
    tiles = [(i, *_rotate_cell(r, c, turn), (t - turn) % 4) for i, r, c, t in tiles]
    corner_marks = {i: _rotate_cell(r, c, turn) for i, (r, c, _t) in corner_marks.items()}
    origin, reading.edges_known = _origin(tiles, corner_marks, plane_to_img, turn, image.shape)
    r0, c0 = origin
    for i, r, c, t in tiles:
        rr, cc = r - r0, c - c0
        if 0 <= rr < 5 and 0 <= cc < 5:
            if reading.cells[rr][cc] != UNKNOWN:
                reading.problems.append(f"two markers on cell {rr},{cc}: it is not read")
                reading.cells[rr][cc] = "!!"
            else:
                reading.cells[rr][cc] = TILE_KINDS[i] + DIRS[t]
        else:
            reading.problems.append(f"the {TILE_KINDS[i]} tile lies outside the 5x5 map")
    reading.cells = [[UNKNOWN if v == "!!" else v for v in row] for row in reading.cells]
    # the plane in map cells: map (r, c) → lattice, undo the turn, → photo
    reading.homography = plane_to_img @ _map_to_lattice(turn, r0, c0)
    if reading.edges_known:
        _empty_spaces(image, reading, {(r - r0, c - c0) for _i, r, c, _t in tiles} |
                      {(r - r0, c - c0) for r, c in corner_marks.values()})
    reading.obelisks = _obelisks(image, reading.homography, dice_reader)
    return reading


def _fit_plane(quads, ids, keep, ref):
    """(photo → plane homography in cell units, [(id, row, col, turn)] of the markers it places on the grid),
    grown from marker `ref`."""
    # 1. a first plane from the reference marker, upright, at the origin, in units of its side / share
    # (a similarity: one small marker's own perspective is too noisy to carry across the map)
    sim, _ = cv2.estimateAffinePartial2D(quads[ref].astype(np.float32),
                                         _canonical(0, 0, 0, STICKER_SHARE).astype(np.float32))
    if sim is None:                       # a degenerate marker (all corners on a line): no plane from it
        return np.eye(3), []
    img_to_plane = np.vstack([sim, [0, 0, 1]])
    # The tiles' pitch is not known beforehand (tile sizes and gaps vary; a sticker printed at another scale):
    # it is the usual distance between neighbouring markers.
    centres = np.array([_to_plane(img_to_plane, quads[k]).mean(0) for k in keep])
    pitch = 1.0
    if len(centres) >= 2:
        d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(d, np.inf)
        nearest = d.min(1)
        pitch = float(np.median(nearest[nearest < 3.0])) if (nearest < 3.0).any() else 1.0
        pitch = pitch if 0.6 < pitch < 1.8 else 1.0
    share = STICKER_SHARE / pitch
    img_to_plane = np.diag([1 / pitch, 1 / pitch, 1.0]) @ img_to_plane
    # 2. snap the markers near the reference to cells, refine the plane from them, then reach further: a plane
    # from one marker is poor far from it under a slanted camera (affine while near, the full perspective last)
    for reach in (1.6, 2.6, 4.0, 9.0):
        placed = []
        for k in keep:
            pc = _to_plane(img_to_plane, quads[k])
            centre = pc.mean(0)
            if np.abs(centre).max() > reach and k != ref:
                continue
            err = float(np.abs(centre - np.round(centre)).max())
            if err < 0.3:
                placed.append((k, int(round(centre[1])), int(round(centre[0])), _turn_of(pc)))
        if len(placed) < 2:
            continue
        src = np.vstack([_canonical(r, c, t, share) for _k, r, c, t in placed]).astype(np.float32)
        dst = np.vstack([quads[k] for k, *_ in placed]).astype(np.float32)
        if reach < 9 or len(placed) < 4:
            a, _inliers = cv2.estimateAffine2D(dst, src, method=cv2.RANSAC, ransacReprojThreshold=0.08)
            m = None if a is None else np.vstack([a, [0, 0, 1]])
        else:
            m, _inliers = cv2.findHomography(dst, src, cv2.RANSAC, 0.08)  # photo → plane; tolerance in cells
        if m is not None:
            img_to_plane = m
    placed_final = []
    for k in keep:
        pc = _to_plane(img_to_plane, quads[k])
        centre = pc.mean(0)
        err = float(np.abs(centre - np.round(centre)).max())
        size = float(np.linalg.norm(pc[0] - pc[2]) / (share * math.sqrt(2)))
        if err < 0.2 and 0.75 < size < 1.33:
            placed_final.append((int(ids[k]), int(round(centre[1])), int(round(centre[0])), _turn_of(pc)))
    return img_to_plane, placed_final


def _rotate_cell(r: int, c: int, turn: int) -> tuple[int, int]:
    """Lattice coordinates after turning the plane so that direction `turn` becomes up (a quarter turn each)."""
    for _ in range(turn):
        r, c = -c, r
    return r, c


def _map_to_lattice(turn: int, r0: int, c0: int) -> np.ndarray:
    """Homography from map plane coordinates (x=col, y=row of the map) to the unturned lattice plane."""
    shift = np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1]], float)
    # inverse of _rotate_cell applied `turn` times: (r, c) -> (c, -r) per quarter turn, i.e. x'=-y... in (x, y):
    # forward: (x, y) = (c, r) -> (r, -c) = (y, -x); inverse: (x, y) -> (-y, x)
    inv = np.eye(3)
    step = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)
    for _ in range(turn):
        inv = step @ inv
    return inv @ shift


def _up_turn(plane_to_img: np.ndarray, corner_marks: dict, tiles: list) -> int:
    """How many quarter turns bring the plane's up to the map's up: the corner markers' if any (top-left is 25),
    else the direction on the plane that points most nearly to the photo's top."""
    if 25 in corner_marks and len(corner_marks) >= 2:
        r, c, _t = corner_marks[25]
        others = [corner_marks[i][:2] for i in corner_marks if i != 25]
        centre = np.mean([(r, c)] + others, axis=0)
        v = np.array([r, c]) - centre             # points from the middle to the top-left corner
        for turn in range(4):
            rr, cc = _rotate_cell(v[0], v[1], turn)
            if rr < 0 and cc < 0:
                return turn
    pts = np.array([(c, r) for _i, r, c, _t in tiles] or [(0, 0)], float)
    centre = pts.mean(0)
    best, best_dy = 0, 1e9
    for turn, d in enumerate([(0, -1), (1, 0), (0, 1), (-1, 0)]):   # plane N, E, S, W
        a = _to_plane(plane_to_img, np.array([centre, centre + d]))
        v = a[1] - a[0]
        dy = v[1] / (np.linalg.norm(v) + 1e-9)       # −1 when this direction is the photo's up
        if dy < best_dy:
            best, best_dy = turn, dy
    return best


def _origin(tiles, corner_marks, plane_to_img, turn, shape) -> tuple[tuple[int, int], bool]:
    """The lattice cell of map cell (0, 0), and whether the map's edges were seen (not inferred)."""
    if 25 in corner_marks:
        r, c = corner_marks[25]
        return (r + 1, c + 1), True
    if 27 in corner_marks:
        r, c = corner_marks[27]
        return (r - 5, c - 5), True
    if 26 in corner_marks and 28 in corner_marks:
        return (corner_marks[26][0] + 1, corner_marks[28][1] + 1), True
    if not tiles:
        return (0, 0), False
    rows = [r for _i, r, _c, _t in tiles]
    cols = [c for _i, _r, c, _t in tiles]
    known = max(rows) - min(rows) == 4 and max(cols) - min(cols) == 4
    if known:
        return (min(rows), min(cols)), True

    # The map is wider than what was read: place it where the unread cells are least visible in the photo
    # (outside the picture first), then centred.
    h, w = shape[:2]
    lattice = _map_to_lattice(turn, 0, 0)

    def outside(r, c):
        p = _to_plane(plane_to_img @ lattice, np.array([[c, r]], float))[0]
        return not (0 <= p[0] < w and 0 <= p[1] < h)

    best = None
    for r0 in range(max(rows) - 4, min(rows) + 1):
        for c0 in range(max(cols) - 4, min(cols) + 1):
            taken = {(r - r0, c - c0) for r, c in zip(rows, cols)}
            unseen_inside = sum(1 for rr in range(5) for cc in range(5)
                                if (rr, cc) not in taken and not outside(rr + r0, cc + c0))
            off_centre = abs((r0 + 2) - np.mean(rows)) + abs((c0 + 2) - np.mean(cols))
            key = (unseen_inside, off_centre)
            if best is None or key < best[0]:
                best = (key, (r0, c0))
    if best is None:      # markers spread wider than a map: keep the middle ones
        return (int(round(np.median(rows))) - 2, int(round(np.median(cols))) - 2), False
    return best[1], False


PATCH = 24


def _cell_patch(image: np.ndarray, map_to_img: np.ndarray, r: int, c: int) -> np.ndarray | None:
    """Cell (r, c) of the map seen from above, PATCH x PATCH pixels (Lab), or None when it leaves the photo."""
    h, w = image.shape[:2]
    corners = _to_plane(map_to_img, np.array([[c - .5, r - .5], [c + .5, r - .5], [c + .5, r + .5], [c - .5, r + .5]]))
    if (corners < 0).any() or (corners[:, 0] >= w).any() or (corners[:, 1] >= h).any():
        return None
    to_map = np.array([[1 / PATCH, 0, c - .5], [0, 1 / PATCH, r - .5], [0, 0, 1]])
    patch = cv2.warpPerspective(image, map_to_img @ to_map, (PATCH, PATCH), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    return cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)


def _ring(patch: np.ndarray) -> np.ndarray:
    """The patch's pixels near the cell's edge (a tile's land, not its sticker in the middle)."""
    k = PATCH // 5
    mask = np.ones((PATCH, PATCH), bool)
    mask[k:-k, k:-k] = False
    mask[:2, :] = mask[-2:, :] = mask[:, :2] = mask[:, -2:] = False     # gaps between tiles
    return patch[mask]


def _empty_spaces(image: np.ndarray, reading: MapReading, taken: set) -> None:
    """Marks as "--" the unread cells that look like the bare table around the map (a removed Mountain), and only
    when they are far from looking like any tile read; a hand, glare or a dirty sticker stays unknown."""
    m = reading.homography
    tiles, table = [], []
    for r in range(-1, 6):
        for c in range(-1, 6):
            inside = 0 <= r < 5 and 0 <= c < 5
            if (r, c) in taken and not inside:
                continue                                  # a corner marker lies there
            if inside and reading.cells[r][c] == UNKNOWN:
                continue
            p = _cell_patch(image, m, r, c)
            if p is None:
                continue
            if inside:
                tiles.append(_ring(p).mean(0))
            else:
                table.append((p.reshape(-1, 3).mean(0), p.reshape(-1, 3).std(0).mean()))
    if len(table) < 3 or not tiles:
        return
    tiles_a = np.array(tiles)
    table_means = np.array([t for t, _s in table])
    # a hand or a box lying beside the map is not the table: keep the samples that agree with most of the others
    usual = np.median(table_means, axis=0)
    agree = np.linalg.norm(table_means - usual, axis=1) < 12
    if agree.sum() < max(3, 0.75 * len(table)):
        return          # a patterned table (or much in the way): an empty space cannot be told from it
    table_std = max(s for (_t, s), ok in zip(table, agree) if ok)
    table_means = table_means[agree]
    for r in range(5):
        for c in range(5):
            if reading.cells[r][c] != UNKNOWN:
                continue
            p = _cell_patch(image, m, r, c)
            if p is None:
                continue
            mean, std = p.reshape(-1, 3).mean(0), p.reshape(-1, 3).std(0).mean()
            d_table = np.linalg.norm(table_means - mean, axis=1).min()
            d_tile = np.linalg.norm(tiles_a - mean, axis=1).min()
            close = (np.linalg.norm(p.reshape(-1, 3) - usual, axis=1) < 14).mean()
            if d_table < 8 and d_tile > 4 * d_table + 10 and std < table_std * 1.5 + 4 and close > 0.9:
                reading.cells[r][c] = "--"


def _die_colour(image: np.ndarray, box) -> str | None:
    """An obelisk's colour from its die's body (the pips left out): blue, yellow, green or black."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    h, w = image.shape[:2]
    mx, my = (x1 - x0) // 5, (y1 - y0) // 5
    patch = image[max(0, y0 + my):min(h, y1 - my), max(0, x0 + mx):min(w, x1 - mx)]
    if patch.size == 0:
        return None
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(float)
    v = hsv[:, 2]
    body = hsv[(v > np.percentile(v, 15)) & (v < np.percentile(v, 85))] if len(v) > 10 else hsv
    if len(body) == 0:
        return None
    hue, sat, val = np.median(body[:, 0]), np.median(body[:, 1]), np.median(body[:, 2])
    if val < 80 and sat < 120 or val < 45:
        return "black"
    if sat < 60:
        return None        # white or grey: not an obelisk's colour
    if 15 <= hue < 38:
        return "yellow"
    if 38 <= hue < 90:
        return "green"
    if 90 <= hue < 135:
        return "blue"
    return None


def _obelisks(image: np.ndarray, map_to_img: np.ndarray, dice_reader) -> list[Obelisk]:
    if dice_reader is None:
        from .dice import default_reader
        dice_reader = default_reader()
    img_to_map = np.linalg.inv(map_to_img)
    found: dict[tuple[int, int], Obelisk] = {}
    for die in dice_reader.read(image):
        cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
        x, y = _to_plane(img_to_map, np.array([[cx, cy]]))[0]
        # corner [i, j] is the top-left corner of tile [i, j]: at (x, y) = (j - 0.5, i - 0.5)
        j, i = round(x + 0.5), round(y + 0.5)
        if not (0 <= i <= 5 and 0 <= j <= 5) or max(abs(x + 0.5 - j), abs(y + 0.5 - i)) > 0.35:
            continue                      # a die in the middle of a tile or off the map: not an obelisk
        ob = Obelisk((i, j), _die_colour(image, die.box), die.face, die.confidence, die.box)
        if (i, j) not in found or found[(i, j)].confidence < ob.confidence:
            found[(i, j)] = ob
    return sorted(found.values(), key=lambda o: o.corner)
