"""An Obscurians state as JSON, and back: what save files, the CLI and the tests read and write.

`state_to_json` writes a state's fields; `fields_from_json` reads them back, checking every one and naming the field
that is wrong (InvalidInput), and hands them to `State.from_json`, which builds the state. This module knows the
JSON shape and its checks; it never builds a State itself, so the state module can use it without a circle.
"""
from __future__ import annotations

from companion.games.checks import is_whole, required
from companion.games.errors import InvalidInput
from companion.games.obscurians.constants import ACTION_KINDS, COLOURS, EVENTS, FACES, MISSIONS, N_DICE, SANDSTORM
from companion.games.obscurians.constants import UNCOLOURED
from companion.games.obscurians.model import ALL, PHASES, Chip
from companion.games.obscurians.setup import Setup, missions_problem

_GOODS = COLOURS + UNCOLOURED


def state_to_json(s) -> dict:
    return {
        "setup": s.setup.to_json(),
        "phase": s.phase,
        "round": s.round,
        "event": s.event,
        "start_player": s.start_player,
        "active": s.active,
        "goods": [dict(g) for g in s.goods],
        "secured": [dict(g) for g in s.secured],
        "trade_ban": list(s.trade_ban),
        "chips_in_hand": [list(c) for c in s.chips_in_hand],
        "placed": [[c.by, c.on, c.mission] for c in s.placed],
        "discarded": [list(c) for c in s.discarded],
        "dice": None if s.dice is None else list(s.dice),
        "pending": dict(s.pending),
        "chosen": s.chosen,
        "missions": None if s.missions is None else list(s.missions),
        "revealed": list(s.revealed),
        "free_reroll_used": s.free_reroll_used,
        "turn_chips": s.turn_chips,
    } | ({"hidden_discards": list(s.hidden_discards)} if any(s.hidden_discards) else {})
    # hidden_discards is written only once a chip went face down: a game without one reads and writes exactly
    # as before face-down discards existed.


def _goods_list(d: dict, name: str, n: int) -> tuple[dict, ...]:
    raw = required(d, name, lambda v: isinstance(v, list) and len(v) == n, f"a list of {n} goods objects")
    out = []
    for i, g in enumerate(raw):
        if not isinstance(g, dict):
            raise InvalidInput(f"{name}[{i}]: expected an object of good counts")
        for good, count in g.items():
            if good not in _GOODS:
                raise InvalidInput(f"{name}[{i}].{good}: not a good")
            if not is_whole(count) or count < 1:
                raise InvalidInput(f"{name}[{i}].{good}: expected a count of 1 or more")
        out.append(dict(g))
    return tuple(out)


def _missions_list(d: dict, name: str, n: int) -> tuple[tuple[str, ...], ...]:
    raw = required(d, name, lambda v: isinstance(v, list) and len(v) == n, f"a list of {n} lists")
    out = []
    for i, chips in enumerate(raw):
        if not isinstance(chips, list) or any(m not in MISSIONS for m in chips):
            raise InvalidInput(f"{name}[{i}]: expected a list of missions")
        out.append(tuple(chips))
    return tuple(out)


def fields_from_json(d) -> dict:
    """The state's fields read from `d` (the setup as a Setup), every one checked; InvalidInput names the first
    field that is wrong."""
    if not isinstance(d, dict):
        raise InvalidInput("state: expected an object")
    setup = Setup.from_json(required(d, "setup", lambda v: isinstance(v, dict), "an object"))
    n = setup.n_players
    colours = {colour for _, colour in setup.players}
    f: dict = {"setup": setup}
    f["phase"] = required(d, "phase", lambda v: v in PHASES, "one of " + ", ".join(PHASES))
    f["round"] = required(d, "round", lambda v: is_whole(v) and 1 <= v <= 7, "a round 1-7")
    f["event"] = required(d, "event", lambda v: v is None or v in EVENTS or v == SANDSTORM, "an event card or null")
    f["start_player"] = required(d, "start_player", lambda v: is_whole(v) and 0 <= v < n, "a seat index")
    f["active"] = required(d, "active", lambda v: is_whole(v) and 0 <= v < n, "a seat index")
    f["goods"] = _goods_list(d, "goods", n)
    f["secured"] = _goods_list(d, "secured", n)
    f["trade_ban"] = tuple(required(d, "trade_ban", lambda v: isinstance(v, list) and len(v) == n
                                  and all(isinstance(b, bool) for b in v), f"a list of {n} true/false"))
    f["chips_in_hand"] = _missions_list(d, "chips_in_hand", n)
    f["discarded"] = _missions_list(d, "discarded", n)
    placed = required(d, "placed", lambda v: isinstance(v, list), "a list of [by, on, mission]")
    chips = []
    for i, c in enumerate(placed):
        if not (isinstance(c, list) and len(c) == 3 and c[0] in colours and c[1] in colours and c[2] in MISSIONS):
            raise InvalidInput(f"placed[{i}]: expected [by colour, on colour, mission]")
        chips.append(Chip(*c))
    f["placed"] = tuple(chips)
    dice = required(d, "dice", lambda v: v is None or (isinstance(v, list) and len(v) == N_DICE
                                                    and all(x in FACES for x in v)), f"null or {N_DICE} faces")
    f["dice"] = None if dice is None else tuple(dice)
    pending = required(d, "pending", lambda v: isinstance(v, dict) and all(
        k in ACTION_KINDS and is_whole(x) and x > 0 for k, x in v.items()), "an object of action counts")
    f["pending"] = dict(pending)
    f["chosen"] = required(d, "chosen", lambda v: v is None or v in ACTION_KINDS or v == ALL, "an action or null")
    missions = required(d, "missions", lambda v: v is None or isinstance(v, list), "a list of missions or null")
    if missions is not None:
        problem = missions_problem(tuple(missions), n, setup.put_back)
        if problem:
            raise InvalidInput(f"missions: {problem}")
        missions = tuple(missions)
    f["missions"] = missions
    f["revealed"] = tuple(required(d, "revealed", lambda v: isinstance(v, list) and all(
        c in EVENTS or c == SANDSTORM for c in v), "a list of event cards"))
    f["free_reroll_used"] = required(d, "free_reroll_used", lambda v: isinstance(v, bool), "true or false")
    f["turn_chips"] = required(d, "turn_chips", lambda v: is_whole(v) and v >= 0, "a number")
    hidden = d.get("hidden_discards", [0] * n)  # absent in states saved before face-down discards: none
    if not (isinstance(hidden, list) and len(hidden) == n and all(is_whole(h) and h >= 0 for h in hidden)):
        raise InvalidInput(f"hidden_discards: expected a list of {n} counts")
    f["hidden_discards"] = tuple(hidden)
    if any(h > len(c) for h, c in zip(f["hidden_discards"], f["chips_in_hand"])):
        raise InvalidInput("hidden_discards: more chips face down than could have been in hand")
    return f
