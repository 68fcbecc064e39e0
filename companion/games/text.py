"""Showing hostile values and field names in one short line, for the messages that refuse them.

The checks themselves (player names included) are companion/games/checks.py.
"""
from __future__ import annotations

from companion.games.errors import InvalidInput


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
