"""Reading Obelisk's own values from outside (a log, a save, a NIGHT.json): cells, corners and stones.

The general checks (whole numbers, words, objects, lists) are companion/games/checks.py, shared by every game; these
build on them and name the field the same way: a cell given as text is "demons[0].at: expected a cell [row, column]".
"""
from __future__ import annotations

from companion.games.checks import obj, whole
from companion.games.errors import InvalidInput
from companion.games.obelisk.model import CORNERS, SIZE, Cell, Corner, Stones


def pair(where: str, value, size: int, what: str) -> tuple[int, int]:
    if not (isinstance(value, (list, tuple)) and len(value) == 2):
        raise InvalidInput(f"{where}: expected a {what} [row, column]")
    return (whole(f"{where}[0]", value[0], 0, size - 1), whole(f"{where}[1]", value[1], 0, size - 1))


def cell(where: str, value) -> Cell:
    return pair(where, value, SIZE, "cell")


def corner(where: str, value) -> Corner:
    return pair(where, value, CORNERS, "corner")


def stones(where: str, value, most: int = 50, extra=()) -> Stones:
    """{"green": n, "yellow": n, "blue": n}, every colour optional (0)."""
    d = obj(where, value, ("green", "yellow", "blue", *extra))
    return Stones(*(whole(f"{where}.{c}", d.get(c, 0), 0, most) for c in ("green", "yellow", "blue")))
