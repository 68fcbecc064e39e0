"""The Obelisk tile reader's physics: what a hall sensor under a cell reads when a tile's magnets sit above it, from
the magnets' and the parts' datasheet figures — the calculation behind the tile code (hardware/TILES.md), and the
simulated board's sensor model (firmware_bridge/tablebus/simboard.py), which saturates and is noisy as the real one.

    field_mT(magnet, gap_mm, lateral_mm)     Bz below a disc magnet on its axis (closed form) or beside it
    reading(design, b_mT, ...)               the 12-bit ADC code the ESP32 reads for a field: sensor (DRV5055A1 at
                                             3.3 V: 60 mV/mT, linear to ±21 mT, clamped to 0.2-3.1 V) then the ADC
                                             (11 dB: accurate 150-2450 mV only; compressed outside), plus noise
    cell_readings(design, tile, dir, rng)    the four sensors of a cell with a tile on it (placement, tolerances)
    budget(design)                           every level's worst case over the tolerances, the thresholds and margins

Everything is pure Python (math, random): the app's simulator, the tests and `python hardware/tools/tile_budget.py`
share it. Units: mm, mT, mV, ADC codes.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

MU0_OVER_4PI = 1e-7

# --- parts, from their datasheets ----------------------------------------------------------------------------------
BR = {"N35": 1.19, "N42": 1.30, "N52": 1.45}           # remanence, tesla (grade nominals)
SENSOR_MV_PER_MT = 60.0                               # DRV5055A1 at 3.3 V (100 mV/mT at 5 V, ratiometric)
SENSOR_LINEAR_MT = 21.0                               # A1 at 3.3 V: linear magnetic range ±21 mT
SENSOR_MIN_MV, SENSOR_MAX_MV = 200.0, 3100.0          # output stays 0.2 V inside either rail
VCC_MV = 3300.0
ADC_ACCURATE = (150.0, 2450.0)                        # ESP32 ADC1 at 11 dB: accurate band (Espressif's ADC notes)
ADC_FULL_MV = 3100.0                                  # the code at 4095, nominally (11 dB)


@dataclass(frozen=True)
class Magnet:
    diameter: float                                   # mm
    thickness: float                                  # mm (two stacked: twice)
    grade: str = "N35"

    @property
    def br(self) -> float:
        return BR[self.grade]

    def stacked(self, n: int) -> "Magnet":
        return replace(self, thickness=self.thickness * n)


@dataclass(frozen=True)
class Design:
    """A tile code's physical design: the magnet, how far its face sits above the hall element (`gap`), where the
    sensors sit (`inset`: from the cell's edge to the sensor, the magnets above them), and the cell pitch."""
    name: str
    magnet: Magnet                                    # the arrow's south and digit 1's north
    gap: float                                        # mm: magnet face to the sensor's hall element
    magnet2: Magnet | None = None                     # digit 2's north (None: two of `magnet` stacked)
    inset: float = 6.0                                # mm: cell edge to sensor and magnet centre
    pitch: float = 38.0                               # mm: the cell size
    # tolerances the budget and the simulated board apply
    gap_tol: float = 0.3                              # ± mm (tile floor, board cover, sensor height)
    lateral_tol: float = 1.5                          # ± mm (a tile's play in its cell)
    br_tol: float = 0.03                              # ± relative (grade spread and 10-35 °C at -0.12 %/K)
    sens_tol: float = 0.05                            # ± relative (DRV5055 sensitivity)
    vq_tol_mv: float = 30.0                           # ± mV (quiescent output and the 3.3 V regulator, ratiometric)
    adc_tol_mv: float = 20.0                          # ± mV (ESP32 ADC after eFuse calibration, inside its band)
    noise_codes: float = 8.0                          # ± codes of ADC noise per reading
    thresholds: tuple[int, int, int] | None = None    # codes between S|none, none|N1, N1|N2 (None: from the budget)


def _disc_axis(br: float, radius: float, length: float, z: float) -> float:
    """Bz (tesla) on the axis of an axially magnetised disc, `z` below its face (the exact closed form)."""
    return br / 2 * ((z + length) / math.hypot(radius, z + length) - z / math.hypot(radius, z))


_GAUSS = [(-0.9602898564975363, 0.1012285362903763), (-0.7966664774136267, 0.2223810344533745),
          (-0.5255324099163290, 0.3137066458778873), (-0.1834346424956498, 0.3626837833783620),
          (0.1834346424956498, 0.3626837833783620), (0.5255324099163290, 0.3137066458778873),
          (0.7966664774136267, 0.2223810344533745), (0.9602898564975363, 0.1012285362903763)]


def _disc_off_axis(br: float, radius: float, length: float, z: float, rho: float) -> float:
    """Bz (tesla) at `rho` from the axis, `z` below the face: the magnet as its surface current (μ0·K = Br), each
    ring integrated by Biot-Savart (a smooth periodic integral: the trapezoid rule converges fast)."""
    steps = 48
    total = 0.0
    for x, w in _GAUSS:                       # over the magnet's height
        d = z + (x + 1) / 2 * length          # this ring's height above the point
        ring = 0.0
        for k in range(steps):
            c = math.cos(2 * math.pi * k / steps)
            ring += (radius - rho * c) / (radius * radius + rho * rho - 2 * radius * rho * c + d * d) ** 1.5
        ring *= 2 * math.pi / steps * radius / (4 * math.pi)
        total += w * ring * length / 2
    return br * total


def field_mT(magnet: Magnet, z: float, rho: float = 0.0, br: float | None = None) -> float:
    """The field (mT) a hall element `z` mm below the magnet's face and `rho` mm beside its axis sees."""
    b = magnet.br if br is None else br
    if rho < 1e-6:
        return 1000 * _disc_axis(b, magnet.diameter / 2, magnet.thickness, z)
    return 1000 * _disc_off_axis(b, magnet.diameter / 2, magnet.thickness, z, rho)


# --- the sensor and the ADC ----------------------------------------------------------------------------------------

def sensor_mv(b_mT: float, sens_scale: float = 1.0, vq_offset_mv: float = 0.0) -> float:
    """DRV5055A1 at 3.3 V: VCC/2 + 60 mV/mT (south toward the sensor positive), linear to ±21 mT, then flat, and
    never closer than 0.2 V to a rail."""
    b = max(-SENSOR_LINEAR_MT, min(SENSOR_LINEAR_MT, b_mT))
    v = VCC_MV / 2 + vq_offset_mv + SENSOR_MV_PER_MT * sens_scale * b
    return max(SENSOR_MIN_MV, min(SENSOR_MAX_MV, v))


def adc_code(mv: float, offset_mv: float = 0.0, noise: float = 0.0) -> int:
    """The ESP32's 12-bit code at 11 dB: linear inside 150-2450 mV, compressed outside (below 150 mV it barely
    moves; above 2450 mV a third of the slope, saturating at 4095)."""
    lo, hi = ADC_ACCURATE
    v = mv + offset_mv
    if v < lo:
        v = lo - (lo - v) * 0.25
    elif v > hi:
        v = hi + (v - hi) / 3
    code = v / ADC_FULL_MV * 4095 + noise
    return int(max(0, min(4095, round(code))))


# --- a cell with a tile on it -------------------------------------------------------------------------------------

LEVELS = ("S", "none", "N1", "N2")          # what one side of a tile carries under it


def level_field(design: Design, level: str, z: float, rho: float = 0.0, br: float | None = None) -> float:
    """The field of one side's magnets: S (the magnet, south down: positive), N1 (the magnet, north down), N2
    (digit 2's magnet, north down)."""
    if level == "none":
        return 0.0
    magnet = (design.magnet2 or design.magnet.stacked(2)) if level == "N2" else design.magnet
    if br is not None and magnet.grade != design.magnet.grade:        # the spread, applied to the other grade
        br = magnet.br * br / design.magnet.br
    b = field_mT(magnet, z, rho, br)
    return b if level == "S" else -b


def side_levels(tile: int, direction: int) -> list[str]:
    """The four sides' levels (N, E, S, W) of tile 1-27 with its arrow toward `direction` (0 N … 3 W): the arrow side
    carries S, the others clockwise the digits of tile - 1 in base 3 (0 none, 1 N1, 2 N2); tile 0: an empty cell."""
    levels = ["none"] * 4
    if not 1 <= tile <= 27:
        return levels
    code = tile - 1
    levels[direction % 4] = "S"
    for k in range(1, 4):
        levels[(direction + k) % 4] = ("none", "N1", "N2")[code % 3]
        code //= 3
    return levels


def _sensor_positions(design: Design) -> list[tuple[float, float]]:
    r = design.pitch / 2 - design.inset
    return [(0.0, r), (r, 0.0), (0.0, -r), (-r, 0.0)]          # N, E, S, W from the cell's centre


def cell_readings(design: Design, tile: int, direction: int, rng: random.Random | None = None,
                  neighbours: dict[int, tuple[int, int]] | None = None) -> list[int]:
    """The four ADC codes of a cell (N, E, S, W) holding `tile` (0: empty) facing `direction`, with the tile placed
    anywhere within its play, every part within its tolerance, and noise (`rng`; None: all nominal). `neighbours`
    maps a side (0-3) to the (tile, direction) of the cell beyond it: their magnets reach this cell's sensors too."""
    u = (lambda: 0.0) if rng is None else (lambda: rng.uniform(-1, 1))
    dx, dy = u() * design.lateral_tol, u() * design.lateral_tol
    dz = u() * design.gap_tol
    br = design.magnet.br * (1 + u() * design.br_tol)
    sensors = _sensor_positions(design)
    sources = []                                                   # (x, y, level) of every magnet near this cell
    if tile:
        for (x, y), level in zip(sensors, side_levels(tile, direction)):
            if level != "none":
                sources.append((x + dx, y + dy, level))
    for side, (t, d) in (neighbours or {}).items():
        ox, oy = [(0, design.pitch), (design.pitch, 0), (0, -design.pitch), (-design.pitch, 0)][side]
        for (x, y), level in zip(sensors, side_levels(t, d)):
            if level != "none":
                sources.append((x + ox, y + oy, level))
    codes = []
    for sx, sy in sensors:
        b = sum(level_field(design, level, design.gap + dz, math.hypot(mx - sx, my - sy), br)
                for mx, my, level in sources)
        mv = sensor_mv(b, 1 + u() * design.sens_tol, u() * design.vq_tol_mv)
        codes.append(adc_code(mv, u() * design.adc_tol_mv, u() * design.noise_codes))
    return codes


# --- the budget ----------------------------------------------------------------------------------------------------

@dataclass
class Budget:
    design: Design
    ranges: dict = field(default_factory=dict)      # level -> (lowest code, highest code) over the tolerances
    fields: dict = field(default_factory=dict)      # level -> nominal field, mT
    thresholds: tuple[int, int, int] = (0, 0, 0)     # codes between the bands, highest first: S|none, none|N1, N1|N2
    margins: tuple[int, int, int] = (0, 0, 0)        # codes of clearance between neighbouring bands (< 0: overlap)
    saturated: tuple[str, ...] = ()                  # levels whose field leaves the sensor's or the ADC's good range

    @property
    def readable(self) -> bool:
        return min(self.margins) > 0


def _extremes(design: Design, level: str) -> tuple[int, int]:
    """The lowest and highest code one side of `level` can read: every tolerance at either end (corners), the tile
    shifted anywhere in its play toward or away from the sensor, and the worst neighbour (two stacked norths or a
    south on the adjacent cell's near side, 2 × inset away)."""
    lows, highs = [], []
    neighbour_rho = 2 * design.inset
    for dz in (-design.gap_tol, design.gap_tol):
        for br_s in (-1, 1):
            br = design.magnet.br * (1 + br_s * design.br_tol)
            for lat in (0.0, design.lateral_tol * math.sqrt(2)):
                own = level_field(design, level, design.gap + dz, lat, br)
                for neighbour in (0.0, level_field(design, "N2", design.gap + dz, neighbour_rho, br),
                                  level_field(design, "S", design.gap + dz, neighbour_rho, br)):
                    b = own + neighbour
                    for sens_s in (-1, 1):
                        for vq_s in (-1, 1):
                            mv = sensor_mv(b, 1 + sens_s * design.sens_tol, vq_s * design.vq_tol_mv)
                            for adc_s in (-1, 1):
                                code = adc_code(mv, adc_s * design.adc_tol_mv, adc_s * design.noise_codes)
                                lows.append(code)
                                highs.append(code)
    return min(lows), max(highs)


def budget(design: Design) -> Budget:
    out = Budget(design)
    for level in LEVELS:
        out.ranges[level] = _extremes(design, level)
        out.fields[level] = level_field(design, level, design.gap)
    order = ["S", "none", "N1", "N2"]                   # codes fall from S (south: high) to N2 (low)
    thresholds, margins = [], []
    for upper, lower in zip(order, order[1:]):
        gap_low, gap_high = out.ranges[lower][1], out.ranges[upper][0]
        margins.append(gap_high - gap_low)
        thresholds.append((gap_low + gap_high) // 2)
    out.thresholds = tuple(design.thresholds or thresholds)
    out.margins = tuple(margins)
    out.saturated = tuple(level for level, b in out.fields.items()
                          if abs(b) > SENSOR_LINEAR_MT or not ADC_ACCURATE[0] <= sensor_mv(b) <= ADC_ACCURATE[1])
    return out


def bands(b: Budget) -> tuple[int, ...]:
    """The firmware's band edges (codes, falling): S from the first; none between the second and the third; N1
    between the fourth and the fifth; N2 up to the sixth. Between two bands (a quarter of the margin either side of
    each threshold) a reading is unreadable: a magnet half over its sensor, a tile being slid in."""
    out = []
    for threshold, margin in zip(b.thresholds, b.margins):
        guard = max(1, margin // 4)
        out += [threshold + guard, threshold - guard]
    return tuple(out)


def classify(code: int, edges: tuple[int, ...]) -> str | None:
    """The level one reading shows by the band edges (`bands`), or None between bands (obelisk.c ob_classify)."""
    s_lo, none_hi, none_lo, n1_hi, n1_lo, n2_hi = edges
    if code >= s_lo:
        return "S"
    if none_lo <= code <= none_hi:
        return "none"
    if n1_lo <= code <= n1_hi:
        return "N1"
    if code <= n2_hi:
        return "N2"
    return None


def decode_cell(codes: list[int], edges: tuple[int, ...]) -> tuple[int, int] | None:
    """(tile, direction) a cell's four readings show, (0, 0) for an empty cell, None when they cannot be a tile
    (a reading between bands, no south or two). hardware/core/obelisk.c ob_decode_cell decodes the same way."""
    levels = [classify(c, edges) for c in codes]
    if None in levels:
        return None
    souths = [i for i, level in enumerate(levels) if level == "S"]
    if all(level == "none" for level in levels):
        return 0, 0
    if len(souths) != 1:
        return None
    south = souths[0]
    tile, weight = 1, 1
    for k in range(1, 4):
        tile += ("none", "N1", "N2").index(levels[(south + k) % 4]) * weight
        weight *= 3
    return tile, south


# The design as specified before issue 16: 6 × 2 mm N52 discs 3 mm under the tiles, two stacked for digit 2 —
# 109 and 154 mT where the sensor reads ±21 mT: both north levels saturate alike.
OLD = Design("6 × 2 mm N52, two stacked for digit 2, 3 mm above the sensors (before)", Magnet(6.0, 2.0, "N52"),
             gap=3.0)
# The design the board is built to now (hardware/TILES.md shows the calculation): 5 × 1 mm N52 discs for the arrow
# (south down) and digit 1 (north down), one 6 × 3 mm N52 disc for digit 2 (north down: it saturates the sensor on
# purpose, far below digit 1), magnet faces 7.0 mm above the hall elements.
CURRENT = Design("5 × 1 mm N52 (arrow, digit 1) and 6 × 3 mm N52 (digit 2), 7.0 mm above the sensors",
                 Magnet(5.0, 1.0, "N52"), gap=7.0, magnet2=Magnet(6.0, 3.0, "N52"))
# CURRENT's band edges as the firmware has them (hardware/core/obelisk.h OB_BAND_*); a test holds them to the budget.
CURRENT_BANDS = (2510, 2342, 1999, 1831, 1074, 806)
