"""State ⇄ JSON. The JSON also carries values derived from the rest (step, watcher, effects, doors count, track,
hidden doors, timer, cohesion total) so `companion replay --json` reads well; loading recomputes them and refuses a
file where they disagree, so `State.from_json(s.to_json()) == s` and nothing else loads silently.

The app-dealt Traitor (`traitor` with setup loyalty "app") IS written: the log is the save file, and the seed in
the setup determines it anyway. Only the shared screen must never show it (describe.py, status never do).
"""
from __future__ import annotations

from companion.games.errors import InvalidInput
from companion.games.obscurio.actions import MAX_DRAW
from companion.games.checks import choice, flag, only_fields, whole
from companion.games.obscurio.constants import (
    CARD_HOLDER, CHARACTERS, GREAT_ROOM_DOORS, ROOMS, TRAPS,
)
from companion.games.obscurio.rules import MAX_BONUS
from companion.games.obscurio.setup import Setup
from companion.games.obscurio.model import ACCUSATION_PHASES, PHASES, SIDES, Resolution

MAX_TURNS = 10_000  # far beyond any real game (each turn advances or costs a token), low enough to refuse junk
_FIELDS = ("setup", "turn", "phase", "step", "progress", "watcher", "cohesion", "bonus", "traps", "effects",
           "next_bonus", "decoys", "doors", "last", "accusation", "traitor", "exposed", "side", "timer")


def state_to_json(s) -> dict:
    chips = s.setup.chips
    timer = s.timer
    return {
        "setup": s.setup.to_json(),
        "turn": s.turn,
        "phase": s.phase,
        "step": s.step,
        "progress": s.progress,
        "watcher": s.watcher,
        "cohesion": {"total": s.setup.cohesion, "normal": s.normal, "dark": s.dark, "box": s.box,
                     "cards": dict(zip(chips, s.cards))},
        "bonus": s.bonus,
        "traps": list(s.traps),
        "effects": [t for t in TRAPS if t in s.effects],
        "next_bonus": s.next_bonus,
        "decoys": s.decoys,
        "doors": {"count": s.n_doors, "open": s.opened, "hidden": list(s.hidden_doors), "track": list(s.track),
                  "space": s.space, "chips": dict(zip(chips, s.placed)), "stopped": s.stopped, "exit": s.exit},
        "last": None if s.last is None else _resolution_to_json(s.last),
        "accusation": {"round": s.accusation, "votes": dict(s.votes), "accused": list(s.accused),
                       "cleared": list(s.cleared)},
        "traitor": s.traitor,
        "exposed": s.exposed,
        "side": s.side,
        "timer": None if timer is None else _timer_to_json(timer),
    }


def _timer_to_json(t) -> dict:
    """The glass as the JSON has always told it: which glass (`kind`), its seconds, and where it stands (`flip`)."""
    kind, flip = t.token.split(": ", 1)
    return {"kind": kind, "seconds": t.seconds, "flip": flip}


def _resolution_to_json(r: Resolution) -> dict:
    return {"exit": r.exit, "advanced": r.advanced, "charged": dict(r.charged), "unplaced": list(r.unplaced),
            "dangerous": r.dangerous}


# ----------------------------------------------------------------- loading

def _get(d: dict, where: str, name: str):
    if name not in d:
        raise InvalidInput(f"{where}{name}: missing")
    return d[name]


def _obj(d: dict, where: str, name: str, fields) -> dict:
    value = _get(d, where, name)
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}{name}: expected an object")
    only_fields(f"{where}{name}", value, fields)
    return value


def _optional_int(where: str, value, lo: int, hi: int) -> int | None:
    return None if value is None else whole(where, value, lo, hi)


def _per_chip(where: str, value, chips, check) -> tuple:
    if not isinstance(value, dict) or set(value) != set(chips):
        raise InvalidInput(f"{where}: expected one entry for each chip: {', '.join(chips)}")
    return tuple(check(f"{where}.{c}", value[c]) for c in chips)


def _characters(where: str, value, allowed) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > len(CHARACTERS):
        raise InvalidInput(f"{where}: expected a list of characters")
    out = tuple(choice(f"{where}[{i}]", c, allowed, "a wizard at this table") for i, c in enumerate(value))
    if len(set(out)) != len(out):
        raise InvalidInput(f"{where}: each character once")
    return out


def fields_from_json(d) -> dict:
    """The State's fields from its JSON, each checked; `check_loaded` then checks the State they make."""
    if not isinstance(d, dict):
        raise InvalidInput("state: expected an object")
    only_fields("", d, _FIELDS)
    setup_json = _get(d, "", "setup")
    if not isinstance(setup_json, dict):
        raise InvalidInput("setup: expected an object")
    setup = Setup.from_json(setup_json)
    chips, wizards = setup.chips, setup.wizards
    phase = choice("phase", _get(d, "", "phase"), PHASES, "a phase")
    values = {"setup": setup, "phase": phase,
              "turn": whole("turn", _get(d, "", "turn"), 1, MAX_TURNS),
              "progress": whole("progress", _get(d, "", "progress"), 0, ROOMS),
              "bonus": whole("bonus", _get(d, "", "bonus"), 0, MAX_BONUS)}

    coh = _obj(d, "", "cohesion", ("total", "normal", "dark", "box", "cards"))
    total = setup.cohesion
    values["normal"] = whole("cohesion.normal", _get(coh, "cohesion.", "normal"), 0, total - setup.dark)
    values["dark"] = whole("cohesion.dark", _get(coh, "cohesion.", "dark"), 0, setup.dark)
    values["box"] = whole("cohesion.box", _get(coh, "cohesion.", "box"), 0, total)
    values["cards"] = _per_chip("cohesion.cards", _get(coh, "cohesion.", "cards"), chips,
                                lambda w, v: whole(w, v, 0, total))
    if values["normal"] + values["dark"] + values["box"] + sum(values["cards"]) != total:
        raise InvalidInput(f"cohesion: normal + dark + box + cards must add up to the {total} tokens of the game")
    if values["dark"] < setup.dark and values["normal"]:
        raise InvalidInput("cohesion.dark: the dark area is used only once the normal area is empty")

    traps = _get(d, "", "traps")
    if not isinstance(traps, list) or len(traps) > MAX_DRAW:
        raise InvalidInput("traps: expected the list of traps drawn this turn")
    bag = setup.rules.bag_for(setup.has_traitor)
    for i, t in enumerate(traps):
        choice(f"traps[{i}]", t, bag, "a trap in this game's bag")
        if traps.count(t) > bag[t]:
            raise InvalidInput(f"traps[{i}]: more {t} tokens than the bag holds")
    values["traps"] = tuple(traps)
    values["next_bonus"] = _optional_int("next_bonus", _get(d, "", "next_bonus"), 0, MAX_BONUS)
    values["decoys"] = _optional_int("decoys", _get(d, "", "decoys"), 0, CARD_HOLDER)

    doors = _obj(d, "", "doors", ("count", "open", "hidden", "track", "space", "chips", "stopped", "exit"))
    values["opened"] = whole("doors.open", _get(doors, "doors.", "open"), 0, GREAT_ROOM_DOORS)
    values["space"] = whole("doors.space", _get(doors, "doors.", "space"), 0, 9)
    values["placed"] = _per_chip("doors.chips", _get(doors, "doors.", "chips"), chips,
                                 lambda w, v: _optional_int(w, v, 1, GREAT_ROOM_DOORS))
    values["stopped"] = flag("doors.stopped", _get(doors, "doors.", "stopped"))
    values["exit"] = _optional_int("doors.exit", _get(doors, "doors.", "exit"), 1, GREAT_ROOM_DOORS)

    last = _get(d, "", "last")
    values["last"] = None if last is None else _resolution(last, chips)

    acc = _obj(d, "", "accusation", ("round", "votes", "accused", "cleared"))
    values["accusation"] = whole("accusation.round", _get(acc, "accusation.", "round"), 0, MAX_TURNS)
    votes = _get(acc, "accusation.", "votes")
    if not isinstance(votes, dict):
        raise InvalidInput("accusation.votes: expected an object from voter to accused")
    for voter, target in votes.items():
        choice(f"accusation.votes.{str(voter)[:20]}", voter, wizards, "a wizard at this table")
        if target is not None:
            choice(f"accusation.votes.{voter}", target, wizards, "a wizard at this table")
    values["votes"] = tuple((c, votes[c]) for c in CHARACTERS if c in votes)
    values["accused"] = _characters("accusation.accused", _get(acc, "accusation.", "accused"), wizards)
    values["cleared"] = _characters("accusation.cleared", _get(acc, "accusation.", "cleared"), wizards)

    traitor = _get(d, "", "traitor")
    values["traitor"] = None if traitor is None else choice("traitor", traitor, wizards, "a wizard at this table")
    values["exposed"] = flag("exposed", _get(d, "", "exposed"))
    side = _get(d, "", "side")
    values["side"] = None if side is None else choice("side", side, SIDES, "a winning side")

    _check_story(values, setup)
    return values


def check_loaded(state, d: dict) -> None:
    """What only the whole State can tell: the doors and time track of its turn, and that `d` is exactly its JSON."""
    phase = state.phase
    if state.space >= len(state.track):
        raise InvalidInput("doors.space: beyond the end of this turn's time track")
    if phase in ("doors", "exit"):
        # Doors exist only up to this turn's count; under Locked Doors only the revealed ones.
        if not (1 if state.locked else state.n_doors) <= state.opened <= state.n_doors:
            raise InvalidInput("doors.open: not a number of revealed doors for this turn")
        if any(d is not None and d > state.opened for d in state.placed):
            raise InvalidInput("doors.chips: a chip in front of a door that is not there")
    _same("", d, state_to_json(state))


def _resolution(r, chips) -> Resolution:
    if not isinstance(r, dict):
        raise InvalidInput("last: expected an object or null")
    only_fields("last", r, ("exit", "advanced", "charged", "unplaced", "dangerous"))
    charged = _get(r, "last.", "charged")
    if not isinstance(charged, dict) or any(c not in chips for c in charged):
        raise InvalidInput("last.charged: expected an object from chip to tokens")
    return Resolution(
        exit=whole("last.exit", _get(r, "last.", "exit"), 1, GREAT_ROOM_DOORS),
        advanced=flag("last.advanced", _get(r, "last.", "advanced")),
        charged=tuple((c, whole(f"last.charged.{c}", charged[c], 0, 2)) for c in chips if c in charged),
        unplaced=_characters("last.unplaced", _get(r, "last.", "unplaced"), chips),
        dangerous=whole("last.dangerous", _get(r, "last.", "dangerous"), 0, GREAT_ROOM_DOORS),
    )


def _check_story(v: dict, setup: Setup) -> None:
    """Combinations no game can reach (so the handlers never meet them)."""
    phase = v["phase"]
    if (v["side"] is None) != (phase not in ("over", "unmask")):
        raise InvalidInput("side: set exactly when the game has ended")
    if v["exposed"] and v["traitor"] is None:
        raise InvalidInput("traitor: an exposed Traitor is known")
    if setup.loyalty == "app" and v["traitor"] is None:
        raise InvalidInput("traitor: the app dealt the loyalty cards, so it knows the Traitor")
    if not setup.has_traitor and (v["traitor"] or v["exposed"] or v["accusation"] or v["cleared"]):
        raise InvalidInput("traitor: there is no Traitor with 2 or 3 players")
    if v["traitor"] in v["cleared"]:
        raise InvalidInput("accusation.cleared: the Traitor never shows a Loyal card")
    if phase == "traitor" and not setup.has_traitor:
        raise InvalidInput("phase: step 3 is skipped with 2 or 3 players")
    if phase == "unmask" and (v["traitor"] is not None or not setup.has_traitor):
        raise InvalidInput("phase: the Traitor is revealed at the end only when nobody knows them")
    if phase == "over" and setup.has_traitor and v["traitor"] is None:
        raise InvalidInput("traitor: known once the game is over")
    if phase in ACCUSATION_PHASES and (not setup.has_traitor or v["exposed"] or not v["accusation"]):
        raise InvalidInput("accusation.round: the Accusation Phase runs until the Traitor is exposed")
    if phase == "loyalty" and (setup.loyalty == "app" or not v["accused"]):
        raise InvalidInput("phase: loyalty cards are shown by the accused, when the app does not know them")


def _same(path: str, given, expected) -> None:
    """`given` (the loaded JSON) is exactly `expected` (what the loaded state writes), types included."""
    if isinstance(expected, dict):
        if not isinstance(given, dict):
            raise InvalidInput(f"{path.rstrip('.') or 'state'}: expected an object")  # "timer", not "timer."
        for key in list(expected) + [k for k in given if k not in expected]:
            if key not in given:
                raise InvalidInput(f"{path}{key}: missing")
            _same(f"{path}{key}.", given[key], expected.get(key, _MISSING))
        return
    where = path.rstrip(".")
    if isinstance(expected, list):
        if not isinstance(given, list) or len(given) != len(expected):
            raise InvalidInput(f"{where}: does not match the rest of the state")
        for i, (g, e) in enumerate(zip(given, expected)):
            _same(f"{where}[{i}].", g, e)
        return
    if type(given) is not type(expected) or given != expected:
        raise InvalidInput(f"{where}: does not match the rest of the state")


_MISSING = object()
