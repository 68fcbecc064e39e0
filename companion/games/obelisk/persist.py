"""State ⇄ JSON (the form is documented in docs/obelisk-engine.md, "The game state as JSON").

The JSON also carries values derived from the rest (a demon's `at`, each player's actions `left`, the Scrolls
`deck`, the `status`, the Time Trials `timer`) so that `companion replay --json` reads well; loading recomputes
them and refuses a file where they disagree, so `State.from_json(s.to_json()) == s` and nothing else loads
silently. Loading also refuses positions no game can reach (demons appearing from nowhere, a demon on an empty
space, an Obelisk on a corner touching no tile …): the handlers never meet them.
"""
from __future__ import annotations

import json

from companion.games.errors import InvalidInput
from companion.games import checks
from companion.games.obelisk import readers
from companion.games.obelisk.box import (
    DEMON_COLOURS, DEMONS_IN_BOX, FIRST_SCROLL, LIGHTNING_MAX, MAX_STRENGTH, SCROLL_DECK, SCROLLS,
)
from companion.games.obelisk.cycle import app_deck
from companion.games.obelisk.describe import status
from companion.games.obelisk.model import (
    AIMS, ENDS, PHASES, RESULTS, ROLLING, Capture, Demon, Loss, Obelisk, Stones, in_grid,
)
from companion.games.obelisk.notation import map_from_text, map_to_text
from companion.games.obelisk.setup import Setup
from companion.games.text import shown

MAX_DAYS = 200   # every demon loses within 24 steps and 50 come out six at a time: no game lasts 40 Nights
_FIELDS = ("setup", "day", "phase", "status", "map", "markers", "trodden", "obelisks", "demons", "realm",
           "drawn", "quarry", "supply", "players", "leadership", "scrolls", "rolls", "tonight", "closed", "result",
           "loss", "timer")


def _cells(cells) -> list:
    return [list(c) for c in sorted(cells)]


def state_to_json(s) -> dict:
    setup = s.setup
    timer = s.timer
    return {
        "setup": setup.to_json(),
        "day": s.day,
        "phase": s.phase,
        "status": status(s),
        "map": map_to_text(s.map),
        "markers": _cells(s.markers),
        "trodden": _cells(s.trodden),
        "obelisks": [{"corner": list(o.corner), "owner": o.owner, "strength": o.strength, "scroll": o.scroll,
                      "charges": o.charges, "aim": o.aim,
                      "captured": [{"demon": c.demon, "colour": c.colour, "step": c.step, "cell": list(c.cell)}
                                   for c in o.captured]} for o in s.obelisks],
        "demons": [{"id": d.id, "colour": d.colour, "at": list(d.at), "visited": [list(c) for c in d.visited],
                    "walked": d.walked} for d in s.demons],
        "realm": s.realm.to_json(),
        "drawn": s.drawn,
        "quarry": {**s.quarry.to_json(), "tokens": s.tokens},
        "supply": s.supply.to_json(),
        "players": {c: {"unplaced": s.unplaced[i], "used": list(s.used[i]), "passed": s.passed[i],
                        "left": s.actions_left(c), "caught": s.caught[i]} for i, c in enumerate(setup.colours)},
        "leadership": {"leader": setup.colours[s.leader], "first": setup.colours[s.first_leader],
                       "last": None if s.last_actor is None else setup.colours[s.last_actor]},
        "scrolls": {"deciphered": list(s.deciphered), "spent": list(s.spent), "deck": s.deck_left},
        "rolls": {"due": s.rolling, "obelisks": [list(c) for c in s.pending], "app": s.rolls},
        "tonight": list(s.tonight),
        "closed": s.closed,
        "result": s.result,
        "loss": None if s.loss is None else {"demon": s.loss.demon, "colour": s.loss.colour, "end": s.loss.end,
                                             "at": list(s.loss.at), "target": list(s.loss.target),
                                             "step": s.loss.step},
        "timer": None if timer is None else {"name": timer.name, "seconds": timer.seconds, "token": timer.token},
    }


# ----------------------------------------------------------------- loading

def _cell_list(where: str, value, most: int = 25) -> list:
    return [readers.cell(f"{where}[{i}]", c) for i, c in enumerate(checks.listed(where, value, most))]


def _obelisk(where: str, d, setup: Setup) -> Obelisk:
    d = checks.obj(where, d, ("corner", "owner", "strength", "scroll", "charges", "aim", "captured"),
                   required=("corner", "owner", "strength", "scroll", "charges", "aim", "captured"))
    scroll = d["scroll"]
    if scroll is not None:
        checks.choice(f"{where}.scroll", scroll, SCROLLS, "a Scroll")
    aim = d["aim"]
    if aim is not None:
        checks.choice(f"{where}.aim", aim, AIMS, "a Longbow direction")
    captured = []
    for i, c in enumerate(checks.listed(f"{where}.captured", d["captured"], 3)):
        w = f"{where}.captured[{i}]"
        c = checks.obj(w, c, ("demon", "colour", "step", "cell"), required=("demon", "colour", "step", "cell"))
        captured.append(Capture(checks.whole(f"{w}.demon", c["demon"], 1, 200),
                                checks.choice(f"{w}.colour", c["colour"], DEMON_COLOURS, "a demon colour"),
                                checks.whole(f"{w}.step", c["step"], 0, 30), readers.cell(f"{w}.cell", c["cell"])))
    return Obelisk(corner=readers.corner(f"{where}.corner", d["corner"]),
                   owner=checks.choice(f"{where}.owner", d["owner"], setup.colours, "a player at this table"),
                   strength=checks.whole(f"{where}.strength", d["strength"], 1, MAX_STRENGTH),
                   scroll=scroll, charges=checks.whole(f"{where}.charges", d["charges"], 0, LIGHTNING_MAX),
                   aim=aim, captured=tuple(captured))


def _demon(where: str, d) -> Demon:
    d = checks.obj(where, d, ("id", "colour", "at", "visited", "walked"),
                   required=("id", "colour", "visited", "walked"))
    visited = _cell_list(f"{where}.visited", d["visited"])
    if not visited:
        raise InvalidInput(f"{where}.visited: a demon has stood at least on the Portal")
    return Demon(checks.whole(f"{where}.id", d["id"], 1, 200),
                 checks.choice(f"{where}.colour", d["colour"], DEMON_COLOURS, "a demon colour"), tuple(visited),
                 checks.whole(f"{where}.walked", d["walked"], 0, 24))


def _per_player(setup: Setup, value) -> dict:
    players = checks.obj("players", value, setup.colours, required=setup.colours)
    out = {"unplaced": [], "used": [], "passed": [], "caught": []}
    kinds = ("build", "reinforce", "mine", "rotate", "reroll", "aim")
    for c in setup.colours:
        w = f"players.{c}"
        p = checks.obj(w, players[c], ("unplaced", "used", "passed", "left", "caught"),
                       required=("unplaced", "used", "passed", "caught"))
        out["unplaced"].append(checks.whole(f"{w}.unplaced", p["unplaced"], 0, setup.obelisks_each))
        used = checks.listed(f"{w}.used", p["used"], 10)
        out["used"].append(tuple(checks.choice(f"{w}.used[{i}]", k, kinds, "an action") for i, k in enumerate(used)))
        out["passed"].append(checks.flag(f"{w}.passed", p["passed"]))
        out["caught"].append(checks.whole(f"{w}.caught", p["caught"], 0, sum(DEMONS_IN_BOX.values())))
    return out


def fields_from_json(d) -> dict:
    """The State's fields from its JSON, each checked; `check_loaded` then checks the State they make."""
    checks.obj("", d, _FIELDS, required=_FIELDS)
    setup = Setup.from_json(checks.obj("setup", d["setup"], _SETUP_ANY))
    colours = setup.colours
    players = _per_player(setup, d["players"])
    lead = checks.obj("leadership", d["leadership"], ("leader", "first", "last"), required=("leader", "first", "last"))
    scrolls = checks.obj("scrolls", d["scrolls"], ("deciphered", "spent", "deck"), required=("deciphered", "spent"))
    rolls = checks.obj("rolls", d["rolls"], ("due", "obelisks", "app"), required=("due", "obelisks", "app"))
    quarry = checks.obj("quarry", d["quarry"], ("green", "yellow", "blue", "tokens"))
    loss = d["loss"]
    values = dict(
        setup=setup,
        day=checks.whole("day", d["day"], 1, MAX_DAYS),
        phase=checks.choice("phase", d["phase"], PHASES, "a phase"),
        map=map_from_text(d["map"]),
        markers=frozenset(_cell_list("markers", d["markers"])),
        trodden=frozenset(_cell_list("trodden", d["trodden"])),
        obelisks=tuple(_obelisk(f"obelisks[{i}]", o, setup)
                       for i, o in enumerate(checks.listed("obelisks", d["obelisks"], 11))),
        unplaced=tuple(players["unplaced"]),
        demons=tuple(_demon(f"demons[{i}]", x) for i, x in enumerate(checks.listed("demons", d["demons"], 50))),
        realm=readers.stones("realm", d["realm"]),
        drawn=checks.whole("drawn", d["drawn"], 0, 50),
        quarry=readers.stones("quarry", quarry, extra=("tokens",)),
        tokens=checks.whole("quarry.tokens", quarry.get("tokens", 0), 0, 999),
        supply=readers.stones("supply", d["supply"]),
        used=tuple(players["used"]),
        passed=tuple(players["passed"]),
        leader=colours.index(checks.choice("leadership.leader", lead["leader"], colours, "a player at this table")),
        first_leader=colours.index(checks.choice("leadership.first", lead["first"], colours, "a player")),
        last_actor=None if lead["last"] is None else colours.index(
            checks.choice("leadership.last", lead["last"], colours, "a player at this table")),
        deciphered=_scroll_list("scrolls.deciphered", scrolls["deciphered"]),
        spent=_scroll_list("scrolls.spent", scrolls["spent"]),
        rolling=None if rolls["due"] is None else checks.choice("rolls.due", rolls["due"], ROLLING, "a roll"),
        pending=tuple(readers.corner(f"rolls.obelisks[{i}]", c)
                      for i, c in enumerate(checks.listed("rolls.obelisks", rolls["obelisks"], 11))),
        rolls=checks.whole("rolls.app", rolls["app"], 0, 10_000),
        tonight=tuple(checks.whole(f"tonight[{i}]", x, 1, 200)
                      for i, x in enumerate(checks.listed("tonight", d["tonight"], 7))),
        closed=checks.flag("closed", d["closed"]),
        caught=tuple(players["caught"]),
        result=None if d["result"] is None else checks.choice("result", d["result"], RESULTS, "won or lost"),
        loss=None if loss is None else _loss(loss),
    )
    _check_story(values)
    return values


def check_loaded(state, d: dict) -> None:
    """`d` is exactly the JSON of the State its fields made (the derived values, the status and the timer agree)."""
    _same(d, state_to_json(state))


_SETUP_ANY = ("players", "difficulty", "scrolls", "map", "mountains", "realm", "dice", "quarry", "leadership",
              "leader", "time_trials", "seed", "rules")


def _scroll_list(where: str, value) -> tuple[str, ...]:
    out = tuple(checks.choice(f"{where}[{i}]", x, SCROLLS, "a Scroll")
                for i, x in enumerate(checks.listed(where, value, SCROLL_DECK + 1)))
    if len(set(out)) != len(out):
        raise InvalidInput(f"{where}: each Scroll once")
    return out


def _loss(d) -> Loss:
    d = checks.obj("loss", d, ("demon", "colour", "end", "at", "target", "step"),
                   required=("demon", "colour", "end", "at", "target", "step"))
    target = d["target"]
    if not (isinstance(target, list) and len(target) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and -1 <= x <= 5 for x in target)):
        raise InvalidInput("loss.target: expected a cell [row, column], one step off the map at most")
    return Loss(checks.whole("loss.demon", d["demon"], 1, 200),
                checks.choice("loss.colour", d["colour"], DEMON_COLOURS, "a demon colour"),
                checks.choice("loss.end", d["end"], ENDS, "a way to lose"), readers.cell("loss.at", d["at"]),
                tuple(target), checks.whole("loss.step", d["step"], 1, 30))


def _check_story(v: dict) -> None:
    """Positions no game reaches, refused so that the handlers never meet them."""
    setup, game_map, phase = v["setup"], v["map"], v["phase"]
    if game_map.portal is None:
        raise InvalidInput("map: exactly one Portal")
    corners = [o.corner for o in v["obelisks"]]
    if corners != sorted(set(corners)):
        raise InvalidInput("obelisks: one Obelisk per corner, listed by corner")
    for i, o in enumerate(v["obelisks"]):
        if not game_map.touches_a_tile(o.corner):
            raise InvalidInput(f"obelisks[{i}].corner: touches no tile")
        if o.scroll is not None and not setup.scrolls:
            raise InvalidInput(f"obelisks[{i}].scroll: this table plays without the Scrolls")
        if (o.aim is not None) != (o.scroll == "longbow") or (o.charges and o.scroll != "lightning_rod"):
            raise InvalidInput(f"obelisks[{i}]: aim only with Longbow, charges only with Lightning Rod")
    for i, colour in enumerate(setup.colours):
        built = sum(o.owner == colour for o in v["obelisks"])
        if built + v["unplaced"][i] > setup.obelisks_each:
            raise InvalidInput(f"players.{colour}.unplaced: more Obelisks than the player received")
    ids = [x.id for x in v["demons"]]
    captured = [c for o in v["obelisks"] for c in o.captured]
    if ids != sorted(set(ids)) or set(ids) & {c.demon for c in captured} or max(ids + [0]) > v["drawn"]:
        raise InvalidInput("demons: each demon once, listed by id, numbered in the order it came out")
    for i, x in enumerate(v["demons"]):
        _check_walk(f"demons[{i}]", x, game_map)
        if x.walked > x.steps or (x.walked and phase not in ("spawn", "swarm", "over")):
            raise InvalidInput(f"demons[{i}].walked: not a walk of tonight")
    if not v["trodden"] >= {c for x in v["demons"] for c in x.visited}:
        raise InvalidInput("trodden: every tile a demon stood on")
    total = v["realm"] + v["quarry"] + v["supply"] + Stones.of(x.colour for x in v["demons"]) \
        + Stones.of(c.colour for c in captured)
    if total != Stones(**DEMONS_IN_BOX) or v["realm"].total + v["drawn"] != setup.horde.total:
        raise InvalidInput("demons: Dark Realm, map, Obelisks, Quarry and Supply must hold the box's 50 demons")
    if captured and phase not in ("march", "spawn", "swarm", "over"):
        raise InvalidInput("obelisks: captured demons turn to stone at dawn")
    if (phase == "roll") != bool(v["pending"]) or (v["rolling"] is None) == bool(v["pending"]):
        raise InvalidInput("rolls: dice are due exactly while the table rolls them")
    for c in v["pending"]:
        o = next((o for o in v["obelisks"] if o.corner == c), None)
        if o is None or o.scroll != v["rolling"]:
            raise InvalidInput(f"rolls.obelisks: corner {list(c)} holds no Obelisk with {v['rolling']}")
    out_tonight = set(ids) | {c.demon for c in captured}
    if v["tonight"] and (phase not in ("swarm", "over") or not set(v["tonight"]) <= out_tonight):
        raise InvalidInput("tonight: the demons that came out tonight, while they walk")
    if v["closed"] and (phase not in ("spawn", "swarm") or not setup.time_trials):
        raise InvalidInput("closed: only when the Night's minute ran out")
    flipped = v["deciphered"] + v["spent"]
    if (flipped and (not setup.scrolls or FIRST_SCROLL not in flipped)) or (setup.scrolls and not flipped) \
            or set(v["deciphered"]) & set(v["spent"]):
        raise InvalidInput("scrolls: Broken Earth is deciphered first, each Scroll once, only with the Scrolls")
    if setup.scrolls and setup.realm == "app" and set(flipped) != set(app_deck(setup.seed)[:len(flipped)]):
        raise InvalidInput("scrolls: not the app's deck")
    if phase == "decipher" and (setup.realm != "table" or len(flipped) > SCROLL_DECK):
        raise InvalidInput("phase: the table deciphers a Scroll only with the real deck, while cards are left")
    if (phase == "over") != (v["result"] is not None) or (v["result"] == "lost") != (v["loss"] is not None):
        raise InvalidInput("result: set exactly when the game is over; a loss says how")


def _check_walk(where: str, x: Demon, game_map) -> None:
    """A demon's history: from the Portal, one orthogonal step at a time, never twice on a tile, on tiles only."""
    if x.visited[0] != game_map.portal:
        raise InvalidInput(f"{where}.visited: a demon's history starts on the Portal")
    if len(set(x.visited)) != len(x.visited):
        raise InvalidInput(f"{where}.visited: a demon never stands twice on a tile (that loses the game)")
    for a, b in zip(x.visited, x.visited[1:]):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise InvalidInput(f"{where}.visited: {list(a)} to {list(b)} is not a step to a neighbour")
    for c in x.visited:
        tile = game_map[c]
        if not in_grid(c) or tile is None or tile.kind == "M":
            raise InvalidInput(f"{where}.visited: {list(c)} is no tile a demon can stand on")


def _same(given, expected, path: str = "") -> None:
    """`given` (the loaded JSON) is exactly what the loaded state writes, types included; else name the field."""
    try:
        if json.dumps(given, sort_keys=True) == json.dumps(expected, sort_keys=True):
            return
    except (TypeError, ValueError, RecursionError):
        raise InvalidInput(f"{path.rstrip('.') or 'state'}: not a value a state holds") from None
    if isinstance(expected, dict) and isinstance(given, dict):
        for k in sorted(set(expected) | set(given), key=str):
            if k not in given:
                raise InvalidInput(f"{path}{k}: missing")
            if k not in expected:
                raise InvalidInput(f"{path}{shown(k)}: unknown field")
            _same(given[k], expected[k], f"{path}{k}.")
    if isinstance(expected, list) and isinstance(given, list) and len(given) == len(expected):
        for i, (g, e) in enumerate(zip(given, expected)):
            _same(g, e, f"{path.rstrip('.')}[{i}].")
    raise InvalidInput(f"{path.rstrip('.') or 'state'}: does not match the rest of the state")
