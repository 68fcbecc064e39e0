"""The advisor: what a screen shows so that nobody has to work out the rules by hand.

- `routes(state)`: every demon's route tonight, and which of them would lose the game (with the reason in players'
  words: "the blue demon would walk off the map at C4 in its second step"); also the route a demon coming out of
  the Portal tonight would take, for each colour still in the Dark Realm.
- `rotate_choices(state, colour)`: every legal choice of a Rotate action, ranked by how many Nights it keeps every
  path legal (`nights_legal`, defined there), then by how far new demons walk from the Portal, then by fewer
  markers spent.
- `night_advice(state)`: the capture plan (plan.py: the best plan, not a guess) with its reasons. The owners still
  choose; the advice never uses what the table does not know yet (tonight's demons before they come out).
"""
from __future__ import annotations

from dataclasses import dataclass
from bisect import bisect_right
from itertools import combinations, product
from operator import itemgetter

from companion.games.errors import N_, Message
from companion.games.obelisk import words
from companion.games.obelisk.actions import Rotate
from companion.games.obelisk.box import DEMON_COLOURS
from companion.games.obelisk.model import (
    DIRECTIONS, EMPTY, LOOP, MOUNTAIN, OFF_MAP, SIZE, Cell, GameMap, Walk, ahead, in_grid,
)
from companion.games.obelisk.paths import can_capture, captures_left, portal_walk, walk
from companion.games.obelisk.plan import Hunter, Prey, best_plan

WOULD = {
    OFF_MAP: N_("{demon} would walk off the map at {cell} in its {step}"),
    EMPTY: N_("{demon} would walk from {cell} into the empty space at {target} in its {step}"),
    MOUNTAIN: N_("{demon} would walk from {cell} into the Mountain at {target} in its {step}"),
    LOOP: N_("{demon} would step on {target} a second time in its {step}, a loop"),
}
STOPS = N_("{demon} stops on {cell} tonight")
CAPTURE_AT_START = N_("{demon} can be captured on {cell} before it moves, by the {colour} Obelisk on corner {corner}")
CAPTURE_AFTER = N_("{demon} can be captured on {cell} after its {step}, by the {colour} Obelisk on corner {corner}")
CANNOT_SAVE = N_("{demon} cannot be saved: no Obelisk left can capture it before its {step}")
SAFE = N_("Every demon can be stopped tonight; this plan captures strength {n} in all")
UNSAFE = N_("No plan stops every demon tonight")
WAIT = N_("The other demons can still be captured where they stop, once tonight's new demons are out")
NIGHTS = {"one": N_("Every path stays legal for 1 Night"), "other": N_("Every path stays legal for {n} Nights")}
NOT_TONIGHT = N_("A demon would lose tonight unless it is captured")
PORTAL_STEPS = N_("New demons walk {n} tiles from the Portal before their path ends")


def would_lose(colour: str, w: Walk) -> Message | None:
    """How the step after `w` would lose, in players' words; None when `w` does not end in a losing step."""
    if w.end is None:
        return None
    target = words.cell(w.target) if in_grid(w.target) else ""
    return Message(WOULD[w.end], {"demon": words.demon(colour), "cell": words.cell(w.cells[-1]), "target": target,
                                  "step": words.step(w.steps + 1)})


# ----------------------------------------------------------------- routes

@dataclass(frozen=True)
class Route:
    """A demon's walk tonight from where it stood at nightfall: `demon` is its id, or None for a demon of `colour`
    that would come out of the Portal tonight."""
    demon: int | None
    colour: str
    walk: Walk
    why: Message | None        # how it would lose; None when it stops safely

    @property
    def loses(self) -> bool:
        return self.why is not None

    @property
    def said(self) -> Message:
        """Where it ends tonight, in players' words: how it would lose, or where it stops."""
        return self.why or Message(STOPS, {"demon": words.demon(self.colour), "cell": words.cell(self.walk.cells[-1])})


def routes(s) -> list[Route]:
    """The demons on the map in move order, then a new demon of each colour still in the Dark Realm."""
    out = []
    for d in s.in_order():
        w = s.tonight_walk(d)
        out.append(Route(d.id, d.colour, w, would_lose(d.colour, w)))
    for colour in DEMON_COLOURS:
        if s.realm[colour]:
            w = portal_walk(s.map, s.speed(colour))
            out.append(Route(None, colour, w, would_lose(colour, w)))
    return out


# ----------------------------------------------------------------- how long the paths stay legal

def _targets(game_map: GameMap) -> list[int]:
    """Per cell index: the index its arrow leads to, or -1 off the map, -2 an empty space, -3 a Mountain."""
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            tile = game_map[(r, c)]
            out.append(-2 if tile is None else _code(game_map, ahead((r, c), tile.facing)))
    return out


def _code(game_map: GameMap, target: Cell) -> int:
    if not in_grid(target):
        return -1
    tile = game_map[target]
    if tile is None:
        return -2
    return -3 if tile.kind == "M" else target[0] * SIZE + target[1]


def _room(targets, start: int, history: int, turned: dict | None = None) -> tuple[int, int, list[int]]:
    """(steps a demon at `start` with `history` (a bit mask of cells) walks before its losing step, the mask of the
    cells whose arrows it follows, those cells in order)."""
    steps, i, used, cells = 0, start, 0, []
    while True:
        used |= 1 << i
        cells.append(i)
        t = turned[i] if turned and i in turned else targets[i]
        if t < 0 or history >> t & 1:
            return steps, used, cells
        history |= 1 << t
        i, steps = t, steps + 1


def nights_legal(game_map: GameMap, walkers, portal_speed: int | None) -> int | None:
    """How many Nights every path stays legal (docs/obelisk-engine.md, "Nights"): the most Nights n, starting with
    tonight, in which no demon would take a losing step if nobody captured anything and no tile were turned or moved
    again. `walkers` are (visited, speed) of the demons on the map, each surviving room // speed Nights (room: the
    steps it can take before its losing step); a demon coming out of the Dark Realm survives room // speed Nights
    from the Portal, the fastest colour left in it (`portal_speed`, None when it is empty) first. None: no demon on
    the map and none to come."""
    ranked = _Ranker(game_map, walkers, portal_speed)
    return ranked.base[0]


class _Walker:
    """A demon (or several alike) on the map: where it stands, its history, its speed, and its walk on the map as it
    is (`steps` before the losing step, the `cells` it follows; `at[i]`: the step at which it stands on cell i)."""
    __slots__ = ("start", "history", "speed", "steps", "used", "at", "nights", "cells", "before")

    def __init__(self, targets, start: int, history: int, speed: int):
        self.start, self.history, self.speed = start, history, speed
        self.steps, self.used, self.cells = _room(targets, start, history)
        self.at = {c: k for k, c in enumerate(self.cells)}
        self.nights = self.steps // speed
        self.before = []  # before[k]: its history once it stands on cells[k]
        seen = history
        for c in self.cells:
            seen |= 1 << c
            self.before.append(seen)

    def first_turned(self, turned: dict) -> int:
        """The step at which its walk first reaches a turned tile (past its end when none is on it)."""
        at, first = self.at, SIZE * SIZE
        for i in turned:
            k = at.get(i, first)
            if k < first:
                first = k
        return first

    def steps_with(self, targets, turned: dict, first: int, known: dict) -> int:
        """Its steps with `turned` tiles: the same walk up to the first turned tile, then a new one from there —
        the same for every demon that reaches that tile with the same history (`known`: those found so far)."""
        key = (self.cells[first], self.before[first])
        rest = known.get(key)
        if rest is None:
            rest = known[key] = _room(targets, self.cells[first], self.before[first], turned)[0]
        return first + rest


class _Ranker:
    """Paths under many small changes of one map, measured without walking every path again:
    - A demon's walk changes only from the first turned tile on it; up to there it is the same.
    - Most demons stand on the Portal's own path with its beginning as their history (tonight's and last Night's
      demons, on a map nobody turned since): from any tile of that path the rest of the walk is the same for all
      of them, so it is walked once per turned tile, and of the demons of one speed between two turned tiles only
      the one furthest along can be the first to lose.
    - Any other demon is walked again from its first turned tile, unless that tile's step already cannot beat the
      shortest count found. The answer is exact; only the work is saved."""

    def __init__(self, game_map: GameMap, walkers, portal_speed: int | None):
        self.targets = _targets(game_map)
        portal = game_map.portal
        self.portal = _Walker(self.targets, portal[0] * SIZE + portal[1], 1 << (portal[0] * SIZE + portal[1]), 1)
        self.portal_speed = portal_speed
        seen: dict = {}
        self.on_path: dict[int, list[int]] = {}   # speed → the path positions of the demons on the Portal's path
        for visited, speed in walkers:
            history = 0
            for c in visited:
                history |= 1 << (c[0] * SIZE + c[1])
            start = visited[-1][0] * SIZE + visited[-1][1]
            k = self.portal.at.get(start)
            if k is not None and self.portal.before[k] == history:
                self.on_path.setdefault(speed, []).append(k)
            elif (start, history, speed) not in seen:
                seen[(start, history, speed)] = _Walker(self.targets, start, history, speed)
        for positions in self.on_path.values():
            positions.sort()
        self.walkers = sorted(seen.values(), key=lambda w: w.nights)
        self._alone: dict = {}  # (path position, where its arrow leads) → the walk from there, that tile alone turned
        self.base = self.evaluate({}, 0)

    def on_portal_path(self, cells) -> list[int]:
        """Where these cells lie on the Portal's path, in path order."""
        at = self.portal.at
        return sorted(at[i] for i in cells if i in at)

    def _rest(self, q: int, turned: dict, mask: int) -> int:
        """Steps from the turned tile at path position q to the losing step. Walked once per tile and direction; again
        only when that walk meets another turned tile."""
        portal = self.portal
        cell = portal.cells[q]
        key = (q, turned[cell])
        if key not in self._alone:
            steps, used, _ = _room(self.targets, cell, portal.before[q], {cell: turned[cell]})
            self._alone[key] = (steps, used)
        steps, used = self._alone[key]
        if used & mask & ~(1 << cell):
            steps = _room(self.targets, cell, portal.before[q], turned)[0]
        return steps

    def evaluate(self, turned: dict, mask: int, turns: list[int] | None = None) -> tuple[int | None, int]:
        """(Nights every path stays legal, steps new demons walk from the Portal) with `turned` tiles (`turns`: where
        they lie on the Portal's path, when the caller knows)."""
        targets, portal, known = self.targets, self.portal, {}
        if turns is None:
            turns = self.on_portal_path(turned)
        rest: dict[int, int] = {}  # path position of a turned tile → the new walk from it
        if turns:
            q = turns[0]
            rest[q] = self._rest(q, turned, mask)
            portal_steps = q + rest[q]
        else:
            portal_steps = portal.steps
        best = None if self.portal_speed is None else portal_steps // self.portal_speed
        for speed, positions in self.on_path.items():
            if best == 0:
                break  # nothing is shorter than tonight
            low = -1
            for q in turns + [None]:
                # the demon furthest along in (low, q]: from q on its walk is the new rest (the old one past the end)
                i = bisect_right(positions, portal.steps if q is None else q) - 1
                if i >= 0 and positions[i] > low:
                    p = positions[i]
                    if q is None:
                        room = portal.steps - p
                    elif best is not None and (q - p) // speed >= best:
                        room = None  # it walks at least to q: it cannot be the first to lose
                    else:
                        if q not in rest:
                            rest[q] = self._rest(q, turned, mask)
                        room = q - p + rest[q]
                    if room is not None and (best is None or room // speed < best):
                        best = room // speed
                if q is not None:
                    low = q
        for w in self.walkers:  # the other demons no turned tile touches: the first of them is their shortest
            if not w.used & mask:
                if best is None or w.nights < best:
                    best = w.nights
                break
        for w in self.walkers:
            if best == 0:
                break  # nothing is shorter than tonight
            if w.used & mask:
                first = w.first_turned(turned)
                if best is not None and first // w.speed >= best:
                    continue
                n = w.steps_with(targets, turned, first, known) // w.speed
                if best is None or n < best:
                    best = n
        return best, portal_steps


@dataclass(frozen=True)
class RotateChoice:
    """One way to play a Rotate action: `tiles` (cell, new direction), and what it leaves: `nights` every path
    stays legal (None: no demon left to walk), `portal_steps` new demons walk before their path ends."""
    tiles: tuple[tuple[Cell, str], ...]
    nights: int | None
    portal_steps: int

    def action(self, colour: str) -> Rotate:
        return Rotate(colour, self.tiles)

    def reasons(self) -> tuple[Message, ...]:
        out = []
        if self.nights == 0:
            out.append(Message(NOT_TONIGHT))
        elif self.nights is not None:
            out.append(Message(NIGHTS["one" if self.nights == 1 else "other"], {"n": self.nights}))
        out.append(Message(PORTAL_STEPS, {"n": self.portal_steps}))
        return tuple(out)


def _walkers(s):
    return [(d.visited[:len(d.visited) - d.walked], s.speed(d.colour)) for d in s.demons]


def _portal_speed(s) -> int | None:
    speeds = [s.speed(c) for c in DEMON_COLOURS if s.realm[c]]
    return max(speeds) if speeds else None


def current_paths(s) -> RotateChoice:
    """The map as it is (no tile turned), measured like a Rotate choice."""
    ranker = _Ranker(s.map, _walkers(s), _portal_speed(s))
    return RotateChoice((), *ranker.base)


def rotate_choices(s, colour: str | None = None, most: int | None = None) -> list[RotateChoice]:
    """Every choice of one Rotate action now (1 to the player guide's number of marked tiles — or `most` —, each to
    one of its three other directions), best first: most Nights every path stays legal; then the longest walk from
    the Portal; then the fewest markers spent; then reading order (of the tiles, then N, E, S, W). `colour` only
    says whose budget (all players share it)."""
    ranker = _Ranker(s.map, _walkers(s), _portal_speed(s))
    cells = [c for c in s.marked if s.map[c] is not None]
    index = [c[0] * SIZE + c[1] for c in cells]
    # Per marked tile, its three new directions: (the cell its arrow then leads to, the (cell, direction) pair).
    options = [[(_code(s.map, ahead(c, f)), (c, f)) for f in DIRECTIONS if f != s.map[c].facing] for c in cells]
    code, pair = itemgetter(0), itemgetter(1)
    evaluate = ranker.evaluate
    rows, found = [], []
    for k in range(1, min(s.budget.rotate, most or s.budget.rotate) + 1):
        for chosen in combinations(range(len(cells)), k):
            where = [index[t] for t in chosen]
            mask = 0
            for i in where:
                mask |= 1 << i
            turns = ranker.on_portal_path(where)
            for picks in product(*[options[t] for t in chosen]):
                nights, portal_steps = evaluate(dict(zip(where, map(code, picks))), mask, turns)
                rows.append((-99 if nights is None else -nights, -portal_steps, k, len(found)))
                found.append((picks, nights, portal_steps))
    rows.sort()
    return [RotateChoice(tuple(map(pair, picks)), nights, portal_steps)
            for picks, nights, portal_steps in (found[row[3]] for row in rows)]


# ----------------------------------------------------------------- the Night

@dataclass(frozen=True)
class Suggestion:
    obelisk: tuple[int, int]   # its corner
    demon: int                 # the demon's id
    step: int                  # tiles it has walked tonight when captured (0: before it moves)
    cell: Cell


@dataclass(frozen=True)
class Advice:
    safe: bool
    strength: int | None               # the captured strength when safe
    captures: tuple[Suggestion, ...]
    lost: tuple[int, ...]              # ids of the demons that cannot be saved
    reasons: tuple[Message, ...]


def _usefulness(s, o) -> int:
    """How much an Obelisk may be wanted by tonight's new demons: the colours still in the Dark Realm it could
    capture somewhere on the Portal's route (ten each), then its strength."""
    portal = s.map.portal
    score = 0
    for colour in DEMON_COLOURS:
        if s.realm[colour]:
            w = walk(s.map, (portal,), s.speed(colour))
            if any(can_capture(o, s.map, c, s.strength(colour)) for c in w.cells):
                score += 10
    return score + o.strength


def night_advice(s) -> Advice | None:
    """The plan for the rest of tonight (None outside the Night's capture phases). While the demons on the map are
    still to move ("march"), only those that would lose are planned for, with the Obelisks tonight's new demons are
    least likely to need; once the new demons are out ("swarm"), the best plan for everyone left."""
    if s.phase not in ("march", "spawn", "swarm") or s.closed:
        return None
    hold = s.phase != "swarm"
    hunters = [Hunter(i, o, captures_left(o), _usefulness(s, o) if hold else 0)
               for i, o in enumerate(s.obelisks) if captures_left(o)]
    demons = s.in_order()
    preys = []
    for order, d in enumerate(demons):
        w = s.tonight_walk(d)
        moving = s.phase == "march" or d.id in s.tonight
        preys.append(Prey(str(d.id), d.colour, s.strength(d.colour), w, 0 if moving else d.walked, order))
    plan = best_plan(hunters, preys, s.map, hold=hold)
    return _advice(s, plan, hunters, preys, demons, hold)


def capture_said(prey: Prey, k: int, o) -> Message:
    """How one capture is made: "the yellow demon can be captured on E4 after its third step, by the blue Obelisk on
    corner E4"."""
    params = {"demon": words.demon(prey.colour), "cell": words.cell(prey.walk.cells[k]),
              "colour": words.colour(o.owner), "corner": words.corner(o.corner)}
    if k:
        params["step"] = words.step(k)
    return Message(CAPTURE_AFTER if k else CAPTURE_AT_START, params)


def plan_said(plan, hunters, preys) -> list[Message]:
    """A plan's reasons, in move order: why a losing demon must be captured, how each capture is made, and which
    losing demons no plan can save."""
    out = []
    for h, p, k in plan.captures:
        why = would_lose(preys[p].colour, preys[p].walk)
        if why is not None:
            out.append(why)
        out.append(capture_said(preys[p], k, hunters[h].obelisk))
    for p in plan.lost:
        prey = preys[p]
        out += [would_lose(prey.colour, prey.walk),
                Message(CANNOT_SAVE, {"demon": words.demon(prey.colour), "step": words.step(prey.walk.steps + 1)})]
    return out


def _advice(s, plan, hunters, preys, demons, hold: bool) -> Advice:
    reasons = plan_said(plan, hunters, preys)
    captures = tuple(Suggestion(hunters[h].obelisk.corner, demons[p].id, k, preys[p].walk.cells[k])
                     for h, p, k in plan.captures)
    if plan.safe and not hold:
        reasons.append(Message(SAFE, {"n": plan.strength}))
    elif plan.safe and hold and s.phase == "march":
        reasons.append(Message(WAIT))
    elif not plan.safe:
        reasons.append(Message(UNSAFE))
    return Advice(plan.safe, plan.strength if plan.safe else None, captures,
                  tuple(demons[p].id for p in plan.lost), tuple(reasons))
