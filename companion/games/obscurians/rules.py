"""The editable rulings (RULINGS.md) as one value: the group's "rules profile"."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.errors import InvalidInput
from companion.games.obscurians.constants import FACES

# RULING obscurians-dice: a standard D6 standing in for a henchmen die; opposite faces sum to 7.
DEFAULT_PIPS = {1: "steal", 6: "donate", 2: "swap", 5: "secure", 3: "relocate", 4: "wild"}


@dataclass(frozen=True)
class Rules:
    # RULING obscurians-take-cap: True = 6+ goods of one foreign colour score 25; False = n².
    take_cap: bool = True
    # RULING obscurians-dice: pip → face for smart dice, as sorted (pip, face) pairs to stay hashable.
    pips: tuple[tuple[int, str], ...] = field(default_factory=lambda: tuple(sorted(DEFAULT_PIPS.items())))

    def face_for_pips(self, pips: int) -> str:
        return dict(self.pips)[pips]

    def to_json(self) -> dict:
        return {"take_cap": self.take_cap, "pips": {str(p): f for p, f in self.pips}}

    @staticmethod
    def from_json(d: dict | None) -> "Rules":
        if d is None:
            return Rules()
        if not isinstance(d, dict):
            raise InvalidInput("rules: expected an object")
        unknown = set(d) - {"take_cap", "pips"}
        if unknown:
            raise InvalidInput(f"rules.{sorted(unknown)[0]}: unknown field")
        take_cap = d.get("take_cap", True)
        if not isinstance(take_cap, bool):
            raise InvalidInput("rules.take_cap: expected true or false")
        pips = d.get("pips")
        if pips is None:
            return Rules(take_cap=take_cap)
        try:
            table = {int(k): v for k, v in pips.items()}
        except (AttributeError, ValueError):
            raise InvalidInput("rules.pips: expected an object from pips 1-6 to faces") from None
        if sorted(table) != [1, 2, 3, 4, 5, 6] or sorted(table.values()) != sorted(FACES):
            raise InvalidInput("rules.pips: each of the pips 1-6 must map to a different face")
        return Rules(take_cap=take_cap, pips=tuple(sorted(table.items())))
