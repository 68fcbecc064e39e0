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

from abc import ABC, abstractmethod
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


@dataclass(frozen=True)
class GameTimer:
    """A timer the rules want running: its name ("hourglass"), a full glass in seconds, and a token that changes
    whenever a fresh glass is due."""

    name: str
    seconds: float
    token: str


class Game(ABC):
    """Everything a shell (session, CLI, UI) needs from one game: one instance per game, in its package's game.py.

    The registry (companion/session/games.py) names these by module path and imports each only when asked, so
    listing tables never pays for every engine in the house.
    """

    name: str = ""                     # "obscurians": the id in logs, the database and URLs
    title: str = ""                    # "Obscurians": a msgid, translated by the UI
    min_players: int = 1
    max_players: int = 1
    ui_plugin: str | None = None       # module path of the game's UI package, imported by the UI shell only
    rulings: tuple = ()                # companion.games.rulings.Ruling, every RULINGS.md id of this game
    # errors.Term vocabulary -> {code: English display name (a msgid)}: how refusals' game words are translated
    terms: Mapping[str, Mapping[str, str]] = {}
    # Every other msgid the game's texts use (effect texts, values), for the catalogue checks
    msgids: tuple[str, ...] = ()
    # Score line templates (key -> English template, or {"one","other"} plurals) the UI translates; {} when none
    line_templates: Mapping[str, Any] = {}

    # -- parsing ---------------------------------------------------------------------------------------------------
    @abstractmethod
    def setup_from_json(self, d: Any) -> GameSetup:
        """InvalidInput naming the field for anything malformed or impossible."""

    @abstractmethod
    def new_game(self, setup: GameSetup) -> GameState: ...

    @abstractmethod
    def state_from_json(self, d: Any) -> GameState: ...

    @abstractmethod
    def action_from_json(self, d: Any) -> GameAction: ...

    @abstractmethod
    def action_from_text(self, s: str) -> GameAction: ...

    # -- what shells show ------------------------------------------------------------------------------------------
    @abstractmethod
    def players(self, setup: GameSetup) -> list[str]:
        """Player names in seat order."""

    @abstractmethod
    def is_over(self, state: GameState) -> bool:
        """The table belongs in history (its outcome is known)."""

    @abstractmethod
    def status(self, state: GameState) -> str:
        """A few English words: "round 3", "missions to reveal", "over"."""

    @abstractmethod
    def summary(self, state: GameState) -> dict:
        """What a list of tables shows without replaying anything, kept with the table as it changes (JSON):
        {"status": str, "turn": int | None (round or turn number), "active": name | None, "winners": [names],
        "totals": {name: points}}."""

    @abstractmethod
    def describe(self, state: GameState) -> str:
        """A few lines for `companion replay` (nothing secret: the terminal is a shared screen too)."""

    def outcome_json(self, state: GameState) -> dict | None:
        outcome = state.outcome()
        return None if outcome is None else outcome.to_json()

    # -- rules profile ---------------------------------------------------------------------------------------------
    @abstractmethod
    def default_rules(self) -> Any: ...

    @abstractmethod
    def rules_from_json(self, d: Any) -> Any:
        """The group's editable rulings from JSON; InvalidInput naming the field."""

    @abstractmethod
    def rule_values(self, rules: Any) -> dict[str, str]:
        """{Rules field: the group's choice in English words} for the editable rulings."""

    def profile(self, rules: Any = None) -> list[dict]:
        from companion.games.rulings import profile

        return profile(self.rulings, self.rule_values(self.default_rules() if rules is None else rules))

    # -- optional capabilities (None / NotImplemented when the game has no such thing) -----------------------------
    def score_file(self, data: Any, rules: Any) -> "Outcome":
        """Score an end-of-game description (END.json) without a log; InvalidInput naming the field."""
        raise NotImplementedError

    def score_text(self, data: Any, rules: Any) -> str:
        """The same scoring as an itemised table for a terminal."""
        raise NotImplementedError

    def bgstats(self, data: Any, rules: Any, play_date: str, duration_min: int | None) -> dict:
        """A BG Stats play record of an end-of-game description."""
        raise NotImplementedError

    def bgstats_of(self, state: GameState, play_date: str, *, source_play_id: str | None = None) -> dict:
        """A BG Stats play record of a finished game."""
        raise NotImplementedError

    # Sensors: which dice the game reads, and what a settled throw means (the session's observation door asks).
    dice_roles: Mapping[str, int] = {}   # role -> how many dice play it, e.g. {"henchmen": 5}

    def dice_action(self, state: GameState, role: str, faces: Mapping[int, int], intent: Mapping | None) -> Any:
        """The action a throw proposes: `faces` maps die index (0-based, within the role) to pips; `intent` is what
        the players announced (e.g. a reroll's dice and chip). None when the throw means nothing now; IllegalAction
        (a sentence) when it cannot be used. Pure: the engine still judges the action before it is applied."""
        return None

    def dice_question(self, state: GameState, role: str, action: Any, intent: Mapping | None) -> Any:
        """Was the table waiting for the throw that proposes `action` (the engine accepted it, every die is sure)? None:
        yes — the turn's roll, an announced reroll — and it is applied. Otherwise the question to ask first, as a
        message with `template` (a `rules` catalogue msgid) and `params`: "{name} rolled again: discard a chip face
        down?". A throw nobody asked for is never booked on its own (table rule 8, docs/architecture.md). Pure."""
        return None

    def dice_words(self, state: GameState, action: Any) -> Any:
        """The move a throw proposes, in the players' words (a message with `template` and `params`), for the
        questions the dice raise ("Anna rolled Steal, Steal, Swap, Wild, Relocate"). None: its notation. Pure."""
        return None

    # Timers: what should run now, and what it means when it runs out (the session's GameClock asks).
    def timer(self, state: GameState) -> "GameTimer | None":
        """The timer the rules want running at `state`, or None. A new `token` means a fresh glass (a new step,
        the hourglass moved to the next space); the same token means "let it run"."""
        return None

    def timer_action(self, state: GameState, name: str) -> Any:
        """The action that records "timer `name` ran out" (the session applies it; the engine judges it)."""
        raise NotImplementedError

    def random_game(self, seed: int, n_players: int) -> tuple[GameSetup, list]:
        """(setup, actions) of a complete random legal game: contract tests and benchmarks."""
        raise NotImplementedError

    def has(self, capability: str) -> bool:
        """Does this game implement the optional method `capability` ("score_file", "bgstats", …)?"""
        return getattr(type(self), capability) is not getattr(Game, capability)
