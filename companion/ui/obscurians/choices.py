"""What a button of the round screen means: one small value per option, handed back unchanged when it is tapped
(turn.py turns them into engine actions, reasons.py says why a dimmed one does nothing). No string is ever parsed."""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.obscurians.constants import N_DICE


# -- the options -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reveal:
    card: str


@dataclass(frozen=True)
class ChipMission:
    mission: str        # the mission on the chip placed on the selected player


@dataclass(frozen=True)
class FaceCount:
    face: str
    n: int              # this many of the dice being tapped in show `face` (tap it again: none)


@dataclass(frozen=True)
class PayReroll:
    discard: str | None  # FACE_DOWN: one chip, face down; None: the free reroll of Reroll Once


@dataclass(frozen=True)
class ChooseAction:
    kind: str
    wilds: int


@dataclass(frozen=True)
class AssignWild:
    kind: str            # All Actions Mandatory: what the next Wild counts as


@dataclass(frozen=True)
class PickKind:
    kind: str            # All Actions Mandatory: which rolled action to carry out next


@dataclass(frozen=True)
class PickSeat:
    seat: int            # a player (their row's name, or their panel): victim, receiver, source ...


@dataclass(frozen=True)
class PickGood:
    seat: int            # whose good ...
    good: str            # ... and which one


@dataclass(frozen=True)
class SecureAll:
    pass


@dataclass(frozen=True)
class SecurePair:
    good: str            # two goods of this colour into the vault, in one tap


@dataclass(frozen=True)
class DieSlot:
    index: int           # a die of the roll shown among the options (or NEW_ROLL): the same as a tap on that die


@dataclass(frozen=True)
class Cancel:
    pass


Choice = (Reveal | ChipMission | FaceCount | PayReroll | ChooseAction | AssignWild | PickKind
          | PickSeat | PickGood | SecureAll | SecurePair | DieSlot | Cancel)

NEW_ROLL = N_DICE  # the slot after the five dice: "New roll", the whole roll tapped in again after a reroll
