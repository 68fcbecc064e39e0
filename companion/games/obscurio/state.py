"""The Obscurio game state: an immutable value; `apply` checks an action and returns the next state.

A turn is an explicit state machine (`phase`), the rulebook's five steps:

    traps ──draw──▶ riddle ──riddle──▶ traitor ──decoys──▶ doors ──done / sand on the last space──▶ exit
    (step 1)        (step 2)           (step 3; skipped     (step 4: chip, open,                     (step 4)
                                        with 2-3 players)    sand = next space)                        │ exit N
      ▲                                                                                                 ▼
      └────────────end────────── end (step 5) ◀── [the normal area emptied: Accusation Phase] ◀── resolution
                                                   discussion ──sand──▶ vote ──votes──▶ loyalty ──loyalty──┐
                                                        ▲ (traitor not found, tokens left) ◀───────────────┘

and, from any resolution, the end of the game: "over", or first "unmask" when the app does not know the Traitor.
The handlers live in turn.py (steps 1-3, 5), doors.py (step 4) and accusation.py, dispatched by flow.py; what is
legal is legal.py, the JSON persist.py, the shared values model.py. This module holds the value and what a screen
reads from it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from companion.games.contract import GameTimer
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurio.constants import (
    CONCEALED_DOOR, DARK_MAGIC_DECOYS, DECOYS, DOORS, GREAT_ROOM_DOORS, PLUS2, PURPLE, WATCHER_AT,
)
from companion.games.obscurio import ending, flow, legal, persist
from companion.games.obscurio.model import (  # noqa: F401  (PHASES, ACCUSATION_PHASES, SIDES: read from here too)
    ACCUSATION_PHASES, GLASS, PHASES, SIDES, STEP, Resolution,
)
from companion.games.obscurio.setup import Setup, deal_traitor

@dataclass(frozen=True)
class State:
    setup: Setup
    phase: str
    turn: int
    normal: int                       # cohesion tokens in the normal area of the gauge
    dark: int                         # ... in the dark area (with the monster)
    box: int = 0                      # ... back in the box (Dangerous Room, false accusations)
    cards: tuple[int, ...] = ()       # ... on each chip's character card, in setup.chips order
    progress: int = 0                 # rooms crossed, 0-6 (6: escaped). RULING obscurio-progress
    bonus: int = 0                    # extra traps this turn's step 1 draws (the last turn's time track)
    traps: tuple[str, ...] = ()       # trap tokens drawn this turn (canonical order)
    decoys: int | None = None         # cards the Traitor picked this turn (None: step 3 not played)
    space: int = 0                    # time-track space the hourglass stands on, 0-based
    opened: int = 0                   # doors revealed so far (all of them, except under Locked Doors)
    placed: tuple[int | None, ...] = ()  # door per chip, setup.chips order; None: not in front of a door
    stopped: bool = False             # step 4 ended with "Stop!" (the hourglass ran out on the last space)
    exit: int | None = None           # the Exit door, once revealed
    next_bonus: int | None = None     # what the time track gives the next turn, once step 4 is over
    last: Resolution | None = None    # this turn's resolution
    accusation: int = 0               # Accusation Phase round (0: none this turn)
    votes: tuple[tuple[str, str | None], ...] = ()  # the last round's votes
    accused: tuple[str, ...] = ()     # the last round's accused, seat order
    cleared: tuple[str, ...] = ()     # wizards who were accused and showed a Loyal card
    traitor: str | None = None        # SECRET when loyalty="app" and not exposed: never shown on the shared screen
    exposed: bool = False             # the Traitor was accused and exposed (RULING obscurio-accusation)
    side: str | None = None           # once the game has ended: "wizards", "traitor" or "nobody"

    def __repr__(self):  # no traitor here: a repr ends up in logs and bug reports
        return (f"<Obscurio State turn {self.turn} {self.phase} progress={self.progress} "
                f"cohesion={self.normal}+{self.dark} box={self.box}>")

    # ----------------------------------------------------------------- what a screen reads

    @property
    def step(self) -> int | None:
        """1-5 while a turn runs (the Accusation Phase belongs to step 4); None at the end of the game."""
        return STEP.get(self.phase)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def watcher(self) -> bool:
        """The progress marker stands on the last space: the Watcher trap is active. RULING obscurio-watcher."""
        return self.progress >= WATCHER_AT

    @property
    def effects(self) -> frozenset[str]:
        """The traps acting this turn: the tokens drawn, plus the trap the Watcher acts as (RULING obscurio-watcher)."""
        out = set(self.traps)
        if self.watcher and self.setup.rules.watcher:
            out.add(self.setup.rules.watcher)
        if not self.setup.has_traitor:
            out -= set(PURPLE)  # no step 3 (RULING obscurio-2-3-players)
        return frozenset(out)

    @property
    def draws_due(self) -> int:
        """Traps step 1 starts with: 1, plus last turn's time track, plus 2 if the Watcher acts as +2."""
        watcher_plus2 = 2 if self.watcher and self.setup.rules.watcher == PLUS2 else 0
        return 1 + self.bonus + watcher_plus2

    @property
    def bag(self) -> dict[str, int]:
        """What is in the bag at step 1: every trap goes back at the end of a turn (RULING obscurio-traps)."""
        return self.setup.rules.bag_for(self.setup.has_traitor)

    @property
    def n_doors(self) -> int:
        return GREAT_ROOM_DOORS if "great_room" in self.effects else DOORS

    @property
    def hidden_doors(self) -> tuple[int, ...]:
        """Doors laid face down now: Concealed Door hides #4 until the end of step 4."""
        return (CONCEALED_DOOR,) if self.phase == "doors" and "concealed_door" in self.effects else ()

    @property
    def locked(self) -> bool:
        return "locked_doors" in self.effects

    @property
    def track(self) -> tuple[int, ...]:
        """This turn's time track: RULING obscurio-time-track, or the Evanescent Room's (RULING obscurio-evanescent)."""
        rules = self.setup.rules
        return rules.evanescent_track if "evanescent_room" in self.effects else rules.time_track

    @property
    def max_decoys(self) -> int:
        return DARK_MAGIC_DECOYS if "dark_magic" in self.effects else DECOYS

    @property
    def traitor_sees_exit(self) -> bool:
        """Espionage: in step 3 the Grimoire shows the Exit card to the Traitor."""
        return "espionage" in self.effects

    @property
    def chips(self) -> tuple[str, ...]:
        """The chips that choose doors: every chip except an exposed Traitor's (RULING obscurio-accusation)."""
        out = self.setup.chips
        return tuple(c for c in out if c != self.traitor) if self.exposed else out

    def door_of(self, chip: str) -> int | None:
        return self.placed[self.setup.chips.index(chip)]

    def tokens_on(self, chip: str) -> int:
        return self.cards[self.setup.chips.index(chip)]

    @property
    def cohesion_left(self) -> int:
        return self.normal + self.dark

    @property
    def timer(self) -> GameTimer | None:
        """The glass the session runs now: the hourglass in step 4 and in the accusation's discussion, else None.
        RULING obscurio-hourglass, obscurio-time-track.

        One glass on the table: the hourglass times step 4 and, turned again, the accusation's minute. The token
        says which and where ("hourglass: turn 3 space 2", "accusation: turn 5 accusation 1"): a new token, a fresh
        glass. Step 4's glasses are one run, a glass per time-track space; it waits for the first card to be laid
        ("Tan pronto como se coloca la primera carta en el tablero, el Grimorio gira el reloj de arena"). The
        accusation's glass waits until the group has seen the turn's result ("Gira el reloj de arena")."""
        seconds = self.setup.rules.hourglass
        if self.phase == "doors":
            return GameTimer(GLASS, seconds, f"hourglass: turn {self.turn} space {self.space + 1}",
                             run=f"turn {self.turn} step 4", glass=self.space, wait=True)
        if self.phase == "discussion":
            run = f"turn {self.turn} accusation {self.accusation}"
            return GameTimer(GLASS, seconds, f"accusation: {run}", run=run, glass=0, wait=True)
        return None

    # ----------------------------------------------------------------- applying actions

    def apply(self, action) -> "State":
        """The state after `action`; IllegalAction (with a message for players) leaves this state unchanged."""
        handler = flow.HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction.of("That is not an Obscurio action", "Obscurio")
        return handler(self, action)

    def is_legal(self, action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def legal_types(self) -> set[str]:
        """JSON type names of the actions legal now; "draw" (physical bag) and "votes" are never listed concretely."""
        return legal.legal_types(self)

    def legal_actions(self) -> list:
        """Every concrete legal action now, except physical-bag draws and votes (their space is huge)."""
        return legal.legal_actions(self)

    def outcome(self):
        """None while the game runs (and while the Traitor is still to be revealed), then a contract Outcome."""
        return ending.outcome(self)

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> dict:
        """Everything, the app-dealt Traitor included: the log is the save file. Never show it on the table."""
        return persist.state_to_json(self)

    @staticmethod
    def from_json(d) -> "State":
        state = State(**persist.fields_from_json(d))
        persist.check_loaded(state, d)
        return state

    def _with(self, **changes) -> "State":
        return replace(self, **changes)


def new_game(setup: Setup) -> State:
    """Turn 1, step 1: draw at least one trap. The gauge full; the app deals loyalty if the group asked it to."""
    if not isinstance(setup, Setup):
        raise InvalidInput("setup: expected a Setup")
    n_chips = len(setup.chips)
    traitor = deal_traitor(setup.seed, setup.wizards) if setup.loyalty == "app" else None
    return State(setup=setup, phase="traps", turn=1, normal=setup.cohesion - setup.dark, dark=setup.dark,
                 cards=(0,) * n_chips, placed=(None,) * n_chips, traitor=traitor)
