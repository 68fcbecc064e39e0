"""The house's one JSON reader: what a person or another program hands us, read so that nothing is read silently.

Every JSON the apps read goes through `loads` here: a log line, an END.json, a rules file, a save file
(preferences, devices), the tables database's JSON columns, command-line input (`companion session-script`,
`python -m firmware_bridge encode`). It stands in the lowest layer and imports only the standard library, so that
`companion`, `firmware_bridge` and `vision` can all use it (the repository's top level is fixed: no package of its own); companion/session/jsontext.py gives the app's readers
its errors as the engines' InvalidInput.

Where the standard `json.loads` reads silently or fails with a Python exception, this refuses with one line:
- a key written twice in one object (`{"door": 1, "door": 2}`: json.loads keeps the last; which one did the writer
  mean?) — "the key 'door' appears twice in one object";
- nesting deeper than MAX_DEPTH (100,000 brackets raise RecursionError in json.loads);
- a number of more than MAX_DIGITS digits (Python's int limit raises ValueError) and NaN, Infinity, 1e999;
- anything that is not JSON (with the line and column).
A leading byte-order mark is ignored (some editors write one).
"""
from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 32      # our files nest 4-5 levels; anything deeper is not one of them
MAX_DIGITS = 30     # a seed or a count fits in 20 digits; more is never a real value
BOM = "\ufeff"
MAX_KEY_SHOWN = 40  # characters of a key an error shows


class JSONInputError(ValueError):
    """The text cannot be used as JSON; the message is one line a person can act on."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JSONInputError(f"a number with {digits} digits is too large")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str):
    raise JSONInputError(f"{name} is not a number JSON allows")


def key_shown(key: str) -> str:
    """A key as an error shows it, as the house shows a value from a file (companion.games.text.shown): its repr,
    ASCII only (no control characters or lone surrogates reach a terminal), cut at MAX_KEY_SHOWN characters."""
    text = repr(key).encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= MAX_KEY_SHOWN else text[: MAX_KEY_SHOWN - 1] + "…"


def _object(pairs: list[tuple[str, Any]]) -> dict:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise JSONInputError(f"the key {key_shown(twice)} appears twice in one object")
    return value


def _depth_ok(value: Any) -> bool:
    """True when `value` nests at most MAX_DEPTH containers deep (iterative: no recursion on hostile data)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


def loads(text: str | bytes) -> Any:
    """The JSON value in `text` (bytes must be UTF-8); JSONInputError with one line saying what is wrong."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError("not UTF-8 text") from None
    if text.startswith(BOM):
        text = text[1:]
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_int=_int, parse_float=_float,
                           parse_constant=_constant)
    except JSONInputError:
        raise
    except RecursionError:
        raise JSONInputError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as err:
        raise JSONInputError(f"not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except ValueError as err:  # int() limits and the like: never a Python message on screen
        raise JSONInputError("not valid JSON (a value cannot be read)") from err
    if not _depth_ok(value):
        raise JSONInputError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
    return value
