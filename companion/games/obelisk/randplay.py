"""Seeded random legal games: for the contract suite, property tests, benchmarks and example logs.

Every choice comes from one injected random.Random, so the same seed gives the same game. The random table plays
roughly like people would: it builds next to the demons' path, reinforces and charges Scrolls when the Quarry
allows, mines, turns tiles (often the advisor's best Rotate), follows the advisor's capture plan most of the time,
and rolls, draws and deciphers like the real box would. Every action goes through `State.apply`, so the result is
legal by construction; every game ends (each demon loses within 24 steps, and six come out every Night).
"""
from __future__ import annotations

import random
from dataclasses import replace

from companion.games.obelisk import advisor, payments
from companion.games.obelisk.actions import (
    Aim, Build, Capture, Charge, Dawn, March, Mine, Nightfall, Pass, Reinforce, Reroll, Roll, Rotate, Spawn,
    Timeout,
)
from companion.games.obelisk.box import (
    BURNOUT_BOOST, DEMON_COLOURS, MAX_STRENGTH, PLAYER_COLOURS, QUARRY_START, SCROLL_LANDS, SEALED,
)
from companion.games.obelisk.cycle import spawn_count
from companion.games.obelisk.legal import can_charge, captures
from companion.games.obelisk.model import AIMS, corner_cells
from companion.games.obelisk.paths import portal_walk, touching_lands
from companion.games.obelisk.rules import Rules
from companion.games.obelisk.setup import Setup, draw_quarry, supply_at_start
from companion.games.obelisk.state import State, new_game

NAMES = ("Ana", "Ben", "Cora", "Dan")
P_FOLLOW_PLAN = 0.85   # a capture the advisor suggests is made
P_BEST_ROTATE = 0.6    # a Rotate takes the advisor's best choice
P_TIMEOUT = 0.05       # Time Trials: the minute runs out before the next move


def random_setup(rng: random.Random, seed: int, n_players: int, *, realm: str = "app", dice: str = "app",
                 scrolls: bool | None = None, difficulty: str | None = None, leadership: bool | None = None,
                 time_trials: bool | None = None, rules: Rules | None = None) -> Setup:
    colours = list(PLAYER_COLOURS)
    rng.shuffle(colours)
    scrolls = rng.random() < 0.4 if scrolls is None else scrolls
    difficulty = difficulty or rng.choice(("even_easier", "very_easy", "easy", "normal", "hard"))
    d = {"players": [{"name": n, "colour": c} for n, c in zip(NAMES, colours[:n_players])], "seed": seed,
         "scrolls": scrolls, "difficulty": difficulty, "realm": realm, "dice": dice,
         "leadership": rng.random() < 0.3 if leadership is None else leadership,
         "time_trials": rng.random() < 0.3 if time_trials is None else time_trials,
         "leader": rng.randrange(n_players)}
    if not scrolls:
        d["mountains"] = rng.random() < 0.2
    if realm == "table" and QUARRY_START[n_players]:
        supply = supply_at_start(difficulty, scrolls)
        d["quarry"] = draw_quarry(rng.randrange(2**32), supply, QUARRY_START[n_players]).to_json()
    setup = Setup.from_json(d)
    return setup if rules is None else replace(setup, rules=rules)


def random_game(seed: int, n_players: int = 2, *, rng: random.Random | None = None, **options) -> tuple[Setup, list]:
    """(setup, actions) of a complete random legal game; replaying the actions from new_game(setup) ends over."""
    rng = random.Random(seed) if rng is None else rng
    setup = random_setup(rng, seed, n_players, **options)
    state = new_game(setup)
    actions = []
    while not state.is_over:
        action = random_action(state, rng)
        state = state.apply(action)
        actions.append(action)
    return setup, actions


def random_action(s: State, rng: random.Random):
    """One random legal action for `s` (which must not be over)."""
    if s.setup.time_trials and not s.closed and s.phase in ("day", "march", "spawn", "swarm") \
            and rng.random() < P_TIMEOUT:
        return Timeout()
    phase = s.phase
    if phase == "decipher":
        return rng.choice(s.legal_actions())
    if phase == "roll":
        return Roll(s.pending[0], rng.randint(1, 6))
    if phase == "day":
        return _day(s, rng)
    if phase == "spawn":
        pool = [c for c in DEMON_COLOURS for _ in range(s.realm[c])]
        return Spawn(tuple(rng.sample(pool, spawn_count(s))))
    return _night(s, rng)


def _night(s: State, rng: random.Random):
    advice = advisor.night_advice(s)
    if advice and advice.captures and rng.random() < P_FOLLOW_PLAN:
        c = advice.captures[0]
        return Capture(c.obelisk, c.demon, c.step)
    options = captures(s)
    if options and rng.random() < 0.2:
        return rng.choice(options)
    return March() if s.phase == "march" else Dawn()


def _roll(s: State, rng: random.Random):
    return None if s.setup.dice == "app" else rng.randint(1, 6)


def _day(s: State, rng: random.Random):
    colour = rng.choice(s.acting) if s.acting else None
    if colour is None:
        return Nightfall()
    i = s.seat(colour)
    options = []
    route = set(portal_walk(s.map).cells) | {c for d in s.demons for c in s.tonight_walk(d).cells}
    if s.unplaced[i] and s.may_repeat(colour, "build"):
        corners = s.free_corners()
        near = [c for c in corners if set(corner_cells(c)) & route]
        if corners:
            options += [("build", 5, lambda: Build(colour, rng.choice(near or corners)))]
    if s.may_repeat(colour, "reinforce"):
        pays = payments.affordable(s, colour)
        targets = [o for o in s.obelisks if o.scroll not in SEALED and o.strength < MAX_STRENGTH]
        if pays and targets:
            stone = [p for p in payments.sensible(s, colour) if not p.die] or pays
            options += [("reinforce", 6, lambda: Reinforce(colour, rng.choice(targets).corner, rng.choice(stone)))]
        if can_charge(s, colour):
            options += [("charge", 4, lambda: _charge(s, colour, rng))]
    if s.may_repeat(colour, "mine"):
        options += [("mine", 3, lambda: Mine(colour))]
    if s.markers and s.may_repeat(colour, "rotate"):
        urgent = advisor.current_paths(s).nights in (0, 1)  # a path ends tonight or tomorrow: turn tiles first
        options += [("rotate", 40 if urgent else 3, lambda: _rotate(s, colour, rng))]
    if s.may_repeat(colour, "reroll") and any(o.scroll == "instability" for o in s.obelisks):
        unstable = [o for o in s.obelisks if o.scroll == "instability"]
        options += [("reroll", 1, lambda: Reroll(colour, rng.choice(unstable).corner, _roll(s, rng)))]
    mine = [o for o in s.obelisks if o.scroll == "longbow" and o.owner == colour]
    if s.may_repeat(colour, "aim") and mine:
        o = rng.choice(mine)
        options += [("aim", 1, lambda: Aim(colour, o.corner, rng.choice([a for a in AIMS if a != o.aim])))]
    options += [("pass", 1, lambda: Pass(colour))]
    _, _, make = rng.choices(options, weights=[w for _, w, _ in options])[0]
    return make()


def _rotate(s: State, colour: str, rng: random.Random) -> Rotate:
    if rng.random() < P_BEST_ROTATE:
        return advisor.rotate_choices(s, colour, most=1)[0].action(colour)  # one tile: quick, and good enough
    cells = [c for c in s.marked if s.map[c] is not None]
    chosen = rng.sample(cells, rng.randint(1, min(len(cells), s.budget.rotate)))
    return Rotate(colour, tuple((c, rng.choice([f for f in "NESW" if f != s.map[c].facing])) for c in chosen))


def _charge(s: State, colour: str, rng: random.Random) -> Charge:
    """A legal charge (legal.can_charge said one exists)."""
    pays = payments.affordable(s, colour)
    while True:
        scroll = rng.choice(s.deciphered)
        targets = [o for o in s.obelisks if o.scroll not in SEALED
                   and touching_lands(o.corner, s.map) & set(SCROLL_LANDS[scroll])]
        if not targets:
            continue
        o = rng.choice(targets)
        action = Charge(colour, scroll, o.corner, rng.choice(pays), **_details(s, scroll, o, rng))
        if s.is_legal(action):
            return action


def _details(s: State, scroll: str, o, rng: random.Random) -> dict:
    if scroll == "burnout":
        return {"boost": rng.randint(0, min(BURNOUT_BOOST, MAX_STRENGTH - o.strength))}
    if scroll == "instability":
        return {"roll": _roll(s, rng)}
    if scroll == "longbow":
        return {"aim": rng.choice(AIMS)}
    if scroll == "broken_earth":
        movable = [c for c in corner_cells(o.corner) if c not in s.trodden]
        if len(movable) < 2:
            return {"moves": ()}
        a, b = rng.sample(movable, 2)
        return {"moves": ((a, b), (b, a))}
    if scroll == "siphon_energy":
        others = [x for x in s.obelisks if x.corner != o.corner and x.scroll not in SEALED]
        if not others or o.strength >= MAX_STRENGTH:
            return {"siphon": ()}
        x = rng.choice(others)
        return {"siphon": ((x.corner, rng.randint(1, min(x.strength, MAX_STRENGTH - o.strength))),)}
    return {}

