"""Who decides the moves when a scripted game is played through the screen (tests/ui/obscurians_driver.py --policy).

- "random": the engine's seeded random player (companion.games.obscurians.randplay): every legal kind of move,
  uniformly, whatever it is worth (many one-execution turns, many rerolls).
- "plausible": the same random player where it does not matter, but one that plays like people do where it does:
  it picks the action it rolled most of and adds its Wilds, rerolls only a poor roll, places a chip now and then,
  and often takes from (or gives to) the same player twice in a row.
"""
from __future__ import annotations

import random

from companion.games.obscurians import randplay
from companion.games.obscurians.actions import AssignWilds, Choose, Donate, EndTurn, Flip, Relocate, Roll, Steal, Swap
from companion.games.obscurians.constants import FACE_DOWN, FACES, N_DICE, WILD_KINDS
from companion.games.obscurians.legal import can

SEAT_FIELD = {Steal: "victim", Donate: "to", Swap: "other", Relocate: "target"}


def random_policy(state, rng: random.Random, memory: dict):
    return randplay.random_action(state, rng)


def plausible_policy(state, rng: random.Random, memory: dict):
    if state.phase != "turn":
        return randplay.random_action(state, rng)
    me = state.active
    if state.dice is None:
        hand = state.chips_in_hand[me] if state.chips_left(me) > 0 else ()
        if state.event == "chips_or_dice" and state.turn_chips:
            return EndTurn()
        if hand and "chip" in state.legal_types() and rng.random() < 0.15:
            return randplay._random_chip(state, rng, hand)
        return Roll(tuple(rng.choice(FACES) for _ in range(N_DICE)))
    if state.chosen is None:
        counts = state.allowed_counts()
        best = max((max(c) for c in counts.values()), default=0)
        if state.event == "reroll_once" and not state.free_reroll_used and best <= 2 and rng.random() < 0.6:
            return randplay._random_reroll(rng, None)
        if state.event == "flip_the_die" and rng.random() < 0.3:
            return Flip(tuple(rng.sample(range(N_DICE), rng.randint(1, 2))))
        if state.chips_left(me) and best <= 1 and rng.random() < 0.2:
            return randplay._random_reroll(rng, FACE_DOWN)
        if state.event == "all_actions_mandatory":
            return AssignWilds(tuple(rng.choice(WILD_KINDS) for _ in range(state.dice.count("wild"))))
        if not counts:
            return EndTurn()
        kind = rng.choice([k for k, c in counts.items() if max(c) == best])
        return Choose(kind, 0 if kind == "relocate" else state.wilds_available())
    kinds = [k for k in state.pending if can(state, k)]
    if not kinds:
        return EndTurn()
    action = randplay._EXECUTE[rng.choice(kinds)](state, rng)
    field = SEAT_FIELD.get(type(action))
    last = memory.get(type(action))
    if field and last is not None and rng.random() < 0.5:  # the same player as last time, if the rules allow
        again = type(action)(**{**action.__dict__, field: last})
        if state.is_legal(again):
            action = again
    if field:
        memory[type(action)] = getattr(action, field)
    return action


POLICIES = {"random": random_policy, "plausible": plausible_policy}
