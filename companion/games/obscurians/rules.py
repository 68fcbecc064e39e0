"""The editable rulings (RULINGS.md) as one value: the group's "rules profile"."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.errors import InvalidInput
from companion.games.obscurians.constants import FACES, OPPOSITE
from companion.games.rulings import rules_version_from_json
from companion.games.text import key, shown

# Versions of how this engine applies the rules (docs/persistence.md "Rules versions"). Every table records the one
# it was played under (Rules.version) and is replayed under it, so a correction never rewrites a group's history.
#   1: until 29 Nov 2026 a Secure put 1 or 2 goods into the vault.
#   2: RULING obscurians-actions: each Secure puts exactly 2 goods (1 only when a single free good is left).
RULES_VERSION = 2
SECURE_TWO_SINCE = 2

# RULING obscurians-dice: a standard D6 standing in for a henchmen die; opposite faces sum to 7.
DEFAULT_PIPS = {1: "steal", 6: "donate", 2: "swap", 5: "secure", 3: "relocate", 4: "wild"}
_PIP_KEYS = ("1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class Rules:
    # RULING obscurians-take-cap: True = 6+ goods of one foreign colour score 25; False = n².
    take_cap: bool = True
    # RULING obscurians-dice: pip → face for smart dice, as sorted (pip, face) pairs to stay hashable.
    pips: tuple[tuple[int, str], ...] = field(default_factory=lambda: tuple(sorted(DEFAULT_PIPS.items())))
    # The rules version the table is played under (RULES_VERSION above): today's for every new table.
    version: int = RULES_VERSION

    def __post_init__(self):
        rules_version_from_json({"version": self.version}, RULES_VERSION)
        problem = pips_problem(dict(self.pips)) if isinstance(self.pips, tuple) else "expected (pip, face) pairs"
        if problem:
            raise InvalidInput(f"rules.pips: {problem}")

    def face_for_pips(self, pips: int) -> str:
        return dict(self.pips)[pips]

    def to_json(self) -> dict:
        return {"take_cap": self.take_cap, "pips": {str(p): f for p, f in self.pips}, "version": self.version}

    @staticmethod
    def from_json(d: dict | None) -> "Rules":
        if d is None:
            return Rules()
        if not isinstance(d, dict):
            raise InvalidInput("rules: expected an object")
        unknown = set(d) - {"take_cap", "pips", "version"}
        if unknown:
            raise InvalidInput(f"rules.{key(sorted(unknown)[0])}: unknown field")
        take_cap = d.get("take_cap", True)
        if not isinstance(take_cap, bool):
            raise InvalidInput("rules.take_cap: expected true or false")
        version = rules_version_from_json(d, RULES_VERSION)
        pips = d.get("pips")
        if pips is None:
            return Rules(take_cap=take_cap, version=version)
        return Rules(take_cap=take_cap, pips=tuple(sorted(_pips_from_json(pips).items())), version=version)


def _pips_from_json(pips) -> dict[int, str]:
    """{pip: face} from {"1": "steal", …}; InvalidInput naming the entry that is wrong."""
    if not isinstance(pips, dict):
        raise InvalidInput("rules.pips: expected an object from pips 1-6 to faces")
    table = {}
    for k, face in pips.items():
        if k not in _PIP_KEYS:  # exactly "1".."6": int() would also take " 1", "01" or "١"
            raise InvalidInput(f"rules.pips.{key(k)}: a D6 has the pips 1 to 6")
        if not isinstance(face, str) or face not in FACES:
            raise InvalidInput(f"rules.pips.{k}: {shown(face)} is not a henchmen face; "
                               f"the faces are {', '.join(FACES)}")
        table[int(k)] = face
    problem = pips_problem(table)
    if problem:
        raise InvalidInput(f"rules.pips: {problem}")
    return table


def with_pip(table: dict[int, str], pip: int, face: str) -> dict[int, str]:
    """`table` changed so that `pip` shows `face`, still a valid die (RULING obscurians-dice): the opposite pip takes
    the opposite face, and the pair of pips that held those faces takes this pair's old ones (or the pair turns)."""
    where = next(p for p, f in table.items() if f == face)
    new = dict(table)
    if where != pip:
        new[pip], new[where] = table[where], table[pip]
        new[7 - pip], new[7 - where] = table[7 - where], table[7 - pip]
    return new


def pips_problem(table: dict[int, str]) -> str | None:
    """Why `table` cannot map a D6 to the henchmen faces, or None. RULING obscurians-dice: every face once, and
    opposite faces on opposite pips (which sum to 7), or Flip the Die would disagree with the real die."""
    missing = [p for p in range(1, 7) if p not in table]
    if missing:
        return f"pip {missing[0]} has no face; map each of the pips 1-6"
    seen: dict[str, int] = {}
    for pip, face in sorted(table.items()):
        if face in seen:
            return f"pips {seen[face]} and {pip} both show {face}; each face goes on one pip"
        seen[face] = pip
    for pip in (1, 2, 3):
        a, b = table[pip], table[7 - pip]
        if OPPOSITE[a] != b:
            return (f"pips {pip} and {7 - pip} are opposite sides of a D6, so they must show opposite faces "
                    f"({a} and {OPPOSITE[a]}), not {a} and {b}")
    return None
