"""What the simulated dice do, as byte-level firmware models: answers to host writes, the messages a roll produces.

One model per die, shared by the virtual radio's peripherals (firmware_bridge.ble.virtual.dice) and the scripted
fake transport (firmware_bridge.ble.testing), so every transport hears the same bytes a real die sends.
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from typing import Iterator

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import pixels_protocol as pp


@dataclass
class GoDiceModel:
    """A GoDice's firmware: it answers battery and colour requests, records LED commands, and reports a landing as
    "S" + the accelerometer vector of the face (never the face itself) for the shell it wears."""

    shell: str = "d6"
    color: str = "black"
    battery: int = 100
    charging: bool = False
    noise: int = 3                                 # accelerometer jitter, per axis
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    face: int | None = None
    leds: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (0, 0, 0))
    commands: list[gp.HostCommand] = field(default_factory=list)

    def __post_init__(self) -> None:
        gp.shell(self.shell)
        if self.color not in gp.COLOUR_CODES:
            raise ValueError(f"GoDice colours: {', '.join(gp.COLOUR_CODES)}")

    def on_write(self, data: bytes) -> list[bytes]:
        command = gp.decode_command(data)
        self.commands.append(command)
        if command.name == "battery":
            return [self.battery_message()]
        if command.name == "colour":
            return [b"Col" + bytes([gp.COLOUR_CODES[self.color]])]
        if command.name == "leds":
            self.leds = command.args  # type: ignore[assignment]
        return []

    def battery_message(self) -> bytes:
        return b"Bat" + bytes([max(0, min(100, self.battery))])

    def roll_started(self) -> bytes:
        return b"R"

    def landed(self, face: int, kind: str = "S") -> bytes:
        """The message for coming to rest on `face` ("S" stable, "MS"/"FS"/"TS" the other stabilities)."""
        if kind not in gp.STABLE_KINDS:
            raise ValueError(f"stability kinds: {', '.join(gp.STABLE_KINDS)}")
        x, y, z = gp.vector_for(self.shell, face)
        jitter = [self.rng.randint(-self.noise, self.noise) for _ in range(3)] if self.noise else [0, 0, 0]
        xyz = [max(-128, min(127, v + j)) for v, j in zip((x, y, z), jitter)]
        self.face = face
        return kind.encode() + bytes(v & 0xFF for v in xyz)

    def tilted(self, face: int) -> bytes:
        """Resting tilted against something: halfway between `face` and a neighbour, reported as tilt-stable."""
        a = gp.vector_for(self.shell, face)
        table = gp.shell(self.shell)
        b = min((v for v, f in zip(table.vectors, table.faces) if f != face),
                key=lambda v: sum((p - q) ** 2 for p, q in zip(a, v)))
        xyz = [(p + q) // 2 for p, q in zip(a, b)]
        return b"TS" + bytes(v & 0xFF for v in xyz)


# --- Pixels ----------------------------------------------------------------------------------------------------------
# The firmware of a Pixels die, per generation, with its bytes laid out from the public definitions (facts, our code):
# DiceFirmware src/bluetooth/bluetooth_messages.h (MessageIAmADie, MessageRollState, MessageBatteryLevel,
# MessageBlink) and src/bluetooth/bluetooth_custom_advertising_data.cpp (CustomManufacturerData); pixels-js
# packages/pixels-core-connect/src/Messages.ts (VersionInfoChunk, DieInfoChunk, CustomDesignAndColorNameChunk,
# DieNameChunk, SettingsInfoChunk, StatusInfoChunk; LegacyIAmADie; PixelDesignAndColorValues, PixelColorwayValues),
# PixelRollState.ts, and react-native-pixels-connect getScannedPixel.ts (the scan response's service data).
# None of it goes through firmware_bridge.ble.pixels_protocol, the app's reader: the two meet only on the wire.

FIRMWARE_ALIASES = {"current": "2025-01-15", "legacy": "2023-06-15"}
_LOOKS_2022 = {"unknown": 0, "generic": 1, "onyxBlack": 9, "hematiteGrey": 10, "midnightGalaxy": 11, "auroraSky": 12}
_COLOURWAYS = {"unknown": 0, "onyxBlack": 1, "hematiteGrey": 2, "midnightGalaxy": 3, "auroraSky": 4, "clear": 5,
               "whiteAurora": 6, "custom": 0xFF}
_DIE_TYPES = {"unknown": 0, "d4": 1, "d6": 2, "d8": 3, "d10": 4, "d00": 5, "d12": 6, "d20": 7, "d6pipped": 8,
              "d6fudge": 9}
_LEDS = {"d4": 6, "d6": 6, "d6fudge": 6, "d6pipped": 21, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20}
# Where dice built with the old normals (up to 2024-01-01) report a face: face value → face index (the inverse of
# pixels-js DiceUtils.faceFromIndex for isFirmwareWithBadNormals).
_OLD_NORMALS = {"d6": {1: 0, 2: 4, 3: 3, 4: 2, 5: 1, 6: 5}, "d4": {1: 0, 2: 3, 3: 2, 4: 5}}


def _stamp(year: int, month: int, day: int) -> int:
    import datetime as dt

    return int(dt.datetime(year, month, day, 12, tzinfo=dt.timezone.utc).timestamp())


def firmware_timestamp(firmware: str) -> int:
    """The build timestamp of a firmware named by its date ("2023-11", "2024-05-30") or "current" / "legacy".
    ValueError (one line) otherwise."""
    text = FIRMWARE_ALIASES.get(firmware, firmware)
    parts = text.split("-") if isinstance(text, str) else []
    try:
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
            raise ValueError
        year, month, day = int(parts[0]), int(parts[1]), int(parts[2]) if len(parts) == 3 else 15
        if not 2022 <= year <= 2099:
            raise ValueError
        return _stamp(year, month, day)
    except ValueError:
        raise ValueError(f"firmware={firmware!r}: a firmware date (YYYY-MM or YYYY-MM-DD, from 2022), current or "
                         f"legacy") from None


@dataclass
class PixelsModel:
    """A Pixels die's firmware of one generation (`firmware`: its build date, or current / legacy):

    * before September 2023: IAmADie in 22 bytes with the old look byte and a padding byte; the legacy GATT
      service (6e400001…) — the simulator's choice for dice that old;
    * September 2023 to October 2024: IAmADie in 22 bytes with colorway and dieType;
    * from November 2024: IAmADie in chunks; RollState 1 rolled / 5 onFace (before: 1 onFace for any rest);
    * up to 2024-01-01: d4 and d6 report faces with the old normals; before 2024-05-22 six-LED dice report lying
      flat as crooked (the firmware's own mistakes, which the app corrects as pixels-js does).
    Each gesture returns the messages the die sends, in order."""

    die_type: str = "d6"
    battery: int = 100
    charging: bool = False
    colourway: str = "onyxBlack"
    pixel_id: int = 0x1234ABCD
    firmware: str = "current"
    name: str = "Pixel"
    face: int = 1                        # the face value up, as a person reads it
    state: int | None = None             # the roll state the firmware last sent (None: at rest since switched on)
    blinks: list = field(default_factory=list)
    stopped: int = 0                     # StopAllAnimations received
    requests: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.die_type not in _LEDS:
            raise ValueError(f"Pixels die types: {', '.join(_LEDS)}")
        self.built = firmware_timestamp(self.firmware)
        if self.face not in self.faces():
            self.face = self.faces()[0]
        if self.state is None:
            self.state = self._rest(False)

    # -- what the generation is ----------------------------------------------------------------------------------
    @property
    def led_count(self) -> int:
        return _LEDS[self.die_type]

    @property
    def gatt(self) -> str:
        return "legacy" if self.built < _stamp(2023, 9, 1) else "current"

    @property
    def layout(self) -> str:
        return "2022" if self.built < _stamp(2023, 9, 1) else "2023" if self.built < _stamp(2024, 11, 1) \
            else "chunked"

    @property
    def new_states(self) -> bool:
        return self.built >= _stamp(2024, 11, 1)

    @property
    def flat_is_crooked(self) -> bool:
        return self.led_count == 6 and self.built < _stamp(2024, 5, 22)

    def faces(self) -> tuple[int, ...]:
        if self.die_type == "d10":
            return tuple(range(10))
        if self.die_type == "d00":
            return tuple(range(0, 100, 10))
        return tuple(range(1, {"d4": 4, "d8": 8, "d12": 12, "d20": 20}.get(self.die_type, 6) + 1))

    def index_of(self, face: int) -> int:
        """The face index this firmware reports for a face value; ValueError when the die has no such face."""
        if face not in self.faces():
            raise ValueError(f"a {self.die_type} has no face {face}")
        if self.built <= 1_704_150_000 and self.die_type in _OLD_NORMALS:
            return _OLD_NORMALS[self.die_type][face]
        if self.die_type == "d10":
            return face
        if self.die_type == "d00":
            return face // 10
        return face - 1

    # -- messages ------------------------------------------------------------------------------------------------
    def _battery_state(self) -> int:
        return 2 if self.charging else 1 if self.battery < 10 else 0

    def roll_state(self) -> bytes:
        return struct.pack("<BBB", 3, self.state, self.index_of(self.face))

    def battery_message(self) -> bytes:
        return struct.pack("<BBB", 34, self.battery, self._battery_state())

    def i_am_a_die(self) -> bytes:
        index = self.index_of(self.face)
        tail = struct.pack("<IIHIBBBB", 0x5EED0001, self.pixel_id, 30000, self.built, self.state, index,
                           self.battery, self._battery_state())
        if self.layout == "2022":
            return struct.pack("<BBBB", 2, self.led_count, _LOOKS_2022.get(self.colourway, 1), 0) + tail
        if self.layout == "2023":
            return struct.pack("<BBBB", 2, self.led_count, _COLOURWAYS.get(self.colourway, 0),
                               _DIE_TYPES[self.die_type]) + tail
        name = self.name.encode("utf-8")[:31]
        version = struct.pack("<BHIHHHH", 15, 0x0104, self.built, 0x0101, 0x0100, 0x0100, 0x0100)
        info = struct.pack("<BIBBBB", 9, self.pixel_id, 1, _DIE_TYPES[self.die_type], self.led_count,
                           _COLOURWAYS.get(self.colourway, 0))
        custom = bytes([2, 0])
        die_name = bytes([len(name) + 2]) + name + b"\0"
        settings = struct.pack("<BIII", 13, 0x5EED0001, 30000, 65536)
        status = struct.pack("<BBBBB", 5, self.battery, self._battery_state(), self.state, index)
        return bytes([2]) + version + info + custom + die_name + settings + status

    def advert(self) -> bytes:
        """Manufacturer data (company id excluded): ledCount, dieType << 4 | colorway, state, face, battery."""
        return struct.pack("<BBBBB", self.led_count, (_DIE_TYPES[self.die_type] << 4)
                           | (_COLOURWAYS.get(self.colourway, 0) & 0x0F), self.state, self.index_of(self.face),
                           min(self.battery, 100) | (0x80 if self.charging else 0))

    def scan_response(self) -> bytes:
        """Service data of the scan response: pixelId u32, buildTimestamp u32."""
        return struct.pack("<II", self.pixel_id, self.built)

    def on_write(self, data: bytes) -> list[bytes]:
        data = bytes(data)
        self.requests.append(data)
        if not data:
            return []
        if data[0] == 1:                                    # WhoAreYou
            return [self.i_am_a_die()]
        if data[0] == 23:                                   # RequestRollState
            return [self.roll_state()]
        if data[0] == 33:                                   # RequestBatteryLevel
            return [self.battery_message()]
        if data[0] == 29 and len(data) >= 14:               # Blink: count, duration, colour, mask, fade, loop
            count, duration, colour, mask, fade, loop = struct.unpack_from("<BHIIBB", data, 1)
            self.blinks.append(pp.Blink(count, duration, colour, mask, fade, bool(loop)))
            return [bytes([30])]                             # BlinkAck
        if data[0] == 59:                                   # StopAllAnimations
            self.stopped += 1
        return []

    # -- gestures: the messages each one makes the die send -------------------------------------------------------
    # Each gesture is a generator: the die's state moves on as each message is taken, so what it advertises between
    # two messages is the state of the last one sent (a scanner sees "rolling" while the die tumbles).
    def _set(self, state: int, face: int | None = None) -> bytes:
        if face is not None:
            self.face = face
        self.state = state
        return self.roll_state()

    def _rest(self, rolled: bool) -> int:
        if self.flat_is_crooked:
            return 4
        if rolled or not self.new_states:
            return 1
        return 5

    def roll(self, face: int) -> Iterator[bytes]:
        """Thrown: rolling, then at rest on `face` after a roll."""
        self.index_of(face)
        yield self._set(3)
        yield self._set(self._rest(True), face)

    def crooked(self) -> Iterator[bytes]:
        """Thrown and landing tilted (against a wall): rolling, then crooked."""
        yield self._set(3)
        yield self._set(4)

    def held_still_roll(self) -> Iterator[bytes]:
        """Held in the hand, it registers a roll anyway: handling, then rolled on the same face (a known complaint;
        the new firmware's 1 — the old firmware cannot tell it from being put down)."""
        yield self._set(2)
        yield self._set(1 if not self.flat_is_crooked else 4)

    def set_down(self, face: int | None = None) -> Iterator[bytes]:
        """Picked up and put back by hand, not thrown: handling, then at rest (on `face`, or the face it showed)."""
        if face is not None:
            self.index_of(face)
        yield self._set(2)
        yield self._set(self._rest(False), face)

    def pick_up(self) -> Iterator[bytes]:
        """Picked up (and held): handling."""
        yield self._set(2)

    def put_back(self, face: int | None = None) -> Iterator[bytes]:
        """Put back by hand after `pick_up`, not thrown: at rest without a roll (on `face`, or the face it showed)."""
        if face is not None:
            self.index_of(face)
        yield self._set(self._rest(False), face)
