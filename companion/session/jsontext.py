"""Reading JSON that a user hands us (END.json, a rules profile, a log file line): one place, hostile-input safe.

The standard `json.loads` accepts what no file of ours ever holds and fails on the rest with Python exceptions:
100,000 nested brackets raise RecursionError; a 5,000-digit integer raises "Exceeds the limit"; `NaN` and `1e999`
become floats that poison arithmetic. Here every such input becomes one `InvalidInput` line a player can act on,
and the parsed value is guaranteed shallow (MAX_DEPTH) with numbers of sane size.
"""
from __future__ import annotations

import json
import math
from typing import Any

from companion.games.errors import InvalidInput
from companion.games.text import shown

MAX_DEPTH = 32      # our files nest 4-5 levels; anything deeper is not one of them
MAX_DIGITS = 30     # a seed or a count fits in 20 digits; more is never a real value
BOM = "\ufeff"      # some editors start UTF-8 files with a byte-order mark


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise InvalidInput(f"a number with {digits} digits is too large")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidInput(f"the number {text[:20]} is too large")
    return value


def _constant(name: str):
    raise InvalidInput(f"{name} is not a number JSON allows")


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


def _unique(pairs: list) -> dict:
    """An object whose keys are all different: with a key twice, which value was meant cannot be known."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise InvalidInput(f"the key {shown(key)} appears twice in one object")
        out[key] = value
    return out


def loads(text: str, *, unique_keys: bool = False) -> Any:
    """The JSON value in `text`; InvalidInput with one line saying what is wrong. A leading BOM is ignored.
    `unique_keys`: an object naming a key twice is refused (json.loads would keep the last one silently)."""
    if text.startswith(BOM):
        text = text[1:]
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant,
                           object_pairs_hook=_unique if unique_keys else None)
    except InvalidInput:
        raise
    except RecursionError:
        raise InvalidInput(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as err:
        raise InvalidInput(f"not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except ValueError as err:  # int() limits and the like: never a Python message on screen
        raise InvalidInput("not valid JSON (a value cannot be read)") from err
    if not _depth_ok(value):
        raise InvalidInput(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
    return value
