"""A table's timeline: a log of action/undo/redo entries folded into the effective actions and the state after each.

Shared by the live table and the log-file reader so that "what the log means" is defined once. Engine states are
immutable (State.apply returns a new one), so keeping the state after every action costs little and makes undo and
redo exact without replaying from the start.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.games.errors import IllegalAction, InvalidInput


class Timeline:
    def __init__(self, initial_state: Any):
        self.initial = initial_state
        self._done: list[tuple[Any, Any]] = []    # (action, state after it), oldest first
        self._undone: list[tuple[Any, Any]] = []  # the redo stack, next redo last

    @property
    def state(self) -> Any:
        return self._done[-1][1] if self._done else self.initial

    @property
    def actions(self) -> tuple:
        return tuple(action for action, _ in self._done)

    @property
    def moves(self) -> list[tuple[Any, Any, Any]]:
        """Every effective move with the states around it, oldest first: (state before, action, state after). The
        move logs on screen name a move from both states; the states are kept here already, nothing is replayed."""
        befores = [self.initial] + [state for _, state in self._done[:-1]]
        return [(before, action, after) for before, (action, after) in zip(befores, self._done)]

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def next_redo(self) -> Any:
        """The action redo would play again, None when there is none (so Redo can name it)."""
        return self._undone[-1][0] if self._undone else None

    def preview(self, kind: str, action: Any = None) -> Any:
        """The state `kind` would lead to, changing nothing; IllegalAction if the entry is not possible now."""
        if kind == "action":
            return self.state.apply(action)
        if kind == "undo":
            if not self._done:
                raise IllegalAction.of("Nothing to undo")
            return self._done[-2][1] if len(self._done) > 1 else self.initial
        if kind == "redo":
            if not self._undone:
                raise IllegalAction.of("Nothing to redo")
            return self._undone[-1][1]
        raise ValueError(f"unknown log entry kind {kind!r}")

    def record(self, kind: str, action: Any = None, state: Any = None) -> None:
        """Apply an entry already checked with preview(); `state` is what preview() returned (for "action")."""
        if kind == "action":
            self._done.append((action, state))
            self._undone.clear()  # a new action after undo starts a new branch: the old future is gone
        elif kind == "undo":
            self._undone.append(self._done.pop())
        elif kind == "redo":
            self._done.append(self._undone.pop())

    def step(self, kind: str, action: Any = None) -> None:
        self.record(kind, action, self.preview(kind, action))


def rebuild(adapter, setup: Any, entries, where) -> Timeline:
    """Fold stored or file log entries, `entries` as (kind, action JSON or None) pairs, into a Timeline.

    Every entry is checked; the first bad one raises InvalidInput prefixed with `where(i)` (i counts from 0), e.g.
    "line 12: Steal blue lamp — Ben's goods are secured until his next turn".
    """
    timeline = Timeline(adapter.new_game(setup))
    for i, (kind, payload) in enumerate(entries):
        if kind == "timer":  # the sand's history, not the game's: the table's timers fold these (Table.timers)
            _check_timer(payload, where(i))
            continue
        action = None
        if kind == "action":
            action = parse_action(adapter, payload, where(i))
        try:
            timeline.step(kind, action)
        except IllegalAction as err:
            what = f"{_sentence(action.to_text())} — " if action is not None else ""
            raise InvalidInput(f"{where(i)}: {what}{err}{_cite(err.rule)}") from err
    return timeline


@dataclass(frozen=True)
class Replayed:
    """A log folded under the rules it was played under (docs/persistence.md "Rules versions")."""
    setup: Any                  # the engine's Setup, naming its rules version
    timeline: Timeline
    rules_version: int
    note: str | None            # "recorded under an earlier ruling: …" (a `rules` msgid), None under today's rules


def replay(adapter, setup_json: dict, entries, where, read_setup: Callable[[dict], Any]) -> Replayed:
    """Fold a stored table's or a log file's entries under the rules version it was played under.

    A setup that names its version is replayed under it. One from before versions were recorded is replayed under
    each version it may have been played under, newest first (`Game.unrecorded_rules_versions`), and gets the first
    that accepts every entry; if none does, the error under the newest is raised, as `rebuild` words it.
    `read_setup(json)` parses a setup (raising the caller's wording of a bad one).
    """
    recorded = adapter.recorded_rules_version(setup_json)
    if recorded is not None or not adapter.records_rules_version:
        versions = [None]  # as it stands: the version it names, or a game with one version only
    else:
        versions = list(adapter.unrecorded_rules_versions or [adapter.rules_version])
    refusal = None
    for version in versions:
        setup = read_setup(setup_json if version is None else adapter.with_rules_version(setup_json, version))
        try:
            timeline = rebuild(adapter, setup, entries, where)
        except InvalidInput as err:
            refusal = refusal or err
            continue
        played_under = adapter.rules_version_of(setup)
        return Replayed(setup, timeline, played_under, adapter.earlier_rules.get(played_under))
    raise refusal


def _check_timer(payload: Any, label: str) -> None:
    from companion.session.timers import TimerEvent

    try:
        TimerEvent.from_json(payload)
    except ValueError as err:
        raise InvalidInput(f"{label}: {err}") from None


def _cite(rule: str) -> str:
    """Where the broken rule stands: a RULINGS.md id or a rulebook section."""
    if not rule:
        return ""
    return f" [{rule}]" if rule.startswith("RULING") else f" [rulebook: {rule}]"


def parse_action(adapter, payload: Any, label: str) -> Any:
    if not isinstance(payload, dict):
        raise InvalidInput(f"{label}: an action must be a JSON object")
    try:
        return adapter.action_from_json(payload)
    except InvalidInput as err:
        raise InvalidInput(f"{label}: {err}") from err
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        # Defensive: a hand-edited file must never end in a traceback, whatever the engine's parser lets through.
        raise InvalidInput(f"{label}: not a valid action") from err


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
