"""Pixels dice wire protocol, as pure functions: messages (first byte = type, then a packed little-endian struct),
the advertised manufacturer data, and face values.

Facts (SMART_DICE.md; GameWithPixels' public protocol doc): 1 WhoAreYou; 2 IAmADie; 3 RollState (state u8, face
index u8), sent on every change; 23 RequestRollState; 29 Blink (count u8, duration u16 ms, colour u32 0xAARRGGBB,
face mask u32, fade u8, loop u8); 33 RequestBatteryLevel; 34 BatteryLevel (percent u8, state u8). Roll states:
0 unknown, 1 rolled, 2 handling, 3 rolling, 4 crooked, 5 onFace (older firmware: 1 onFace — in both, 1 is the result
of a roll). Advertising: manufacturer data (company 0x0D39) ledCount, dieType<<4 | colourway, rollState, faceIndex,
battery (bit 7 = charging).

IAmADie follows the documented layout (id, ledCount, design&colour, -, dataSetHash u32, pixelId u32,
availableFlash u16, buildTimestamp u32, rollState, faceIndex, battery %, battery state); longer messages from newer
firmware decode by the same leading fields.

`decode(data)` / `decode_advert(data)` never raise: what they cannot read is `Garbled`, a well-formed message of a
type we do not use is `Unknown`.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34

UNKNOWN, ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = range(6)
ROLL_STATES = {UNKNOWN: "unknown", ROLLED: "rolled", HANDLING: "handling", ROLLING: "rolling", CROOKED: "crooked",
               ON_FACE: "onFace"}

DIE_TYPES = {0: "unknown", 1: "d4", 2: "d6", 3: "d8", 4: "d10", 5: "d00", 6: "d12", 7: "d20", 8: "d6pipped",
             9: "d6fudge"}
DIE_TYPE_CODES = {name: code for code, name in DIE_TYPES.items()}
FACE_COUNTS = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20, "d6pipped": 6, "d6fudge": 6,
               "unknown": 20}
COLOURWAYS = {0: "unknown", 1: "onyxBlack", 2: "hematiteGrey", 3: "midnightGalaxy", 4: "auroraSky", 5: "clear",
              6: "whiteAurora", 0xFF: "custom"}
BATTERY_STATES = {0: "ok", 1: "low", 2: "charging", 3: "done", 4: "badCharging", 5: "error"}
CHARGING_STATES = (2,)


@dataclass(frozen=True)
class IAmADie:
    led_count: int
    die_type: str
    colourway: str
    pixel_id: int
    build_timestamp: int
    roll_state: int
    face_index: int
    battery: int
    battery_state: int
    data_set_hash: int = 0
    available_flash: int = 0


@dataclass(frozen=True)
class RollState:
    state: int
    face_index: int

    @property
    def state_name(self) -> str:
        return ROLL_STATES.get(self.state, f"state {self.state}")


@dataclass(frozen=True)
class BatteryLevel:
    percent: int
    state: int

    @property
    def charging(self) -> bool:
        return self.state in CHARGING_STATES


@dataclass(frozen=True)
class Blink:
    count: int
    duration_ms: int
    colour: int                    # 0xAARRGGBB
    face_mask: int = 0xFFFFFFFF
    fade: int = 0
    loop: bool = False

    @property
    def rgb(self) -> tuple[int, int, int]:
        return (self.colour >> 16) & 0xFF, (self.colour >> 8) & 0xFF, self.colour & 0xFF


@dataclass(frozen=True)
class Request:
    """A body-less host → die message: WhoAreYou, RequestRollState, RequestBatteryLevel."""
    type: int


@dataclass(frozen=True)
class Unknown:
    type: int
    data: bytes


@dataclass(frozen=True)
class Garbled:
    data: bytes
    reason: str


Message = IAmADie | RollState | BatteryLevel | Blink | Request | Unknown | Garbled

_I_AM_A_DIE = struct.Struct("<BBxIIHIBBBB")       # after the type byte: 21 bytes
_ROLL_STATE = struct.Struct("<BB")
_BATTERY = struct.Struct("<BB")
_BLINK = struct.Struct("<BHIIBB")


def _as_bytes(data) -> bytes | None:
    try:
        return bytes(data)
    except (TypeError, ValueError):
        return None


def decode(data) -> Message:
    """One message (either direction) → a value; never raises."""
    raw = _as_bytes(data)
    if raw is None:
        return Garbled(b"", "not bytes")
    if not raw:
        return Garbled(raw, "empty message")
    kind, body = raw[0], raw[1:]
    if kind == ROLL_STATE:
        if len(body) < _ROLL_STATE.size:
            return Garbled(raw, "RollState needs state and face")
        return RollState(*_ROLL_STATE.unpack_from(body))
    if kind == BATTERY_LEVEL:
        if len(body) < _BATTERY.size:
            return Garbled(raw, "BatteryLevel needs level and state")
        level, state = _BATTERY.unpack_from(body)
        return BatteryLevel(min(level, 100), state)
    if kind == I_AM_A_DIE:
        if len(body) < _I_AM_A_DIE.size:
            return Garbled(raw, f"IAmADie needs {_I_AM_A_DIE.size} bytes, got {len(body)}")
        (leds, design, data_hash, pixel_id, flash, built, state, face, battery,
         battery_state) = _I_AM_A_DIE.unpack_from(body)
        return IAmADie(leds, DIE_TYPES.get(design >> 4, "unknown"), COLOURWAYS.get(design & 0x0F, "unknown"),
                       pixel_id, built, state, face, min(battery, 100), battery_state, data_hash, flash)
    if kind == BLINK:
        if len(body) < _BLINK.size:
            return Garbled(raw, "Blink too short")
        count, duration, colour, mask, fade, loop = _BLINK.unpack_from(body)
        return Blink(count, duration, colour, mask, fade, bool(loop))
    if kind in (WHO_ARE_YOU, REQUEST_ROLL_STATE, REQUEST_BATTERY):
        return Request(kind)
    return Unknown(kind, raw)


def encode(message: Message) -> bytes:
    """A message → bytes (the inverse of decode for the types we send or simulate)."""
    if isinstance(message, Request):
        return bytes([message.type])
    if isinstance(message, RollState):
        return bytes([ROLL_STATE]) + _ROLL_STATE.pack(message.state & 0xFF, message.face_index & 0xFF)
    if isinstance(message, BatteryLevel):
        return bytes([BATTERY_LEVEL]) + _BATTERY.pack(message.percent & 0xFF, message.state & 0xFF)
    if isinstance(message, Blink):
        return bytes([BLINK]) + _BLINK.pack(message.count & 0xFF, message.duration_ms & 0xFFFF,
                                            message.colour & 0xFFFFFFFF, message.face_mask & 0xFFFFFFFF,
                                            message.fade & 0xFF, int(message.loop))
    if isinstance(message, IAmADie):
        design = (DIE_TYPE_CODES.get(message.die_type, 0) << 4) | (
            {v: k for k, v in COLOURWAYS.items()}.get(message.colourway, 0) & 0x0F)
        return bytes([I_AM_A_DIE]) + _I_AM_A_DIE.pack(
            message.led_count & 0xFF, design, message.data_set_hash, message.pixel_id, message.available_flash,
            message.build_timestamp, message.roll_state, message.face_index, message.battery, message.battery_state)
    raise TypeError(f"cannot encode {type(message).__name__}")


def who_are_you() -> bytes:
    return encode(Request(WHO_ARE_YOU))


def request_roll_state() -> bytes:
    return encode(Request(REQUEST_ROLL_STATE))


def request_battery() -> bytes:
    return encode(Request(REQUEST_BATTERY))


def blink(rgb: tuple[int, int, int], count: int = 3, duration_ms: int = 300, face_mask: int = 0xFFFFFFFF,
          fade: int = 0, loop: bool = False) -> bytes:
    r, g, b = (max(0, min(255, int(c))) for c in rgb)
    return encode(Blink(max(0, min(255, count)), max(0, min(0xFFFF, duration_ms)), 0xFF000000 | r << 16 | g << 8 | b,
                        face_mask, fade, loop))


# --- advertising ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advert:
    led_count: int
    die_type: str
    colourway: str
    roll_state: int
    face_index: int
    battery: int
    charging: bool


def decode_advert(data) -> Advert | Garbled:
    """The 5 bytes of manufacturer data a Pixels die advertises (company id already removed); never raises."""
    raw = _as_bytes(data)
    if raw is None:
        return Garbled(b"", "not bytes")
    if len(raw) < 5:
        return Garbled(raw, f"advertised state needs 5 bytes, got {len(raw)}")
    leds, design, state, face, battery = raw[:5]
    return Advert(leds, DIE_TYPES.get(design >> 4, "unknown"), COLOURWAYS.get(design & 0x0F, "unknown"), state, face,
                  min(battery & 0x7F, 100), bool(battery & 0x80))


def encode_advert(advert: Advert) -> bytes:
    design = (DIE_TYPE_CODES.get(advert.die_type, 0) << 4) | (
        {v: k for k, v in COLOURWAYS.items()}.get(advert.colourway, 0) & 0x0F)
    return bytes([advert.led_count & 0xFF, design, advert.roll_state & 0xFF, advert.face_index & 0xFF,
                  (min(advert.battery, 100) & 0x7F) | (0x80 if advert.charging else 0)])


def face_value(die_type: str, face_index: int) -> int:
    """The number a face index shows: index + 1 for most dice; d10 shows the index (0-9); d00 index × 10."""
    if die_type == "d10":
        return face_index
    if die_type == "d00":
        return face_index * 10
    return face_index + 1


def face_index(die_type: str, value: int) -> int:
    """Inverse of face_value (the simulated die uses it); ValueError when the die has no such face."""
    count = FACE_COUNTS.get(die_type, 20)
    index = value if die_type == "d10" else value // 10 if die_type == "d00" else value - 1
    if not 0 <= index < count or face_value(die_type, index) != value:
        raise ValueError(f"a {die_type} has no face {value}")
    return index
