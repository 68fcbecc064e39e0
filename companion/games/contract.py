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
    whenever a fresh glass is due.

    A glass may belong to a `run` (Obscurio's step 4: one glass per time-track space): `glass` is how many glasses
    of the run have run out before this one, so the session knows how far the real time has gone whatever the log
    says (Undo never gives time back). `wait`: a run's first glass is set down and waits until someone turns it
    (when the book says so), rather than starting by itself."""

    name: str
    seconds: float
    token: str
    run: str = ""
    glass: int = 0
    wait: bool = False


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

    # -- rules versions (docs/persistence.md "Rules versions") -----------------------------------------------------
    # A correction of how the app applies the rules gets a new version number. Every table records the version it
    # was played under (its setup's `rules.version`) and is replayed under it, so a correction applies to new tables
    # and never rewrites an old table's moves or score.
    rules_version: int = 1                # the version new tables are played under
    # Whether the game's Rules carry `version` (to/from JSON). A game that does not yet is read as it is, always
    # under its one version.
    records_rules_version: bool = False
    # What each earlier version did differently, as the sentence a replay says (a msgid of the `rules` catalogue):
    # {1: "recorded under an earlier ruling: Secure took one good"}
    earlier_rules: Mapping[int, str] = {}
    # The versions a table stored before versions were recorded may have been played under, newest first; such a
    # table is replayed under the first that accepts its whole log. Safe only because each correction so far
    # narrowed what is legal and left every move that stays legal, and every score, as it was (a test checks it).
    # () : every table of this game records its version.
    unrecorded_rules_versions: tuple[int, ...] = ()

    def recorded_rules_version(self, setup_json: Any) -> Any:
        """The version a stored setup names (as written: the game's parser checks it), or None when it names none
        (a table or log from before versions were recorded)."""
        rules = setup_json.get("rules") if isinstance(setup_json, dict) else None
        return rules.get("version") if isinstance(rules, dict) else None

    def with_rules_version(self, setup_json: dict, version: int) -> dict:
        """`setup_json` naming rules version `version` (a copy); a malformed `rules` is left for the parser to name,
        and a game whose rules carry no version gets it as it is."""
        if not self.records_rules_version:
            return setup_json
        rules = setup_json.get("rules")
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            return setup_json
        return {**setup_json, "rules": {**rules, "version": version}}

    def rules_version_of(self, setup: GameSetup) -> int:
        """The rules version a parsed setup is played under."""
        return getattr(getattr(setup, "rules", None), "version", self.rules_version)

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

    def dice_placed_at_table(self, state: GameState, role: str, faces: Mapping[int, int],
                             intent: Mapping | None) -> Any:
        """Dice that stand for pieces on the table and are set by hand, not thrown (Obelisk: a die on a corner is
        that Obelisk, its face its strength): what the faces now shown propose, as `(question, actions)` — a message
        (`template`, `params`) asking which happened, and every move the engine accepts that they can mean (who did
        it, what they paid). Never applied on its own: the players pick one or ignore it. None when every die shows
        what its piece already is (picked up and put back); IllegalAction (a sentence) when no move makes that face
        now. A game implementing it binds its roles' dice on its own screen (a die stands on a place of the board),
        not on the devices screen. Pure."""
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

    def is_note(self, action: Any) -> bool:
        """A move that records something that happened at the table without changing the game (Obscurio: a wizard
        looked at their loyalty card). Undo takes back what people entered and leaves notes in place."""
        return False

    def random_game(self, seed: int, n_players: int) -> tuple[GameSetup, list]:
        """(setup, actions) of a complete random legal game: contract tests and benchmarks."""
        raise NotImplementedError

    def has(self, capability: str) -> bool:
        """Does this game implement the optional method `capability` ("score_file", "bgstats", …)?"""
        return getattr(type(self), capability) is not getattr(Game, capability)
