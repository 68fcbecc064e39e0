"""Obscurians actions: small frozen values with a JSON and a one-line text notation that both round-trip.

Players are named by colour. Parsing checks the vocabulary (a colour, a face, a mission …) and raises InvalidInput
naming the field; whether an action is allowed *now* is the State's business (IllegalAction).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.errors import InvalidInput
from companion.games.text import action_class, key, shown
from companion.games.obscurians.constants import (
    ACTION_KINDS, COLOURS, EVENTS, FACE_DOWN, FACES, MISSIONS, N_DICE, SANDSTORM, UNCOLOURED, WILD_KINDS,
)

CARDS = EVENTS + (SANDSTORM,)
GOODS = COLOURS + UNCOLOURED
_KIND_ORDER = {k: i for i, k in enumerate(ACTION_KINDS)}
_GOOD_ORDER = {g: i for i, g in enumerate(GOODS)}


def _sorted_goods(goods) -> tuple[str, ...]:
    # Canonical order so that equal multisets are equal actions (legal_actions lists each once).
    return tuple(sorted(goods, key=lambda g: (_GOOD_ORDER.get(g, 99), str(g))))


@dataclass(frozen=True)
class RevealEvent:
    card: str
    TYPE = "reveal"


@dataclass(frozen=True)
class PlaceChip:
    on: str
    mission: str
    TYPE = "chip"


@dataclass(frozen=True)
class Roll:
    faces: tuple[str, ...]
    TYPE = "roll"

    def __post_init__(self):
        object.__setattr__(self, "faces", tuple(self.faces))


@dataclass(frozen=True)
class Reroll:
    """Roll `dice` (indices 0-4) again, showing `faces`; `discard` is the chip paid: FACE_DOWN (one chip, face down,
    as the rulebook has it), a named mission (logs written before face-down discards), or None for Reroll Once."""
    dice: tuple[int, ...]
    faces: tuple[str, ...]
    discard: str | None = None
    TYPE = "reroll"

    def __post_init__(self):
        pairs = sorted(zip(self.dice, self.faces), key=lambda p: p[0]) if len(self.dice) == len(self.faces) else None
        if pairs is not None:
            object.__setattr__(self, "dice", tuple(d for d, _ in pairs))
            object.__setattr__(self, "faces", tuple(f for _, f in pairs))
        else:
            object.__setattr__(self, "dice", tuple(self.dice))
            object.__setattr__(self, "faces", tuple(self.faces))


@dataclass(frozen=True)
class Flip:
    dice: tuple[int, ...]
    TYPE = "flip"

    def __post_init__(self):
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))


@dataclass(frozen=True)
class Choose:
    action: str
    wilds: int = 0
    TYPE = "choose"


@dataclass(frozen=True)
class AssignWilds:
    """All Actions Mandatory: one kind per Wild die; kept sorted, since which Wild got which kind does not matter."""
    kinds: tuple[str, ...]
    TYPE = "assign"

    def __post_init__(self):
        object.__setattr__(self, "kinds", tuple(sorted(self.kinds, key=lambda k: (_KIND_ORDER.get(k, 99), str(k)))))


@dataclass(frozen=True)
class Steal:
    victim: str
    good: str
    TYPE = "steal"


@dataclass(frozen=True)
class Donate:
    to: str
    good: str
    TYPE = "donate"


@dataclass(frozen=True)
class Swap:
    other: str
    give: str
    take: str
    TYPE = "swap"


@dataclass(frozen=True)
class Secure:
    goods: tuple[str, ...]
    TYPE = "secure"

    def __post_init__(self):
        object.__setattr__(self, "goods", _sorted_goods(self.goods))


@dataclass(frozen=True)
class Relocate:
    source: str
    target: str
    good: str
    TYPE = "relocate"


@dataclass(frozen=True)
class EndTurn:
    TYPE = "end"


@dataclass(frozen=True)
class RevealMissions:
    missions: tuple[str, ...]
    TYPE = "missions"

    def __post_init__(self):
        object.__setattr__(self, "missions", tuple(self.missions))


ACTION_TYPES = (RevealEvent, PlaceChip, Roll, Reroll, Flip, Choose, AssignWilds, Steal, Donate, Swap, Secure,
                Relocate, EndTurn, RevealMissions)
BY_TYPE = {cls.TYPE: cls for cls in ACTION_TYPES}
Action = (RevealEvent | PlaceChip | Roll | Reroll | Flip | Choose | AssignWilds | Steal | Donate | Swap | Secure
          | Relocate | EndTurn | RevealMissions)

# Field name → vocabulary kind; the same table drives JSON and text (de)serialisation.
_FIELDS = {
    RevealEvent: (("card", "card"),),
    PlaceChip: (("on", "colour"), ("mission", "mission")),
    Roll: (("faces", "faces5"),),
    Reroll: (("dice", "dice"), ("faces", "faces"), ("discard", "discard")),
    Flip: (("dice", "dice"),),
    Choose: (("action", "kind"), ("wilds", "count")),
    AssignWilds: (("kinds", "wild_kinds"),),
    Steal: (("victim", "colour"), ("good", "good")),
    Donate: (("to", "colour"), ("good", "good")),
    Swap: (("other", "colour"), ("give", "good"), ("take", "good")),
    Secure: (("goods", "goods"),),
    Relocate: (("source", "colour"), ("target", "colour"), ("good", "good")),
    EndTurn: (),
    RevealMissions: (("missions", "missions"),),
}


def _check_word(where: str, value, allowed, what: str):
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(f"{where}: {shown(value)} is not {what}")
    return value


def _check_list(where: str, value, allowed, what: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{where}: expected a list")
    return tuple(_check_word(f"{where}[{i}]", v, allowed, what) for i, v in enumerate(value))


def _check_value(where: str, kind: str, value):
    """Validate one field value (already in Python form) against its vocabulary kind."""
    if kind == "card":
        return _check_word(where, value, CARDS, "an event card")
    if kind == "colour":
        return _check_word(where, value, COLOURS, "a player colour")
    if kind == "mission":
        return _check_word(where, value, MISSIONS, "a mission")
    if kind == "good":
        return _check_word(where, value, GOODS, "a good")
    if kind == "kind":
        return _check_word(where, value, ACTION_KINDS, "a henchmen action")
    if kind in ("faces", "faces5"):
        faces = _check_list(where, value, FACES, "a die face")
        if kind == "faces5" and len(faces) != N_DICE:
            raise InvalidInput(f"{where}: expected {N_DICE} faces, got {len(faces)}")
        return faces
    if kind == "dice":
        if not isinstance(value, (list, tuple)) or not value:
            raise InvalidInput(f"{where}: expected a non-empty list of die indices 0-{N_DICE - 1}")
        for i, d in enumerate(value):
            if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < N_DICE:
                raise InvalidInput(f"{where}[{i}]: {shown(d)} is not a die index 0-{N_DICE - 1}")
        if len(set(value)) != len(value):
            raise InvalidInput(f"{where}: each die at most once")
        return tuple(value)
    if kind == "discard":
        return None if value is None else _check_word(where, value, MISSIONS + (FACE_DOWN,),
                                                      "a mission chip or face_down")
    if kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"{where}: expected a number of Wilds, 0 or more")
        return value
    if kind == "wild_kinds":
        return _check_list(where, value, WILD_KINDS, "an action a Wild can become")
    if kind == "goods":
        return _check_list(where, value, GOODS, "a good")
    if kind == "missions":
        return _check_list(where, value, MISSIONS, "a mission")
    raise AssertionError(kind)


def _build(cls, values: dict, prefix: str):
    action = cls(**values)
    if cls is Reroll and len(action.dice) != len(action.faces):
        raise InvalidInput(f"{prefix}.faces: one new face per rerolled die ({len(action.dice)})")
    return action


def action_from_json(d) -> Action:
    """The action a JSON object describes; InvalidInput naming the field when it is malformed."""
    t, cls = action_class(d, BY_TYPE, "Obscurians")
    fields = _FIELDS[cls]
    names = {name for name, _ in fields}
    unknown = set(d) - names - {"type"}
    if unknown:
        raise InvalidInput(f"{t}.{key(sorted(unknown)[0])}: unknown field")
    values = {}
    for name, kind in fields:
        if name not in d and not (kind == "discard"):
            raise InvalidInput(f"{t}.{name}: missing")
        values[name] = _check_value(f"{t}.{name}", kind, d.get(name))
    return _build(cls, values, t)


def action_to_json(action) -> dict:
    out = {"type": action.TYPE}
    for name, kind in _FIELDS[type(action)]:
        value = getattr(action, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def action_to_text(action) -> str:
    parts = [action.TYPE]
    for name, kind in _FIELDS[type(action)]:
        value = getattr(action, name)
        if kind in ("dice", "goods"):
            if value:  # an empty Secure (trade ban with no goods) is just "secure"
                parts.append(",".join(str(v) for v in value))
        elif kind in ("faces", "faces5", "wild_kinds", "missions"):
            parts.extend(value)
        elif kind == "discard":
            parts.append("free" if value is None else value)
        else:
            parts.append(str(value))
    return " ".join(parts)


def action_from_text(s) -> Action:
    """Parse the text notation, e.g. "choose steal 1"; InvalidInput naming the field when it is malformed."""
    if not isinstance(s, str) or not s.split():
        raise InvalidInput("action: empty text")
    words = s.split()
    t, args = words[0], words[1:]
    cls = BY_TYPE.get(t)
    if cls is None:
        raise InvalidInput(f"type: {shown(t)} is not an Obscurians action")
    fields = _FIELDS[cls]
    values = {}
    if cls is Reroll:
        if len(args) < 3:
            raise InvalidInput("reroll: expected 'reroll DICE FACES… CHIP|free'")
        values["dice"] = _check_value("reroll.dice", "dice", _ints("reroll.dice", args[0]))
        values["faces"] = _check_value("reroll.faces", "faces", args[1:-1])
        values["discard"] = _check_value("reroll.discard", "discard", None if args[-1] == "free" else args[-1])
        return _build(cls, values, t)
    if len(fields) == 1 and fields[0][1] in ("faces5", "wild_kinds", "missions"):
        name, kind = fields[0]
        values[name] = _check_value(f"{t}.{name}", kind, args)
        return _build(cls, values, t)
    if cls is Secure and not args:
        return Secure(())
    if len(args) != len(fields):
        expected = " ".join(name.upper() for name, _ in fields)
        raise InvalidInput(f"{t}: expected '{t} {expected}'".rstrip() + f", got {len(args)} word(s)")
    for (name, kind), word in zip(fields, args):
        where = f"{t}.{name}"
        if kind == "dice":
            value = _ints(where, word)
        elif kind == "goods":
            value = word.split(",")
        elif kind == "count":
            value = _ints(where, word)
            if len(value) != 1:
                raise InvalidInput(f"{where}: expected one number")
            value = value[0]
        else:
            value = word
        values[name] = _check_value(where, kind, value)
    return _build(cls, values, t)


def _ints(where: str, word: str) -> list[int]:
    try:
        return [int(x) for x in word.split(",")]
    except ValueError:
        raise InvalidInput(f"{where}: {shown(word)} is not a list of numbers") from None


# Methods on every action class: a.to_json(), a.to_text(), str(a).
for _cls in ACTION_TYPES:
    _cls.to_json = action_to_json
    _cls.to_text = action_to_text
    _cls.__str__ = action_to_text
del _cls
