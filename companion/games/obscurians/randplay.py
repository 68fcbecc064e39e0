"""Seeded random legal games: for property tests, benchmarks and example logs.

Every choice comes from one injected random.Random, so the same seed gives the same game. Actions are sampled
directly from the state (not from `legal_actions()`, which would enumerate hundreds of swaps per step) and every
one goes through `State.apply`, so the result is legal by construction.
"""
from __future__ import annotations

import random

from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, BASE_COLOURS, COLOURS, FACE_DOWN, FACES, N_DICE, WILD_KINDS,
)
from companion.games.obscurians.legal import can, others_open
from companion.games.obscurians.setup import Setup, deal_missions
from companion.games.obscurians.state import TRADE_BAN_SECURES, State, new_game

NAMES = ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay", "Gus")

# How eager the random players are; low enough that games keep chips for rerolls and reach the sandstorm.
P_CHIP = 0.25
P_PAID_REROLL = 0.08
P_FREE_REROLL = 0.6
P_FLIP = 0.5
P_FACE_DOWN = 0.5  # paid rerolls discard face down (as the app records them) or, like older logs, a named chip


def random_setup(rng: random.Random, seed: int, n_players: int = 4, deck: str = "app",
                 missions_known: bool = True) -> Setup:
    colours = list(COLOURS if n_players == 7 else BASE_COLOURS)
    rng.shuffle(colours)
    missions = deal_missions(rng, n_players)
    return Setup(players=tuple(zip(NAMES[:n_players], colours[:n_players])), start=rng.randrange(n_players),
                 deck=deck, seed=seed, missions=missions if missions_known else None)


def random_game(seed: int, n_players: int = 4, *, deck: str = "app", missions_known: bool = True,
                rng: random.Random | None = None) -> tuple[Setup, list]:
    """(setup, actions) of a complete random legal game; replaying the actions from new_game(setup) ends "over"."""
    rng = random.Random(seed) if rng is None else rng
    setup = random_setup(rng, seed, n_players, deck, missions_known)
    state = new_game(setup)
    actions = []
    while state.phase != "over":
        action = random_action(state, rng)
        state = state.apply(action)
        actions.append(action)
    return setup, actions


def random_action(state: State, rng: random.Random):
    """One random legal action for `state` (which must not be over)."""
    phase = state.phase
    if phase == "reveal":
        return RevealEvent(rng.choice(state.revealable()))
    if phase == "missions":
        return RevealMissions(deal_missions(rng, state.n_players))
    me = state.active
    # The chips that can still be in hand, when some are really there (face-down discards are only counted).
    hand = state.chips_in_hand[me] if state.chips_left(me) > 0 else ()
    event = state.event
    if state.dice is None:
        if event == "chips_or_dice" and state.turn_chips:
            if hand and rng.random() < P_CHIP:
                return _random_chip(state, rng, hand)
            return EndTurn()
        if hand and rng.random() < P_CHIP:
            return _random_chip(state, rng, hand)
        return Roll(tuple(rng.choice(FACES) for _ in range(N_DICE)))
    if state.chosen is None:
        if event == "reroll_once" and not state.free_reroll_used and rng.random() < P_FREE_REROLL:
            return _random_reroll(rng, None)
        if event == "flip_the_die" and rng.random() < P_FLIP:
            return Flip(tuple(rng.sample(range(N_DICE), rng.randint(1, N_DICE))))
        if hand and rng.random() < P_PAID_REROLL:
            return _random_reroll(rng, FACE_DOWN if rng.random() < P_FACE_DOWN else rng.choice(hand))
        if event == "all_actions_mandatory":
            return AssignWilds(tuple(rng.choice(WILD_KINDS) for _ in range(state.dice.count("wild"))))
        counts = state.allowed_counts()
        if not counts:
            return EndTurn()
        kind = rng.choice(list(counts))
        top = 0 if kind == "relocate" else state.wilds_available()
        low = 0 if state.dice.count(kind) else 1
        return Choose(kind, rng.randint(low, top))
    kinds = [k for k in state.pending if can(state, k)]
    if not kinds:
        return EndTurn()
    return _EXECUTE[rng.choice(kinds)](state, rng)


def _random_chip(state: State, rng: random.Random, hand) -> PlaceChip:
    me = state.active
    on = rng.choice([i for i in range(state.n_players) if i != me])
    return PlaceChip(state.colour(on), rng.choice(hand))


def _random_reroll(rng: random.Random, discard) -> Reroll:
    dice = rng.sample(range(N_DICE), rng.randint(1, N_DICE))
    return Reroll(tuple(dice), tuple(rng.choice(FACES) for _ in dice), discard)


def _pick_good(goods: dict, rng: random.Random) -> str:
    return rng.choice(list(goods))


def _steal(state: State, rng: random.Random) -> Steal:
    victim = rng.choice([i for i in others_open(state) if state.goods[i]])
    return Steal(state.colour(victim), _pick_good(state.goods[victim], rng))


def _donate(state: State, rng: random.Random) -> Donate:
    to = rng.choice(others_open(state))
    return Donate(state.colour(to), _pick_good(state.goods[state.active], rng))


def _swap(state: State, rng: random.Random) -> Swap:
    other = rng.choice([i for i in others_open(state) if state.goods[i]])
    return Swap(state.colour(other), _pick_good(state.goods[state.active], rng),
                _pick_good(state.goods[other], rng))


def _secure(state: State, rng: random.Random) -> Secure:
    mine = state.goods[state.active]
    every = [g for g, n in mine.items() for _ in range(n)]
    if state.pending["secure"] >= TRADE_BAN_SECURES:
        return Secure(tuple(every))
    return Secure(tuple(rng.sample(every, min(len(every), 2))))  # RULING obscurians-actions: 2, or the last 1


def _relocate(state: State, rng: random.Random) -> Relocate:
    others = others_open(state)
    source = rng.choice([i for i in others if state.goods[i]])
    target = rng.choice([i for i in others if i != source])
    return Relocate(state.colour(source), state.colour(target), _pick_good(state.goods[source], rng))


_EXECUTE = {"steal": _steal, "donate": _donate, "swap": _swap, "secure": _secure, "relocate": _relocate}
assert set(_EXECUTE) == set(ACTION_KINDS)
