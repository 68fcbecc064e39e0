"""Final scoring of Obscurians: suspicion chips, Masters, missions, lamp and artifact, winners.

Sources: rulebook "End of Game", "Points from Suspicions", "Points from Clients", "Mission Overview" and the
rulings in RULINGS.md (ids cited next to the code that uses them).

The result is the game contract's `Outcome`. Every score is itemised as an `OutcomeLine` made by
`line(key, params, points)`: `key` and `params` are machine-readable; the English text (`rule`) is built from the
small template table `TEMPLATES_EN` by `render()`, so a translation only has to supply another table with the same
keys. Reading an END.json file is end_json.py.
"""
from __future__ import annotations

import string
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.contract import Outcome, OutcomeLine, PlayerResult
from companion.games.errors import InvalidInput
from companion.games.text import shown
from companion.games.obscurians.constants import (
    ARTIFACT_POINTS,
    CHIP_POINTS,
    COLOURS,
    LAMP_POINTS,
    MASTER_BONUS,
)
from companion.games.obscurians.model import EndOfGame, EndPlayer
from companion.games.obscurians.rules import Rules

# --- points from clients (Mission Overview) ---------------------------------------------------------------------
KEEP_PER_GOOD = 7
TAKE_CAP_POINTS = 25          # RULING obscurians-take-cap: the largest listed collection (5 goods)
TAKE_CAP_FROM = 6
COLLECT_SET_POINTS = {3: 8, 4: 14, 5: 22}   # RULING obscurians-collect
GIVE_START, GIVE_PER_GOOD = 70, 5          # RULING obscurians-give
SELECT_ONCE, SELECT_ONCE_MAX, SELECT_TWICE = 15, 4, 5   # RULING obscurians-select
LOSE_START, LOSE_PENALTY = 75, 20          # RULING obscurians-lose
LOSE_GOOD_COUNTS = (4, 5, 6)
LOSE_MAX_COLOURS = 2
CONTROL_POINTS = 42

CONTROL = "control"
LOSE = "lose"

# --- templates --------------------------------------------------------------------------------------------------
# One English string per key. A value may be {"one": ..., "other": ...}: chosen by params["n"] (1 → "one").
# Format specs: "{terms:terms}" joins the rendered sub-lines in params["terms"] (each a (key, params) pair) with
# TEMPLATES["+"]; "{rank:ord}" renders an ordinal from TEMPLATES["ord"].
TEMPLATES_EN: dict[str, Any] = {
    "+": " + ",
    "ord": {1: "1st", 2: "2nd", 3: "3rd", "other": "{n}th"},
    "mission.keep": {"one": "Keep: 1 {colour} good × 7", "other": "Keep: {n} {colour} goods × 7"},
    "mission.take": "Take: {terms:terms}",
    "mission.take.none": "Take: no goods of a foreign colour",
    "take.term": "{points} ({n} {colour})",
    "take.term.capped": "{points} ({n} {colour}, 6 or more score 25)",
    "mission.collect": "Collect: {terms:terms}",
    "mission.collect.none": "Collect: no set of 3 or more colours",
    "collect.term": {"one": "{points} (set of {size} colours)",
                     "other": "{n} × {points} (sets of {size} colours)"},
    "mission.give": {"one": "Give: 70 − 1 good × 5", "other": "Give: 70 − {n} goods × 5"},
    "mission.select": "Select: {terms:terms}",
    "mission.select.none": "Select: no colour held exactly once or twice",
    "select.once": {"one": "15 (1 colour held once)", "other": "{n} × 15 (colours held once)"},
    "select.once.capped": "4 × 15 ({held} colours held once, at most 4 count)",
    "select.twice": {"one": "5 (1 colour held twice)", "other": "{n} × 5 (colours held twice)"},
    "mission.lose": "Lose: 75{terms:minus}",
    "lose.count": "exactly {n} goods",
    "lose.colours": {"one": "goods of only 1 colour", "other": "goods of only {n} colours"},
    "lose.colours.none": "no coloured goods",
    "lose.chips": "every own suspicion chip wrong",
    "lose.minus": " − 20 ({cond})",
    "mission.control": "Control: 42",
    "chip": "Suspicion on {target} (chip {pos} of {size}, {rank:ord} correct)",
    "master.unmasking": "Master of Unmasking",
    "master.disguise": "Master of Disguise",
    "lamp": "Magic lamp",
    "artifact": "Cursed artifact",
    # to_text() labels
    "text.title": "Obscurians: final scoring",
    "text.header": ("Player", "Mission", "Line", "Points"),
    "text.total": "Total",
    "text.winners": {"one": "Winner: {names}", "other": "Winners: {names}"},
    "text.player": "{name} ({colour})",
    "missions": {"keep": "Keep", "take": "Take", "collect": "Collect", "give": "Give", "select": "Select",
                 "lose": "Lose", "control": "Control"},
}


def _pick(template: Any, params: Mapping[str, Any]) -> str:
    if isinstance(template, dict):
        return template["one"] if params.get("n") == 1 else template["other"]
    return template


class _Formatter(string.Formatter):
    def __init__(self, templates: Mapping[str, Any]):
        self.t = templates

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "terms":
            return self.t["+"].join(render(k, p, self.t) for k, p in value)
        if format_spec == "minus":
            return "".join(self.t["lose.minus"].format(cond=render(k, p, self.t)) for k, p in value)
        if format_spec == "ord":
            ords = self.t["ord"]
            return ords[value] if value in ords else ords["other"].format(n=value)
        return super().format_field(value, format_spec)


def render(key: str, params: Mapping[str, Any], templates: Mapping[str, Any] = TEMPLATES_EN) -> str:
    """The text of a line (or sub-term) `key` with `params` in the language of `templates`."""
    return _Formatter(templates).vformat(_pick(templates[key], params), (), params)


# --- results: the contract's Outcome, with Obscurians' seat words in each player's `extra` ---------------------
def line(key: str, params: dict, points: int) -> OutcomeLine:
    """One itemised score: `key`/`params` for machines and translators, `rule` (the English text) for people."""
    return OutcomeLine(render(key, params), points, key, params)


@dataclass(frozen=True)
class SeatResult(PlayerResult):
    """A contract PlayerResult whose `extra` holds the seat's colour and mission (written to JSON as "color" and
    "mission"); these read them back under the names the engine uses."""

    @property
    def colour(self) -> str:
        return self.extra["color"]

    @property
    def mission(self) -> str:
        return self.extra["mission"]

    def points(self, key: str) -> int:
        """Sum of the lines whose key is `key` or starts with `key.` (e.g. "mission", "chip", "master")."""
        return sum(ln.points for ln in self.lines if ln.key == key or ln.key.startswith(key + "."))


def seat_result(name: str, colour: str, mission: str, lines: tuple[OutcomeLine, ...]) -> SeatResult:
    return SeatResult(name, sum(ln.points for ln in lines), lines, extra={"color": colour, "mission": mission})


def player(outcome: Outcome, colour: str) -> SeatResult:
    """The seat of `colour` in a scored Outcome."""
    for p in outcome.players:
        if p.colour == colour:
            return p
    raise KeyError(colour)


def totals(outcome: Outcome) -> dict[str, int]:
    return {p.colour: p.total for p in outcome.players}


def score_table(outcome: Outcome, templates: Mapping[str, Any] = TEMPLATES_EN) -> str:
    """The itemised table for a terminal: player, mission, each line, total, and the winners."""
    t = templates
    rows: list[tuple[str, str, str, str]] = []
    for p in outcome.players:
        who = t["text.player"].format(name=p.name, colour=p.colour)
        mission = t["missions"][p.mission]
        for i, ln in enumerate(p.lines):
            rows.append((who if i == 0 else "", mission if i == 0 else "", render(ln.key, ln.params, t),
                         f"{ln.points:+d}"))
        rows.append(("", "", t["text.total"], str(p.total)))
        rows.append(("", "", "", ""))
    header = tuple(t["text.header"])
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]

    def fmt(r: tuple[str, ...]) -> str:
        return f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]:>{widths[3]}}".rstrip()

    out = [t["text.title"], "", fmt(header), "-" * (sum(widths) + 6)]
    out += [fmt(r) for r in rows]
    names = ", ".join(t["text.player"].format(name=p.name, colour=p.colour)
                      for c in outcome.winners for p in outcome.players if p.colour == c)
    out.append(_pick(t["text.winners"], {"n": len(outcome.winners)}).format(names=names))
    return "\n".join(out) + "\n"


# --- Collect: the best partition into sets of distinct colours ---------------------------------------------------
def _canonical(counts) -> tuple[int, ...]:
    """Sorted (largest first), zeros dropped, each count capped at the most sets any partition can have.

    No partition has more than total // 3 sets (3+ goods each), nor more sets than goods outside the two largest
    colours (each set has 3+ distinct colours, so at least one good of a third colour). A colour is in at most one
    set each, so goods above that bound can never be used. Capping lowers the bounds, so repeat until stable.
    """
    c = sorted((x for x in counts if x > 0), reverse=True)
    while len(c) >= 3:
        total = sum(c)
        cap = min(total // 3, total - c[0] - c[1])
        if c[0] <= cap:
            break
        c = [min(x, cap) for x in c if x > 0 and cap > 0]
    if len(c) < 3:
        return ()
    return tuple(c)


@lru_cache(maxsize=None)
def _collect_best(c: tuple[int, ...]) -> tuple[int, tuple[int, int, int]]:
    """(points, (sets of 3, sets of 4, sets of 5)) for canonical counts `c`. Exact.

    Exchange argument: if a partition contains a set of size s, there is an equally good partition in which one set
    of size s holds the s colours with the most goods (swap a smaller colour u in that set for a larger v: if v has
    an unused good just take it, else some other set holds v but not u and the two sets trade). So it suffices to
    try, for each size 3/4/5, the set made of the top colours, and recurse on the rest (memoised).
    """
    best = (0, (0, 0, 0))
    n = len(c)
    for size in (5, 4, 3):
        if size > n:
            continue
        rest = _canonical([x - 1 for x in c[:size]] + list(c[size:]))
        pts, sets = _collect_best(rest)
        pts += COLLECT_SET_POINTS[size]
        if pts > best[0]:
            s = list(sets)
            s[size - 3] += 1
            best = (pts, (s[0], s[1], s[2]))
    return best


def collect_best(counts) -> tuple[int, tuple[int, int, int]]:
    """RULING obscurians-collect: best Collect score of coloured goods `counts` (any iterable of ints ≥ 0) and the
    number of scoring sets of 3, 4 and 5 colours in one best partition."""
    return _collect_best(_canonical(counts))


# --- missions ---------------------------------------------------------------------------------------------------
def _mission_line(p: EndPlayer, rules: Rules, lose_chips: bool) -> OutcomeLine:
    m = p.mission
    goods = p.goods
    if m == "keep":
        n = 0
        for col, k in goods:
            if col == p.colour:
                n = k
        return line("mission.keep", {"n": n, "colour": p.colour}, n * KEEP_PER_GOOD)
    if m == "take":
        terms = []
        total = 0
        for col, k in sorted(goods, key=lambda g: (-g[1], COLOURS.index(g[0]))):
            if col == p.colour:
                continue   # own colour scores nothing; lamp/artifact are not in `goods` (no colour)
            if k >= TAKE_CAP_FROM and rules.take_cap:   # RULING obscurians-take-cap
                pts = TAKE_CAP_POINTS
                terms.append(("take.term.capped", {"points": pts, "n": k, "colour": col}))
            else:
                pts = k * k
                terms.append(("take.term", {"points": pts, "n": k, "colour": col}))
            total += pts
        if not terms:
            return line("mission.take.none", {}, 0)
        return line("mission.take", {"terms": tuple(terms)}, total)
    if m == "collect":
        pts, (n3, n4, n5) = collect_best([k for _, k in goods])   # RULING obscurians-collect (own colour counts)
        if not pts:
            return line("mission.collect.none", {}, 0)
        terms = tuple(("collect.term", {"n": n, "points": COLLECT_SET_POINTS[size], "size": size})
                      for size, n in ((5, n5), (4, n4), (3, n3)) if n)
        return line("mission.collect", {"terms": terms}, pts)
    if m == "give":
        n = p.n_goods()   # RULING obscurians-give: lamp and artifact count; may go negative
        return line("mission.give", {"n": n}, GIVE_START - GIVE_PER_GOOD * n)
    if m == "select":
        once = twice = 0   # RULING obscurians-select
        for _, k in goods:
            if k == 1:
                once += 1
            elif k == 2:
                twice += 1
        terms = []
        if once > SELECT_ONCE_MAX:
            terms.append(("select.once.capped", {"held": once}))
        elif once:
            terms.append(("select.once", {"n": once}))
        if twice:
            terms.append(("select.twice", {"n": twice}))
        pts = min(once, SELECT_ONCE_MAX) * SELECT_ONCE + twice * SELECT_TWICE
        if not terms:
            return line("mission.select.none", {}, 0)
        return line("mission.select", {"terms": tuple(terms)}, pts)
    if m == LOSE:
        conds = []   # RULING obscurians-lose
        n = p.n_goods()
        if n in LOSE_GOOD_COUNTS:
            conds.append(("lose.count", {"n": n}))
        if len(goods) <= LOSE_MAX_COLOURS:
            conds.append(("lose.colours", {"n": len(goods)}) if goods else ("lose.colours.none", {}))
        if lose_chips:
            conds.append(("lose.chips", {}))
        return line("mission.lose", {"terms": tuple(conds)}, LOSE_START - LOSE_PENALTY * len(conds))
    if m == CONTROL:
        return line("mission.control", {}, CONTROL_POINTS)
    raise InvalidInput(f"unknown mission {shown(m)}")


# --- scoring ----------------------------------------------------------------------------------------------------
def score(end: EndOfGame, rules: Rules = Rules()) -> Outcome:
    """Score a finished game into the contract's Outcome (winners are colours). `end` must be valid (as
    `end_json.parse_end` or the engine builds it)."""
    players = end.players
    mission_of = {p.colour: p.mission for p in players}
    others = len(players) - 1
    size: dict[str, int] = dict.fromkeys(mission_of, 0)
    for c in end.suspicions:
        size[c.on] += 1
    pos = dict.fromkeys(mission_of, 0)
    correct_on = dict.fromkeys(mission_of, 0)            # correct chips in each target's stack so far
    chip_lines: dict[str, list[OutcomeLine]] = {col: [] for col in mission_of}
    unmasked: dict[str, set] = {col: set() for col in mission_of}   # targets with a correct chip of `by`
    targeted: dict[str, set] = {col: set() for col in mission_of}   # targets with any chip of `by`
    for c in end.suspicions:
        on, by = c.on, c.by
        pos[on] += 1
        targeted[by].add(on)
        if c.mission == mission_of[on]:   # RULING obscurians-chip: correct when it names the target's mission
            k = correct_on[on]
            correct_on[on] = k + 1
            unmasked[by].add(on)
            if k < len(CHIP_POINTS):       # 1st +10, 2nd +5, 3rd +2, further 0 (no line)
                chip_lines[by].append(line("chip", {"target": on, "pos": pos[on], "size": size[on], "rank": k + 1},
                                           CHIP_POINTS[k]))

    scores = []
    for p in players:
        col = p.colour
        # RULING obscurians-lose (c): a chip on every other player and every own placed chip wrong.
        lose_chips = p.mission == LOSE and len(targeted[col]) == others and not unmasked[col]
        lines = [_mission_line(p, rules, lose_chips)]
        lines += chip_lines[col]
        # RULING obscurians-masters: everyone, Lose and Control included, can earn both.
        if len(unmasked[col]) == others:
            lines.append(line("master.unmasking", {}, MASTER_BONUS))
        if not correct_on[col]:
            lines.append(line("master.disguise", {}, MASTER_BONUS))
        if p.lamp:
            lines.append(line("lamp", {}, LAMP_POINTS))
        if p.artifact:
            lines.append(line("artifact", {}, ARTIFACT_POINTS))
        scores.append(seat_result(p.name, col, p.mission, tuple(lines)))
    return Outcome(tuple(scores), winners(scores))


def winners(scores) -> tuple[str, ...]:
    """RULING obscurians-winner: the Lose player wins alone with a total strictly lower than every other player's;
    otherwise the highest total among the non-Lose players wins, ties share. Colours in seat order."""
    lose = [s for s in scores if s.mission == LOSE]
    rest = [s for s in scores if s.mission != LOSE]
    if lose and rest and all(lose[0].total < s.total for s in rest):
        return (lose[0].colour,)
    if not rest:
        return tuple(s.colour for s in scores)
    top = max(s.total for s in rest)
    return tuple(s.colour for s in rest if s.total == top)


__all__ = [
    "SeatResult", "TEMPLATES_EN", "collect_best", "line", "player", "render", "score", "score_table", "seat_result",
    "totals", "winners",
]
