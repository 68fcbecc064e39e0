"""GoDice wire protocol, as pure functions: die → host messages decoded, host → die commands encoded, and the
shell tables that turn the die's accelerometer vector into a face.

Facts (SMART_DICE.md; ParticulaCode/GoDiceAndroid_iOS_API common/godiceapi.c godice_incoming_packet, and the
`godice` package's dice.py _handle_upd): the die sends ASCII-led messages on the Nordic UART TX characteristic —
"R" roll started (only its first byte counts: both official parsers match the prefix); "S" x y z stable (signed int8
each); "FS"/"TS"/"MS" x y z fake-, tilt- and move-stable ("MS": turned from one face to another by hand — no throw);
"Tap" and "DTap" a tap and a double tap on the die; "Bat" n battery % (0-100); "Col" c dot colour; "Char" b charging.
The die never sends a face: the host picks the nearest reference vector of the shell the die wears, so the shell is
per-die configuration.

`decode(data)` never raises: anything it cannot read is `Garbled(data, reason)`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

# --- die → host --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollStarted:
    pass


@dataclass(frozen=True)
class Stable:
    """The die came to rest. kind: "S" stable, "FS" fake-stable, "TS" tilt-stable, "MS" move-stable."""
    kind: str
    xyz: tuple[int, int, int]


@dataclass(frozen=True)
class Battery:
    percent: int


@dataclass(frozen=True)
class Colour:
    code: int

    @property
    def name(self) -> str:
        return COLOURS.get(self.code, f"colour {self.code}")


@dataclass(frozen=True)
class Charging:
    charging: bool


@dataclass(frozen=True)
class Tap:
    """The die was tapped (`double`: twice). Not a roll; the app does not use it."""
    double: bool = False


@dataclass(frozen=True)
class Garbled:
    data: bytes
    reason: str


Message = RollStarted | Stable | Battery | Colour | Charging | Tap | Garbled

COLOURS = {0: "black", 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange"}
COLOUR_CODES = {name: code for code, name in COLOURS.items()}
STABLE_KINDS = ("S", "FS", "TS", "MS")


def _xyz(raw: bytes) -> tuple[int, int, int]:
    return tuple(b - 256 if b > 127 else b for b in raw[:3])  # type: ignore[return-value]


def decode(data: bytes | bytearray | memoryview) -> Message:
    """One notification from the die → a message; never raises, whatever it is given."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return Garbled(b"", "not bytes")
    try:
        data = bytes(data)
    except (TypeError, ValueError, BufferError):
        return Garbled(b"", "not bytes")
    if not data:
        return Garbled(data, "empty notification")
    if data[:1] == b"R":          # roll started; trailing bytes ignored, as the official parsers do
        return RollStarted()
    if data.startswith(b"DTap"):
        return Tap(double=True)
    if data.startswith(b"Tap"):
        return Tap()
    if data.startswith(b"Bat"):
        if len(data) < 4:
            return Garbled(data, "Bat without a level")
        return Battery(data[3]) if data[3] <= 100 else Garbled(data, f"Bat of {data[3]} %")
    if data.startswith(b"Col"):
        return Colour(data[3]) if len(data) >= 4 else Garbled(data, "Col without a colour")
    if data.startswith(b"Char"):
        return Charging(bool(data[4])) if len(data) >= 5 else Garbled(data, "Char without a state")
    if data[:2] in (b"FS", b"TS", b"MS"):
        if len(data) >= 5:
            return Stable(data[:2].decode(), _xyz(data[2:5]))
        return Garbled(data, f"{data[:2].decode()} without x y z")
    if data[:1] == b"S":
        return Stable("S", _xyz(data[1:4])) if len(data) >= 4 else Garbled(data, "S without x y z")
    return Garbled(data, f"unknown message starting 0x{data[0]:02X}")


# --- host → die --------------------------------------------------------------------------------------------------

CMD_BATTERY = 3
CMD_SET_LEDS = 8
CMD_PULSE = 16
CMD_COLOUR = 23


def _byte(v: int) -> int:
    return max(0, min(255, int(v)))


def _rgb(rgb: tuple[int, int, int]) -> list[int]:
    if len(rgb) != 3:
        raise ValueError(f"a colour is (r, g, b), got {rgb!r}")
    return [_byte(c) for c in rgb]


def battery_request() -> bytes:
    return bytes([CMD_BATTERY])


def colour_request() -> bytes:
    return bytes([CMD_COLOUR])


def set_leds(led1: tuple[int, int, int], led2: tuple[int, int, int] | None = None) -> bytes:
    """Both LEDs steady (the second defaults to the first); (0, 0, 0) is off."""
    return bytes([CMD_SET_LEDS, *_rgb(led1), *_rgb(led2 if led2 is not None else led1)])


def pulse(count: int, on_ms: int, off_ms: int, rgb: tuple[int, int, int]) -> bytes:
    """Pulse both LEDs `count` times; on/off times travel in 10 ms units (at most 2.55 s)."""
    return bytes([CMD_PULSE, _byte(count), _byte(round(on_ms / 10)), _byte(round(off_ms / 10)), *_rgb(rgb), 1, 0])


@dataclass(frozen=True)
class HostCommand:
    """A host → die command as the die reads it (the simulated die records these)."""
    name: str                       # "battery", "colour", "leds", "pulse", "unknown"
    args: tuple = ()


def decode_command(data: bytes) -> HostCommand:
    """What a host → die write asks for; never raises."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return HostCommand("unknown", (b"",))
    data = bytes(data)
    if not data:
        return HostCommand("unknown", (data,))
    code = data[0]
    if code == CMD_BATTERY:
        return HostCommand("battery")
    if code == CMD_COLOUR:
        return HostCommand("colour")
    if code == CMD_SET_LEDS and len(data) >= 7:
        return HostCommand("leds", (tuple(data[1:4]), tuple(data[4:7])))
    if code == CMD_PULSE and len(data) >= 7:
        return HostCommand("pulse", (data[1], data[2] * 10, data[3] * 10, tuple(data[4:7])))
    return HostCommand("unknown", (data,))


# --- shells: accelerometer vector → face ---------------------------------------------------------------------------

# Reference vectors, in face order (index 0 is face 1).
_D6 = ((-64, 0, 0), (0, 0, 64), (0, 64, 0), (0, -64, 0), (0, 0, -64), (64, 0, 0))
_D20 = ((-64, 0, -22), (42, -42, 40), (0, 22, -64), (0, 22, 64), (-42, -42, 42), (22, 64, 0), (-42, -42, -42),
        (64, 0, -22), (-22, 64, 0), (42, -42, -42), (-42, 42, 42), (22, -64, 0), (-64, 0, 22), (42, 42, 42),
        (-22, -64, 0), (42, 42, -42), (0, -22, -64), (0, -22, 64), (-42, 42, -42), (64, 0, 22))
_D24 = ((20, -60, -20), (20, 0, 60), (-40, -40, 40), (-60, 0, 20), (40, 20, 40), (-20, -60, -20), (20, 60, 20),
        (-40, 20, -40), (-40, 40, 40), (-20, 0, 60), (-20, -60, 20), (60, 0, 20), (-60, 0, -20), (20, 60, -20),
        (20, 0, -60), (40, -20, -40), (-20, 60, -20), (-40, -40, -40), (40, -20, 40), (20, -60, 20), (60, 0, -20),
        (40, 20, -40), (-20, 0, -60), (-20, 60, 20))
# Shells worn over the D20 or D24 core: the core's position (1-based) → the number printed on the shell.
_D10_ON_D20 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8)
_D4_ON_D24 = (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2)
_D8_ON_D24 = (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6)
_D12_ON_D24 = tuple(range(1, 13)) * 2


@dataclass(frozen=True)
class Shell:
    name: str
    vectors: tuple[tuple[int, int, int], ...]
    faces: tuple[int, ...]          # the number shown for each vector

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.faces)))


SHELLS: dict[str, Shell] = {
    "d6": Shell("d6", _D6, tuple(range(1, 7))),
    "d20": Shell("d20", _D20, tuple(range(1, 21))),
    "d10": Shell("d10", _D20, _D10_ON_D20),
    "d10x": Shell("d10x", _D20, tuple(v * 10 for v in _D10_ON_D20)),     # percentile: 00, 10 … 90
    "d4": Shell("d4", _D24, _D4_ON_D24),
    "d8": Shell("d8", _D24, _D8_ON_D24),
    "d12": Shell("d12", _D24, _D12_ON_D24),
    "d24": Shell("d24", _D24, tuple(range(1, 25))),
}
SHELLS["d00"] = SHELLS["d10x"]

# How sure a landing of each stability is a throw's result ("MS" is no throw: companion reads it as a die set down).
STABILITY_CONFIDENCE = {"S": 1.0, "FS": 0.6, "TS": 0.3}


def shell(name: str) -> Shell:
    """The shell called `name` (d4, d6, d8, d10, d10x/d00, d12, d20, d24); ValueError naming the choices."""
    try:
        return SHELLS[str(name).lower()]
    except KeyError:
        raise ValueError(f"unknown GoDice shell {name!r}; use one of {', '.join(sorted(SHELLS))}") from None


def read_face(shell_name: str, xyz: tuple[int, int, int]) -> tuple[int, float]:
    """(face, confidence) for an accelerometer reading: the nearest reference vector; the confidence drops when
    the reading lies nearly as close to a vector showing another number (a die leaning on something)."""
    table = shell(shell_name)
    distances = sorted((math.dist(xyz, v), table.faces[i]) for i, v in enumerate(table.vectors))
    best, face = distances[0]
    other = next((d for d, f in distances[1:] if f != face), None)
    if other is None or other + best == 0:
        return face, 1.0
    margin = (other - best) / (other + best)           # 1: right on a vector; 0: halfway to another number
    return face, (1.0 if margin >= 0.25 else round(0.5 + 2 * margin, 3))


def vector_for(shell_name: str, face: int) -> tuple[int, int, int]:
    """A reference vector that reads as `face` on this shell (the simulated die uses it); ValueError if none."""
    table = shell(shell_name)
    for i, f in enumerate(table.faces):
        if f == face:
            return table.vectors[i]
    raise ValueError(f"a {table.name} shell has no face {face}; faces: {', '.join(map(str, table.values))}")
