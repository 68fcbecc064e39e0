"""What the host asks of a device: small frozen values, encoded by each protocol (GoDice, Pixels, Table Bus).

A device that cannot do a command raises ProtocolError naming it; colours are (r, g, b) 0-255.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Blink:
    """Flash `count` times (`duration_ms` per flash) in `colour`: "roll this die again", "this is your die"."""
    colour: tuple[int, int, int]
    count: int = 3
    duration_ms: int = 300


@dataclass(frozen=True)
class LightUp:
    """Steady light in `colour` (a player's colour on their die); LightUp((0, 0, 0)) turns it off."""
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class RequestBattery:
    pass


@dataclass(frozen=True)
class RequestState:
    """Ask for a full report now (a die's roll state, a board's full grid dump)."""
    pass


Command = Blink | LightUp | RequestBattery | RequestState
