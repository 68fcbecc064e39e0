"""Reading values that come from outside (a log, a save, a rules profile, a NIGHT.json) into the engine's types.

Each reader takes the field's path for its message and raises InvalidInput naming it: a bool where a number
belongs, a thousand-digit number, a cell given as text, a colour with a line break in it — one line, never a
TypeError deep inside the engine.
"""
from __future__ import annotations

from companion.games.errors import InvalidInput
from companion.games.obelisk.model import CORNERS, SIZE, Cell, Corner, Stones
from companion.games.text import key, shown

_MAX_LIST = 200  # no list in an Obelisk file is longer (50 demons with 25 tiles each are in lists of their own)


def whole(where: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidInput(f"{where}: expected a whole number from {lo} to {hi}")
    return value


def flag(where: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{where}: expected true or false")
    return value


def choice(where: str, value, allowed, what: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(f"{where}: {shown(value)} is not {what}")
    return value


def listed(where: str, value, most: int = _MAX_LIST) -> list:
    if not isinstance(value, list):
        raise InvalidInput(f"{where}: expected a list")
    if len(value) > most:
        raise InvalidInput(f"{where}: at most {most} entries")
    return value


def obj(where: str, value, fields, required=()) -> dict:
    """`value` as an object with no fields but `fields`, holding every one of `required`."""
    if not isinstance(value, dict):
        raise InvalidInput(f"{where or 'value'}: expected an object")
    prefix = f"{where}." if where else ""
    for name in value:
        if name not in fields:
            raise InvalidInput(f"{prefix}{key(name)}: unknown field")
    for name in required:
        if name not in value:
            raise InvalidInput(f"{prefix}{name}: missing")
    return value


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
