"""Checking the free text players type (names) and showing hostile values in one short line.

A name ends up in one-line places: a row of the score table, a log line, a BG Stats record, a panel on the tablet.
A line break or control character in it could forge a "Winner:" line or break the file it is written to, and a lone
surrogate cannot be written as UTF-8 at all (the database, the terminal). So names are refused, naming the field,
before anything is stored (RULING-free: this is input hygiene, not a game rule).
"""
from __future__ import annotations

import unicodedata

from companion.games.errors import InvalidInput

MAX_NAME = 40  # fits a player panel and a score-table column; longer is never a name typed at a table
# Bidirectional overrides and isolates reorder the text around them: a name could make its row read backwards.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode categories never allowed in a name: controls (incl. \n, \t, U+0085), surrogates, line/paragraph separators.
_FORBIDDEN = frozenset(("Cc", "Cs", "Zl", "Zp"))


def name_problem(value) -> str | None:
    """Why `value` cannot be a player's name (a phrase), or None."""
    if not isinstance(value, str):
        return "a name must be text"
    for ch in value:
        category = unicodedata.category(ch)
        if category in ("Zl", "Zp") or ch in "\n\r\v\f\x85":
            return "a name cannot contain line breaks"
        if category in _FORBIDDEN or ch in _BIDI_CONTROLS:
            return f"a name cannot contain the invisible character U+{ord(ch):04X}"
    if not value.strip():
        return "a player needs a name"
    if len(value.strip()) > MAX_NAME:
        return f"a name can have at most {MAX_NAME} characters"
    return None


def check_name(value, field: str) -> str:
    """`value` stripped of surrounding spaces; InvalidInput "field: why" when it cannot be a name."""
    problem = name_problem(value)
    if problem:
        raise InvalidInput(f"{field}: {problem}")
    return value.strip()


def shown(value, limit: int = 40) -> str:
    """A short, printable, one-line picture of any value for an error message (repr, cut at `limit`)."""
    try:
        text = repr(value)
    except RecursionError:  # a deeply nested structure cannot be shown, only named
        text = f"<a deeply nested {type(value).__name__}>"
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def key(value) -> str:
    """A field name from a file, safe inside an error path ("players[1].goods.purple"): plain names as they are,
    anything else (line breaks, huge or odd keys) as a short repr."""
    if isinstance(value, str) and value.isidentifier() and value.isascii() and len(value) <= 40:
        return value
    return shown(value)


def readable_path(path) -> str:
    """A file name for a message: bytes that are not UTF-8 (a name from another system) become U+FFFD instead of
    the surrogate escapes Python keeps them as, which no terminal shows."""
    import os

    try:
        raw = os.fsencode(path)
    except (TypeError, UnicodeEncodeError):
        return str(path).encode("utf-8", "replace").decode("utf-8")
    return raw.decode("utf-8", "replace")


def action_class(d, by_type: dict, game: str) -> tuple[str, type]:
    """The (type name, class) a JSON action object names, for any game's `action_from_json`; InvalidInput when `d`
    is not an object or its "type" is not one of `by_type`. Checking its fields is the game's own business."""
    if not isinstance(d, dict):
        raise InvalidInput("action: expected an object")
    t = d.get("type")
    cls = by_type.get(t) if isinstance(t, str) else None
    if cls is None:
        raise InvalidInput(f"type: {shown(t)} is not an {game} action")
    return t, cls
