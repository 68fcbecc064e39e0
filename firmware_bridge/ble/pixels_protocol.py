"""Pixels dice wire protocol, as pure functions: messages (first byte = type, then a packed little-endian struct),
the advertised data, face values and the corrections the public SDK applies for older firmware.

Sources (facts only; the code is ours): GameWithPixels/DiceFirmware `src/bluetooth/bluetooth_messages.h` (message
types, MessageIAmADie, MessageRollState, MessageBlink, MessageBatteryLevel), `src/modules/accelerometer.h`
(RollState), `src/bluetooth/bluetooth_custom_advertising_data.cpp` (CustomManufacturerData); GameWithPixels/
pixels-js `packages/pixels-core-connect/src/Messages.ts` (IAmADie in chunks, LegacyIAmADie, chunk classes),
`ChunkMessage.ts` (how chunks are read), `Pixel.ts` (which layout by length), `PixelRollState.ts` (roll states since
Nov 2024), `packages/pixels-core-animation/src/DiceUtils.ts` (faceFromIndex and isFirmwareWithBadNormals),
`packages/react-native-pixels-connect/src/getScannedPixel.ts` (advertisement and scan-response service data).

Message types: 1 WhoAreYou, 2 IAmADie, 3 RollState (state u8, face index u8), 23 RequestRollState, 29 Blink (count
u8, duration u16 ms for the whole blink, colour u32 0xAARRGGBB, face mask u32, fade u8, loop u8), 30 BlinkAck,
33 RequestBatteryLevel, 34 BatteryLevel (percent u8, state u8), 59 StopAllAnimations.

IAmADie, three layouts, told apart as pixels-js does (by length) and then by the build date:
  * 22 bytes, firmware before September 2023: ledCount, designAndColor (the old look enum), a padding byte,
    dataSetHash u32, pixelId u32, availableFlash u16, buildTimestamp u32, rollState, faceIndex, battery %, state;
  * 22 bytes, firmware September 2023 to October 2024 (pixels-js LegacyIAmADie): ledCount, colorway, dieType,
    then the same fields;
  * anything else, current firmware: chunks, each starting with its own size byte (which counts itself): version
    info (firmwareVersion u16, buildTimestamp u32, settingsVersion u16, three api versions u16), die info
    (pixelId u32, chipModel, dieType, ledCount, colorway), custom design name (NUL-terminated), die name
    (NUL-terminated), settings info (profileDataHash u32, availableFlash u32, totalUsableFlash u32), status info
    (battery %, battery state, rollState, faceIndex). A chunk longer than we know is read for what we know.

Roll states: firmware until October 2024 — 0 unknown, 1 onFace (at rest, whether thrown or put down), 2 handling,
3 rolling, 4 crooked; since November 2024 — 0 unknown, 1 rolled (at rest after a proper roll), 2 handling, 3
rolling, 4 crooked, 5 onFace (at rest without a roll: put down by hand). In both, 1 after rolling is a roll.

Corrections for older firmware (what pixels-js applies): dice built up to 2024-01-01 23:00 UTC number d4 and d6 faces
with the old normals (`face_value(..., built=)`); six-LED dice built before 2024-05-22 report "crooked" where the die
lies flat — the SDK treats it as rolled (`crooked_is_flat`).

`decode(data)` / `decode_advert(...)` never raise: what they cannot read is `Garbled`, a well-formed message of a
type we do not use is `Unknown`.
"""
from __future__ import annotations

import datetime as _dt
import struct
from dataclasses import dataclass

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
BLINK_ACK = 30
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34
STOP_ALL_ANIMATIONS = 59

# RollState values. 1 is the result of a roll in both generations (see the module's docstring).
UNKNOWN, ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = range(6)
LEGACY_ON_FACE = 1
ROLL_STATES = {UNKNOWN: "unknown", ROLLED: "rolled", HANDLING: "handling", ROLLING: "rolling", CROOKED: "crooked",
               ON_FACE: "onFace"}
LEGACY_ROLL_STATES = {0: "unknown", 1: "onFace", 2: "handling", 3: "rolling", 4: "crooked"}

DIE_TYPES = {0: "unknown", 1: "d4", 2: "d6", 3: "d8", 4: "d10", 5: "d00", 6: "d12", 7: "d20", 8: "d6pipped",
             9: "d6fudge"}
DIE_TYPE_CODES = {name: code for code, name in DIE_TYPES.items()}
FACE_COUNTS = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20, "d6pipped": 6, "d6fudge": 6,
               "unknown": 20}
LED_COUNTS = {"d4": 6, "d6": 6, "d6fudge": 6, "d6pipped": 21, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20}
# Die type from the LED count, for dice that say "unknown" (pixels-js DiceUtils.estimateDieType).
DIE_TYPE_BY_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6pipped"}
COLOURWAYS = {0: "unknown", 1: "onyxBlack", 2: "hematiteGrey", 3: "midnightGalaxy", 4: "auroraSky", 5: "clear",
              6: "whiteAurora", 0xFF: "custom"}
COLOURWAY_CODES = {name: code for code, name in COLOURWAYS.items()}
# The look before September 2023 (pixels-js PixelDesignAndColorValues): the dice of that time were only these.
DESIGNS = {0: "unknown", 1: "generic", 2: "v3Orange", 3: "v4BlackClear", 4: "v4WhiteClear", 5: "v5Grey",
           6: "v5White", 7: "v5Black", 8: "v5Gold", 9: "onyxBlack", 10: "hematiteGrey", 11: "midnightGalaxy",
           12: "auroraSky"}
DESIGN_CODES = {name: code for code, name in DESIGNS.items()}
BATTERY_STATES = {0: "ok", 1: "low", 2: "charging", 3: "done", 4: "badCharging", 5: "error"}
CHARGING_STATES = (2, 3)  # pixels-js isPixelChargingOrDone: on the charger, charging or full

LEGACY_SIZE = 22


def _utc(y: int, m: int, d: int, hour: int = 0) -> int:
    return int(_dt.datetime(y, m, d, hour, tzinfo=_dt.timezone.utc).timestamp())


DESIGN_LAYOUT_UNTIL = _utc(2023, 9, 1)        # 22-byte IAmADie with designAndColor + padding before this
BAD_NORMALS_UNTIL = 1_704_150_000             # pixels-js DiceUtils FW_2023_11_17 (2024-01-01 23:00 UTC), inclusive
CROOKED_FLAT_UNTIL = _utc(2024, 5, 22)        # six-LED dice report lying flat as crooked before this
NEW_ROLL_STATES_FROM = _utc(2024, 11, 1)      # rolled = 1, onFace = 5 from the November 2024 firmware on


@dataclass(frozen=True)
class IAmADie:
    """A die's identity and status, whichever layout carried it (`layout`: "2022", "2023" or "chunked")."""
    layout: str
    led_count: int
    die_type: str                  # as sent ("unknown" when the die does not say: see `model`)
    colourway: str                 # colorway name; before September 2023 the old design name
    pixel_id: int
    build_timestamp: int           # UNIX seconds: the firmware's date
    roll_state: int
    face_index: int
    battery: int
    battery_state: int
    data_set_hash: int = 0
    available_flash: int = 0
    name: str = ""                 # chunked only
    firmware_version: int = 0      # chunked only

    @property
    def model(self) -> str:
        """The die type, estimated from the LED count when the die says "unknown" (pixels-js does so too)."""
        return self.die_type if self.die_type != "unknown" else DIE_TYPE_BY_LEDS.get(self.led_count, "unknown")

    @property
    def charging(self) -> bool:
        return self.battery_state in CHARGING_STATES


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
    duration_ms: int               # the whole blink: `count` flashes, each lit for half of its share
    colour: int                    # 0xAARRGGBB
    face_mask: int = 0xFFFFFFFF
    fade: int = 0
    loop: bool = False

    @property
    def rgb(self) -> tuple[int, int, int]:
        return (self.colour >> 16) & 0xFF, (self.colour >> 8) & 0xFF, self.colour & 0xFF


@dataclass(frozen=True)
class Request:
    """A body-less message: WhoAreYou, RequestRollState, RequestBatteryLevel, StopAllAnimations, BlinkAck."""
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

_LEGACY = struct.Struct("<BBBIIHIBBBB")       # after the type byte: 21 bytes
_ROLL_STATE = struct.Struct("<BB")
_BATTERY = struct.Struct("<BB")
_BLINK = struct.Struct("<BHIIBB")
_BODYLESS = (WHO_ARE_YOU, REQUEST_ROLL_STATE, REQUEST_BATTERY, STOP_ALL_ANIMATIONS, BLINK_ACK)


def _as_bytes(data) -> bytes | None:
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            return bytes(data)
        except (TypeError, ValueError, BufferError):
            return None
    return None


def decode(data) -> Message:
    """One message (either direction) → a value; never raises, whatever it is given."""
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
        if level > 100:
            return Garbled(raw, f"BatteryLevel of {level} %")
        return BatteryLevel(level, state)
    if kind == I_AM_A_DIE:
        return _legacy_i_am_a_die(raw) if len(raw) == LEGACY_SIZE else _chunked_i_am_a_die(raw)
    if kind == BLINK:
        if len(body) < _BLINK.size:
            return Garbled(raw, "Blink too short")
        count, duration, colour, mask, fade, loop = _BLINK.unpack_from(body)
        return Blink(count, duration, colour, mask, fade, bool(loop))
    if kind in _BODYLESS:
        return Request(kind)
    return Unknown(kind, raw)


def _legacy_i_am_a_die(raw: bytes) -> Message:
    (leds, look, third, data_hash, pixel_id, flash, built, state, face, battery,
     battery_state) = _LEGACY.unpack_from(raw, 1)
    if battery > 100:
        return Garbled(raw, f"IAmADie with a battery of {battery} %")
    if built < DESIGN_LAYOUT_UNTIL:  # designAndColor, then a padding byte
        return IAmADie("2022", leds, "unknown", DESIGNS.get(look, "unknown"), pixel_id, built, state, face, battery,
                       battery_state, data_hash, flash)
    return IAmADie("2023", leds, DIE_TYPES.get(third, "unknown"), COLOURWAYS.get(look, "unknown"), pixel_id, built,
                   state, face, battery, battery_state, data_hash, flash)


def _chunks(raw: bytes) -> list[bytes] | str:
    """The chunks after the type byte (each with its size byte), or why they cannot be read."""
    out, pos = [], 1
    while pos < len(raw) and len(out) < 6:
        size = raw[pos]
        if size == 0:
            return f"chunk {len(out) + 1} has size 0"
        if pos + size > len(raw):
            return f"chunk {len(out) + 1} claims {size} bytes, {len(raw) - pos} left"
        out.append(raw[pos:pos + size])
        pos += size
    return out


def _text(chunk: bytes) -> str:
    return chunk[1:].split(b"\0", 1)[0].decode("utf-8", "replace")


def _chunked_i_am_a_die(raw: bytes) -> Message:
    chunks = _chunks(raw)
    if isinstance(chunks, str):
        return Garbled(raw, f"IAmADie: {chunks}")
    if len(chunks) < 6:
        return Garbled(raw, f"IAmADie needs 22 bytes or 6 chunks, got {len(raw)} bytes, {len(chunks)} chunks")
    version, info, _custom, name, settings, status = chunks

    def field(chunk: bytes, fmt: str, offset: int, default=0):
        s = struct.Struct("<" + fmt)
        return s.unpack_from(chunk, offset)[0] if len(chunk) >= offset + s.size else default

    if len(info) < 9 or len(status) < 5:
        return Garbled(raw, "IAmADie: die info or status chunk too short")
    battery = status[1]
    if battery > 100:
        return Garbled(raw, f"IAmADie with a battery of {battery} %")
    return IAmADie("chunked", info[7], DIE_TYPES.get(info[6], "unknown"), COLOURWAYS.get(info[8], "unknown"),
                   field(info, "I", 1), field(version, "I", 3), status[3], status[4], battery, status[2],
                   field(settings, "I", 1), field(settings, "I", 5), _text(name), field(version, "H", 1))


def encode(message: Message) -> bytes:
    """A host → die message → bytes (what the app sends: requests and Blink)."""
    if isinstance(message, Request):
        return bytes([message.type])
    if isinstance(message, Blink):
        return bytes([BLINK]) + _BLINK.pack(message.count & 0xFF, message.duration_ms & 0xFFFF,
                                            message.colour & 0xFFFFFFFF, message.face_mask & 0xFFFFFFFF,
                                            message.fade & 0xFF, int(message.loop))
    raise TypeError(f"the app does not send {type(message).__name__}")


def who_are_you() -> bytes:
    return encode(Request(WHO_ARE_YOU))


def request_roll_state() -> bytes:
    return encode(Request(REQUEST_ROLL_STATE))


def request_battery() -> bytes:
    return encode(Request(REQUEST_BATTERY))


def stop_all_animations() -> bytes:
    return encode(Request(STOP_ALL_ANIMATIONS))


def blink(rgb: tuple[int, int, int], count: int = 3, duration_ms: int = 900, face_mask: int = 0xFFFFFFFF,
          fade: int = 0, loop: bool = False) -> bytes:
    """Blink `count` times over `duration_ms` in all (each flash lit for half of its share)."""
    r, g, b = (max(0, min(255, int(c))) for c in rgb)
    return encode(Blink(max(0, min(255, count)), max(0, min(0xFFFF, duration_ms)), 0xFF000000 | r << 16 | g << 8 | b,
                        face_mask, fade, loop))


# --- advertising ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advert:
    """What a Pixels die advertises: manufacturer data (ledCount, dieType << 4 | colorway, rollState, faceIndex,
    battery with bit 7 = charging) and, in the scan response, service data (pixelId u32, buildTimestamp u32)."""
    led_count: int
    die_type: str
    colourway: str
    roll_state: int
    face_index: int
    battery: int
    charging: bool
    pixel_id: int | None = None
    build_timestamp: int | None = None

    @property
    def model(self) -> str:
        return self.die_type if self.die_type != "unknown" else DIE_TYPE_BY_LEDS.get(self.led_count, "unknown")


def decode_advert(data, service_data=None) -> Advert | Garbled:
    """The 5 bytes of manufacturer data (company id already removed) and the optional service data; never raises."""
    raw = _as_bytes(data)
    if raw is None:
        return Garbled(b"", "not bytes")
    if len(raw) < 5:
        return Garbled(raw, f"advertised state needs 5 bytes, got {len(raw)}")
    leds, design, state, face, battery = raw[:5]
    pixel_id = built = None
    extra = _as_bytes(service_data) if service_data is not None else None
    if extra is not None and len(extra) >= 8:
        pixel_id, built = struct.unpack_from("<II", extra)
    return Advert(leds, DIE_TYPES.get(design >> 4, "unknown"), COLOURWAYS.get(design & 0x0F, "unknown"), state, face,
                  min(battery & 0x7F, 100), bool(battery & 0x80), pixel_id, built)


# --- faces and the firmware's own corrections ------------------------------------------------------------------------

# Faces of dice built with the bad normals (pixels-js DiceUtils.faceFromIndex for isFirmwareWithBadNormals):
# index → face value; indices not listed read as index + 1.
_BAD_NORMALS = {"d6": {4: 2, 3: 3, 2: 4, 1: 5}, "d4": {3: 2, 2: 3, 5: 4, 0: 1, 1: 1, 4: 1}}


def has_bad_normals(built: int | None) -> bool:
    return bool(built) and built <= BAD_NORMALS_UNTIL


def crooked_is_flat(built: int | None, led_count: int) -> bool:
    """Six-LED dice (d4, d6, fudge) built before 2024-05-22 say "crooked" where they lie flat (pixels-js: a roll)."""
    return bool(built) and built < CROOKED_FLAT_UNTIL and led_count == 6


def new_roll_states(built: int | None) -> bool:
    """Firmware from November 2024 on: 1 is rolled and 5 onFace (unknown date: the current firmware)."""
    return not built or built >= NEW_ROLL_STATES_FROM


def face_value(die_type: str, face_index: int, built: int | None = None) -> int:
    """The number a face index shows: index + 1 for most dice; d10 shows the index (0-9); d00 index × 10; d4 and d6
    built with the bad normals are remapped."""
    if has_bad_normals(built) and die_type in _BAD_NORMALS:
        return _BAD_NORMALS[die_type].get(face_index, face_index + 1)
    if die_type == "d10":
        return face_index
    if die_type == "d00":
        return face_index * 10
    return face_index + 1


def face_values(die_type: str) -> tuple[int, ...]:
    """Every value a die of this type shows."""
    count = FACE_COUNTS.get(die_type, 20)
    return tuple(sorted({face_value(die_type, i) for i in range(count)}))


def date_of(built: int | None) -> str | None:
    """A build timestamp as the firmware's date, YYYY-MM-DD (UTC); None when unknown."""
    if not built:
        return None
    try:
        return _dt.datetime.fromtimestamp(built, _dt.timezone.utc).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return None
