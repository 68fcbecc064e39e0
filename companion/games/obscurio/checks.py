"""Field checks shared by the setup, the rules profile, the actions and the saved state.

Everything that arrives from outside (a log file, a rules profile someone typed, a save) goes through these, so a
hostile value — a bool where a number belongs, a number with a thousand digits, a name with a line break or a lone
surrogate — is refused with InvalidInput naming the field, never a TypeError deep inside the engine.
"""
from __future__ import annotations

import unicodedata

from companion.games.errors import InvalidInput

MAX_NAME = 40  # characters in a player name or a difficulty label: enough for a table, short for a screen


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_in(where: str, value, lo: int, hi: int) -> int:
    """`value` if it is a whole number lo..hi (bools refused), else InvalidInput naming `where`."""
    if not is_int(value) or not lo <= value <= hi:
        raise InvalidInput(f"{where}: expected a whole number from {lo} to {hi}")
    return value


def word_in(where: str, value, allowed, what: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(f"{where}: {_show(value)} is not {what}")
    return value


def text(where: str, value) -> str:
    """A name or label shown on the shared screen and written to log files: one clean line of 1-40 characters."""
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: expected text")
    if not value.strip():
        raise InvalidInput(f"{where}: must not be empty")
    if len(value) > MAX_NAME:
        raise InvalidInput(f"{where}: at most {MAX_NAME} characters")
    if value != value.strip():
        raise InvalidInput(f"{where}: no spaces before or after")
    for ch in value:
        # Cc: control characters and line breaks; Cs: lone surrogates (cannot be written as UTF-8);
        # Zl/Zp: Unicode line/paragraph separators; Cf: invisible format characters (bidi overrides …).
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp", "Cf"):
            raise InvalidInput(f"{where}: contains a control or invisible character")
    return value


def only_fields(where: str, d: dict, allowed) -> None:
    unknown = sorted(str(k) for k in d if k not in allowed)
    if unknown:
        prefix = f"{where}." if where else ""
        raise InvalidInput(f"{prefix}{unknown[0][:40]}: unknown field")


def _show(value) -> str:
    """A short, safe rendering of a bad value for an error message."""
    r = repr(value)
    return r if len(r) <= 40 else r[:37] + "..."
