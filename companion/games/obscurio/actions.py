"""Obscurio actions: small frozen values with a JSON and a one-line text notation that both round-trip.

Wizards and chips are named by character (colour); the time enters as actions too (`Sand`: the hourglass ran out),
so a log replays without a clock. Parsing checks the vocabulary and the shape and raises InvalidInput naming the
field; whether an action is allowed *now* is the State's business (IllegalAction).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.errors import InvalidInput
from companion.games.text import action_class
from companion.games.checks import choice, only_fields, whole
from companion.games.obscurio.constants import CARD_HOLDER, CHARACTERS, GREAT_ROOM_DOORS, TRAPS

_TRAP_ORDER = {t: i for i, t in enumerate(TRAPS)}
_CHAR_ORDER = {c: i for i, c in enumerate(CHARACTERS)}
MAX_DRAW = 40  # trap tokens named in one draw: far above any bag's size, low enough to refuse a flood


@dataclass(frozen=True)
class Draw:
    """Step 1: the trap tokens drawn this turn (+2 draws included); kept in canonical order, a multiset."""
    traps: tuple[str, ...]
    TYPE = "draw"

    def __post_init__(self):
        object.__setattr__(self, "traps", tuple(sorted(self.traps, key=lambda t: (_TRAP_ORDER.get(t, 99), str(t)))))


@dataclass(frozen=True)
class Riddle:
    """Step 2 is over: the Grimoire placed the Butterflies and passed the desk."""
    TYPE = "riddle"


@dataclass(frozen=True)
class Decoys:
    """Step 3 is over: the Grimoire closed the card holder. `cards`: how many decoys the Traitor picked (0-2, 0-4
    under Dark Magic), when the Grimoire told the app (in secret: only a trap's limit needs it); None when not."""
    cards: int | None
    TYPE = "decoys"


@dataclass(frozen=True)
class Chip:
    """Step 4: a character chip is put in front of `door` (1-7), or taken back (`door` None, text "off")."""
    chip: str
    door: int | None
    TYPE = "chip"


@dataclass(frozen=True)
class Open:
    """Step 4 under Locked Doors: the next door is revealed."""
    TYPE = "open"


@dataclass(frozen=True)
class Sand:
    """The hourglass ran out (the session's timer, or the table says so)."""
    TYPE = "sand"


@dataclass(frozen=True)
class Done:
    """Step 4: every wizard has chosen and nobody wants to change: the step is over."""
    TYPE = "done"


@dataclass(frozen=True)
class Exit:
    """Step 4: the Grimoire reveals which door is the Exit card; the step resolves."""
    door: int
    TYPE = "exit"


@dataclass(frozen=True)
class Votes:
    """Accusation: every wizard's simultaneous vote, (voter, accused or None = abstains), in CHARACTERS order."""
    votes: tuple[tuple[str, str | None], ...]
    TYPE = "votes"

    def __post_init__(self):
        pairs = tuple(tuple(p) if isinstance(p, (list, tuple)) else p for p in self.votes)
        if all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            pairs = tuple(sorted(pairs, key=lambda p: (_CHAR_ORDER.get(p[0], 99), str(p[0]))))
        object.__setattr__(self, "votes", pairs)

    def as_dict(self) -> dict[str, str | None]:
        return dict(self.votes)


@dataclass(frozen=True)
class Loyalty:
    """Accusation: the accused showed their loyalty cards; `traitor` is the one who was the Traitor, or None."""
    traitor: str | None
    TYPE = "loyalty"


@dataclass(frozen=True)
class Look:
    """A note, not a move: with loyalty cards dealt by the app, the wizard with `chip` looked at their card again
    (the look is recorded, so a peek at someone else's card shows in the move log). It changes nothing."""
    chip: str
    TYPE = "look"


@dataclass(frozen=True)
class EndTurn:
    """Step 5: cards discarded, traps back in the bag, chips back to the centre; the next turn starts."""
    TYPE = "end"


@dataclass(frozen=True)
class Unmask:
    """Game over, the Traitor still unknown to the app: everyone shows their loyalty card; this is the Traitor."""
    traitor: str
    TYPE = "traitor"


ACTION_TYPES = (Draw, Riddle, Decoys, Chip, Open, Sand, Done, Exit, Votes, Loyalty, EndTurn, Unmask, Look)
BY_TYPE = {cls.TYPE: cls for cls in ACTION_TYPES}
Action = Draw | Riddle | Decoys | Chip | Open | Sand | Done | Exit | Votes | Loyalty | EndTurn | Unmask | Look
_FIELDS = {
    Draw: ("traps",), Riddle: (), Decoys: ("cards",), Chip: ("chip", "door"), Open: (), Sand: (), Done: (),
    Exit: ("door",), Votes: ("votes",), Loyalty: ("traitor",), EndTurn: (), Unmask: ("traitor",), Look: ("chip",),
}
OFF, ABSTAIN, NOBODY = "off", "-", "none"  # text words for "no door", "no vote" / "not told", "none of the accused"


# ----------------------------------------------------------------- checking field values

def _character(where: str, value) -> str:
    return choice(where, value, CHARACTERS, "a character")


def _door(where: str, value) -> int:
    return whole(where, value, 1, GREAT_ROOM_DOORS)


def _traps(where: str, value) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{where}: expected a list of traps")
    if not value:
        raise InvalidInput(f"{where}: every turn draws at least one trap")
    if len(value) > MAX_DRAW:
        raise InvalidInput(f"{where}: at most {MAX_DRAW} traps")
    return tuple(choice(f"{where}[{i}]", t, TRAPS, "a trap") for i, t in enumerate(value))


def _votes(where: str, pairs) -> tuple[tuple[str, str | None], ...]:
    if not pairs:
        raise InvalidInput(f"{where}: expected every wizard's vote")
    seen = set()
    out = []
    for voter, target in pairs:
        _character(f"{where}.{str(voter)[:20]}", voter)
        if voter in seen:
            raise InvalidInput(f"{where}.{voter}: votes once")
        seen.add(voter)
        if target is not None:
            _character(f"{where}.{voter}", target)
        out.append((voter, target))
    return tuple(out)


def _check(cls, values: dict, t: str) -> dict:
    """Validate the Python values of one action's fields; the same checks for JSON and text."""
    out = {}
    for name, value in values.items():
        where = f"{t}.{name}"
        if name == "traps":
            out[name] = _traps(where, value)
        elif name == "cards":
            out[name] = None if value is None else whole(where, value, 0, CARD_HOLDER)
        elif name == "chip":
            out[name] = _character(where, value)
        elif name == "door":
            out[name] = None if (cls is Chip and value is None) else _door(where, value)
        elif name == "votes":
            out[name] = _votes(where, value)
        elif name == "traitor":
            out[name] = None if (cls is Loyalty and value is None) else _character(where, value)
    return out


# ----------------------------------------------------------------- JSON

def action_from_json(d) -> Action:
    """The action a JSON object describes; InvalidInput naming the field when it is malformed."""
    t, cls = action_class(d, BY_TYPE, "Obscurio")
    fields = _FIELDS[cls]
    only_fields(t, {k: v for k, v in d.items() if k != "type"}, fields)
    raw = {}
    for name in fields:
        if name not in d:
            raise InvalidInput(f"{t}.{name}: missing")
        raw[name] = d[name]
    if "votes" in raw:
        if not isinstance(raw["votes"], dict):
            raise InvalidInput(f"{t}.votes: expected an object from voter to accused (null: abstains)")
        raw["votes"] = list(raw["votes"].items())
    return cls(**_check(cls, raw, t))


def action_to_json(action) -> dict:
    out = {"type": action.TYPE}
    for name in _FIELDS[type(action)]:
        value = getattr(action, name)
        if name == "votes":
            value = {voter: target for voter, target in value}
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


# ----------------------------------------------------------------- text

def action_to_text(action) -> str:
    parts = [action.TYPE]
    if isinstance(action, Draw):
        parts.extend(action.traps)
    elif isinstance(action, Decoys):
        parts.append(ABSTAIN if action.cards is None else str(action.cards))
    elif isinstance(action, Chip):
        parts += [action.chip, OFF if action.door is None else str(action.door)]
    elif isinstance(action, Look):
        parts.append(action.chip)
    elif isinstance(action, Exit):
        parts.append(str(action.door))
    elif isinstance(action, Votes):
        parts.extend(f"{voter}:{ABSTAIN if target is None else target}" for voter, target in action.votes)
    elif isinstance(action, Loyalty):
        parts.append(NOBODY if action.traitor is None else action.traitor)
    elif isinstance(action, Unmask):
        parts.append(action.traitor)
    return " ".join(parts)


_USAGE = {
    Draw: "draw TRAP…", Riddle: "riddle", Decoys: "decoys N|-", Chip: "chip CHARACTER DOOR|off", Open: "open",
    Sand: "sand", Done: "done", Exit: "exit DOOR", Votes: "votes VOTER:ACCUSED|-…", Loyalty: "loyalty CHARACTER|none",
    EndTurn: "end", Unmask: "traitor CHARACTER", Look: "look CHARACTER",
}


def action_from_text(s) -> Action:
    """Parse the text notation, e.g. "chip blue 4"; InvalidInput naming the field when it is malformed."""
    if not isinstance(s, str) or not s.split():
        raise InvalidInput("action: empty text")
    words = s.split()
    t, args = words[0], words[1:]
    cls = BY_TYPE.get(t)
    if cls is None:
        raise InvalidInput(f"type: {t[:30]!r} is not an Obscurio action")
    fields = _FIELDS[cls]
    if cls is Draw:
        return Draw(**_check(cls, {"traps": args}, t))
    if cls is Votes:
        pairs = []
        for word in args:
            voter, colon, target = word.partition(":")
            if not colon:
                raise InvalidInput(f"votes: expected VOTER:ACCUSED or VOTER:-, got {word[:30]!r}")
            pairs.append((voter, None if target == ABSTAIN else target))
        return Votes(**_check(cls, {"votes": pairs}, t))
    if len(args) != len(fields):
        raise InvalidInput(f"{t}: expected '{_USAGE[cls]}', got {len(args)} word(s) after {t!r}")
    raw = {}
    for name, word in zip(fields, args):
        if name in ("door", "cards"):
            raw[name] = None if ((cls is Chip and word == OFF) or (cls is Decoys and word == ABSTAIN)) \
                else _number(f"{t}.{name}", word)
        elif name == "traitor" and cls is Loyalty and word == NOBODY:
            raw[name] = None
        else:
            raw[name] = word
    return cls(**_check(cls, raw, t))


def _number(where: str, word: str) -> int:
    # Digits only and short: int() would accept "٣", "+3", "3_0" and thousands of digits.
    if not (word.isascii() and word.isdigit() and len(word) <= 3):
        raise InvalidInput(f"{where}: {word[:30]!r} is not a number")
    return int(word)


# Methods on every action class: a.to_json(), a.to_text(), str(a).
for _cls in ACTION_TYPES:
    _cls.to_json = action_to_json
    _cls.to_text = action_to_text
    _cls.__str__ = action_to_text
del _cls
