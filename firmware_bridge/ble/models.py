"""What the simulated dice do, as byte-level firmware models: answers to host writes, the messages a roll produces.

One model per die, shared by the virtual radio's peripherals (firmware_bridge.ble.virtual_dice) and the scripted
fake transport (firmware_bridge.ble.testing), so every transport hears the same bytes a real die sends.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

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


@dataclass
class PixelsModel:
    """A Pixels die's firmware: IAmADie, RollState on every change, battery, Blink recorded, advertised state."""

    die_type: str = "d6"
    battery: int = 100
    charging: bool = False
    colourway: str = "onyxBlack"
    pixel_id: int = 0x1234ABCD
    build_timestamp: int = 1_730_937_600
    state: int = pp.ON_FACE
    face_index: int = 0
    blinks: list[pp.Blink] = field(default_factory=list)
    requests: list[pp.Message] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.die_type not in pp.DIE_TYPE_CODES:
            raise ValueError(f"Pixels die types: {', '.join(pp.DIE_TYPE_CODES)}")

    @property
    def led_count(self) -> int:
        return pp.FACE_COUNTS.get(self.die_type, 20)

    def on_write(self, data: bytes) -> list[bytes]:
        message = pp.decode(data)
        self.requests.append(message)
        if isinstance(message, pp.Request):
            if message.type == pp.WHO_ARE_YOU:
                return [self.i_am_a_die()]
            if message.type == pp.REQUEST_ROLL_STATE:
                return [self.roll_state()]
            if message.type == pp.REQUEST_BATTERY:
                return [self.battery_message()]
        if isinstance(message, pp.Blink):
            self.blinks.append(message)
        return []

    def i_am_a_die(self) -> bytes:
        return pp.encode(pp.IAmADie(self.led_count, self.die_type, self.colourway, self.pixel_id, self.build_timestamp,
                                    self.state, self.face_index, self.battery, self._battery_state()))

    def roll_state(self) -> bytes:
        return pp.encode(pp.RollState(self.state, self.face_index))

    def battery_message(self) -> bytes:
        return pp.encode(pp.BatteryLevel(self.battery, self._battery_state()))

    def _battery_state(self) -> int:
        return 2 if self.charging else 1 if self.battery < 10 else 0

    def set_state(self, state: int, face: int | None = None) -> bytes:
        """Change state (and the face up, by value) and return the RollState message the die sends."""
        self.state = state
        if face is not None:
            self.face_index = pp.face_index(self.die_type, face)
        return self.roll_state()

    def advert(self) -> bytes:
        return pp.encode_advert(pp.Advert(self.led_count, self.die_type, self.colourway, self.state,
                                          self.face_index, self.battery, self.charging))
