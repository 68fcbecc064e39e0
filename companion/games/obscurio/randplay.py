"""Seeded random legal games: for property tests, benchmarks and example logs.

Every choice comes from one injected random.Random, so the same seed gives the same game. The random players play
like people would: it knows the Exit door of each turn in advance (as the Grimoire does) so that some chips find it,
keeps a secret Traitor when the loyalty cards are real, and the hourglass sometimes runs out. Every action goes
through `State.apply`, so the result is legal by construction.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Sand, Unmask, Votes,
)
from companion.games.obscurio.constants import CHARACTERS, GRIMOIRE, PLUS2, TRAPS
from companion.games.obscurio.rules import Rules
from companion.games.obscurio.setup import Setup
from companion.games.obscurio.state import State, new_game

NAMES = ("Ana", "Ben", "Cris", "Dani", "Eva", "Fede", "Gala", "Hugo")

# How the random wizards behave: often right, sometimes slow, rarely undecided.
P_ON_EXIT = 0.4       # a chip goes to the Exit door (the riddle was understood)
P_SAND = 0.12         # the hourglass runs out before the next move
P_MOVE = 0.1          # a placed chip changes its mind
P_TAKE_LOCKED = 0.3   # under Locked Doors, a wizard takes a wrong door just revealed
P_ABSTAIN = 0.1
P_SUSPECT_TRAITOR = 0.35  # a vote finds the Traitor


@dataclass
class Secrets:
    """What the random players know that the engine may not: the Traitor and this turn's Exit."""
    rng: random.Random
    traitor: str | None = None
    exits: dict = field(default_factory=dict)  # turn → Exit door


def random_setup(rng: random.Random, seed: int, n_players: int = 5, bag: str = "app", loyalty: str = "table",
                 rules: Rules | None = None) -> Setup:
    characters = list(CHARACTERS)
    rng.shuffle(characters)
    roles = [GRIMOIRE] + characters[:n_players - 1]
    rng.shuffle(roles)
    companion = characters[n_players - 1] if n_players == 2 else None
    return Setup(players=tuple(zip(NAMES[:n_players], roles)), companion=companion, bag=bag, loyalty=loyalty,
                 seed=seed, rules=rules or Rules())


def random_game(seed: int, n_players: int = 5, *, bag: str = "app", loyalty: str = "table",
                rules: Rules | None = None, rng: random.Random | None = None) -> tuple[Setup, list]:
    """(setup, actions) of a complete random legal game; replaying the actions from new_game(setup) ends "over"."""
    rng = random.Random(seed) if rng is None else rng
    setup = random_setup(rng, seed, n_players, bag, loyalty if n_players >= 4 else "table", rules)
    state = new_game(setup)
    secrets = Secrets(rng, traitor=state.traitor or (rng.choice(setup.wizards) if setup.has_traitor else None))
    actions = []
    while not state.is_over:
        action = random_action(state, secrets)
        state = state.apply(action)
        actions.append(action)
    return setup, actions


def random_action(state: State, secrets: Secrets):
    """One random legal action for `state` (which must not be over)."""
    rng = secrets.rng
    phase = state.phase
    if phase == "traps":
        return state.legal_actions()[0] if state.setup.bag == "app" else _physical_draw(state, rng)
    if phase == "riddle":
        return Riddle()
    if phase == "traitor":
        return Decoys(rng.randint(0, state.max_decoys))
    if phase == "doors":
        return _doors(state, secrets)
    if phase == "exit":
        return Exit(_exit_of(state, secrets))
    if phase == "discussion":
        return Sand()
    if phase == "vote":
        return _votes(state, secrets)
    if phase == "loyalty":
        return Loyalty(secrets.traitor if secrets.traitor in state.accused else None)
    if phase == "end":
        return EndTurn()
    if phase == "unmask":
        return Unmask(secrets.traitor)
    raise ValueError(f"no action in phase {phase}")


def _physical_draw(state: State, rng: random.Random) -> Draw:
    """What a hand in the real bag brings out: the same rule as the app's draw, another generator."""
    pool = [t for t in TRAPS for _ in range(state.bag.get(t, 0))]
    due, drawn = state.draws_due, []
    while due > 0 and pool:
        trap = pool.pop(rng.randrange(len(pool)))
        drawn.append(trap)
        due += 1 if trap == PLUS2 else -1
    return Draw(tuple(drawn))


def _exit_of(state: State, secrets: Secrets) -> int:
    if state.turn not in secrets.exits:
        secrets.exits[state.turn] = secrets.rng.randint(1, state.n_doors)
    return secrets.exits[state.turn]


def _doors(state: State, secrets: Secrets):
    rng = secrets.rng
    exit_door = _exit_of(state, secrets)
    if rng.random() < P_SAND:
        return Sand()
    waiting = [c for c in state.chips if state.door_of(c) is None]
    if state.locked:
        if waiting:
            chip = rng.choice(waiting)
            right = state.opened == exit_door and chip != secrets.traitor
            if right or rng.random() < P_TAKE_LOCKED / len(waiting):
                return Chip(chip, state.opened)
        return Open() if state.opened < state.n_doors else Done()
    placed = [c for c in state.chips if c not in waiting]
    if placed and rng.random() < P_MOVE:
        chip = rng.choice(placed)
        door = rng.randint(1, state.n_doors)
        return Chip(chip, door) if door != state.door_of(chip) else Chip(chip, None)
    if waiting:
        chip = rng.choice(waiting)
        on_exit = chip != secrets.traitor and rng.random() < P_ON_EXIT
        return Chip(chip, exit_door if on_exit else rng.randint(1, state.n_doors))
    return Done()


def _votes(state: State, secrets: Secrets) -> Votes:
    rng = secrets.rng
    wizards = state.setup.wizards
    cast = []
    for voter in wizards:
        if rng.random() < P_ABSTAIN:
            cast.append((voter, None))
        elif secrets.traitor and voter != secrets.traitor and rng.random() < P_SUSPECT_TRAITOR:
            cast.append((voter, secrets.traitor))
        else:
            cast.append((voter, rng.choice([w for w in wizards if w != voter])))
    if all(target is None for _, target in cast):  # someone always points: the phase must move on
        cast[0] = (cast[0][0], rng.choice([w for w in wizards if w != cast[0][0]]))
    return Votes(tuple(cast))
