"""Field checks for every game: what arrives from outside (a log, a save, a rules profile, an END.json, a setup typed
at the table) is read through these, so a hostile value — a bool where a number belongs, a thousand-digit number, a
name with a line break, a zero-width joiner or a lone surrogate — is refused with InvalidInput naming the field,
never a TypeError deep inside an engine.

Each check takes the field's path first (`where`, e.g. "players[1].name") and returns the value it accepted.

Player names follow ONE rule in every game (docs/game-contract.md, "Player names"): spaces around a name are
trimmed and the rest accepted; a name is refused when it is empty, longer than MAX_NAME characters, or holds a
line break, a control character, a lone surrogate or an invisible format character (zero-width joiner and space,
bidirectional overrides, soft hyphen …: category Cf). Two names at one table may not be equal ignoring case.
"""
from __future__ import annotations

import unicodedata

from companion.games.errors import InvalidInput
from companion.games.text import key, shown

MAX_NAME = 40  # fits a player panel and a score-table column; longer is never a name typed at a table
MAX_LIST = 200  # no list in a game's file is longer; a longer one is junk, refused before it is walked
# Unicode categories never allowed in a name: Cc controls (\n, \t, U+0085 …), Cs lone surrogates (not UTF-8 at all),
# Cf invisible format characters (a zero-width joiner makes "Anna" and "An\u200dna" two names that look alike;
# a bidirectional override makes a row read backwards), Zl/Zp line and paragraph separators.
_LINE_BREAKS = frozenset("\n\r\v\f\x85\u2028\u2029")
_FORBIDDEN = frozenset(("Cc", "Cs", "Cf", "Zl", "Zp"))


# --- player names ---------------------------------------------------------------------------------------------------

def name_problem(value) -> str | None:
    """Why `value` cannot be a player's name (a phrase), or None. A name is one line a table reads, from every
    seat: a row of the score table, a log line, a BG Stats record, a panel on the tablet."""
    if not isinstance(value, str):
        return "a name must be text"
    for ch in value:
        if ch in _LINE_BREAKS:
            return "a name cannot contain line breaks"
        if unicodedata.category(ch) in _FORBIDDEN:
            return f"a name cannot contain the invisible character U+{ord(ch):04X}"
    if not value.strip():
        return "a player needs a name"
    if len(value.strip()) > MAX_NAME:
        return f"a name can have at most {MAX_NAME} characters"
    return None


def typed_name(where: str, value) -> str:
    """`value` without the spaces around it; InvalidInput "where: why" when it cannot be a name. The same rule
    serves any one-line label a group types (Obscurio's difficulty)."""
    problem = name_problem(value)
    if problem:
        raise InvalidInput(f"{where}: {problem}")
    return value.strip()


def unique_name(where: str, value: str, seen: set[str]) -> str:
    """`value` (a checked name) when nobody in `seen` (casefolded names) bears it already; adds it to `seen`."""
    folded = value.casefold()
    if folded in seen:
        raise InvalidInput(f"{where}: {value!r} is already at the table")
    seen.add(folded)
    return value


# --- values in files --------------------------------------------------------------------------------------------------

def is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole(where: str, value, lo: int, hi: int) -> int:
    """`value` if it is a whole number lo..hi (bools refused)."""
    if not is_whole(value) or not lo <= value <= hi:
        raise InvalidInput(f"{where}: expected a whole number from {lo} to {hi}")
    return value


def flag(where: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{where}: expected true or false")
    return value


def choice(where: str, value, allowed, what: str) -> str:
    """`value` if it is one of the words `allowed`; the message says what was expected ("a phase")."""
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(f"{where}: {shown(value)} is not {what}")
    return value


def listed(where: str, value, most: int = MAX_LIST) -> list:
    if not isinstance(value, list):
        raise InvalidInput(f"{where}: expected a list")
    if len(value) > most:
        raise InvalidInput(f"{where}: at most {most} entries")
    return value


def only_fields(where: str, d: dict, allowed) -> None:
    """No field of `d` but `allowed` (the first unknown one, in sorted order, is named)."""
    unknown = sorted((k for k in d if k not in allowed), key=str)
    if unknown:
        prefix = f"{where}." if where else ""
        raise InvalidInput(f"{prefix}{key(unknown[0])}: unknown field")


def obj(where: str, value, fields, required=()) -> dict:
    """`value` as an object with no fields but `fields`, holding every one of `required`."""
    if not isinstance(value, dict):
        raise InvalidInput(f"{where or 'value'}: expected an object")
    only_fields(where, value, fields)
    prefix = f"{where}." if where else ""
    for name_ in required:
        if name_ not in value:
            raise InvalidInput(f"{prefix}{name_}: missing")
    return value


def required(d: dict, where: str, test, what: str):
    """`d[where]`, present and passing `test`, else "where: missing" / "where: expected <what>"."""
    if where not in d:
        raise InvalidInput(f"{where}: missing")
    value = d[where]
    if not test(value):
        raise InvalidInput(f"{where}: expected {what}")
    return value
