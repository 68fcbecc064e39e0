"""The Night exchange form: the table at the start of a Night, for `companion obelisk advise NIGHT.json`.

    {"map": "<notation>",
     "obelisks": [{"corner": [i, j], "colour": "green", "strength": 1-6}],
     "demons": [{"colour": "yellow", "at": [r, c], "visited": [[r, c], …]}],
     "spawns": ["green", "blue", …],
     "scrolls": false}

Corners `[i, j]` on the 6 × 6 corner grid (the top-left corner of tile `[i, j]`); `visited` from the Portal to `at`;
`spawns` in the order they leave the Dark Realm (at most 6, 7 with Scrolls). With Scrolls an Obelisk may also say
its rune: `"scroll": "crystal_network"`, a Lightning Rod's `"charges": 1-3`, a Longbow's `"aim": "NE"`. The answer:

    {"safe": bool, "best_captured_strength": n or null,
     "plan": [{"obelisk": index, "demon": "demons[i]" or "spawns[i]", "step": k}], "lost": [...]}

`step` is the number of tiles that demon has walked tonight when captured (0 = before it moves). `safe`: some plan
avoids every loss; then the plan is one with the largest captured strength among safe plans (plan.py proves it).
Otherwise `best_captured_strength` is null, the plan saves as many of the losing demons as can be saved (then the
largest strength) and `lost` names the losing demons it leaves.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.errors import InvalidInput, Message
from companion.games import checks
from companion.games.obelisk import readers
from companion.games.obelisk.advisor import SAFE, UNSAFE, plan_said
from companion.games.obelisk.box import (
    DEMON_COLOURS, DEMONS_IN_BOX, LIGHTNING_MAX, MAX_STRENGTH, N_OBELISKS, PLAYER_COLOURS, SCROLLS, SPAWNS,
    SPAWNS_SCROLLS,
)
from companion.games.obelisk.model import AIMS, Cell, GameMap, Obelisk
from companion.games.obelisk.notation import map_from_text
from companion.games.obelisk.paths import captures_left, move_order, walk
from companion.games.obelisk.plan import Hunter, Prey, best_plan
from companion.games.obelisk.rules import Rules

_FIELDS = ("map", "obelisks", "demons", "spawns", "scrolls")


@dataclass(frozen=True)
class NightTable:
    map: GameMap
    obelisks: tuple[Obelisk, ...]                  # `owner` is the obelisk's colour
    demons: tuple[tuple[str, tuple[Cell, ...]], ...]  # (colour, visited), as listed
    spawns: tuple[str, ...]
    scrolls: bool = False


def _obelisk(where: str, d, game_map: GameMap, scrolls: bool) -> Obelisk:
    d = checks.obj(where, d, ("corner", "colour", "strength", "scroll", "charges", "aim"),
                   required=("corner", "colour", "strength"))
    corner = readers.corner(f"{where}.corner", d["corner"])
    if not game_map.touches_a_tile(corner):
        raise InvalidInput(f"{where}.corner: corner {list(corner)} touches no tile")
    scroll = d.get("scroll")
    if scroll is not None:
        if not scrolls:
            raise InvalidInput(f"{where}.scroll: a rune needs \"scrolls\": true")
        checks.choice(f"{where}.scroll", scroll, SCROLLS, "a Scroll")
    charges = d.get("charges")
    if charges is not None and scroll != "lightning_rod":
        raise InvalidInput(f"{where}.charges: only a Lightning Rod holds charges")
    aim = d.get("aim")
    if (aim is not None) != (scroll == "longbow"):
        raise InvalidInput(f"{where}.aim: a Longbow has a direction (NE, SE, SW, NW), nothing else has")
    return Obelisk(corner=corner,
                   owner=checks.choice(f"{where}.colour", d["colour"], PLAYER_COLOURS,
                                       "an Obelisk colour (blue, yellow, green, black)"),
                   strength=checks.whole(f"{where}.strength", d["strength"], 1, MAX_STRENGTH),
                   scroll=scroll,
                   charges=1 if scroll == "lightning_rod" and charges is None else
                   (0 if charges is None else checks.whole(f"{where}.charges", charges, 1, LIGHTNING_MAX)),
                   aim=None if aim is None else checks.choice(f"{where}.aim", aim, AIMS, "a direction NE, SE, SW, NW"))


def _demon(where: str, d, game_map: GameMap) -> tuple[str, tuple[Cell, ...]]:
    d = checks.obj(where, d, ("colour", "at", "visited"), required=("colour", "at", "visited"))
    colour = checks.choice(f"{where}.colour", d["colour"], DEMON_COLOURS, "a demon colour (green, yellow, blue)")
    at = readers.cell(f"{where}.at", d["at"])
    visited = tuple(readers.cell(f"{where}.visited[{i}]", c)
                    for i, c in enumerate(checks.listed(f"{where}.visited", d["visited"], 25)))
    if not visited or visited[0] != game_map.portal:
        raise InvalidInput(f"{where}.visited: starts on the Portal {list(game_map.portal)}")
    if visited[-1] != at:
        raise InvalidInput(f"{where}.visited: ends where the demon is, {list(at)}")
    if len(set(visited)) != len(visited):
        raise InvalidInput(f"{where}.visited: a tile twice is a loop, and the game would be over")
    for i, (a, b) in enumerate(zip(visited, visited[1:])):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise InvalidInput(f"{where}.visited[{i + 1}]: {list(b)} is not next to {list(a)}")
    for i, c in enumerate(visited):
        tile = game_map[c]
        if tile is None or tile.kind == "M":
            what = "an empty space" if tile is None else "a Mountain"
            raise InvalidInput(f"{where}.visited[{i}]: {list(c)} is {what}, where no demon stands")
    return colour, visited


def night_from_json(d) -> NightTable:
    """The NIGHT.json a group (or a test) wrote; InvalidInput naming the field."""
    checks.obj("", d, _FIELDS, required=("map", "obelisks", "demons", "spawns"))
    game_map = map_from_text(d["map"])
    scrolls = checks.flag("scrolls", d.get("scrolls", False))
    obelisks = tuple(_obelisk(f"obelisks[{i}]", o, game_map, scrolls)
                     for i, o in enumerate(checks.listed("obelisks", d["obelisks"], N_OBELISKS)))
    corners = [o.corner for o in obelisks]
    for i, c in enumerate(corners):
        if c in corners[:i]:
            raise InvalidInput(f"obelisks[{i}].corner: corner {list(c)} already has an Obelisk")
    demons = tuple(_demon(f"demons[{i}]", x, game_map)
                   for i, x in enumerate(checks.listed("demons", d["demons"], sum(DEMONS_IN_BOX.values()))))
    most = SPAWNS_SCROLLS if scrolls else SPAWNS
    spawns = tuple(checks.choice(f"spawns[{i}]", c, DEMON_COLOURS, "a demon colour (green, yellow, blue)")
                   for i, c in enumerate(checks.listed("spawns", d["spawns"], most)))
    for colour in DEMON_COLOURS:
        n = sum(c == colour for c, _ in demons) + spawns.count(colour)
        if n > DEMONS_IN_BOX[colour]:
            raise InvalidInput(f"demons: the box has {DEMONS_IN_BOX[colour]} {colour} demons, this night {n}")
    return NightTable(game_map, obelisks, demons, spawns, scrolls)


class _Listed:
    """A demon of the exchange: its colour, history and key, with the `steps`/`id` move_order sorts by."""

    def __init__(self, key: str, colour: str, visited, index: int):
        self.key, self.colour, self.visited, self.id = key, colour, visited, index

    @property
    def steps(self) -> int:
        return len(self.visited) - 1


def preys_of(night: NightTable, rules: Rules) -> list[Prey]:
    """Tonight's demons in move order (RULING obelisk-move-order; the list order stands for the order they came
    out of the Dark Realm): those on the map, then the new ones, which all start on the Portal."""
    portal = night.map.portal
    on_map = [_Listed(f"demons[{i}]", c, v, i) for i, (c, v) in enumerate(night.demons)]
    new = [_Listed(f"spawns[{i}]", c, (portal,), len(on_map) + i) for i, c in enumerate(night.spawns)]
    ordered = move_order(on_map, rules.speed) + move_order(new, rules.speed)
    return [Prey(x.key, x.colour, rules.strength(x.colour), walk(night.map, x.visited, rules.speed(x.colour)), 0,
                 order) for order, x in enumerate(ordered)]


def advise(night: NightTable, rules: Rules = Rules()) -> tuple[dict, list[Message]]:
    """(the answer as JSON, its reasons in players' words)."""
    hunters = [Hunter(i, o, captures_left(o)) for i, o in enumerate(night.obelisks)]
    preys = preys_of(night, rules)
    plan = best_plan(hunters, preys, night.map)
    answer = {
        "safe": plan.safe,
        "best_captured_strength": plan.strength if plan.safe else None,
        "plan": [{"obelisk": h, "demon": preys[p].key, "step": k} for h, p, k in plan.captures],
        "lost": [preys[p].key for p in plan.lost],
    }
    reasons = plan_said(plan, hunters, preys)
    reasons.append(Message(SAFE, {"n": plan.strength}) if plan.safe else Message(UNSAFE))
    return answer, reasons
