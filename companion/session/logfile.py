"""The portable log file (JSON Lines): how a game travels between tablets, into bug reports and test fixtures.

    {"format": 1, "game": "obscurians", "setup": {...}}     line 1, the header
    {"action": {"type": "reveal", "card": "no_swap"}}        one line per log entry, oldest first
    {"undo": true}
    {"redo": true}
    {"timer": {"timer": "hourglass", "op": "start", "duration": 60, …}}   a timer changed (docs/timers.md)

Undo and redo entries are kept (not squashed) so an imported table has the same redo stack as the exported one.
Reading checks every line against the rules and names the first bad one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from companion.games.errors import InvalidInput
from companion.games.text import readable_path, shown
from companion.session import games
from companion.session.timeline import Timeline, replay
from companion.session.jsontext import loads

FORMAT = 1

Entry = tuple[str, "dict | None"]  # ("action", action JSON) | ("undo", None) | ("redo", None)


@dataclass(frozen=True)
class GameLog:
    game: str
    setup_json: dict
    setup: Any                  # the engine's Setup, naming the rules version the log was played under
    entries: tuple[Entry, ...]
    timeline: Timeline           # the log folded: effective actions and the final state
    rules_note: str | None = None  # "recorded under an earlier ruling: …" when played under earlier rules

    @property
    def state(self) -> Any:
        return self.timeline.state


def entry_to_json(kind: str, payload: dict | None) -> dict:
    return {kind: payload} if kind in ("action", "timer") else {kind: True}


def entry_from_json(obj: Any) -> Entry:
    """One log line's object → (kind, payload); InvalidInput saying what shape was expected."""
    if isinstance(obj, dict) and len(obj) == 1:
        (key, value), = obj.items()
        if key in ("action", "timer"):  # a timer's payload is checked when the log is folded (timeline.rebuild)
            return (key, value)
        if key in ("undo", "redo"):
            if value is not True:
                raise InvalidInput(f'"{key}" must be true')
            return (key, None)
    raise InvalidInput('expected {"action": {...}}, {"timer": {...}}, {"undo": true} or {"redo": true}')


def write_log(game: str, setup_json: dict, entries: Iterable[Entry]) -> str:
    lines = [json.dumps({"format": FORMAT, "game": game, "setup": setup_json}, sort_keys=True)]
    lines += [json.dumps(entry_to_json(kind, payload), sort_keys=True) for kind, payload in entries]
    return "\n".join(lines) + "\n"


def read_log(text: str) -> GameLog:
    """Parse and validate a whole log; InvalidInput "line N: …" for the first line that breaks a rule."""
    # Lines end at "\n" only: str.splitlines() would also split inside a JSON string at U+2028, U+0085 and the like,
    # calling a valid line "not valid JSON" and shifting every line number after it.
    numbered = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    if not numbered:
        raise InvalidInput("line 1: the file is empty (expected a header line)")
    first, line = numbered[0]
    game, setup_json, adapter, _ = _read_header(first, line)

    entries: list[Entry] = []
    for n, line in numbered[1:]:
        try:
            entries.append(entry_from_json(loads(line)))
        except InvalidInput as err:
            raise InvalidInput(f"line {n}: {err}") from None
    # A header that names no rules version comes from before versions were recorded: the log is replayed under
    # the rules it was played under (timeline.replay; docs/persistence.md "Rules versions").
    replayed = replay(adapter, setup_json, entries, lambda i: f"line {numbered[i + 1][0]}",
                      lambda d: _setup(first, adapter, d))
    return GameLog(game, setup_json, replayed.setup, tuple(entries), replayed.timeline, replayed.note)


def read_log_file(path) -> GameLog:
    """read_log on a file; errors are prefixed with the file name. OSError (missing, unreadable) propagates."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return read_log(data.decode("utf-8"))  # a leading byte-order mark is dropped by jsontext.loads
    except UnicodeDecodeError:
        raise InvalidInput(f"{readable_path(path)}: not a text file (UTF-8 expected)") from None
    except InvalidInput as err:
        raise InvalidInput(f"{readable_path(path)}: {err}") from None


def _read_header(n: int, line: str):
    try:
        header = loads(line)
        if not isinstance(header, dict):
            raise InvalidInput('expected a header {"format": 1, "game": …, "setup": {…}}')
        version = header.get("format")
        if isinstance(version, bool) or version != FORMAT:  # true == 1 in Python, but is not a format number
            raise InvalidInput(f"unsupported format {shown(version)} (this app reads format {FORMAT})")
        unknown = set(header) - {"format", "game", "setup"}
        if unknown:
            raise InvalidInput(f"unknown header field {shown(sorted(unknown)[0])}")
        game = header.get("game")
        adapter = games.get(game) if isinstance(game, str) else None
        if adapter is None:
            raise InvalidInput("the header needs a game name")
        setup_json = header.get("setup")
        if not isinstance(setup_json, dict):
            raise InvalidInput("the header needs a setup object")
    except InvalidInput as err:
        raise InvalidInput(f"line {n}: {err}") from None
    return game, setup_json, adapter, _setup(n, adapter, setup_json)


def _setup(n: int, adapter, setup_json: dict):
    try:
        return adapter.setup_from_json(setup_json)
    except InvalidInput as err:
        raise InvalidInput(f"line {n}: {err}") from None
    except (KeyError, TypeError, AttributeError, ValueError):
        # Defensive, as for actions: whatever the engine's parser lets through becomes a named-line error
        # (never a Python repr on screen: the engine should have named the field).
        raise InvalidInput(f"line {n}: the setup cannot be read") from None

