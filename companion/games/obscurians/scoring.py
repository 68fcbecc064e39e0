"""Final scoring of Obscurians: suspicion chips, Masters, missions, lamp and artifact, winners.

Sources: rulebook "End of Game", "Points from Suspicions", "Points from Clients", "Mission Overview" and the
rulings in RULINGS.md (ids cited next to the code that uses them).

Every score is itemised as a `Line(key, params, points)`. `key` and `params` are machine-readable; the English
text (`Line.rule`) is built from the small template table `TEMPLATES_EN` by `render()`, so a translation only has
to supply another table with the same keys.
"""
from __future__ import annotations

import string
from functools import lru_cache
from typing import Any, Mapping

from companion.games.contract import Outcome, OutcomeLine, PlayerResult
from companion.games.errors import InvalidInput
from companion.games.text import check_name, key, shown
from companion.games.obscurians.constants import (
    ARTIFACT_POINTS,
    CHIP_POINTS,
    COLOURS,
    CONTROL_COLOUR,
    GOODS_PER_COLOUR,
    LAMP_POINTS,
    MASTER_BONUS,
    MISSIONS,
)
from companion.games.obscurians.model import Chip, EndOfGame, EndPlayer
from companion.games.obscurians.setup import missions_problem
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

MIN_PLAYERS, MAX_PLAYERS = 4, 7   # RULING obscurians-players: 7 only with the Control module
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


# --- results ----------------------------------------------------------------------------------------------------
class Line:
    """One itemised score: `key`/`params` for machines and translators, `rule` for people, `points`."""

    __slots__ = ("key", "params", "points")

    def __init__(self, key: str, params: dict, points: int):
        self.key = key
        self.params = params
        self.points = points

    @property
    def rule(self) -> str:
        return render(self.key, self.params)

    def to_json(self) -> dict:
        return {"rule": self.rule, "points": self.points}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and (self.key, self.params, self.points) == (other.key, other.params,
                                                                                    other.points)

    def __repr__(self) -> str:
        return f"Line({self.key!r}, {self.params!r}, {self.points})"


class PlayerScore:
    __slots__ = ("name", "colour", "mission", "total", "lines")

    def __init__(self, name: str, colour: str, mission: str, lines: tuple[Line, ...]):
        self.name = name
        self.colour = colour
        self.mission = mission
        self.lines = lines
        self.total = sum(line.points for line in lines)

    def points(self, key: str) -> int:
        """Sum of the lines whose key is `key` or starts with `key.` (e.g. "mission", "chip", "master")."""
        return sum(ln.points for ln in self.lines if ln.key == key or ln.key.startswith(key + "."))

    def to_json(self) -> dict:
        return {"name": self.name, "color": self.colour, "mission": self.mission, "total": self.total,
                "lines": [ln.to_json() for ln in self.lines]}

    def __repr__(self) -> str:
        return f"PlayerScore({self.name!r}, {self.colour!r}, {self.mission!r}, total={self.total})"


class ScoreResult:
    """Players in seat order with their itemised lines; `winners` are colours (RULING obscurians-winner)."""

    __slots__ = ("players", "winners")

    def __init__(self, players: tuple[PlayerScore, ...], winners: tuple[str, ...]):
        self.players = players
        self.winners = winners

    def player(self, colour: str) -> PlayerScore:
        for p in self.players:
            if p.colour == colour:
                return p
        raise KeyError(colour)

    def totals(self) -> dict[str, int]:
        return {p.colour: p.total for p in self.players}

    def to_json(self) -> dict:
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners)}

    def to_outcome(self) -> Outcome:
        """The neutral shape every game returns (companion.games.contract): the same JSON as to_json()."""
        return Outcome(
            players=tuple(PlayerResult(p.name, p.total,
                                       tuple(OutcomeLine(ln.rule, ln.points, ln.key, ln.params) for ln in p.lines),
                                       extra={"color": p.colour, "mission": p.mission})
                          for p in self.players),
            winners=tuple(self.winners))

    def to_text(self, templates: Mapping[str, Any] = TEMPLATES_EN) -> str:
        t = templates
        rows: list[tuple[str, str, str, str]] = []
        for p in self.players:
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
                          for c in self.winners for p in self.players if p.colour == c)
        out.append(_pick(t["text.winners"], {"n": len(self.winners)}).format(names=names))
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        return f"ScoreResult({self.players!r}, winners={self.winners!r})"


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
def _mission_line(p: EndPlayer, rules: Rules, lose_chips: bool) -> Line:
    m = p.mission
    goods = p.goods
    if m == "keep":
        n = 0
        for col, k in goods:
            if col == p.colour:
                n = k
        return Line("mission.keep", {"n": n, "colour": p.colour}, n * KEEP_PER_GOOD)
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
            return Line("mission.take.none", {}, 0)
        return Line("mission.take", {"terms": tuple(terms)}, total)
    if m == "collect":
        pts, (n3, n4, n5) = collect_best([k for _, k in goods])   # RULING obscurians-collect (own colour counts)
        if not pts:
            return Line("mission.collect.none", {}, 0)
        terms = tuple(("collect.term", {"n": n, "points": COLLECT_SET_POINTS[size], "size": size})
                      for size, n in ((5, n5), (4, n4), (3, n3)) if n)
        return Line("mission.collect", {"terms": terms}, pts)
    if m == "give":
        n = p.n_goods()   # RULING obscurians-give: lamp and artifact count; may go negative
        return Line("mission.give", {"n": n}, GIVE_START - GIVE_PER_GOOD * n)
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
            return Line("mission.select.none", {}, 0)
        return Line("mission.select", {"terms": tuple(terms)}, pts)
    if m == LOSE:
        conds = []   # RULING obscurians-lose
        n = p.n_goods()
        if n in LOSE_GOOD_COUNTS:
            conds.append(("lose.count", {"n": n}))
        if len(goods) <= LOSE_MAX_COLOURS:
            conds.append(("lose.colours", {"n": len(goods)}) if goods else ("lose.colours.none", {}))
        if lose_chips:
            conds.append(("lose.chips", {}))
        return Line("mission.lose", {"terms": tuple(conds)}, LOSE_START - LOSE_PENALTY * len(conds))
    if m == CONTROL:
        return Line("mission.control", {}, CONTROL_POINTS)
    raise InvalidInput(f"unknown mission {shown(m)}")


# --- scoring ----------------------------------------------------------------------------------------------------
def score(end: EndOfGame, rules: Rules = Rules()) -> ScoreResult:
    """Score a finished game. `end` must be valid (as `parse_end` or the engine builds it)."""
    players = end.players
    mission_of = {p.colour: p.mission for p in players}
    others = len(players) - 1
    size: dict[str, int] = dict.fromkeys(mission_of, 0)
    for c in end.suspicions:
        size[c.on] += 1
    pos = dict.fromkeys(mission_of, 0)
    correct_on = dict.fromkeys(mission_of, 0)            # correct chips in each target's stack so far
    chip_lines: dict[str, list[Line]] = {col: [] for col in mission_of}
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
                chip_lines[by].append(Line("chip", {"target": on, "pos": pos[on], "size": size[on], "rank": k + 1},
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
            lines.append(Line("master.unmasking", {}, MASTER_BONUS))
        if not correct_on[col]:
            lines.append(Line("master.disguise", {}, MASTER_BONUS))
        if p.lamp:
            lines.append(Line("lamp", {}, LAMP_POINTS))
        if p.artifact:
            lines.append(Line("artifact", {}, ARTIFACT_POINTS))
        scores.append(PlayerScore(p.name, col, p.mission, tuple(lines)))
    return ScoreResult(tuple(scores), winners(scores))


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


# --- END.json ---------------------------------------------------------------------------------------------------
_TOP_KEYS = {"game", "players", "suspicions"}
_PLAYER_KEYS = {"name", "color", "mission", "goods", "lamp", "artifact"}
_CHIP_KEYS = {"by", "on", "mission"}


def _fail(path: str, what: str):
    raise InvalidInput(f"{path}: {what}")


def _obj(v: Any, path: str, keys: set[str], required: tuple[str, ...]) -> dict:
    if not isinstance(v, dict):
        _fail(path, "expected an object {...}")
    for k in v:
        if k not in keys:
            hint = ' (write "color")' if k == "colour" else ""
            _fail(f"{path}.{key(k)}" if path else key(k), f"unknown field{hint}; expected one of {', '.join(sorted(keys))}")
    for k in required:
        if k not in v:
            _fail(f"{path}.{k}" if path else k, "missing")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        _fail(path, "expected true or false")
    return v


def _colour_word(v: Any, path: str) -> str:
    if not isinstance(v, str) or v not in COLOURS:
        _fail(path, f"unknown colour {shown(v)}; the colours are {', '.join(COLOURS)}")
    return v


def _mission_word(v: Any, path: str) -> str:
    if not isinstance(v, str) or v not in MISSIONS:
        _fail(path, f"unknown mission {shown(v)}; the missions are {', '.join(MISSIONS)}")
    return v


def parse_end(d: dict) -> EndOfGame:
    """Read an END.json object. Raises InvalidInput naming the field, e.g. 'players[1].goods.purple: unknown
    colour', for anything malformed or that the box makes impossible."""
    _obj(d, "", _TOP_KEYS, ("players",))
    if "game" in d and d["game"] != "obscurians":
        _fail("game", f'expected "obscurians", got {shown(d["game"])}')
    raw_players = d["players"]
    if not isinstance(raw_players, list):
        _fail("players", "expected a list of players [...]")
    n = len(raw_players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        _fail("players", f"{n} players; Obscurians is played by 4 to 6 players, 7 with the Control module")
    seven = n == MAX_PLAYERS

    # First pass: who sits at the table (names, colours, missions), so goods and chips can refer to them.
    names: list[str] = []
    colour_owner: dict[str, str] = {}
    mission_owner: dict[str, str] = {}
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        _obj(rp, path, _PLAYER_KEYS, ("name", "color", "mission"))
        name = check_name(rp["name"], f"{path}.name")
        if name in names:
            _fail(f"{path}.name", f"{name} is already at the table (players[{names.index(name)}]); give each "
                                  "player a different name")
        col = _colour_word(rp["color"], f"{path}.color")
        if col in colour_owner:
            _fail(f"{path}.color", f"{col} is already {colour_owner[col]}'s colour (one player board each)")
        if col == CONTROL_COLOUR and not seven:   # RULING obscurians-players
            _fail(f"{path}.color", f"{col} comes with the Control module, only in a 7-player game")
        mission = _mission_word(rp["mission"], f"{path}.mission")
        if mission in mission_owner:
            _fail(f"{path}.mission", f"{mission} is already {mission_owner[mission]}'s mission (one card each)")
        if mission == CONTROL and not seven:
            _fail(f"{path}.mission", "control comes with the Control module, only in a 7-player game")
        names.append(name)
        colour_owner[col] = name
        mission_owner[mission] = name
    at_table = set(colour_owner)
    # The mission cards dealt must be a deal the rules allow: one check, shared with the engine (4-player draw).
    problem = missions_problem([rp["mission"] for rp in raw_players], n)
    if problem:
        _fail("players[*].mission", problem)

    # Second pass: goods, lamp, artifact.
    players = []
    in_play = dict.fromkeys(COLOURS, 0)
    lamp_owner = artifact_owner = None
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        goods = rp.get("goods", {})
        if not isinstance(goods, dict):
            _fail(f"{path}.goods", 'expected an object of colour counts, e.g. {"green": 6}')
        held = []
        for col, k in goods.items():
            gpath = f"{path}.goods.{key(col)}"
            if col in ("lamp", "artifact"):
                _fail(gpath, f'the {col} is not a coloured good; write "{col}": true on the player instead')
            if col not in COLOURS:
                _fail(gpath, f"unknown colour; the colours are {', '.join(COLOURS)}")
            if col not in at_table:
                _fail(gpath, f"no player has colour {col} (its goods stay in the box)")
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                _fail(gpath, f"expected a whole number of goods (0 or more), got {shown(k)}")
            in_play[col] += k
            if in_play[col] > GOODS_PER_COLOUR:
                _fail(gpath, f"{in_play[col]} {col} goods at the table, but the game has only {GOODS_PER_COLOUR}")
            if k:
                held.append((col, k))
        lamp = _bool(rp.get("lamp", False), f"{path}.lamp")
        if lamp:
            if lamp_owner is not None:
                _fail(f"{path}.lamp", f"{lamp_owner} already has the magic lamp (there is only one)")
            lamp_owner = names[i]
        artifact = _bool(rp.get("artifact", False), f"{path}.artifact")
        if artifact:
            if artifact_owner is not None:
                _fail(f"{path}.artifact", f"{artifact_owner} already has the cursed artifact (there is only one)")
            artifact_owner = names[i]
        players.append(EndPlayer(name=names[i], colour=rp["color"], mission=rp["mission"],
                                 goods=tuple(sorted(held)), lamp=lamp, artifact=artifact))
    if lamp_owner is None:  # RULING obscurians-lamp: the lamp never leaves the game
        _fail("players[*].lamp", 'nobody holds the magic lamp; exactly one player has it (write "lamp": true '
                                 "on that player)")

    # Suspicion chips, earliest first. RULING obscurians-chip.
    raw_chips = d.get("suspicions", [])
    if not isinstance(raw_chips, list):
        _fail("suspicions", "expected a list of placed chips [...], earliest first")
    placed: dict[tuple[str, str], int] = {}
    chips = []
    for j, rc in enumerate(raw_chips):
        path = f"suspicions[{j}]"
        _obj(rc, path, _CHIP_KEYS, ("by", "on", "mission"))
        for field in ("by", "on"):
            col = _colour_word(rc[field], f"{path}.{field}")
            if col not in at_table:
                _fail(f"{path}.{field}", f"no player has colour {col}")
        by, on = rc["by"], rc["on"]
        if by == on:
            _fail(f"{path}.on", f"{by} cannot suspect themselves: chips go on other players' boards")
        mission = _mission_word(rc["mission"], f"{path}.mission")
        if mission == CONTROL and not seven:
            _fail(f"{path}.mission", "control chips come with the Control module, only in a 7-player game")
        if (by, mission) in placed:
            _fail(f"{path}.mission", f"{by}'s {mission} chip was already placed (suspicions[{placed[by, mission]}]);"
                                     " every player has one chip per mission")
        placed[by, mission] = j
        chips.append(Chip(by=by, on=on, mission=mission))
    return EndOfGame(players=tuple(players), suspicions=tuple(chips))


__all__ = [
    "Line", "PlayerScore", "ScoreResult", "TEMPLATES_EN", "collect_best", "parse_end", "render",
    "score", "winners",
]
