"""Reading JSON that a user hands us (a log line, END.json, a rules profile, a save file): the house's one reader
(strictjson), its errors raised as the engines' InvalidInput so every command and screen reports them as one line.

strictjson refuses what json.loads reads silently (a key written twice: the last would win) or fails on with a
Python exception (deep nesting, huge numbers, NaN); see its docstring.
"""
from __future__ import annotations

from typing import Any

from firmware_bridge.strictjson import BOM, MAX_DEPTH, MAX_DIGITS, JSONInputError, loads as _loads

from companion.games.errors import InvalidInput

__all__ = ["BOM", "MAX_DEPTH", "MAX_DIGITS", "loads"]


def loads(text: str | bytes) -> Any:
    """The JSON value in `text`; InvalidInput with one line saying what is wrong. A leading BOM is ignored."""
    try:
        return _loads(text)
    except JSONInputError as err:
        raise InvalidInput(str(err)) from None
