"""END.json: a finished game told by hand (who played which colour and mission, their goods, the chips placed),
read and checked for `companion score`. Raises InvalidInput naming the field; scoring.py scores what it returns."""
from __future__ import annotations

from typing import Any

from companion.games.errors import InvalidInput
from companion.games.checks import flag, typed_name
from companion.games.text import key, shown
from companion.games.obscurians.constants import COLOURS, CONTROL_COLOUR, GOODS_PER_COLOUR, MISSIONS
from companion.games.obscurians.model import Chip, EndOfGame, EndPlayer
from companion.games.obscurians.scoring import CONTROL
from companion.games.obscurians.setup import missions_problem

MIN_PLAYERS, MAX_PLAYERS = 4, 7   # RULING obscurians-players: 7 only with the Control module
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
        name = typed_name(f"{path}.name", rp["name"])
        folded = [n.casefold() for n in names]  # one rule for names: "Anna" and "anna" are one name
        if name.casefold() in folded:
            seat = folded.index(name.casefold())
            _fail(f"{path}.name", f"{name} is already at the table (players[{seat}]); give each player a different "
                                  "name")
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
        lamp = flag(f"{path}.lamp", rp.get("lamp", False))
        if lamp:
            if lamp_owner is not None:
                _fail(f"{path}.lamp", f"{lamp_owner} already has the magic lamp (there is only one)")
            lamp_owner = names[i]
        artifact = flag(f"{path}.artifact", rp.get("artifact", False))
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
