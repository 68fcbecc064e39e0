"""Which dice results are new rolls (`RollFilter`): a die that says again where it stands after reconnecting, or a
die put back by hand, is no roll; a real new roll — even on the same face — is. Pure: the device manager feeds it every
observation of its dice, `python -m firmware_bridge replay` the ones of a capture."""
from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Iterator

from firmware_bridge.observations import DieCrooked, DieRolled, DieRolling, DieSetDown, Observation


@dataclass
class _DieMemory:
    moving: bool = False                   # a DieRolling came since the last result: the next result is a roll
    fresh: bool = True                     # no report yet since its device (re)connected
    last: tuple | None = None              # the last result: ("face", n) or ("crooked",)
    rolls: collections.deque = field(default_factory=lambda: collections.deque(maxlen=64))


class RollFilter:
    """Decides which results are new rolls. Per die:

    - a result carrying the device's roll number counts once per number (the device numbers its rolls);
    - after a DieRolling, the next result counts (a real roll — the same face as before still counts);
    - the first result after (re)connecting that did not follow a DieRolling is the die telling where it stands: it
      counts only if it differs from the last result we know (the die was rolled while we were away), otherwise it
      is the old roll re-sent and is dropped; at the very first connection it is the die's resting face, not a roll;
    - otherwise (a device that never reports movement) every result counts.
    A roll made while disconnected that lands on the same face as the last one cannot be told from a re-send; it is
    lost unless the device numbers its rolls."""

    def __init__(self) -> None:
        self._dice: dict[str, _DieMemory] = {}

    def connected(self, dice: Iterator[str] | list[str]) -> None:
        """A device (re)connected: its dice's next unprompted report is a state report."""
        for die in dice:
            memory = self._dice.setdefault(die, _DieMemory())
            memory.fresh = True

    def accept(self, obs: Observation) -> bool:
        if isinstance(obs, DieRolling):
            memory = self._dice.setdefault(obs.die, _DieMemory())
            memory.moving, memory.fresh = True, False
            return True
        if isinstance(obs, DieSetDown):
            # Put back by hand: no roll, but the die's standing face is now this one (a later re-send of it is no
            # roll either), and the motion it started is over.
            memory = self._dice.setdefault(obs.die, _DieMemory())
            memory.moving, memory.fresh, memory.last = False, False, ("face", obs.face)
            return True
        if not isinstance(obs, (DieRolled, DieCrooked)):
            return True
        memory = self._dice.setdefault(obs.die, _DieMemory())
        result = ("face", obs.face) if isinstance(obs, DieRolled) else ("crooked",)
        number = getattr(obs, "roll", None)
        if number is not None:
            keep = number not in memory.rolls
            memory.rolls.append(number)
        elif memory.moving:
            keep = True
        elif memory.fresh:
            keep = memory.last is not None and memory.last != result
        else:
            keep = True
        memory.moving, memory.fresh, memory.last = False, False, result
        return keep

    def last(self, die: str) -> tuple | None:
        memory = self._dice.get(die)
        return memory.last if memory else None
