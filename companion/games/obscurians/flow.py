"""The moves of Obscurians: one function per action, from a state to the next state (or a refusal).

`State.apply` dispatches here (HANDLERS). Each handler checks the action against the rulebook and the rulings, then
copies the state and changes only what the move changes; a refusal (IllegalAction, with a sentence for players and
its rule) leaves the state as it was. The current state is `s`, the state being built is `after`.
"""
from __future__ import annotations

from companion.games.errors import N_, IllegalAction, Term
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap, _sorted_goods,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, ARTIFACT, EVENTS, FACE_DOWN, FACES, LAMP, N_DICE, OPPOSITE, SANDSTORM, WILD_KINDS,
)
from companion.games.obscurians.legal import any_choice, can
from companion.games.obscurians.model import ALL, TRADE_BAN_SECURES, Chip, added, merged, removed
from companion.games.obscurians.setup import missions_problem_of


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


def _need_turn(s):
    if s.phase == "reveal":
        raise IllegalAction.of("{name} must reveal an event card first", "Revealing an Event Card",
                                 name=s.name(s.active))
    if s.phase != "turn":
        raise IllegalAction.of("The game is over", "End of Game")


def _need_roll_step(s, what: str):
    """Rerolls, flips and the choice come after rolling and before the action is chosen."""
    _need_turn(s)
    before, after = _ROLL_STEP[what]
    if s.dice is None:
        raise IllegalAction.of(before)
    if s.chosen is not None:
        raise IllegalAction.of(after)


def reveal(s, a: RevealEvent):
    if s.phase != "reveal":
        raise IllegalAction.of("Event cards are revealed only at the start of a round", "Revealing an Event Card")
    card = a.card
    if card not in s.revealable():
        _refuse_card(s, card)
    after = s._copy()
    after.revealed = s.revealed + (card,)
    after.event = card
    if card == SANDSTORM:
        # The game ends at once; the revealer takes no turn (rulebook "End of Game").
        after.phase = "over" if s.missions is not None else "missions"
        return after
    after.phase = "turn"
    after.active = s.start_player
    if card == "cursed_artifact":
        goods = list(after.goods)
        goods[after.active] = added(goods[after.active], ARTIFACT)
        after.goods = tuple(goods)
    start_turn(after)
    return after


def _refuse_card(s, card: str):
    """Raise why `card` cannot be revealed now."""
    rule = "RULING obscurians-rounds"
    if card not in EVENTS and card != SANDSTORM:
        raise IllegalAction.of("There is no event card called {card}", rule, card=card)
    if s.setup.deck == "app":
        raise IllegalAction.of("The app's shuffled deck shows {next} next, not {card}", rule,
                               next=_card(s.revealable()[0]), card=_card(card))
    if card in s.revealed:
        raise IllegalAction.of("{card} has already been revealed", rule, card=_card(card))
    if card == SANDSTORM:
        raise IllegalAction.of("The sandstorm card is in the sandstorm deck, which is only used from round 5", rule)
    raise IllegalAction.of("Only the sandstorm card is left for round 7", rule)


def start_turn(s):
    """In-place on a fresh copy: the active player's vault is released and their trade ban lifted."""
    me = s.active
    if s.secured[me] or s.trade_ban[me]:
        goods, secured, ban = list(s.goods), list(s.secured), list(s.trade_ban)
        goods[me] = merged(goods[me], secured[me])
        secured[me] = {}
        ban[me] = False
        s.goods, s.secured, s.trade_ban = tuple(goods), tuple(secured), tuple(ban)
    s.dice = None
    s.chosen = None
    s.pending = {}
    s.free_reroll_used = False
    s.turn_chips = 0


def place_chip(s, a: PlaceChip):
    _need_turn(s)
    if s.dice is not None:
        raise IllegalAction.of("Suspicion chips are placed before rolling", "Turn Sequence 1")
    on = s.seat_of(a.on)
    me = s.active
    if on == me:
        raise IllegalAction.of("You cannot place a suspicion chip on your own board", "Turn Sequence 1")
    hand = s.chips_in_hand[me]
    if s.chips_left(me) < 1:
        raise IllegalAction.of("{name} has no suspicion chip left in hand", "Turn Sequence 1", name=s.name(me))
    if a.mission not in hand:
        # Checked against the chips that can still be in hand: a chip discarded face down is not known, so any
        # chip not placed or named may still be there (rulebook "Rerolling").
        raise IllegalAction.of("{name} has no {mission} chip left to place", "Turn Sequence 1",
                                 name=s.name(me), mission=_mission(a.mission))
    after = s._copy()
    chips = list(hand)
    chips.remove(a.mission)
    hands = list(s.chips_in_hand)
    hands[me] = tuple(chips)
    after.chips_in_hand = tuple(hands)
    after.placed = s.placed + (Chip(s.colour(me), a.on, a.mission),)
    after.turn_chips = s.turn_chips + 1
    return after


def roll(s, a: Roll):
    _need_turn(s)
    if s.dice is not None:
        raise IllegalAction.of("{name} has already rolled this turn; discard a chip to reroll", "Rerolling",
                               name=s.name(s.active))
    if s.event == "chips_or_dice" and s.turn_chips:
        raise IllegalAction.of("Chips or Dice: you placed suspicion chips, so you cannot roll this round",
                               "Event Cards: Chips or Dice")
    faces = tuple(a.faces)
    if len(faces) != N_DICE or any(f not in FACES for f in faces):
        raise IllegalAction.of("A roll shows {n} henchmen faces", n=N_DICE)
    after = s._copy()
    after.dice = faces
    return after


def reroll(s, a: Reroll):
    _need_roll_step(s, "reroll")
    new = _rerolled_dice(s, a.dice, a.faces)
    me = s.active
    after = s._copy()
    if a.discard is None:
        if s.event != "reroll_once":
            raise IllegalAction.of("A reroll costs one of your unplaced suspicion chips", "Rerolling")
        if s.free_reroll_used:
            raise IllegalAction.of("{name} has already used this round's free reroll", "Event Cards: Reroll Once",
                                   name=s.name(me))
        after.free_reroll_used = True
    elif s.chips_left(me) < 1:
        raise IllegalAction.of("{name} has no suspicion chip left to discard", "Rerolling", name=s.name(me))
    elif a.discard == FACE_DOWN:
        # One chip, face down and unseen (rulebook "Rerolling"): only the count is known.
        hidden = list(s.hidden_discards)
        hidden[me] += 1
        after.hidden_discards = tuple(hidden)
    else:  # a named chip: logs written before face-down discards
        hand = s.chips_in_hand[me]
        if a.discard not in hand:
            raise IllegalAction.of("{name} has no {mission} chip left to discard", "Rerolling",
                                     name=s.name(me), mission=_mission(a.discard))
        chips = list(hand)
        chips.remove(a.discard)
        hands, discarded = list(s.chips_in_hand), list(s.discarded)
        hands[me] = tuple(chips)
        discarded[me] = discarded[me] + (a.discard,)
        after.chips_in_hand, after.discarded = tuple(hands), tuple(discarded)
    after.dice = new
    return after


def _rerolled_dice(s, dice, faces) -> tuple[str, ...]:
    if not dice:
        raise IllegalAction.of("Pick at least one die to reroll")
    if len(dice) != len(faces):
        raise IllegalAction.of("Give one new face for each rerolled die")
    if len(set(dice)) != len(dice) or any(not isinstance(d, int) or not 0 <= d < N_DICE for d in dice):
        raise IllegalAction.of("Dice are numbered 0 to {last}, each at most once", last=N_DICE - 1)
    if any(f not in FACES for f in faces):
        raise IllegalAction.of("That is not a henchmen die face")
    new = list(s.dice)
    for d, f in zip(dice, faces):
        new[d] = f
    return tuple(new)


def flip(s, a: Flip):
    _need_roll_step(s, "flip dice")
    if s.event != "flip_the_die":
        raise IllegalAction.of("Dice can only be flipped in a Flip the Die round", "Event Cards: Flip the Die")
    dice = a.dice
    if not dice or len(set(dice)) != len(dice) or any(not isinstance(d, int) or not 0 <= d < N_DICE
                                                      for d in dice):
        raise IllegalAction.of("Pick dice numbered 0 to {last}, each at most once", last=N_DICE - 1)
    new = list(s.dice)
    for d in dice:
        new[d] = OPPOSITE[new[d]]  # RULING obscurians-dice
    after = s._copy()
    after.dice = tuple(new)
    return after


def choose(s, a: Choose):
    _need_roll_step(s, "choose again")
    if s.event == "all_actions_mandatory":
        raise IllegalAction.of("All Actions Mandatory: every die is carried out, so assign your Wilds instead",
                               "Event Cards: All Actions Mandatory")
    kind, wilds = a.action, a.wilds
    if kind not in ACTION_KINDS:
        raise IllegalAction.of("{kind} is not a henchmen action", kind=Term("action", kind, kind))
    if kind == s.banned_kind():
        raise IllegalAction.of("No {kind} this round (event card)", f"Event Cards: No {_kind(kind)}",
                               kind=_kind(kind))
    if isinstance(wilds, bool) or not isinstance(wilds, int) or wilds < 0:
        raise IllegalAction.of("The number of Wilds must be 0 or more")
    # RULING obscurians-actions: Wilds never Relocate; each Wild individually optional.
    if kind == "relocate" and wilds:
        raise IllegalAction.of("Relocate cannot use Wilds", "Henchmen Action Symbols: Wild")
    available = s.wilds_available()
    if wilds > available:
        raise IllegalAction.of("{name} has only {n} Wild" if available == 1 else "{name} has only {n} Wilds",
                               name=s.name(s.active), n=available)
    n = s.executions(kind, wilds)
    if n < 1:
        raise IllegalAction.of("{name} rolled no {kind}" if kind == "relocate"
                               else "{name} rolled no {kind}; add a Wild",
                               "RULING obscurians-actions", name=s.name(s.active), kind=_kind(kind))
    after = s._copy()
    after.chosen = kind
    after.pending = {kind: n}
    return after


def assign_wilds(s, a: AssignWilds):
    _need_roll_step(s, "assign Wilds")
    if s.event != "all_actions_mandatory":
        raise IllegalAction.of("Wilds are assigned one by one only under All Actions Mandatory; choose an action",
                               "Event Cards: All Actions Mandatory")
    n_wild = s.dice.count("wild")
    if len(a.kinds) != n_wild:
        raise IllegalAction.of("Assign an action to each of your {n} Wild" if n_wild == 1
                               else "Assign an action to each of your {n} Wilds", n=n_wild)
    for k in a.kinds:
        if k == "relocate":
            raise IllegalAction.of("Relocate cannot use Wilds", "Henchmen Action Symbols: Wild")
        if k not in WILD_KINDS:
            raise IllegalAction.of("A Wild cannot become {kind}", kind=Term("action", k, k))
    pending = {}
    for k in [f for f in s.dice if f != "wild"] + list(a.kinds):
        pending[k] = pending.get(k, 0) + 1
    after = s._copy()
    after.chosen = ALL
    after.pending = pending
    return after


def _need_execution(s, kind: str):
    _need_turn(s)
    if s.pending.get(kind, 0) > 0:
        return
    if s.dice is None:
        raise IllegalAction.of("Roll the dice first", "Turn Sequence 2")
    if s.chosen is None:
        raise IllegalAction.of("Choose your action first", "Turn Sequence 2")
    if s.chosen not in (ALL, kind):
        raise IllegalAction.of("{name} chose {chosen} this turn, not {kind}", "Turn Sequence 2",
                               name=s.name(s.active), chosen=_kind(s.chosen), kind=_kind(kind))
    raise IllegalAction.of("{name} has no {kind} left to carry out", "Turn Sequence 2",
                           name=s.name(s.active), kind=_kind(kind))


def _done(s, after, kind: str, n: int = 1):
    pending = dict(s.pending)
    left = pending[kind] - n
    if left > 0:
        pending[kind] = left
    else:
        del pending[kind]
    after.pending = pending


def _open_goods_of(s, seat: int, good: str, verb: str):
    """`good` must be among seat's free goods, and seat must not be under a trade ban."""
    name = s.name(seat)
    if s.trade_ban[seat]:
        raise IllegalAction.of("{name}'s goods are secured until their next turn", "Secure: Trade ban", name=name)
    if good not in s.goods[seat]:
        if good in s.secured[seat]:
            raise IllegalAction.of(_IN_VAULT[verb], "Henchmen Action Symbols: Secure", name=name,
                                   good=_good(good))
        raise IllegalAction.of("{name} has no {good}", name=name, good=_good(good))


def _may_receive(s, seat: int):
    if s.trade_ban[seat]:
        raise IllegalAction.of("{name} is under a trade ban and cannot receive goods until their next turn",
                               "Secure: Trade ban", name=s.name(seat))


def _own_good(s, good: str):
    if good not in s.goods[s.active]:
        raise IllegalAction.of("{name} has no free {good}" if good in s.secured[s.active]
                               else "{name} has no {good}", name=s.name(s.active), good=_good(good))


def _moved(s, kind: str, giver: int, receiver: int, good: str):
    """The state after one execution of `kind` that moved `good` from seat `giver` to seat `receiver`."""
    after = s._copy()
    goods = list(s.goods)
    goods[giver] = removed(goods[giver], good)
    goods[receiver] = added(goods[receiver], good)
    after.goods = tuple(goods)
    _done(s, after, kind)
    return after


def steal(s, a: Steal):
    _need_execution(s, "steal")
    me, victim = s.active, s.seat_of(a.victim)
    if victim == me:
        raise IllegalAction.of("You cannot steal from yourself", "Henchmen Action Symbols: Steal")
    _open_goods_of(s, victim, a.good, "stolen")
    _may_receive(s, me)  # RULING obscurians-actions: a trade ban blocks receiving by any action
    return _moved(s, "steal", victim, me, a.good)


def donate(s, a: Donate):
    _need_execution(s, "donate")
    me, to = s.active, s.seat_of(a.to)
    if to == me:
        raise IllegalAction.of("You cannot donate to yourself", "Henchmen Action Symbols: Donate")
    _may_receive(s, to)
    _own_good(s, a.good)
    return _moved(s, "donate", me, to, a.good)


def swap(s, a: Swap):
    _need_execution(s, "swap")
    me, other = s.active, s.seat_of(a.other)
    if other == me:
        raise IllegalAction.of("You cannot swap with yourself", "Henchmen Action Symbols: Swap")
    _open_goods_of(s, other, a.take, "swapped")
    _may_receive(s, me)
    _own_good(s, a.give)
    after = s._copy()
    goods = list(s.goods)
    goods[me] = added(removed(goods[me], a.give), a.take)
    goods[other] = added(removed(goods[other], a.take), a.give)
    after.goods = tuple(goods)
    _done(s, after, "swap")
    return after


def secure(s, a: Secure):
    _need_execution(s, "secure")
    me = s.active
    mine = s.goods[me]
    after = s._copy()
    secured, goods = list(s.secured), list(s.goods)
    if s.pending["secure"] >= TRADE_BAN_SECURES:
        # RULING obscurians-actions: 4+ Secures secure everything at once and ban receiving.
        everything = _sorted_goods(g for g, n in mine.items() for _ in range(n))
        if a.goods != everything:
            raise IllegalAction.of("{n} Secures make a trade ban: {name} secures all their goods at once",
                                   "Secure: Trade ban", n=s.pending["secure"], name=s.name(me))
        secured[me] = merged(secured[me], mine)
        goods[me] = {}
        ban = list(s.trade_ban)
        ban[me] = True
        after.trade_ban = tuple(ban)
        _done(s, after, "secure", s.pending["secure"])
    else:
        # RULING obscurians-actions: exactly 2 goods per Secure, 1 only when a single free good is left.
        free = sum(mine.values())
        if not free:
            raise IllegalAction.of("{name} has no free goods left to secure", "RULING obscurians-actions",
                                   name=s.name(me))
        if len(a.goods) != min(2, free):
            if free >= 2 and len(a.goods) == 1:
                raise IllegalAction.of("Each Secure puts 2 goods into the vault: pick 2 of {name}'s {n} free "
                                       "goods", "RULING obscurians-actions", name=s.name(me), n=free)
            raise IllegalAction.of("Each Secure puts 2 goods into the vault (1 when only one free good is left)",
                                   "RULING obscurians-actions")
        left = mine
        for g in a.goods:
            if g not in left:
                _own_good(s, g)
                raise IllegalAction.of("{name} has only one free {good}", name=s.name(me), good=_good(g))
            left = removed(left, g)
        goods[me] = left
        secured[me] = merged(secured[me], {g: a.goods.count(g) for g in set(a.goods)})
        _done(s, after, "secure")
    after.goods, after.secured = tuple(goods), tuple(secured)
    return after


def relocate(s, a: Relocate):
    _need_execution(s, "relocate")
    me, source, target = s.active, s.seat_of(a.source), s.seat_of(a.target)
    if me in (source, target):
        raise IllegalAction.of("Relocate moves a good between two other players, never from or to you",
                               "Henchmen Action Symbols: Relocate")
    if source == target:
        raise IllegalAction.of("Relocate moves a good from one opponent to another opponent",
                               "Henchmen Action Symbols: Relocate")
    _open_goods_of(s, source, a.good, "relocated")
    _may_receive(s, target)
    return _moved(s, "relocate", source, target, a.good)


def end_turn(s, a: EndTurn):
    _need_turn(s)
    if s.dice is None:
        # Chips or Dice: choosing chips means no roll, even with no chip placed in the end.
        if s.event != "chips_or_dice":
            raise IllegalAction.of("Roll the dice first", "Turn Sequence 2")
    elif s.chosen is None:
        if any_choice(s):
            raise IllegalAction.of("Choose your action first", "Turn Sequence 2")
    else:
        for kind, n in s.pending.items():
            if can(s, kind):
                raise IllegalAction.of("{name} still has {n} {kind} to carry out", "RULING obscurians-actions",
                                       name=s.name(s.active), n=n, kind=_kind(kind))
    after = s._copy()
    nxt = (s.active + 1) % s.n_players
    if nxt == s.start_player:
        # Round over: the lamp good's holder takes the lamp card and starts the next round.
        after.start_player = after.active = s.lamp_holder()
        after.round = s.round + 1
        after.phase = "reveal"
        after.event = None
        after.dice, after.chosen, after.pending, after.free_reroll_used, after.turn_chips = None, None, {}, False, 0
    else:
        after.active = nxt
        start_turn(after)
    return after


def reveal_missions(s, a: RevealMissions):
    if s.phase != "missions":
        raise IllegalAction.of("Missions are revealed when the game is over" if s.phase != "over"
                               else "The missions are already known")
    problem = missions_problem_of(a.missions, s.n_players, s.setup.put_back)
    if problem:
        template, params = problem
        raise IllegalAction.of(template, **params)
    after = s._copy()
    after.missions = tuple(a.missions)
    after.phase = "over"
    return after


HANDLERS = {
    RevealEvent: reveal, PlaceChip: place_chip, Roll: roll, Reroll: reroll, Flip: flip, Choose: choose,
    AssignWilds: assign_wilds, Steal: steal, Donate: donate, Swap: swap, Secure: secure, Relocate: relocate,
    EndTurn: end_turn, RevealMissions: reveal_missions,
}
