"""The Obelisk game state: an immutable value; `apply` checks an action and returns the next state.

A turn is a Day and a Night (turn n: Day n, then Night n), as an explicit state machine (`phase`):

    ┌─ dawn: captured demons to the Quarry; victory when the Dark Realm and the map are empty
    ▼
  [decipher]  Scrolls with the real deck: which Scroll was flipped (the app's deck: flipped at once)
  [roll]      Instability rolls at the table (the app's dice: rolled at once); Lightning Rods gain a charge
  day ────────── build · reinforce · mine · rotate · charge · reroll · aim · pass ──── everyone done / nightfall /
    │                                                                                 the Day's minute ran out
    ▼
  [roll]      Burnout rolls at the table (the app's dice: rolled at once)
  march ───── captures of the demons on the map, at any step of tonight's walk ── march: they move
  [spawn]     the real Dark Realm: which demons came out (the app's: drawn at once, hidden until then)
  swarm ───── captures of the new demons (Portal included) and of the others where they stopped ── dawn: the new
    │         demons move, the Night ends
    └──▶ dawn … or "over": a demon took a losing step (lost), or no demon is left anywhere (won)

Handlers live in day.py, scrolls.py and night.py, dispatched by flow.py; the transitions between Days and Nights in
cycle.py; what is legal in legal.py, the JSON in persist.py, the shared values (phases, Loss) in model.py. This
module holds the value and what a screen reads from it (the Time Trials timer included); none of those imports it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.contract import GameTimer
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obelisk.box import DEMONS_IN_BOX, MARKERS, SCROLL_DECK, TIME_TRIAL_SECONDS
from companion.games.obelisk import cycle, ending, flow, legal, persist
from companion.games.obelisk.model import (  # noqa: F401  (PHASES, NIGHT_PHASES, ROLLING, RESULTS: read from here too)
    NIGHT_PHASES, PHASES, RESULTS, ROLLING, TIME_TRIALS, Cell, Corner, Demon, GameMap, Loss, Obelisk, Stones, Walk,
    all_cells,
)
from companion.games.obelisk.paths import move_order, walk
from companion.games.obelisk.rules import Budget
from companion.games.obelisk.setup import Setup

@dataclass(frozen=True)
class State:
    setup: Setup
    day: int                                  # the turn: Day n, then Night n
    phase: str
    map: GameMap
    markers: frozenset[Cell]                  # tiles still carrying a rotation marker
    trodden: frozenset[Cell]                  # tiles some demon stepped on this game (Broken Earth cannot move them)
    obelisks: tuple[Obelisk, ...]             # on the map, by corner
    unplaced: tuple[int, ...]                 # per seat: Obelisks not built yet
    demons: tuple[Demon, ...]                 # on the map, by id
    realm: Stones                             # in the Dark Realm
    drawn: int                                # demons that came out of the Dark Realm so far (ids 1..drawn)
    quarry: Stones                            # captured demons turned to stone (and stones mined)
    tokens: int                               # stand-ins for green stones in the Quarry (RULING obelisk-mine)
    supply: Stones                            # Stone Demons in the Supply
    used: tuple[tuple[str, ...], ...] = ()    # per seat: the kinds of action played this Day, in order
    passed: tuple[bool, ...] = ()             # per seat: done for this Day
    leader: int = 0                           # Rotating Leadership: the seat holding the leader token
    first_leader: int = 0                     # … and the seat that held it first this Day
    last_actor: int | None = None             # the seat that played the Day's last action so far
    deciphered: tuple[str, ...] = ()          # Scrolls flipped face up and not charged yet
    spent: tuple[str, ...] = ()               # Scrolls charged (under an Obelisk or discarded)
    rolling: str | None = None                # "instability" or "burnout" while rolls are due at the table
    pending: tuple[Corner, ...] = ()          # … the Obelisks still to be rolled
    rolls: int = 0                            # D6s the app rolled so far (each one's seed)
    tonight: tuple[int, ...] = ()             # ids of the demons that came out of the Dark Realm tonight
    closed: bool = False                      # Time Trials: the Night's minute ran out, no more captures
    caught: tuple[int, ...] = ()              # per seat: demons its Obelisks captured this game
    result: str | None = None                 # "won" or "lost" once over
    loss: Loss | None = None

    def __repr__(self):
        return (f"<Obelisk State day {self.day} {self.phase} demons={len(self.demons)} realm={self.realm.total} "
                f"obelisks={len(self.obelisks)}>")

    # ----------------------------------------------------------------- what a screen reads

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_night(self) -> bool:
        return self.phase in NIGHT_PHASES or self.rolling == "burnout"

    @property
    def rules(self):
        return self.setup.rules

    @property
    def budget(self) -> Budget:
        """Each player's Day (RULING obelisk-actions)."""
        return self.rules.budget(self.setup.n_players)

    def seat(self, colour: str) -> int:
        return self.setup.seat(colour)

    def actions_left(self, colour: str) -> int:
        """Actions `colour` may still play this Day (0 once they passed or outside the Day)."""
        i = self.seat(colour)
        if self.phase != "day" or self.passed[i]:
            return 0
        return max(0, self.budget.actions - len(self.used[i]))

    def may_repeat(self, colour: str, kind: str) -> bool:
        """The repetition rule: with 3-4 players (by default) one action of each kind per Day."""
        return self.budget.repeat or kind not in self.used[self.seat(colour)]

    @property
    def acting(self) -> tuple[str, ...]:
        """The players who may act now: with Rotating Leadership only the leader, else everyone with actions left."""
        if self.phase != "day":
            return ()
        if self.setup.leadership:
            colour = self.setup.colours[self.leader]
            return (colour,) if self.actions_left(colour) else ()
        return tuple(c for c in self.setup.colours if self.actions_left(c))

    @property
    def speakers(self) -> tuple[str, ...]:
        """Rotating Leadership: who may speak now — during the Day whoever holds or has held the token that Day;
        during the Night nobody (except to say which demon their Obelisk captures). Without it: everyone."""
        colours = self.setup.colours
        if not self.setup.leadership:
            return colours
        if self.phase != "day":
            return ()
        n = len(colours)
        held = (self.leader - self.first_leader) % n
        return tuple(colours[(self.first_leader + k) % n] for k in range(held + 1))

    def obelisk_at(self, corner: Corner) -> Obelisk | None:
        for o in self.obelisks:
            if o.corner == corner:
                return o
        return None

    def demon(self, demon_id: int) -> Demon | None:
        for d in self.demons:
            if d.id == demon_id:
                return d
        return None

    def speed(self, colour: str) -> int:
        return self.rules.speed(colour)

    def strength(self, colour: str) -> int:
        return self.rules.strength(colour)

    def tonight_walk(self, d: Demon) -> Walk:
        """Where demon `d` walks tonight (from where it stood at nightfall: its start is cells[0]), until its
        speed is used up or its next step would lose."""
        start = d.visited[:len(d.visited) - d.walked]
        return walk(self.map, start, self.speed(d.colour))

    def in_order(self) -> list[Demon]:
        """The demons on the map in the order they move (RULING obelisk-move-order)."""
        return move_order(self.demons, self.speed)

    @property
    def deck_left(self) -> int:
        """Scrolls still face down in the deck (Broken Earth on top of six)."""
        return 0 if not self.setup.scrolls else SCROLL_DECK + 1 - len(self.deciphered) - len(self.spent)

    @property
    def quarry_green(self) -> int:
        """Green stones a payment can use: the demons and their stand-ins."""
        return self.quarry.green + self.tokens

    @property
    def spare_markers(self) -> int:
        """Rotation markers not on a tile (a Mine with no green left in the Supply uses one as a green stone)."""
        return max(0, MARKERS - len(self.markers))

    @property
    def captured(self) -> Stones:
        """Demons on the Obelisks tonight."""
        return Stones.of(c.colour for o in self.obelisks for c in o.captured)

    def census(self) -> dict[str, Stones]:
        """Where every Stone Demon of the box is: Dark Realm, map, Obelisks, Quarry, Supply (their sum is the box)."""
        return {"realm": self.realm, "map": Stones.of(d.colour for d in self.demons), "obelisks": self.captured,
                "quarry": self.quarry, "supply": self.supply}

    def conserved(self) -> bool:
        total = Stones()
        for stones in self.census().values():
            total = total + stones
        return total == Stones(**DEMONS_IN_BOX)

    def free_corners(self) -> list[Corner]:
        """Corners an Obelisk can be built on: free and next to at least one tile."""
        taken = {o.corner for o in self.obelisks}
        return [(i, j) for i in range(6) for j in range(6)
                if (i, j) not in taken and self.map.touches_a_tile((i, j))]

    @property
    def marked(self) -> tuple[Cell, ...]:
        return tuple(c for c in all_cells() if c in self.markers)

    @property
    def timer(self) -> GameTimer | None:
        """Time Trials: one minute for each Day (once its actions can be played) and for each Night (from the demons
        on the map moving until dawn, while captures can still be made)."""
        if not self.setup.time_trials or self.closed:
            return None
        if self.phase == "day":
            return GameTimer(TIME_TRIALS, TIME_TRIAL_SECONDS, f"day {self.day}")
        if self.phase in NIGHT_PHASES:
            return GameTimer(TIME_TRIALS, TIME_TRIAL_SECONDS, f"night {self.day}")
        return None

    # ----------------------------------------------------------------- applying actions

    def apply(self, action) -> "State":
        """The state after `action`; IllegalAction (a sentence for players) leaves this state unchanged."""
        return flow.dispatch(self, action)

    def is_legal(self, action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def legal_types(self) -> set[str]:
        return legal.legal_types(self)

    def legal_actions(self) -> list:
        """Every concrete legal action, except Rotate and Charge (too many combinations: the advisor lists a
        player's Rotate choices) and the real Dark Realm's draw."""
        return legal.legal_actions(self)

    def outcome(self):
        return ending.outcome(self)

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> dict:
        return persist.state_to_json(self)

    @staticmethod
    def from_json(d) -> "State":
        state = State(**persist.fields_from_json(d))
        persist.check_loaded(state, d)
        return state

    def _with(self, **changes) -> "State":
        return replace(self, **changes)


def new_game(setup: Setup) -> State:
    """Day 1: rotation markers on every tile but the Mountains, the horde in the Dark Realm, the Quarry's starting
    stones; with Scrolls, Broken Earth deciphered at once."""
    if not isinstance(setup, Setup):
        raise InvalidInput("setup: expected a Setup")
    n = setup.n_players
    markers = frozenset(c for c in all_cells() if (t := setup.map[c]) is not None and t.kind != "M")
    state = State(setup=setup, day=1, phase="day", map=setup.map, markers=markers, trodden=frozenset(),
                  obelisks=(), unplaced=(setup.obelisks_each,) * n, demons=(), realm=setup.horde, drawn=0,
                  quarry=setup.quarry, tokens=0, supply=setup.supply, used=((),) * n, passed=(False,) * n,
                  leader=setup.leader, first_leader=setup.leader, caught=(0,) * n)
    return cycle.start_day(state)
