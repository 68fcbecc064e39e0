"""The Night's capture plan: which Obelisk takes which demon, and when — provably the best one.

Why a matching is exact. Demons do not block each other and an Obelisk's capture changes nothing for any other
demon, so the only things that tie captures together are "each demon is captured once" and "each Obelisk captures
at most its number tonight" (one; Consuming Growth two; a Lightning Rod one per charge). A capture of demon d by
Obelisk o is possible when some tile d stands on tonight, before its losing step (RULING obelisk-night-loss), lies
in o's reach with o's strength there at least d's. A plan is therefore a b-matching in the bipartite graph Obelisks
× demons, and every b-matching is a plan the table can carry out (each capture at its own moment of the Night).

What is best. First safety: every demon whose walk tonight would lose is captured (when that cannot be, as many of
them as possible); then the largest total strength of the demons captured; ties: the earliest movers saved. All
are one weight per demon — a losing demon weighs more than all strengths together — so the best plan is a maximum
weight b-matching, found exactly by successive shortest augmenting paths in the min-cost flow network
source → Obelisk (capacity: captures left) → demon (1) → sink (1, cost −weight), stopping when no augmenting path
gains weight. tests/test_obelisk_advisor.py checks it against exhaustive search.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.games.obelisk.model import GameMap, Obelisk, Walk
from companion.games.obelisk.paths import can_capture


@dataclass(frozen=True)
class Prey:
    """A demon as the planner sees it: the tiles it stands on tonight (`walk.cells[k]` after k steps), from which
    step it can still be captured, whether its walk ends in a losing step, and its place in the move order."""
    key: str
    colour: str
    strength: int
    walk: Walk
    first: int = 0           # the first step it can still be captured at (a demon that already moved: where it is)
    order: int = 0

    @property
    def loses(self) -> bool:
        return self.walk.end is not None

    @property
    def last(self) -> int:
        """The last step it can be captured at: where its walk stops (before its losing step, if any)."""
        return self.walk.steps


@dataclass(frozen=True)
class Hunter:
    key: int                 # the Obelisk's index in the caller's list
    obelisk: Obelisk
    slots: int               # captures left tonight
    penalty: int = 0         # "hold" plans: what using it costs (its use for demons still to come)


@dataclass(frozen=True)
class Plan:
    safe: bool                              # every losing demon is captured
    captures: tuple[tuple[int, int, int], ...]  # (hunter index, prey index, step), in move order
    lost: tuple[int, ...]                   # losing preys left uncaptured (prey indices)
    strength: int                           # total strength captured


def steps_for(hunter: Hunter, prey: Prey, game_map: GameMap) -> list[int]:
    """The steps at which `hunter` can capture `prey`."""
    return [k for k in range(prey.first, prey.last + 1)
            if can_capture(hunter.obelisk, game_map, prey.walk.cells[k], prey.strength)]


class _Flow:
    """A small min-cost flow network (integer costs, negative allowed; no negative cycles at the start)."""

    def __init__(self, n: int):
        self.graph: list[list[int]] = [[] for _ in range(n)]
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def edge(self, a: int, b: int, cap: int, cost: int) -> int:
        self.graph[a].append(len(self.to))
        self.to.append(b), self.cap.append(cap), self.cost.append(cost)
        self.graph[b].append(len(self.to))
        self.to.append(a), self.cap.append(0), self.cost.append(-cost)
        return len(self.to) - 2

    def _shortest(self, s: int, t: int):
        """Bellman-Ford with a queue (SPFA) from `s`: (distance to t, the edge into each node on the path)."""
        n = len(self.graph)
        inf = float("inf")
        dist, via, queued = [inf] * n, [-1] * n, [False] * n
        dist[s] = 0
        queue = deque([s])
        while queue:
            u = queue.popleft()
            queued[u] = False
            du = dist[u]
            for e in self.graph[u]:
                if self.cap[e] > 0:
                    v = self.to[e]
                    nd = du + self.cost[e]
                    if nd < dist[v]:
                        dist[v], via[v] = nd, e
                        if not queued[v]:
                            queued[v] = True
                            queue.append(v)
        return dist[t], via

    def max_gain(self, s: int, t: int) -> None:
        """Augment along the cheapest path while it lowers the total cost (each path carries one unit here)."""
        while True:
            d, via = self._shortest(s, t)
            if d >= 0:
                return
            v = t
            while v != s:
                e = via[v]
                self.cap[e] -= 1
                self.cap[e ^ 1] += 1
                v = self.to[e ^ 1]


def best_plan(hunters: list[Hunter], preys: list[Prey], game_map: GameMap, *, hold: bool = False) -> Plan:
    """The best plan (module docstring). `hold`: only the losing demons count — capture just what must be captured,
    with the Obelisks least useful later (the smallest `penalty`), keeping the others free (used before tonight's
    demons come out, when nobody knows them yet)."""
    options = {(h, p): steps_for(hunters[h], preys[p], game_map)
               for h in range(len(hunters)) for p in range(len(preys))}
    options = {hp: steps for hp, steps in options.items() if steps}
    n_preys = len(preys)
    pref = [n_preys - prey.order if prey.loses else 0 for prey in preys]  # save the earliest movers first
    b = sum(pref) + 1
    strength_total = sum(prey.strength for prey in preys)
    a = b * (strength_total + 1) + sum(h.penalty for h in hunters) * len(preys) + 1
    if hold:
        weight = [a + pref[p] if prey.loses else 0 for p, prey in enumerate(preys)]
    else:
        weight = [(a if prey.loses else 0) + b * prey.strength + pref[p] for p, prey in enumerate(preys)]

    source, sink = 0, 1 + len(hunters) + n_preys
    flow = _Flow(sink + 1)
    for h, hunter in enumerate(hunters):
        flow.edge(source, 1 + h, hunter.slots, 0)
    links = {}
    for (h, p) in sorted(options):
        links[(h, p)] = flow.edge(1 + h, 1 + len(hunters) + p, 1, hunters[h].penalty if hold else 0)
    for p in range(n_preys):
        if weight[p]:
            flow.edge(1 + len(hunters) + p, sink, 1, -weight[p])
    flow.max_gain(source, sink)

    taken = [(h, p, options[(h, p)][0]) for (h, p), e in links.items() if flow.cap[e] == 0]
    taken.sort(key=lambda c: (preys[c[1]].order, c[2]))
    caught = {p for _, p, _ in taken}
    lost = tuple(p for p, prey in enumerate(preys) if prey.loses and p not in caught)
    return Plan(safe=not lost, captures=tuple(taken), lost=lost,
                strength=sum(preys[p].strength for _, p, _ in taken))


def score(plan_captures, preys: list[Prey]) -> tuple[bool, int, int]:
    """How good a set of captures is: (safe, losing demons saved, strength captured) — larger is better."""
    caught = {p for _, p, _ in plan_captures}
    losing = [p for p, prey in enumerate(preys) if prey.loses]
    saved = sum(p in caught for p in losing)
    return (saved == len(losing), saved, sum(preys[p].strength for p in caught))


def is_plan(plan_captures, hunters: list[Hunter], preys: list[Prey], game_map: GameMap) -> bool:
    """Whether a set of captures can be carried out: each demon once, each Obelisk within its slots, each capture
    possible at its step."""
    used: dict[int, int] = {}
    seen = set()
    for h, p, k in plan_captures:
        if p in seen or k not in steps_for(hunters[h], preys[p], game_map):
            return False
        seen.add(p)
        used[h] = used.get(h, 0) + 1
        if used[h] > hunters[h].slots:
            return False
    return True

