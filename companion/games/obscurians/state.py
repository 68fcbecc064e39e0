"""The Obscurians game state: an immutable value; `apply` checks an action and returns the next state.

Representation is chosen for cheap copies: per-seat tuples, goods as small {good: count} dicts without zeros.
A dict inside a State is never mutated after the State is built; `apply` copies only the seats it changes.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations

from companion.games.errors import N_, IllegalAction, InvalidInput, Term
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap, _sorted_goods,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, ARTIFACT, COLOURS, DOUBLE_EVENT, EVENTS, FACE_DOWN, FACES, GOODS_PER_COLOUR, LAMP, MISSIONS, N_DICE,
    NO_EVENT, OPPOSITE, SANDSTORM, SANDSTORM_ROUND, UNCOLOURED, WILD_KINDS,
)
from companion.games.obscurians.model import Chip, EndOfGame, EndPlayer
from companion.games.obscurians.rules import SECURE_TWO_SINCE
from companion.games.obscurians.setup import (
    Setup, missions_problem, missions_problem_of, shuffle_events, TRIO_A, TRIO_B,
)

PHASES = ("reveal", "turn", "missions", "over")
TRADE_BAN_SECURES = 4  # RULING obscurians-actions: 4 Secure executions (8 locks) make a trade ban
BONUS_WILDS = 2
ALL = "all"  # `chosen` under All Actions Mandatory: every die's action is carried out
_GOODS = COLOURS + UNCOLOURED


# Game words in refusals are Terms, so that a translation can name them in its language (IllegalAction.of).

def _good(good: str) -> Term:
    return Term("good", good, {LAMP: "magic lamp", ARTIFACT: "cursed artifact"}.get(good, f"{good} good"))


def _kind(kind: str) -> Term:
    return Term("action", kind, kind.capitalize())


def _card(card: str) -> Term:
    return Term("event", card, card)


def _mission(mission: str) -> Term:
    return Term("mission", mission, mission)


# What _need_roll_step refuses, per step: (before the roll, after the choice).
_ROLL_STEP = {
    "reroll": (N_("Roll the dice before you reroll"), N_("You cannot reroll after choosing your action")),
    "flip dice": (N_("Roll the dice before you flip dice"), N_("You cannot flip dice after choosing your action")),
    "choose again": (N_("Roll the dice before you choose again"),
                     N_("You cannot choose again after choosing your action")),
    "assign Wilds": (N_("Roll the dice before you assign Wilds"),
                     N_("You cannot assign Wilds after choosing your action")),
}
# A good in the vault cannot be taken, per action.
_IN_VAULT = {
    "stolen": N_("{name}'s {good} is secured in the vault and cannot be stolen"),
    "swapped": N_("{name}'s {good} is secured in the vault and cannot be swapped"),
    "relocated": N_("{name}'s {good} is secured in the vault and cannot be relocated"),
}


@lru_cache(maxsize=256)
def _app_deck(seed: int) -> tuple[str, ...]:
    """The seeded deck, top card first: 4 event cards, then the 3-card sandstorm deck."""
    deck, sandstorm = shuffle_events(random.Random(seed))
    return deck + sandstorm


@lru_cache(maxsize=64)
def _seats(setup: Setup) -> dict[str, int]:
    return {colour: i for i, (_, colour) in enumerate(setup.players)}


def _add(goods: dict, good: str, n: int = 1) -> dict:
    new = dict(goods)
    new[good] = new.get(good, 0) + n
    return new


def _remove(goods: dict, good: str) -> dict:
    new = dict(goods)
    n = new[good] - 1
    if n:
        new[good] = n
    else:
        del new[good]
    return new


def _merge(a: dict, b: dict) -> dict:
    new = dict(a)
    for g, n in b.items():
        new[g] = new.get(g, 0) + n
    return new


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

    def _banned_kind(self) -> str | None:
        return NO_EVENT.get(self.event)

    def _count(self, kind: str, wilds: int) -> int:
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
        banned = self._banned_kind()
        w = self.wilds_available()
        for kind in ACTION_KINDS:
            if kind == banned:
                continue
            top = 0 if kind == "relocate" else w  # Wilds never Relocate
            counts = sorted({self._count(kind, x) for x in range(top + 1) if self.dice.count(kind) + x >= 1})
            if counts:
                out[kind] = counts
        return out

    def _others_open(self):
        """Other seats that can be targeted: not under a trade ban."""
        me, ban = self.active, self.trade_ban
        return [i for i in range(len(ban)) if i != me and not ban[i]]

    def _can(self, kind: str) -> bool:
        """Is there at least one legal execution of `kind` for the active player right now?"""
        me = self.active
        goods, ban = self.goods, self.trade_ban
        if kind == "secure":
            return self.pending.get("secure", 0) >= TRADE_BAN_SECURES or bool(goods[me])
        if kind == "donate":
            return bool(goods[me]) and any(not ban[i] for i in range(len(ban)) if i != me)
        if kind == "steal":
            return not ban[me] and any(goods[i] for i in self._others_open())
        if kind == "swap":
            return not ban[me] and bool(goods[me]) and any(goods[i] for i in self._others_open())
        if kind == "relocate":
            others = self._others_open()
            return len(others) >= 2 and any(goods[i] for i in others)
        return False

    def _any_choice(self) -> bool:
        if self.event == "all_actions_mandatory":
            return True
        banned = self._banned_kind()
        w = self.wilds_available()
        for kind in ACTION_KINDS:
            if kind != banned and self.dice.count(kind) + (0 if kind == "relocate" else w) >= 1:
                return True
        return False

    def _revealable(self) -> tuple[str, ...]:
        """Event cards that may be revealed now. RULING obscurians-rounds."""
        if self.setup.deck == "app":
            return (_app_deck(self.setup.seed)[self.round - 1],)
        seen = set(self.revealed)
        if self.round >= 7:
            return (SANDSTORM,)
        cards = tuple(c for c in EVENTS if c not in seen)
        return cards + (SANDSTORM,) if self.round >= SANDSTORM_ROUND else cards

    # ----------------------------------------------------------------- applying actions

    def apply(self, action) -> "State":
        """The state after `action`; IllegalAction (with a message for players) leaves this state unchanged."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction.of("{action!r} is not an Obscurians action", action=action)
        return handler(self, action)

    def is_legal(self, action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def _need_turn(self):
        if self.phase == "reveal":
            raise IllegalAction.of("{name} must reveal an event card first", "Revealing an Event Card",
                                     name=self.name(self.active))
        if self.phase != "turn":
            raise IllegalAction.of("The game is over", "End of Game")

    def _need_roll_step(self, what: str):
        """Rerolls, flips and the choice come after rolling and before the action is chosen."""
        self._need_turn()
        before, after = _ROLL_STEP[what]
        if self.dice is None:
            raise IllegalAction.of(before)
        if self.chosen is not None:
            raise IllegalAction.of(after)

    def _reveal(self, a: RevealEvent) -> "State":
        if self.phase != "reveal":
            raise IllegalAction.of("Event cards are revealed only at the start of a round", "Revealing an Event Card")
        card = a.card
        if card not in self._revealable():
            self._refuse_card(card)
        s = self._copy()
        s.revealed = self.revealed + (card,)
        s.event = card
        if card == SANDSTORM:
            # The game ends at once; the revealer takes no turn (rulebook "End of Game").
            s.phase = "over" if self.missions is not None else "missions"
            return s
        s.phase = "turn"
        s.active = self.start_player
        if card == "cursed_artifact":
            goods = list(s.goods)
            goods[s.active] = _add(goods[s.active], ARTIFACT)
            s.goods = tuple(goods)
        s._start_turn()
        return s

    def _refuse_card(self, card: str):
        """Raise why `card` cannot be revealed now."""
        rule = "RULING obscurians-rounds"
        if card not in EVENTS and card != SANDSTORM:
            raise IllegalAction.of("There is no event card called {card}", rule, card=card)
        if self.setup.deck == "app":
            raise IllegalAction.of("The app's shuffled deck shows {next} next, not {card}", rule,
                                   next=_card(self._revealable()[0]), card=_card(card))
        if card in self.revealed:
            raise IllegalAction.of("{card} has already been revealed", rule, card=_card(card))
        if card == SANDSTORM:
            raise IllegalAction.of("The sandstorm card is in the sandstorm deck, which is only used from round 5", rule)
        raise IllegalAction.of("Only the sandstorm card is left for round 7", rule)

    def _start_turn(self):
        """In-place on a fresh copy: the active player's vault is released and their trade ban lifted."""
        me = self.active
        if self.secured[me] or self.trade_ban[me]:
            goods, secured, ban = list(self.goods), list(self.secured), list(self.trade_ban)
            goods[me] = _merge(goods[me], secured[me])
            secured[me] = {}
            ban[me] = False
            self.goods, self.secured, self.trade_ban = tuple(goods), tuple(secured), tuple(ban)
        self.dice = None
        self.chosen = None
        self.pending = {}
        self.free_reroll_used = False
        self.turn_chips = 0

    def _chip(self, a: PlaceChip) -> "State":
        self._need_turn()
        if self.dice is not None:
            raise IllegalAction.of("Suspicion chips are placed before rolling", "Turn Sequence 1")
        on = self.seat_of(a.on)
        me = self.active
        if on == me:
            raise IllegalAction.of("You cannot place a suspicion chip on your own board", "Turn Sequence 1")
        hand = self.chips_in_hand[me]
        if self.chips_left(me) < 1:
            raise IllegalAction.of("{name} has no suspicion chip left in hand", "Turn Sequence 1", name=self.name(me))
        if a.mission not in hand:
            # Checked against the chips that can still be in hand: a chip discarded face down is not known, so any
            # chip not placed or named may still be there (rulebook "Rerolling").
            raise IllegalAction.of("{name} has no {mission} chip left to place", "Turn Sequence 1",
                                     name=self.name(me), mission=_mission(a.mission))
        s = self._copy()
        chips = list(hand)
        chips.remove(a.mission)
        hands = list(self.chips_in_hand)
        hands[me] = tuple(chips)
        s.chips_in_hand = tuple(hands)
        s.placed = self.placed + (Chip(self.colour(me), a.on, a.mission),)
        s.turn_chips = self.turn_chips + 1
        return s

    def _roll(self, a: Roll) -> "State":
        self._need_turn()
        if self.dice is not None:
            raise IllegalAction.of("{name} has already rolled this turn; discard a chip to reroll", "Rerolling",
                                   name=self.name(self.active))
        if self.event == "chips_or_dice" and self.turn_chips:
            raise IllegalAction.of("Chips or Dice: you placed suspicion chips, so you cannot roll this round",
                                   "Event Cards: Chips or Dice")
        faces = tuple(a.faces)
        if len(faces) != N_DICE or any(f not in FACES for f in faces):
            raise IllegalAction.of("A roll shows {n} henchmen faces", n=N_DICE)
        s = self._copy()
        s.dice = faces
        return s

    def _reroll(self, a: Reroll) -> "State":
        self._need_roll_step("reroll")
        new = self._rerolled_dice(a.dice, a.faces)
        me = self.active
        s = self._copy()
        if a.discard is None:
            if self.event != "reroll_once":
                raise IllegalAction.of("A reroll costs one of your unplaced suspicion chips", "Rerolling")
            if self.free_reroll_used:
                raise IllegalAction.of("{name} has already used this round's free reroll", "Event Cards: Reroll Once",
                                       name=self.name(me))
            s.free_reroll_used = True
        elif self.chips_left(me) < 1:
            raise IllegalAction.of("{name} has no suspicion chip left to discard", "Rerolling", name=self.name(me))
        elif a.discard == FACE_DOWN:
            # One chip, face down and unseen (rulebook "Rerolling"): only the count is known.
            hidden = list(self.hidden_discards)
            hidden[me] += 1
            s.hidden_discards = tuple(hidden)
        else:  # a named chip: logs written before face-down discards
            hand = self.chips_in_hand[me]
            if a.discard not in hand:
                raise IllegalAction.of("{name} has no {mission} chip left to discard", "Rerolling",
                                         name=self.name(me), mission=_mission(a.discard))
            chips = list(hand)
            chips.remove(a.discard)
            hands, discarded = list(self.chips_in_hand), list(self.discarded)
            hands[me] = tuple(chips)
            discarded[me] = discarded[me] + (a.discard,)
            s.chips_in_hand, s.discarded = tuple(hands), tuple(discarded)
        s.dice = new
        return s

    def _rerolled_dice(self, dice, faces) -> tuple[str, ...]:
        if not dice:
            raise IllegalAction.of("Pick at least one die to reroll")
        if len(dice) != len(faces):
            raise IllegalAction.of("Give one new face for each rerolled die")
        if len(set(dice)) != len(dice) or any(not isinstance(d, int) or not 0 <= d < N_DICE for d in dice):
            raise IllegalAction.of("Dice are numbered 0 to {last}, each at most once", last=N_DICE - 1)
        if any(f not in FACES for f in faces):
            raise IllegalAction.of("That is not a henchmen die face")
        new = list(self.dice)
        for d, f in zip(dice, faces):
            new[d] = f
        return tuple(new)

    def _flip(self, a: Flip) -> "State":
        self._need_roll_step("flip dice")
        if self.event != "flip_the_die":
            raise IllegalAction.of("Dice can only be flipped in a Flip the Die round", "Event Cards: Flip the Die")
        dice = a.dice
        if not dice or len(set(dice)) != len(dice) or any(not isinstance(d, int) or not 0 <= d < N_DICE
                                                          for d in dice):
            raise IllegalAction.of("Pick dice numbered 0 to {last}, each at most once", last=N_DICE - 1)
        new = list(self.dice)
        for d in dice:
            new[d] = OPPOSITE[new[d]]  # RULING obscurians-dice
        s = self._copy()
        s.dice = tuple(new)
        return s

    def _choose(self, a: Choose) -> "State":
        self._need_roll_step("choose again")
        if self.event == "all_actions_mandatory":
            raise IllegalAction.of("All Actions Mandatory: every die is carried out, so assign your Wilds instead",
                                   "Event Cards: All Actions Mandatory")
        kind, wilds = a.action, a.wilds
        if kind not in ACTION_KINDS:
            raise IllegalAction.of("{kind} is not a henchmen action", kind=Term("action", kind, kind))
        if kind == self._banned_kind():
            raise IllegalAction.of("No {kind} this round (event card)", f"Event Cards: No {_kind(kind)}",
                                   kind=_kind(kind))
        if isinstance(wilds, bool) or not isinstance(wilds, int) or wilds < 0:
            raise IllegalAction.of("The number of Wilds must be 0 or more")
        # RULING obscurians-actions: Wilds never Relocate; each Wild individually optional.
        if kind == "relocate" and wilds:
            raise IllegalAction.of("Relocate cannot use Wilds", "Henchmen Action Symbols: Wild")
        available = self.wilds_available()
        if wilds > available:
            raise IllegalAction.of("{name} has only {n} Wild" if available == 1 else "{name} has only {n} Wilds",
                                   name=self.name(self.active), n=available)
        n = self._count(kind, wilds)
        if n < 1:
            raise IllegalAction.of("{name} rolled no {kind}" if kind == "relocate"
                                   else "{name} rolled no {kind}; add a Wild",
                                   "RULING obscurians-actions", name=self.name(self.active), kind=_kind(kind))
        s = self._copy()
        s.chosen = kind
        s.pending = {kind: n}
        return s

    def _assign(self, a: AssignWilds) -> "State":
        self._need_roll_step("assign Wilds")
        if self.event != "all_actions_mandatory":
            raise IllegalAction.of("Wilds are assigned one by one only under All Actions Mandatory; choose an action",
                                   "Event Cards: All Actions Mandatory")
        n_wild = self.dice.count("wild")
        if len(a.kinds) != n_wild:
            raise IllegalAction.of("Assign an action to each of your {n} Wild" if n_wild == 1
                                   else "Assign an action to each of your {n} Wilds", n=n_wild)
        for k in a.kinds:
            if k == "relocate":
                raise IllegalAction.of("Relocate cannot use Wilds", "Henchmen Action Symbols: Wild")
            if k not in WILD_KINDS:
                raise IllegalAction.of("A Wild cannot become {kind}", kind=Term("action", k, k))
        pending = {}
        for k in [f for f in self.dice if f != "wild"] + list(a.kinds):
            pending[k] = pending.get(k, 0) + 1
        s = self._copy()
        s.chosen = ALL
        s.pending = pending
        return s

    def _need_execution(self, kind: str):
        self._need_turn()
        if self.pending.get(kind, 0) > 0:
            return
        if self.dice is None:
            raise IllegalAction.of("Roll the dice first", "Turn Sequence 2")
        if self.chosen is None:
            raise IllegalAction.of("Choose your action first", "Turn Sequence 2")
        if self.chosen not in (ALL, kind):
            raise IllegalAction.of("{name} chose {chosen} this turn, not {kind}", "Turn Sequence 2",
                                   name=self.name(self.active), chosen=_kind(self.chosen), kind=_kind(kind))
        raise IllegalAction.of("{name} has no {kind} left to carry out", "Turn Sequence 2",
                               name=self.name(self.active), kind=_kind(kind))

    def _done(self, s: "State", kind: str, n: int = 1):
        pending = dict(self.pending)
        left = pending[kind] - n
        if left > 0:
            pending[kind] = left
        else:
            del pending[kind]
        s.pending = pending

    def _open_goods_of(self, seat: int, good: str, verb: str):
        """`good` must be among seat's free goods, and seat must not be under a trade ban."""
        name = self.name(seat)
        if self.trade_ban[seat]:
            raise IllegalAction.of("{name}'s goods are secured until their next turn", "Secure: Trade ban", name=name)
        if good not in self.goods[seat]:
            if good in self.secured[seat]:
                raise IllegalAction.of(_IN_VAULT[verb], "Henchmen Action Symbols: Secure", name=name,
                                       good=_good(good))
            raise IllegalAction.of("{name} has no {good}", name=name, good=_good(good))

    def _may_receive(self, seat: int):
        if self.trade_ban[seat]:
            raise IllegalAction.of("{name} is under a trade ban and cannot receive goods until their next turn",
                                   "Secure: Trade ban", name=self.name(seat))

    def _own_good(self, good: str):
        if good not in self.goods[self.active]:
            raise IllegalAction.of("{name} has no free {good}" if good in self.secured[self.active]
                                   else "{name} has no {good}", name=self.name(self.active), good=_good(good))

    def _moved(self, kind: str, giver: int, receiver: int, good: str) -> "State":
        """The state after one execution of `kind` that moved `good` from seat `giver` to seat `receiver`."""
        s = self._copy()
        goods = list(self.goods)
        goods[giver] = _remove(goods[giver], good)
        goods[receiver] = _add(goods[receiver], good)
        s.goods = tuple(goods)
        self._done(s, kind)
        return s

    def _steal(self, a: Steal) -> "State":
        self._need_execution("steal")
        me, victim = self.active, self.seat_of(a.victim)
        if victim == me:
            raise IllegalAction.of("You cannot steal from yourself", "Henchmen Action Symbols: Steal")
        self._open_goods_of(victim, a.good, "stolen")
        self._may_receive(me)  # RULING obscurians-actions: a trade ban blocks receiving by any action
        return self._moved("steal", victim, me, a.good)

    def _donate(self, a: Donate) -> "State":
        self._need_execution("donate")
        me, to = self.active, self.seat_of(a.to)
        if to == me:
            raise IllegalAction.of("You cannot donate to yourself", "Henchmen Action Symbols: Donate")
        self._may_receive(to)
        self._own_good(a.good)
        return self._moved("donate", me, to, a.good)

    def _swap(self, a: Swap) -> "State":
        self._need_execution("swap")
        me, other = self.active, self.seat_of(a.other)
        if other == me:
            raise IllegalAction.of("You cannot swap with yourself", "Henchmen Action Symbols: Swap")
        self._open_goods_of(other, a.take, "swapped")
        self._may_receive(me)
        self._own_good(a.give)
        s = self._copy()
        goods = list(self.goods)
        goods[me] = _add(_remove(goods[me], a.give), a.take)
        goods[other] = _add(_remove(goods[other], a.take), a.give)
        s.goods = tuple(goods)
        self._done(s, "swap")
        return s

    def _secure(self, a: Secure) -> "State":
        self._need_execution("secure")
        me = self.active
        mine = self.goods[me]
        s = self._copy()
        secured, goods = list(self.secured), list(self.goods)
        if self.pending["secure"] >= TRADE_BAN_SECURES:
            # RULING obscurians-actions: 4+ Secures secure everything at once and ban receiving.
            everything = _sorted_goods(g for g, n in mine.items() for _ in range(n))
            if a.goods != everything:
                raise IllegalAction.of("{n} Secures make a trade ban: {name} secures all their goods at once",
                                       "Secure: Trade ban", n=self.pending["secure"], name=self.name(me))
            secured[me] = _merge(secured[me], mine)
            goods[me] = {}
            ban = list(self.trade_ban)
            ban[me] = True
            s.trade_ban = tuple(ban)
            self._done(s, "secure", self.pending["secure"])
        else:
            # RULING obscurians-actions: exactly 2 goods per Secure, 1 only when a single free good is left; a table
            # played under rules version 1 (rules.py) took 1 or 2, and replays so.
            free = sum(mine.values())
            if not free:
                raise IllegalAction.of("{name} has no free goods left to secure", "RULING obscurians-actions",
                                       name=self.name(me))
            if self.setup.rules.version < SECURE_TWO_SINCE:
                if len(a.goods) not in (1, 2):
                    raise IllegalAction.of("Each Secure puts 1 or 2 goods into the vault", "Henchmen Action Symbols: "
                                           "Secure")
            elif len(a.goods) != min(2, free):
                if free >= 2 and len(a.goods) == 1:
                    raise IllegalAction.of("Each Secure puts 2 goods into the vault: pick 2 of {name}'s {n} free "
                                           "goods", "RULING obscurians-actions", name=self.name(me), n=free)
                raise IllegalAction.of("Each Secure puts 2 goods into the vault (1 when only one free good is left)",
                                       "RULING obscurians-actions")
            left = mine
            for g in a.goods:
                if g not in left:
                    self._own_good(g)
                    raise IllegalAction.of("{name} has only one free {good}", name=self.name(me), good=_good(g))
                left = _remove(left, g)
            goods[me] = left
            secured[me] = _merge(secured[me], {g: a.goods.count(g) for g in set(a.goods)})
            self._done(s, "secure")
        s.goods, s.secured = tuple(goods), tuple(secured)
        return s

    def _relocate(self, a: Relocate) -> "State":
        self._need_execution("relocate")
        me, source, target = self.active, self.seat_of(a.source), self.seat_of(a.target)
        if me in (source, target):
            raise IllegalAction.of("Relocate moves a good between two other players, never from or to you",
                                   "Henchmen Action Symbols: Relocate")
        if source == target:
            raise IllegalAction.of("Relocate moves a good from one opponent to another opponent",
                                   "Henchmen Action Symbols: Relocate")
        self._open_goods_of(source, a.good, "relocated")
        self._may_receive(target)
        return self._moved("relocate", source, target, a.good)

    def _end(self, a: EndTurn) -> "State":
        self._need_turn()
        if self.dice is None:
            # Chips or Dice: choosing chips means no roll, even with no chip placed in the end.
            if self.event != "chips_or_dice":
                raise IllegalAction.of("Roll the dice first", "Turn Sequence 2")
        elif self.chosen is None:
            if self._any_choice():
                raise IllegalAction.of("Choose your action first", "Turn Sequence 2")
        else:
            for kind, n in self.pending.items():
                if self._can(kind):
                    raise IllegalAction.of("{name} still has {n} {kind} to carry out", "RULING obscurians-actions",
                                           name=self.name(self.active), n=n, kind=_kind(kind))
        s = self._copy()
        nxt = (self.active + 1) % self.n_players
        if nxt == self.start_player:
            # Round over: the lamp good's holder takes the lamp card and starts the next round.
            s.start_player = s.active = self.lamp_holder()
            s.round = self.round + 1
            s.phase = "reveal"
            s.event = None
            s.dice, s.chosen, s.pending, s.free_reroll_used, s.turn_chips = None, None, {}, False, 0
        else:
            s.active = nxt
            s._start_turn()
        return s

    def _reveal_missions(self, a: RevealMissions) -> "State":
        if self.phase != "missions":
            raise IllegalAction.of("Missions are revealed when the game is over" if self.phase != "over"
                                   else "The missions are already known")
        problem = missions_problem_of(a.missions, self.n_players, self.setup.put_back)
        if problem:
            template, params = problem
            raise IllegalAction.of(template, **params)
        s = self._copy()
        s.missions = tuple(a.missions)
        s.phase = "over"
        return s

    # ----------------------------------------------------------------- what is legal now

    def legal_types(self) -> set[str]:
        """JSON type names of the actions legal now, "roll" and "reroll" included."""
        if self.phase == "reveal":
            return {"reveal"}
        if self.phase == "missions":
            return {"missions"}
        if self.phase == "over":
            return set()
        me = self.active
        out = set()
        if self.dice is None:
            if self.chips_left(me) > 0:
                out.add("chip")
            if self.event == "chips_or_dice":
                out.add("end")  # the chips choice, placed or not
            if not (self.event == "chips_or_dice" and self.turn_chips):
                out.add("roll")
        elif self.chosen is None:
            if self.chips_left(me) > 0 or (self.event == "reroll_once" and not self.free_reroll_used):
                out.add("reroll")
            if self.event == "flip_the_die":
                out.add("flip")
            if self.event == "all_actions_mandatory":
                out.add("assign")
            elif self._any_choice():
                out.add("choose")
            else:
                out.add("end")
        else:
            for kind in self.pending:
                if self._can(kind):
                    out.add(kind)
            if not out:
                out.add("end")
        return out

    def legal_actions(self) -> list:
        """Every concrete legal action now, except Roll and Reroll (their faces come from the dice)."""
        if self.phase == "reveal":
            return [RevealEvent(c) for c in self._revealable()]
        if self.phase == "missions":
            return self._mission_reveals()
        if self.phase == "over":
            return []
        types = self.legal_types()
        me = self.active
        out = []
        if "chip" in types:
            for colour in self._seat:
                if colour != self.colour(me):
                    out.extend(PlaceChip(colour, m) for m in sorted(set(self.chips_in_hand[me]), key=MISSIONS.index))
        if "flip" in types:
            for k in range(1, N_DICE + 1):
                out.extend(Flip(c) for c in _index_combinations(k))
        if "choose" in types:
            banned, w = self._banned_kind(), self.wilds_available()
            for kind in ACTION_KINDS:
                if kind == banned:
                    continue
                top = 0 if kind == "relocate" else w  # Wilds never Relocate
                for x in range(top + 1):
                    if self._count(kind, x) >= 1:
                        out.append(Choose(kind, x))
        if "assign" in types:
            out.extend(AssignWilds(ks) for ks in combinations_with_replacement(WILD_KINDS, self.dice.count("wild")))
        if "steal" in types:
            if not self.trade_ban[me]:
                for v in self._others_open():
                    out.extend(Steal(self.colour(v), g) for g in self.goods[v])
        if "donate" in types:
            for to in range(self.n_players):
                if to != me and not self.trade_ban[to]:
                    out.extend(Donate(self.colour(to), g) for g in self.goods[me])
        if "swap" in types:
            if not self.trade_ban[me]:
                for o in self._others_open():
                    out.extend(Swap(self.colour(o), give, take) for give in self.goods[me] for take in self.goods[o])
        if "secure" in types:
            mine = self.goods[me]
            if self.pending["secure"] >= TRADE_BAN_SECURES:
                out.append(Secure(tuple(g for g, n in mine.items() for _ in range(n))))
            elif sum(mine.values()) == 1 or self.setup.rules.version < SECURE_TWO_SINCE:
                # RULING obscurians-actions: 1 good only when it is the last free one (any one under version 1)
                out.extend(Secure((g,)) for g in mine)
            if self.pending["secure"] < TRADE_BAN_SECURES and sum(mine.values()) >= 2:
                out.extend(Secure(pair) for pair in combinations_with_replacement(sorted(mine), 2)
                           if pair[0] != pair[1] or mine[pair[0]] >= 2)
        if "relocate" in types:
            others = self._others_open()
            for src in others:
                for dst in others:
                    if dst != src:
                        out.extend(Relocate(self.colour(src), self.colour(dst), g) for g in self.goods[src])
        if "end" in types:
            out.append(EndTurn())
        return out

    def _mission_reveals(self) -> list:
        n = self.n_players
        pool = MISSIONS if n == 7 else MISSIONS[:6]
        out = []
        put_back = self.setup.put_back or ()
        for combo in permutations(pool, n):
            if n == 4 and (sum(m in TRIO_A for m in combo) != 2 or sum(m in TRIO_B for m in combo) != 2):
                continue
            if any(m in put_back for m in combo):
                continue
            out.append(RevealMissions(combo))
        return out

    # ----------------------------------------------------------------- the end

    def end_of_game(self) -> EndOfGame:
        """The finished position for the scorer; IllegalAction before the game is over with missions known."""
        if self.phase != "over":
            raise IllegalAction.of("The game is not over yet" if self.phase != "missions"
                                   else "Reveal the missions first")
        players = []
        for i, (name, colour) in enumerate(self.setup.players):
            held = _merge(self.goods[i], self.secured[i])
            coloured = tuple(sorted((g, n) for g, n in held.items() if g not in UNCOLOURED and n > 0))
            players.append(EndPlayer(name, colour, self.missions[i], coloured,
                                     lamp=LAMP in held, artifact=ARTIFACT in held))
        return EndOfGame(tuple(players), self.placed)

    def score(self):
        """The itemised ScoreResult once the game is over and the missions are known, else None."""
        if self.phase != "over":
            return None
        from companion.games.obscurians.scoring import score  # lazy: the scorer is its own module
        return score(self.end_of_game(), self.setup.rules)

    def outcome(self):
        """The game contract's Outcome (winners are colours), None until the game is over with missions known."""
        result = self.score()
        return None if result is None else result.to_outcome()

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> dict:
        return {
            "setup": self.setup.to_json(),
            "phase": self.phase,
            "round": self.round,
            "event": self.event,
            "start_player": self.start_player,
            "active": self.active,
            "goods": [dict(g) for g in self.goods],
            "secured": [dict(g) for g in self.secured],
            "trade_ban": list(self.trade_ban),
            "chips_in_hand": [list(c) for c in self.chips_in_hand],
            "placed": [[c.by, c.on, c.mission] for c in self.placed],
            "discarded": [list(c) for c in self.discarded],
            "dice": None if self.dice is None else list(self.dice),
            "pending": dict(self.pending),
            "chosen": self.chosen,
            "missions": None if self.missions is None else list(self.missions),
            "revealed": list(self.revealed),
            "free_reroll_used": self.free_reroll_used,
            "turn_chips": self.turn_chips,
        } | ({"hidden_discards": list(self.hidden_discards)} if any(self.hidden_discards) else {})
        # hidden_discards is written only once a chip went face down: a game without one reads and writes exactly
        # as before face-down discards existed.

    @staticmethod
    def from_json(d) -> "State":
        return _state_from_json(d)


def _index_combinations(k: int):
    return combinations(range(N_DICE), k)


_HANDLERS = {
    RevealEvent: State._reveal, PlaceChip: State._chip, Roll: State._roll, Reroll: State._reroll,
    Flip: State._flip, Choose: State._choose, AssignWilds: State._assign, Steal: State._steal,
    Donate: State._donate, Swap: State._swap, Secure: State._secure, Relocate: State._relocate,
    EndTurn: State._end, RevealMissions: State._reveal_missions,
}


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
    goods[setup.start] = _add(goods[setup.start], LAMP)
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


# ----------------------------------------------------------------- loading a saved state

def _field(d: dict, name: str, check, what: str):
    if name not in d:
        raise InvalidInput(f"{name}: missing")
    value = d[name]
    if not check(value):
        raise InvalidInput(f"{name}: expected {what}")
    return value


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _goods_list(d: dict, name: str, n: int) -> tuple[dict, ...]:
    raw = _field(d, name, lambda v: isinstance(v, list) and len(v) == n, f"a list of {n} goods objects")
    out = []
    for i, g in enumerate(raw):
        if not isinstance(g, dict):
            raise InvalidInput(f"{name}[{i}]: expected an object of good counts")
        for good, count in g.items():
            if good not in _GOODS:
                raise InvalidInput(f"{name}[{i}].{good}: not a good")
            if not _is_int(count) or count < 1:
                raise InvalidInput(f"{name}[{i}].{good}: expected a count of 1 or more")
        out.append(dict(g))
    return tuple(out)


def _missions_list(d: dict, name: str, n: int) -> tuple[tuple[str, ...], ...]:
    raw = _field(d, name, lambda v: isinstance(v, list) and len(v) == n, f"a list of {n} lists")
    out = []
    for i, chips in enumerate(raw):
        if not isinstance(chips, list) or any(m not in MISSIONS for m in chips):
            raise InvalidInput(f"{name}[{i}]: expected a list of missions")
        out.append(tuple(chips))
    return tuple(out)


def _state_from_json(d) -> State:
    if not isinstance(d, dict):
        raise InvalidInput("state: expected an object")
    setup = Setup.from_json(_field(d, "setup", lambda v: isinstance(v, dict), "an object"))
    n = setup.n_players
    s = object.__new__(State)
    s.setup = setup
    s._seat = _seats(setup)
    s.phase = _field(d, "phase", lambda v: v in PHASES, "one of " + ", ".join(PHASES))
    s.round = _field(d, "round", lambda v: _is_int(v) and 1 <= v <= 7, "a round 1-7")
    s.event = _field(d, "event", lambda v: v is None or v in EVENTS or v == SANDSTORM, "an event card or null")
    s.start_player = _field(d, "start_player", lambda v: _is_int(v) and 0 <= v < n, "a seat index")
    s.active = _field(d, "active", lambda v: _is_int(v) and 0 <= v < n, "a seat index")
    s.goods = _goods_list(d, "goods", n)
    s.secured = _goods_list(d, "secured", n)
    s.trade_ban = tuple(_field(d, "trade_ban", lambda v: isinstance(v, list) and len(v) == n
                               and all(isinstance(b, bool) for b in v), f"a list of {n} true/false"))
    s.chips_in_hand = _missions_list(d, "chips_in_hand", n)
    s.discarded = _missions_list(d, "discarded", n)
    placed = _field(d, "placed", lambda v: isinstance(v, list), "a list of [by, on, mission]")
    chips = []
    for i, c in enumerate(placed):
        if not (isinstance(c, list) and len(c) == 3 and c[0] in s._seat and c[1] in s._seat and c[2] in MISSIONS):
            raise InvalidInput(f"placed[{i}]: expected [by colour, on colour, mission]")
        chips.append(Chip(*c))
    s.placed = tuple(chips)
    dice = _field(d, "dice", lambda v: v is None or (isinstance(v, list) and len(v) == N_DICE
                                                    and all(f in FACES for f in v)), f"null or {N_DICE} faces")
    s.dice = None if dice is None else tuple(dice)
    pending = _field(d, "pending", lambda v: isinstance(v, dict) and all(
        k in ACTION_KINDS and _is_int(x) and x > 0 for k, x in v.items()), "an object of action counts")
    s.pending = dict(pending)
    s.chosen = _field(d, "chosen", lambda v: v is None or v in ACTION_KINDS or v == ALL, "an action or null")
    missions = _field(d, "missions", lambda v: v is None or isinstance(v, list), "a list of missions or null")
    if missions is not None:
        problem = missions_problem(tuple(missions), n, setup.put_back)
        if problem:
            raise InvalidInput(f"missions: {problem}")
        missions = tuple(missions)
    s.missions = missions
    s.revealed = tuple(_field(d, "revealed", lambda v: isinstance(v, list) and all(
        c in EVENTS or c == SANDSTORM for c in v), "a list of event cards"))
    s.free_reroll_used = _field(d, "free_reroll_used", lambda v: isinstance(v, bool), "true or false")
    s.turn_chips = _field(d, "turn_chips", lambda v: _is_int(v) and v >= 0, "a number")
    hidden = d.get("hidden_discards", [0] * n)  # absent in states saved before face-down discards: none
    if not (isinstance(hidden, list) and len(hidden) == n and all(_is_int(h) and h >= 0 for h in hidden)):
        raise InvalidInput(f"hidden_discards: expected a list of {n} counts")
    s.hidden_discards = tuple(hidden)
    if any(h > len(c) for h, c in zip(s.hidden_discards, s.chips_in_hand)):
        raise InvalidInput("hidden_discards: more chips face down than could have been in hand")
    return s
