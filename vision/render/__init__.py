"""Rendered photos with their truth: training data, tests, and the simulated camera (`sim://KIND`).

Every renderer takes (rng, size=(width, height), **options) and returns (BGR uint8 photo, truth).
"""
from __future__ import annotations

from .dice import render_dice
from .goods import render_goods
from .symbols import render_symbols
from .tiles import render_map

RENDERERS = {
    "dice": render_dice,
    "tiles": render_map,
    "goods": render_goods,
    "symbols": render_symbols,
}
