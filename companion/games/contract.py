"""The game contract: what every rules engine in companion/games provides, and the outcome shape they all return.

The session, the CLI and the UI shell code against these declarations only; a new game implements them
(docs/adding-a-game.md). They are `typing.Protocol`s, checked structurally (tests/test_game_contract.py runs one
suite over every registered game), so an engine keeps its own small frozen dataclasses and needs no base class.

    setup  = Setup.from_json(d)           # InvalidInput naming the field
    state  = new_game(setup)
    state2 = state.apply(action)          # a NEW state; IllegalAction (a sentence for players) leaves `state` as is
    state.legal_actions()                 # concrete legal actions (chance actions such as dice rolls may be left out:
    state.legal_types()                   #   their type still shows in legal_types())
    state.outcome()                       # None while the game runs, then an Outcome
    action_from_json(a.to_json()) == a;  action_from_text(a.to_text()) == a
    State.from_json(state.to_json()) == state

Outcome JSON is the neutral shape every game returns: ``{"players": [...], "winners": [...], **detail}``; each
player is ``{"name", "total", "lines": [{"rule", "points"}], **extra}``. Games add their own keys through
`detail` (e.g. Obscurio's winning side) and a player's `extra` (e.g. Obscurians' colour and mission), so the
Obscurians JSON stays exactly what `companion score` has always printed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Protocol, runtime_checkable


@runtime_checkable
class GameSetup(Protocol):
    """Who plays, and the options fixed for the whole game (house rules included), as one immutable value."""

    def to_json(self) -> dict: ...


@runtime_checkable
class GameAction(Protocol):
    """A small frozen value: one move. `TYPE` is its JSON "type"; both notations round-trip."""

    TYPE: str

    def to_json(self) -> dict: ...

    def to_text(self) -> str: ...


@runtime_checkable
class GameState(Protocol):
    """An immutable position. `apply` never mutates `self`."""

    setup: Any

    def apply(self, action: Any) -> "GameState": ...

    def legal_actions(self) -> list: ...

    def legal_types(self) -> set[str]: ...

    def outcome(self) -> "Outcome | None": ...

    def to_json(self) -> dict: ...


@dataclass(frozen=True)
class OutcomeLine:
    """One itemised line: `rule` is the English text a player reads, `points` what it adds (None: no points)."""

    rule: str
    points: int | None = None
    key: str = ""                                  # machine-readable id, for translations ("" when none)
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"rule": self.rule, "points": self.points}


@dataclass(frozen=True)
class PlayerResult:
    name: str
    total: int | None                              # None in games without points (Obscurio)
    lines: tuple[OutcomeLine, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # game-specific keys, written before total and lines

    def to_json(self) -> dict:
        return {"name": self.name, **self.extra, "total": self.total, "lines": [ln.to_json() for ln in self.lines]}


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winners` are player ids as the game names them in actions (Obscurians: colours)."""

    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)  # game-specific top-level keys

    def to_json(self) -> dict:
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners), **self.detail}


def outcome_lines(lines: Iterable[tuple[str, int | None]]) -> tuple[OutcomeLine, ...]:
    return tuple(OutcomeLine(rule, points) for rule, points in lines)
