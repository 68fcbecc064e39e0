"""The Obscurians game state: an immutable value; `apply` checks an action and returns the next state.

Representation is chosen for cheap copies: per-seat tuples, goods as small {good: count} dicts without zeros.
A dict inside a State is never mutated after the State is built; `apply` copies only the seats it changes.

The package in one shape (docs/adding-a-game.md): model.py the small value types and words everything shares;
this module the state value and what screens read from it; flow.py the moves (one handler per action); legal.py
what is legal now; persist.py the JSON.
"""
from __future__ import annotations

import random
from functools import lru_cache

from companion.games.errors import IllegalAction, InvalidInput, Term
from companion.games.obscurians import flow, legal
from companion.games.obscurians.constants import (
    ACTION_KINDS, ARTIFACT, DOUBLE_EVENT, EVENTS, GOODS_PER_COLOUR, LAMP, NO_EVENT, SANDSTORM, SANDSTORM_ROUND,
    UNCOLOURED,
)
from companion.games.obscurians.model import (  # noqa: F401  (PHASES, ALL, TRADE_BAN_SECURES: read from here too)
    ALL, BONUS_WILDS, PHASES, TRADE_BAN_SECURES, EndOfGame, EndPlayer, added, merged,
)
from companion.games.obscurians.persist import fields_from_json, state_to_json
from companion.games.obscurians.setup import Setup, shuffle_events


@lru_cache(maxsize=256)
def _app_deck(seed: int) -> tuple[str, ...]:
    """The seeded deck, top card first: 4 event cards, then the 3-card sandstorm deck."""
    deck, sandstorm = shuffle_events(random.Random(seed))
    return deck + sandstorm


@lru_cache(maxsize=64)
def _seats(setup: Setup) -> dict[str, int]:
    return {colour: i for i, (_, colour) in enumerate(setup.players)}


class State:
    __slots__ = ("setup", "phase", "round", "event", "start_player", "active", "goods", "secured", "trade_ban",
                 "chips_in_hand", "placed", "discarded", "dice", "pending", "chosen", "missions", "revealed",
                 "free_reroll_used", "turn_chips", "hidden_discards", "_seat")

    # ----------------------------------------------------------------- construction and copying

    def _copy(self) -> "State":
        s = object.__new__(State)
        s.setup = self.setup
        s.phase = self.phase
        s.round = self.round
        s.event = self.event
        s.start_player = self.start_player
        s.active = self.active
        s.goods = self.goods
        s.secured = self.secured
        s.trade_ban = self.trade_ban
        s.chips_in_hand = self.chips_in_hand
        s.placed = self.placed
        s.discarded = self.discarded
        s.dice = self.dice
        s.pending = self.pending
        s.chosen = self.chosen
        s.missions = self.missions
        s.revealed = self.revealed
        s.free_reroll_used = self.free_reroll_used
        s.turn_chips = self.turn_chips
        s.hidden_discards = self.hidden_discards
        s._seat = self._seat
        return s

    def _key(self):
        return (self.setup, self.phase, self.round, self.event, self.start_player, self.active, self.goods,
                self.secured, self.trade_ban, self.chips_in_hand, self.placed, self.discarded, self.dice,
                self.pending, self.chosen, self.missions, self.revealed, self.free_reroll_used, self.turn_chips,
                self.hidden_discards)

    def __eq__(self, other):
        return isinstance(other, State) and self._key() == other._key()

    __hash__ = None  # holds dicts

    def __repr__(self):
        return (f"<State {self.phase} round {self.round} event={self.event} "
                f"active={self.setup.name(self.active)} dice={self.dice} pending={self.pending}>")

    # ----------------------------------------------------------------- read-only helpers for the UI

    @property
    def n_players(self) -> int:
        return len(self.setup.players)

    @property
    def step(self) -> str | None:
        """Where the active turn stands: "chips" (before rolling), "rolled", "acting"; None outside a turn."""
        if self.phase != "turn":
            return None
        if self.dice is None:
            return "chips"
        return "rolled" if self.chosen is None else "acting"

    def name(self, seat: int) -> str:
        return self.setup.players[seat][0]

    def colour(self, seat: int) -> str:
        return self.setup.players[seat][1]

    def seat_of(self, colour: str) -> int:
        seat = self._seat.get(colour)
        if seat is None:
            raise IllegalAction.of("Nobody at this table plays {colour}", colour=Term("colour", colour, colour))
        return seat

    def chips_left(self, seat: int) -> int:
        """How many suspicion chips `seat` really holds. `chips_in_hand` lists the chips that *can* still be in the
        hand (not placed, not discarded by name); chips discarded face down are only counted, never named, so the
        hand is that list minus `hidden_discards[seat]` unknown ones (rulebook "Rerolling")."""
        return len(self.chips_in_hand[seat]) - self.hidden_discards[seat]

    def _holder(self, good: str) -> int | None:
        for i in range(len(self.goods)):
            if good in self.goods[i] or good in self.secured[i]:
                return i
        return None

    def lamp_holder(self) -> int:
        """Seat index holding the magic lamp good (in hand or in the vault)."""
        return self._holder(LAMP)

    def artifact_holder(self) -> int | None:
        """Seat index holding the cursed artifact, None before it is revealed."""
        return self._holder(ARTIFACT)

    def wilds_available(self) -> int:
        """Wild dice showing plus the Bonus Wild event's 2 (RULING obscurians-actions)."""
        if self.dice is None:
            return 0
        return self.dice.count("wild") + (BONUS_WILDS if self.event == "bonus_wild" else 0)

    def banned_kind(self) -> str | None:
        """The action this round's event card forbids, if any (No Steal, …)."""
        return NO_EVENT.get(self.event)

    def executions(self, kind: str, wilds: int) -> int:
        """How many times `kind` is carried out when chosen with `wilds` Wilds."""
        # RULING obscurians-actions: the Double event multiplies the total after Wilds.
        n = self.dice.count(kind) + wilds
        return n * 2 if DOUBLE_EVENT.get(self.event) == kind else n

    def allowed_counts(self) -> dict[str, list[int]]:
        """{kind: possible execution counts} for the current roll and event; {} when no Choose is due.

        Under All Actions Mandatory there is nothing to choose (AssignWilds instead), so this is {} too.
        """
        if self.phase != "turn" or self.dice is None or self.chosen is not None:
            return {}
        if self.event == "all_actions_mandatory":
            return {}
        out = {}
        banned = self.banned_kind()
        w = self.wilds_available()
        for kind in ACTION_KINDS:
            if kind == banned:
                continue
            top = 0 if kind == "relocate" else w  # Wilds never Relocate
            counts = sorted({self.executions(kind, x) for x in range(top + 1) if self.dice.count(kind) + x >= 1})
            if counts:
                out[kind] = counts
        return out

    def revealable(self) -> tuple[str, ...]:
        """Event cards that may be revealed now. RULING obscurians-rounds."""
        if self.setup.deck == "app":
            return (_app_deck(self.setup.seed)[self.round - 1],)
        seen = set(self.revealed)
        if self.round >= 7:
            return (SANDSTORM,)
        cards = tuple(c for c in EVENTS if c not in seen)
        return cards + (SANDSTORM,) if self.round >= SANDSTORM_ROUND else cards

    # ----------------------------------------------------------------- applying actions (flow.py)

    def apply(self, action) -> "State":
        """The state after `action`; IllegalAction (with a message for players) leaves this state unchanged."""
        handler = flow.HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction.of("{action!r} is not an Obscurians action", action=action)
        return handler(self, action)

    def is_legal(self, action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    # ----------------------------------------------------------------- what is legal now (legal.py)

    def legal_types(self) -> set[str]:
        """JSON type names of the actions legal now, "roll" and "reroll" included."""
        return legal.legal_types(self)

    def legal_actions(self) -> list:
        """Every concrete legal action now, except Roll and Reroll (their faces come from the dice)."""
        return legal.legal_actions(self)

    # ----------------------------------------------------------------- the end

    def end_of_game(self) -> EndOfGame:
        """The finished position for the scorer; IllegalAction before the game is over with missions known."""
        if self.phase != "over":
            raise IllegalAction.of("The game is not over yet" if self.phase != "missions"
                                   else "Reveal the missions first")
        players = []
        for i, (name, colour) in enumerate(self.setup.players):
            held = merged(self.goods[i], self.secured[i])
            coloured = tuple(sorted((g, n) for g, n in held.items() if g not in UNCOLOURED and n > 0))
            players.append(EndPlayer(name, colour, self.missions[i], coloured,
                                     lamp=LAMP in held, artifact=ARTIFACT in held))
        return EndOfGame(tuple(players), self.placed)

    def score(self):
        """The itemised contract Outcome (winners are colours) once the game is over and the missions are known,
        else None."""
        if self.phase != "over":
            return None
        from companion.games.obscurians.scoring import score  # lazy: the scorer is its own module
        return score(self.end_of_game(), self.setup.rules)

    def outcome(self):
        """The game contract's Outcome (winners are colours), None until the game is over with missions known."""
        return self.score()

    # ----------------------------------------------------------------- persistence (persist.py)

    def to_json(self) -> dict:
        return state_to_json(self)

    @staticmethod
    def from_json(d) -> "State":
        """The state `d` holds; InvalidInput names the first field that is wrong."""
        s = object.__new__(State)
        for name, value in fields_from_json(d).items():
            setattr(s, name, value)
        s._seat = _seats(s.setup)
        return s


def new_game(setup: Setup) -> State:
    """Round 1, the starting player about to reveal the first event card, holding the lamp and the lamp card."""
    if not isinstance(setup, Setup):
        raise InvalidInput("setup: expected a Setup")
    n = setup.n_players
    s = object.__new__(State)
    s.setup = setup
    s.phase = "reveal"
    s.round = 1
    s.event = None
    s.start_player = setup.start
    s.active = setup.start
    goods = [{colour: GOODS_PER_COLOUR} for _, colour in setup.players]
    goods[setup.start] = added(goods[setup.start], LAMP)
    s.goods = tuple(goods)
    s.secured = tuple({} for _ in range(n))
    s.trade_ban = (False,) * n
    s.chips_in_hand = (setup.chip_missions,) * n
    s.placed = ()
    s.discarded = ((),) * n
    s.dice = None
    s.pending = {}
    s.chosen = None
    s.missions = setup.missions
    s.revealed = ()
    s.free_reroll_used = False
    s.turn_chips = 0
    s.hidden_discards = (0,) * n
    s._seat = _seats(setup)
    return s
