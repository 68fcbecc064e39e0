"""What the host asks of a device: small frozen values, encoded by each protocol (GoDice, Pixels, Table Bus).

A device that cannot do a command raises ProtocolError naming it; colours are (r, g, b) 0-255.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Blink:
    """Flash `count` times in `colour`, each flash `duration_ms` long (lit for its first half, dark for the second),
    on every brand alike: "roll this die again", "this is your die". The whole blink lasts count × duration_ms."""
    colour: tuple[int, int, int]
    count: int = 3
    duration_ms: int = 300


@dataclass(frozen=True)
class LightUp:
    """Light in `colour` until told otherwise (a die picked to roll again); LightUp((0, 0, 0)) turns it off."""
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class RequestBattery:
    pass


@dataclass(frozen=True)
class RequestState:
    """Ask for a full report now (a die's roll state, a board's full grid dump)."""
    pass


@dataclass(frozen=True)
class Throw:
    """Simulated dice only: throw this die now (`face` None: the simulator draws the face). A simulated device acts only
    when someone asks it to (table rule 8, docs/architecture.md); a real die raises ProtocolError, a hand throws it."""
    face: int | None = None


@dataclass(frozen=True)
class TurnOver:
    """A simulated hourglass stand only: turn it over now, as a hand turns the real one."""


Command = Blink | LightUp | RequestBattery | RequestState | Throw | TurnOver
