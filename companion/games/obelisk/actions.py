"""Obelisk actions: small frozen values with a JSON and a one-line text form that both round-trip.

Players are named by their colour; cells and corners are `[row, col]` in JSON and "C4" in text (column letter, row
number; corners on the 6 × 6 corner grid, "F6" the bottom-right one). Chance enters as actions too when the table
plays it (the demons drawn from the real box top, a die rolled by hand); when the app plays it the action carries
nothing and the engine draws (`roll: null`). Parsing checks shapes and words and raises InvalidInput naming the
field; whether an action is allowed now is the State's business (IllegalAction).

    build blue C3              reinforce blue C3 3G1B      mine blue          rotate blue B2:S D4:N
    charge blue longbow C3 2B aim=NE                        reroll blue C3 5   aim blue C3 SW
    pass blue                  nightfall                   decipher longbow   roll C3 5
    capture C3 7 2             march                       spawn green blue blue      dawn      timeout
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from companion.games.errors import InvalidInput
from companion.games import checks
from companion.games.obelisk import readers
from companion.games.obelisk.box import DEMON_COLOURS, MAX_STRENGTH, PLAYER_COLOURS, SCROLLS, SPAWNS_SCROLLS
from companion.games.obelisk.model import AIMS, CORNERS, DIRECTIONS, SIZE, Cell, Corner, Stones
from companion.games.text import action_class, shown

MAX_DEMON_ID = 200      # the box has 50 demons; ids count them as they come out
MAX_STEP = 30


@dataclass(frozen=True)
class Pay:
    """A Reinforce payment: stones from the Quarry, or one of the player's unplaced Obelisks (`die`)."""
    green: int = 0
    yellow: int = 0
    blue: int = 0
    die: bool = False

    @property
    def stones(self) -> Stones:
        return Stones(self.green, self.yellow, self.blue)

    def to_json(self):
        return "die" if self.die else {c: n for c, n in self.stones.to_json().items() if n}

    def to_text(self) -> str:
        return "die" if self.die else "".join(f"{n}{c[0].upper()}" for c, n in self.stones.to_json().items() if n)


# ----------------------------------------------------------------- the Day

@dataclass(frozen=True)
class Build:
    """Build an Obelisk (strength 1) on a free corner."""
    player: str
    corner: Corner
    TYPE = "build"


@dataclass(frozen=True)
class Reinforce:
    """Pay a set of stones (or sacrifice an unplaced Obelisk) to raise any Obelisk's strength by one."""
    player: str
    obelisk: Corner
    pay: Pay
    TYPE = "reinforce"


@dataclass(frozen=True)
class Mine:
    """One green stone from the Supply into the Quarry."""
    player: str
    TYPE = "mine"


@dataclass(frozen=True)
class Rotate:
    """Turn up to N marked tiles, each to a new direction; their markers go to the Supply."""
    player: str
    tiles: tuple[tuple[Cell, str], ...]   # (cell, new direction), in reading order
    TYPE = "rotate"

    def __post_init__(self):
        if isinstance(self.tiles, (tuple, list)) and all(isinstance(t, (tuple, list)) and len(t) == 2
                                                          and isinstance(t[0], tuple) for t in self.tiles):
            object.__setattr__(self, "tiles", tuple(sorted((tuple(t) for t in self.tiles), key=lambda t: t[0])))


@dataclass(frozen=True)
class Charge:
    """Scrolls: charge a deciphered Scroll onto an Obelisk (a Reinforce action: an action and a payment) and apply
    it at once. The fields a Scroll needs: Burnout `boost` (0-4), Instability `roll` (None when the app rolls),
    Longbow `aim`, Broken Earth `moves` ((from, to) cells), Siphon Energy `siphon` ((corner, points) drained)."""
    player: str
    scroll: str
    obelisk: Corner
    pay: Pay
    boost: int | None = None
    roll: int | None = None
    aim: str | None = None
    moves: tuple[tuple[Cell, Cell], ...] = ()
    siphon: tuple[tuple[Corner, int], ...] = ()
    TYPE = "charge"


@dataclass(frozen=True)
class Reroll:
    """Instability: spend an action to roll that Obelisk again (its owner agreeing). `roll` None: the app rolls."""
    player: str
    obelisk: Corner
    roll: int | None = None
    TYPE = "reroll"


@dataclass(frozen=True)
class Aim:
    """Longbow: its owner spends an action to turn its direction."""
    player: str
    obelisk: Corner
    aim: str
    TYPE = "aim"


@dataclass(frozen=True)
class Pass:
    """A player is done for this Day; actions left are forfeit (Rotating Leadership: the token passes on)."""
    player: str
    TYPE = "pass"


@dataclass(frozen=True)
class Nightfall:
    """Everybody is done: the Day ends and the Night begins; actions left are forfeit."""
    TYPE = "nightfall"


@dataclass(frozen=True)
class Decipher:
    """Scrolls, the real deck: the Scroll flipped face up at the start of this Day."""
    scroll: str
    TYPE = "decipher"


@dataclass(frozen=True)
class Roll:
    """A D6 rolled at the table for the Obelisk waiting for one (Burnout at nightfall, Instability at dawn)."""
    obelisk: Corner
    roll: int
    TYPE = "roll"


# ----------------------------------------------------------------- the Night

@dataclass(frozen=True)
class Capture:
    """The Obelisk on `obelisk` captures demon number `demon` after it walked `step` tiles tonight (0: before it
    moves)."""
    obelisk: Corner
    demon: int
    step: int
    TYPE = "capture"


@dataclass(frozen=True)
class March:
    """The demons on the map move (captures of them while they move are made before this)."""
    TYPE = "march"


@dataclass(frozen=True)
class Spawn:
    """The real Dark Realm: the demons drawn, in the order they came out."""
    demons: tuple[str, ...]
    TYPE = "spawn"


@dataclass(frozen=True)
class Dawn:
    """The new demons move; the Night ends (captured demons turn to stone) and the next Day begins."""
    TYPE = "dawn"


@dataclass(frozen=True)
class Timeout:
    """Time Trials: the minute of this Day or Night ran out."""
    TYPE = "timeout"


ACTION_TYPES = (Build, Reinforce, Mine, Rotate, Charge, Reroll, Aim, Pass, Nightfall, Decipher, Roll, Capture, March,
                Spawn, Dawn, Timeout)
BY_TYPE = {cls.TYPE: cls for cls in ACTION_TYPES}
Action = (Build | Reinforce | Mine | Rotate | Charge | Reroll | Aim | Pass | Nightfall | Decipher | Roll | Capture
          | March | Spawn | Dawn | Timeout)
# Each action's fields (JSON names = attribute names), required first; Charge's details are optional.
FIELDS = {
    Build: ("player", "corner"), Reinforce: ("player", "obelisk", "pay"), Mine: ("player",),
    Rotate: ("player", "tiles"), Charge: ("player", "scroll", "obelisk", "pay"), Reroll: ("player", "obelisk"),
    Aim: ("player", "obelisk", "aim"), Pass: ("player",), Nightfall: (), Decipher: ("scroll",),
    Roll: ("obelisk", "roll"), Capture: ("obelisk", "demon", "step"), March: (), Spawn: ("demons",), Dawn: (),
    Timeout: (),
}
OPTIONAL = {Charge: ("boost", "roll", "aim", "moves", "siphon"), Reroll: ("roll",)}


# ----------------------------------------------------------------- JSON

def _pay_from_json(where: str, value) -> Pay:
    if value == "die":
        return Pay(die=True)
    s = readers.stones(where, value, most=4)
    if not s.total:
        raise InvalidInput(f"{where}: expected stones by colour or \"die\"")
    return Pay(s.green, s.yellow, s.blue)


def _rotations(where: str, value) -> tuple:
    out = []
    for i, t in enumerate(checks.listed(where, value, SIZE * SIZE)):
        t = checks.obj(f"{where}[{i}]", t, ("cell", "to"), required=("cell", "to"))
        out.append((readers.cell(f"{where}[{i}].cell", t["cell"]),
                    checks.choice(f"{where}[{i}].to", t["to"], DIRECTIONS, "a direction (N, E, S, W)")))
    return tuple(out)


def _moves(where: str, value) -> tuple:
    out = []
    for i, m in enumerate(checks.listed(where, value, 4)):
        m = checks.obj(f"{where}[{i}]", m, ("from", "to"), required=("from", "to"))
        out.append((readers.cell(f"{where}[{i}].from", m["from"]), readers.cell(f"{where}[{i}].to", m["to"])))
    return tuple(out)


def _siphon(where: str, value) -> tuple:
    out = []
    for i, s in enumerate(checks.listed(where, value, 11)):
        s = checks.obj(f"{where}[{i}]", s, ("obelisk", "points"), required=("obelisk", "points"))
        out.append((readers.corner(f"{where}[{i}].obelisk", s["obelisk"]),
                    checks.whole(f"{where}[{i}].points", s["points"], 1, MAX_STRENGTH)))
    return tuple(out)


def _field(t: str, name: str, value):
    where = f"{t}.{name}"
    if name == "player":
        return checks.choice(where, value, PLAYER_COLOURS, "a player colour")
    if name in ("corner", "obelisk"):
        return readers.corner(where, value)
    if name == "pay":
        return _pay_from_json(where, value)
    if name == "tiles":
        return _rotations(where, value)
    if name == "scroll":
        return checks.choice(where, value, SCROLLS, "a Scroll")
    if name == "aim":
        return checks.choice(where, value, AIMS, "a Longbow direction (NE, SE, SW, NW)")
    if name == "roll":
        return None if value is None else checks.whole(where, value, 1, 6)
    if name == "boost":
        return checks.whole(where, value, 0, MAX_STRENGTH)
    if name == "moves":
        return _moves(where, value)
    if name == "siphon":
        return _siphon(where, value)
    if name == "demon":
        return checks.whole(where, value, 1, MAX_DEMON_ID)
    if name == "step":
        return checks.whole(where, value, 0, MAX_STEP)
    if name == "demons":
        drawn = checks.listed(where, value, SPAWNS_SCROLLS)
        return tuple(checks.choice(f"{where}[{i}]", c, DEMON_COLOURS, "a demon colour (green, yellow, blue)")
                     for i, c in enumerate(drawn))
    raise AssertionError(name)


def action_from_json(d) -> Action:
    """The action a JSON object describes; InvalidInput naming the field when it is malformed."""
    t, cls = action_class(d, BY_TYPE, "Obelisk")
    required, optional = FIELDS[cls], OPTIONAL.get(cls, ())
    checks.obj(t, {k: v for k, v in d.items() if k != "type"}, required + optional, required=required)
    values = {name: _field(t, name, d[name]) for name in required + optional if name in d}
    return cls(**values)


def _to_json_value(name: str, value):
    if name in ("corner", "obelisk"):
        return list(value)
    if name == "pay":
        return value.to_json()
    if name == "tiles":
        return [{"cell": list(cell), "to": to} for cell, to in value]
    if name == "moves":
        return [{"from": list(a), "to": list(b)} for a, b in value]
    if name == "siphon":
        return [{"obelisk": list(c), "points": n} for c, n in value]
    if name == "demons":
        return list(value)
    return value


def action_to_json(action) -> dict:
    cls = type(action)
    out = {"type": action.TYPE}
    for name in FIELDS[cls]:
        out[name] = _to_json_value(name, getattr(action, name))
    for name in OPTIONAL.get(cls, ()):
        value = getattr(action, name)
        if value not in (None, ()) or (cls is Reroll and name == "roll"):
            out[name] = _to_json_value(name, value)
    return out


# ----------------------------------------------------------------- text

_NAME = re.compile(r"^([A-Fa-f])([1-6])$")
_PAY = re.compile(r"^(?:[0-4][GYBgyb])+$")


def place_name(cell) -> str:
    return f"{'ABCDEF'[cell[1]]}{cell[0] + 1}"


def _place(where: str, word: str, size: int, what: str) -> tuple[int, int]:
    m = _NAME.match(word)
    if m is None or "ABCDEF".index(m.group(1).upper()) >= size or int(m.group(2)) > size:
        last = "ABCDEF"[size - 1]
        raise InvalidInput(f"{where}: {shown(word)} is not a {what} (A1 to {last}{size})")
    return (int(m.group(2)) - 1, "ABCDEF".index(m.group(1).upper()))


def _number(where: str, word: str, lo: int, hi: int) -> int:
    # Digits only and short: int() would accept "٣", "+3", "3_0" and thousands of digits.
    if not (word.isascii() and word.isdigit() and len(word) <= 3):
        raise InvalidInput(f"{where}: {shown(word)} is not a number")
    return checks.whole(where, int(word), lo, hi)


def _pay_from_text(where: str, word: str) -> Pay:
    if word == "die":
        return Pay(die=True)
    if not _PAY.match(word):
        raise InvalidInput(f"{where}: {shown(word)} is not a payment (e.g. 4G, 3G1B, 2Y1B, 2B or die)")
    counts = {"G": 0, "Y": 0, "B": 0}
    for i in range(0, len(word), 2):
        counts[word[i + 1].upper()] += int(word[i])
    if counts["G"] > 4 or counts["Y"] > 4 or counts["B"] > 4 or not sum(counts.values()):
        raise InvalidInput(f"{where}: {shown(word)} is not a payment (e.g. 4G, 3G1B, 2Y1B, 2B or die)")
    return Pay(counts["G"], counts["Y"], counts["B"])


def action_to_text(action) -> str:
    parts = [action.TYPE]
    cls = type(action)
    for name in FIELDS[cls] + OPTIONAL.get(cls, ()):
        value = getattr(action, name)
        if name in ("corner", "obelisk"):
            parts.append(place_name(value))
        elif name == "pay":
            parts.append(value.to_text())
        elif name == "tiles":
            parts += [f"{place_name(cell)}:{to}" for cell, to in value]
        elif name == "demons":
            parts += list(value)
        elif name == "moves":
            if value:
                parts.append("moves=" + ",".join(f"{place_name(a)}>{place_name(b)}" for a, b in value))
        elif name == "siphon":
            if value:
                parts.append("siphon=" + ",".join(f"{place_name(c)}:{n}" for c, n in value))
        elif name in OPTIONAL.get(cls, ()):
            if value is not None:
                parts.append(f"{name}={value}" if cls is Charge else str(value))
        else:
            parts.append(str(value))
    return " ".join(parts)


_USAGE = {
    Build: "build PLAYER CORNER", Reinforce: "reinforce PLAYER CORNER PAY", Mine: "mine PLAYER",
    Rotate: "rotate PLAYER CELL:DIR…", Charge: "charge PLAYER SCROLL CORNER PAY [boost=N roll=N aim=DIR moves=… "
    "siphon=…]", Reroll: "reroll PLAYER CORNER [ROLL]", Aim: "aim PLAYER CORNER DIR", Pass: "pass PLAYER",
    Nightfall: "nightfall", Decipher: "decipher SCROLL", Roll: "roll CORNER ROLL", Capture: "capture CORNER DEMON STEP",
    March: "march", Spawn: "spawn COLOUR…", Dawn: "dawn", Timeout: "timeout",
}


def _word_value(t: str, name: str, word: str):
    """A text word → the JSON value of field `name`, checked by the same readers as JSON."""
    where = f"{t}.{name}"
    if name in ("corner", "obelisk"):
        return list(_place(where, word, CORNERS, "corner"))
    if name == "pay":
        return _pay_from_text(where, word).to_json()
    if name in ("roll", "boost"):
        return _number(where, word, 0, 99)
    if name in ("demon", "step"):
        return _number(where, word, 0, 999)
    return word


def _charge_option(t: str, word: str, raw: dict) -> None:
    name, eq, value = word.partition("=")
    if not eq or name not in OPTIONAL[Charge] or name in raw:
        raise InvalidInput(f"{t}: {shown(word)} is not one of boost=N, roll=N, aim=DIR, moves=…, siphon=…")
    if name == "moves":
        pairs = []
        for m in value.split(","):
            a, gt, b = m.partition(">")
            if not gt:
                raise InvalidInput(f"{t}.moves: {shown(m)} is not FROM>TO")
            pairs.append({"from": list(_place(f"{t}.moves", a, SIZE, "cell")),
                          "to": list(_place(f"{t}.moves", b, SIZE, "cell"))})
        raw[name] = pairs
    elif name == "siphon":
        drains = []
        for s in value.split(","):
            c, colon, n = s.partition(":")
            if not colon:
                raise InvalidInput(f"{t}.siphon: {shown(s)} is not CORNER:POINTS")
            drains.append({"obelisk": list(_place(f"{t}.siphon", c, CORNERS, "corner")),
                           "points": _number(f"{t}.siphon", n, 0, 99)})
        raw[name] = drains
    else:
        raw[name] = _word_value(t, name, value)


def action_from_text(s) -> Action:
    """Parse the text form, e.g. "rotate blue B2:S D4:N"; InvalidInput naming the field when it is malformed."""
    if not isinstance(s, str) or not s.split():
        raise InvalidInput("action: empty text")
    words = s.split()
    t, args = words[0], words[1:]
    cls = BY_TYPE.get(t)
    if cls is None:
        raise InvalidInput(f"type: {shown(t)} is not an Obelisk action")
    fields = FIELDS[cls]
    raw: dict = {"type": t}
    if cls is Rotate:
        if not args:
            raise InvalidInput(f"{t}: expected '{_USAGE[cls]}'")
        raw["player"] = args[0]
        tiles = []
        for word in args[1:]:
            cell, colon, to = word.partition(":")
            if not colon:
                raise InvalidInput(f"{t}.tiles: {shown(word)} is not CELL:DIRECTION")
            tiles.append({"cell": list(_place(f"{t}.tiles", cell, SIZE, "cell")), "to": to})
        raw["tiles"] = tiles
        return action_from_json(raw)
    if cls is Spawn:
        raw["demons"] = args
        return action_from_json(raw)
    if cls is Charge:
        if len(args) < len(fields):
            raise InvalidInput(f"{t}: expected '{_USAGE[cls]}'")
        for word in args[len(fields):]:
            _charge_option(t, word, raw)
        args = args[:len(fields)]
    elif cls is Reroll and len(args) == len(fields) + 1:
        raw["roll"] = _word_value(t, "roll", args[-1])
        args = args[:-1]
    elif cls is Reroll and len(args) == len(fields):
        raw["roll"] = None
    if len(args) != len(fields):
        raise InvalidInput(f"{t}: expected '{_USAGE[cls]}', got {len(args)} word(s) after {t!r}")
    for name, word in zip(fields, args):
        raw[name] = _word_value(t, name, word)
    return action_from_json(raw)


# Methods on every action class: a.to_json(), a.to_text(), str(a).
for _cls in ACTION_TYPES:
    _cls.to_json = action_to_json
    _cls.to_text = action_to_text
    _cls.__str__ = action_to_text
del _cls
