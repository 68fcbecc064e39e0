"""Table Bus messages: what each frame type means, as small frozen values, and their payload layouts.

`parse_message(frame)` never raises: a frame of an unknown type or with a payload that breaks its layout becomes
`Raw` (with `reason`), so a newer board can never crash an older host. `encode_message(msg, seq)` builds a frame.
`message_to_json` / `message_from_json` are the JSON-lines form of `python -m firmware_bridge encode/decode`.

Payloads are little-endian. A receiver reads the fields it knows and ignores bytes after them: a newer minor
version of the protocol may only append fields (hardware/PROTOCOL.md, "Versioning").
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, fields
from typing import Any, Union

from firmware_bridge.tablebus.frame import MAX_PAYLOAD, Decoder, Frame, encode_frame

PROTOCOL_VERSION = (1, 0)

DIRECTIONS = ("N", "E", "S", "W")
GRID_CELLS = 25
MAX_DICE = 32
MAX_TEXT = 64
MAX_NAME = 32
LED_PATTERNS = ("off", "solid", "blink", "spin", "pulse")
BOARD_KINDS = {0: "generic", 1: "stand", 2: "obelisk", 3: "tower"}
ERROR_CODES = {
    0: "ok",
    1: "unknown message type",
    2: "bad payload",
    3: "not supported by this board",
    4: "busy",
    5: "value out of range",
    16: "sensor fault",
    17: "receive buffer overflow",
    18: "battery low",
    19: "internal error",
}


class Malformed(Exception):
    """A payload that does not fit its message's layout (internal to parsing; parse_message returns Raw)."""


def _unsigned(name: str, v: Any, hi: int) -> int:
    """`v` if it is a whole number 0..hi (bools refused): any unsigned field, whatever its width."""
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
        raise ValueError(f"{name}: expected an integer 0-{hi}")
    return v


def _u8(name: str, v: Any, hi: int = 0xFF) -> int:
    """A one-byte field; `hi` may bound it lower (a percentage, a confidence)."""
    return _unsigned(name, v, min(hi, 0xFF))


def _u16(name: str, v: Any) -> int:
    return _unsigned(name, v, 0xFFFF)


def _u32(name: str, v: Any) -> int:
    return _unsigned(name, v, 0xFFFFFFFF)


def _text(name: str, v: Any, limit: int) -> bytes:
    if not isinstance(v, str):
        raise ValueError(f"{name}: expected a string")
    try:
        raw = v.encode("utf-8")
    except UnicodeError:
        raise ValueError(f"{name}: not encodable as UTF-8") from None
    if len(raw) > limit:
        raise ValueError(f"{name}: at most {limit} bytes of UTF-8")
    return raw


def _get_text(payload: bytes, at: int) -> str:
    n = payload[at] if len(payload) > at else None
    if n is None or len(payload) < at + 1 + n:
        raise Malformed("text runs past the payload")
    return payload[at + 1:at + 1 + n].decode("utf-8", errors="replace")


# ---------------------------------------------------------------------------------------------- board -> host

@dataclass(frozen=True)
class Hello:
    """The board introduces itself: at power-up and in answer to every HostHello."""
    proto_major: int = PROTOCOL_VERSION[0]
    proto_minor: int = PROTOCOL_VERSION[1]
    kind: int = 0
    fw_major: int = 0
    fw_minor: int = 0
    fw_patch: int = 0
    heartbeat_ms: int = 500
    uid: int = 0
    name: str = ""
    CODE = 0x01
    NAME = "hello"
    _S = struct.Struct("<6BHI")

    def pack(self) -> bytes:
        for f in ("proto_major", "proto_minor", "kind", "fw_major", "fw_minor", "fw_patch"):
            _u8(f, getattr(self, f))
        name = _text("name", self.name, MAX_NAME)
        return self._S.pack(self.proto_major, self.proto_minor, self.kind, self.fw_major, self.fw_minor,
                            self.fw_patch, _u16("heartbeat_ms", self.heartbeat_ms),
                            _u32("uid", self.uid)) + bytes([len(name)]) + name

    @classmethod
    def unpack(cls, p: bytes) -> "Hello":
        if len(p) < 13:
            raise Malformed("hello is 13 bytes or more")
        return cls(*cls._S.unpack_from(p), name=_get_text(p, 12))


@dataclass(frozen=True)
class Heartbeat:
    """The board is alive: sent every `heartbeat_ms` (from its Hello) whatever else it sends."""
    uptime_ms: int = 0
    rx_errors: int = 0
    CODE = 0x02
    NAME = "heartbeat"
    _S = struct.Struct("<IH")

    def pack(self) -> bytes:
        return self._S.pack(_u32("uptime_ms", self.uptime_ms), _u16("rx_errors", self.rx_errors))

    @classmethod
    def unpack(cls, p: bytes) -> "Heartbeat":
        if len(p) < 6:
            raise Malformed("heartbeat is 6 bytes or more")
        return cls(*cls._S.unpack_from(p))


@dataclass(frozen=True)
class Ack:
    """The host's command with sequence number `acked` was done."""
    acked: int = 0
    CODE = 0x03
    NAME = "ack"

    def pack(self) -> bytes:
        return bytes([_u8("acked", self.acked)])

    @classmethod
    def unpack(cls, p: bytes) -> "Ack":
        if len(p) < 1:
            raise Malformed("ack is 1 byte or more")
        return cls(p[0])


@dataclass(frozen=True)
class Nack:
    """The host's command `acked` was refused; `code` says why (ERROR_CODES)."""
    acked: int = 0
    code: int = 1
    CODE = 0x04
    NAME = "nack"

    def pack(self) -> bytes:
        return bytes([_u8("acked", self.acked), _u8("code", self.code)])

    @classmethod
    def unpack(cls, p: bytes) -> "Nack":
        if len(p) < 2:
            raise Malformed("nack is 2 bytes or more")
        return cls(p[0], p[1])


@dataclass(frozen=True)
class DieResult:
    """One die of a Dice message: its place in the tray, the face up (0: none readable), confidence 0-100 %."""
    die: int
    face: int
    confidence: int = 100


@dataclass(frozen=True)
class Dice:
    """The dice tower's tray settled: every die with its face and confidence. `roll` counts the tower's rolls."""
    roll: int = 0
    dice: tuple[DieResult, ...] = ()
    CODE = 0x10
    NAME = "dice"

    def pack(self) -> bytes:
        if not isinstance(self.dice, (tuple, list)) or len(self.dice) > MAX_DICE:
            raise ValueError(f"dice: a list of at most {MAX_DICE} dice")
        out = bytearray(struct.pack("<HB", _u16("roll", self.roll), len(self.dice)))
        for d in self.dice:
            if not isinstance(d, DieResult):
                raise ValueError("dice: each die is {die, face, confidence}")
            out += bytes([_u8("die", d.die), _u8("face", d.face), _u8("confidence", d.confidence, 100)])
        return bytes(out)

    @classmethod
    def unpack(cls, p: bytes) -> "Dice":
        if len(p) < 3:
            raise Malformed("dice is 3 bytes or more")
        roll, n = struct.unpack_from("<HB", p)
        if n > MAX_DICE or len(p) < 3 + 3 * n:
            raise Malformed("dice count runs past the payload")
        dice = tuple(DieResult(p[i], p[i + 1], p[i + 2]) for i in range(3, 3 + 3 * n, 3))
        if any(d.confidence > 100 for d in dice):
            raise Malformed("confidence over 100")
        return cls(roll, dice)


@dataclass(frozen=True)
class Cell:
    """One Obelisk map cell in a Grid dump: tile id (0: empty) and its arrow direction."""
    tile: int = 0
    direction: str = "N"


@dataclass(frozen=True)
class Grid:
    """The Obelisk reader's full dump: 25 cells, row by row from the top left."""
    cells: tuple[Cell, ...] = tuple(Cell() for _ in range(GRID_CELLS))
    CODE = 0x11
    NAME = "grid"

    def pack(self) -> bytes:
        if not isinstance(self.cells, (tuple, list)) or len(self.cells) != GRID_CELLS:
            raise ValueError(f"cells: exactly {GRID_CELLS} cells")
        out = bytearray()
        for c in self.cells:
            if not isinstance(c, Cell):
                raise ValueError("cells: each cell is {tile, direction}")
            out += bytes([_u8("tile", c.tile), _direction(c.direction)])
        return bytes(out)

    @classmethod
    def unpack(cls, p: bytes) -> "Grid":
        if len(p) < 2 * GRID_CELLS:
            raise Malformed("grid is 50 bytes or more")
        try:      # cells are frozen values: every (tile, direction) exists once, made at import (the hot path)
            return cls(tuple([_CELLS[t][d] for t, d in zip(p[0:2 * GRID_CELLS:2], p[1:2 * GRID_CELLS:2])]))
        except IndexError:
            raise Malformed("direction over 3") from None


_CELLS = tuple(tuple(Cell(t, d) for d in DIRECTIONS) for t in range(256))


def _direction(v: Any) -> int:
    if v not in DIRECTIONS or not isinstance(v, str):
        raise ValueError(f"direction: one of {'/'.join(DIRECTIONS)}")
    return DIRECTIONS.index(v)


@dataclass(frozen=True)
class Tile:
    """One cell of the Obelisk map changed (debounced by the board)."""
    cell: int = 0
    tile: int = 0
    direction: str = "N"
    CODE = 0x12
    NAME = "tile"

    def pack(self) -> bytes:
        return bytes([_u8("cell", self.cell, GRID_CELLS - 1), _u8("tile", self.tile), _direction(self.direction)])

    @classmethod
    def unpack(cls, p: bytes) -> "Tile":
        if len(p) < 3 or p[0] >= GRID_CELLS or p[2] > 3:
            raise Malformed("tile is 3 bytes: cell 0-24, tile, direction 0-3")
        return cls(p[0], p[1], DIRECTIONS[p[2]])


@dataclass(frozen=True)
class Button:
    """A button was pressed (debounced by the board)."""
    button: int = 0
    CODE = 0x13
    NAME = "button"

    def pack(self) -> bytes:
        return bytes([_u8("button", self.button)])

    @classmethod
    def unpack(cls, p: bytes) -> "Button":
        if len(p) < 1:
            raise Malformed("button is 1 byte or more")
        return cls(p[0])


@dataclass(frozen=True)
class Flip:
    """The hourglass stand was turned over; `upright`: side A is up. `flips` counts flips since power-up."""
    upright: bool = True
    flips: int = 0
    CODE = 0x14
    NAME = "flip"

    def pack(self) -> bytes:
        if not isinstance(self.upright, bool):
            raise ValueError("upright: expected true or false")
        return struct.pack("<BH", int(self.upright), _u16("flips", self.flips))

    @classmethod
    def unpack(cls, p: bytes) -> "Flip":
        if len(p) < 3 or p[0] > 1:
            raise Malformed("flip is 3 bytes: upright 0/1, flips")
        up, n = struct.unpack_from("<BH", p)
        return cls(bool(up), n)


@dataclass(frozen=True)
class Battery:
    percent: int = 100
    charging: bool = False
    millivolts: int = 0
    CODE = 0x15
    NAME = "battery"

    def pack(self) -> bytes:
        if not isinstance(self.charging, bool):
            raise ValueError("charging: expected true or false")
        return struct.pack("<BBH", _u8("percent", self.percent, 100), int(self.charging),
                           _u16("millivolts", self.millivolts))

    @classmethod
    def unpack(cls, p: bytes) -> "Battery":
        if len(p) < 4 or p[0] > 100 or p[1] > 1:
            raise Malformed("battery is 4 bytes: percent 0-100, flags, millivolts")
        pct, flags, mv = struct.unpack_from("<BBH", p)
        return cls(pct, bool(flags & 1), mv)


@dataclass(frozen=True)
class Error:
    """The board reports a fault of its own (a sensor that does not answer, a full receive buffer)."""
    code: int = 19
    text: str = ""
    CODE = 0x1F
    NAME = "error"

    def pack(self) -> bytes:
        raw = _text("text", self.text, MAX_TEXT)
        return bytes([_u8("code", self.code), len(raw)]) + raw

    @classmethod
    def unpack(cls, p: bytes) -> "Error":
        if len(p) < 2:
            raise Malformed("error is 2 bytes or more")
        return cls(p[0], _get_text(p, 1))


# ---------------------------------------------------------------------------------------------- host -> board

@dataclass(frozen=True)
class HostHello:
    """The host asks the board to introduce itself (answered by Hello); the board forgets its last command seq."""
    proto_major: int = PROTOCOL_VERSION[0]
    proto_minor: int = PROTOCOL_VERSION[1]
    CODE = 0x81
    NAME = "host_hello"

    def pack(self) -> bytes:
        return bytes([_u8("proto_major", self.proto_major), _u8("proto_minor", self.proto_minor)])

    @classmethod
    def unpack(cls, p: bytes) -> "HostHello":
        if len(p) < 2:
            raise Malformed("host_hello is 2 bytes or more")
        return cls(p[0], p[1])


@dataclass(frozen=True)
class Led:
    """Light the board's LEDs (the stand's ring): `pattern` one of LED_PATTERNS, `count` repeats (0: forever),
    `period_ms` one cycle. Acknowledged."""
    pattern: str = "solid"
    r: int = 0
    g: int = 0
    b: int = 0
    count: int = 0
    period_ms: int = 0
    CODE = 0x82
    NAME = "led"
    _S = struct.Struct("<5BH")

    def pack(self) -> bytes:
        if not isinstance(self.pattern, str) or self.pattern not in LED_PATTERNS:
            raise ValueError(f"pattern: one of {', '.join(LED_PATTERNS)}")
        return self._S.pack(LED_PATTERNS.index(self.pattern), _u8("r", self.r), _u8("g", self.g),
                            _u8("b", self.b), _u8("count", self.count), _u16("period_ms", self.period_ms))

    @classmethod
    def unpack(cls, p: bytes) -> "Led":
        if len(p) < 7 or p[0] >= len(LED_PATTERNS):
            raise Malformed("led is 7 bytes: pattern 0-4, r, g, b, count, period_ms")
        pat, r, g, b, count, period = cls._S.unpack_from(p)
        return cls(LED_PATTERNS[pat], r, g, b, count, period)


@dataclass(frozen=True)
class RequestState:
    """Send your whole state now (the grid dump, the stand's side, the tower's last roll). Acknowledged."""
    CODE = 0x83
    NAME = "request_state"

    def pack(self) -> bytes:
        return b""

    @classmethod
    def unpack(cls, p: bytes) -> "RequestState":
        return cls()


@dataclass(frozen=True)
class RequestBattery:
    """Send a Battery message now. Acknowledged."""
    CODE = 0x84
    NAME = "request_battery"

    def pack(self) -> bytes:
        return b""

    @classmethod
    def unpack(cls, p: bytes) -> "RequestBattery":
        return cls()


@dataclass(frozen=True)
class Raw:
    """A frame with a good CRC that is not a message this host knows (a newer type, a payload that breaks its
    layout: `reason`). Encoding a Raw sends exactly its type code and payload."""
    code: int = 0
    payload: bytes = b""
    reason: str = ""
    NAME = "raw"

    def pack(self) -> bytes:
        if not isinstance(self.payload, (bytes, bytearray)) or len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload: at most {MAX_PAYLOAD} bytes")
        return bytes(self.payload)


Message = Union[Hello, Heartbeat, Ack, Nack, Dice, Grid, Tile, Button, Flip, Battery, Error,
                HostHello, Led, RequestState, RequestBattery, Raw]
BOARD_MESSAGES = (Hello, Heartbeat, Ack, Nack, Dice, Grid, Tile, Button, Flip, Battery, Error)
HOST_MESSAGES = (HostHello, Led, RequestState, RequestBattery)
BY_CODE = {cls.CODE: cls for cls in BOARD_MESSAGES + HOST_MESSAGES}
BY_NAME = {cls.NAME: cls for cls in BOARD_MESSAGES + HOST_MESSAGES + (Raw,)}
_UNPACK = {code: cls.unpack for code, cls in BY_CODE.items()}


def parse_message(frame: Frame) -> Message:
    """The message a checked frame carries; Raw (with a reason) when this host does not know it. Never raises."""
    try:
        type_, _seq, payload = frame
        unpack = _UNPACK.get(type_)
        if unpack is None:
            return Raw(type_, bytes(payload), "unknown type")
        return unpack(payload)
    except Malformed as err:
        return Raw(frame[0], bytes(frame[2]), str(err))
    except Exception as err:  # noqa: BLE001 — a frame that is not even a Frame: still no exception out of here
        return Raw(0, b"", f"not a frame ({type(err).__name__})")


class MessageDecoder:
    """Bytes in, (seq, message) out: the frame Decoder and parse_message together. Pure and never raises; its
    `stats` count, next to the dropped bytes, the good frames of unknown types and those with broken payloads
    (which come out as Raw)."""

    __slots__ = ("frames", "stats")

    def __init__(self) -> None:
        self.frames = Decoder()
        self.stats = self.frames.stats

    @property
    def pending(self) -> int:
        return self.frames.pending

    def feed(self, data) -> list[tuple[int, Message]]:
        return self._parse(self.frames.feed(data))

    def resync(self) -> list[tuple[int, Message]]:
        return self._parse(self.frames.resync())

    def flush(self) -> list[tuple[int, Message]]:
        return self._parse(self.frames.flush())

    def _parse(self, frames: list[Frame]) -> list[tuple[int, Message]]:
        out = []
        stats = self.stats
        for frame in frames:
            msg = parse_message(frame)
            if type(msg) is Raw:
                if msg.reason == "unknown type":
                    stats.unknown_type += 1
                else:
                    stats.malformed += 1
            out.append((frame.seq, msg))
        return out


def code_of(msg: Message) -> int:
    return msg.code if isinstance(msg, Raw) else msg.CODE


def encode_message(msg: Message, seq: int = 0) -> bytes:
    """The frame of `msg` with sequence number `seq`. ValueError (one line, naming the field) when a field is out
    of range for the wire layout."""
    return encode_frame(_u8("code", code_of(msg)), _u8("seq", seq), msg.pack())


# ------------------------------------------------------------------------------------------------------- JSON

def message_to_json(msg: Message, seq: int | None = None) -> dict:
    """A dict with "type" (the message name), "seq" when given, and the message's fields."""
    d: dict[str, Any] = {"type": msg.NAME}
    if seq is not None:
        d["seq"] = seq
    if isinstance(msg, Raw):
        d["code"] = msg.code
        d["payload"] = msg.payload.hex()
        return d
    for f in fields(msg):
        v = getattr(msg, f.name)
        if f.name == "dice":
            v = [{"die": x.die, "face": x.face, "confidence": x.confidence} for x in v]
        elif f.name == "cells":
            v = [{"tile": x.tile, "direction": x.direction} for x in v]
        d[f.name] = v
    return d


_NESTED = {"dice": (DieResult, ("die", "face", "confidence")), "cells": (Cell, ("tile", "direction"))}


def message_from_json(d: Any) -> tuple[Message, int | None]:
    """(message, seq or None) from the dict `message_to_json` makes. ValueError with a one-line reason when the
    dict is not a message or a field does not fit the wire (so a bad line is refused here, not half-sent)."""
    if not isinstance(d, dict):
        raise ValueError("expected a JSON object with a \"type\"")
    name = d.get("type")
    cls = BY_NAME.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"type: {str(name)[:40]!r} is not a Table Bus message ({', '.join(BY_NAME)})")
    seq = d.get("seq")
    if seq is not None:
        _u8("seq", seq)
    if cls is Raw:
        unknown = set(d) - {"type", "seq", "code", "payload"}
        if unknown:
            raise ValueError(f"raw.{sorted(map(str, unknown))[0][:40]}: unknown field")
        payload = d.get("payload", "")
        if not isinstance(payload, str):
            raise ValueError("raw.payload: expected a hex string")
        try:
            raw = bytes.fromhex(payload)
        except ValueError:
            raise ValueError("raw.payload: expected a hex string") from None
        msg: Message = Raw(_u8("raw.code", d.get("code")), raw)
    else:
        names = [f.name for f in fields(cls)]
        unknown = set(d) - set(names) - {"type", "seq"}
        if unknown:
            raise ValueError(f"{cls.NAME}.{sorted(map(str, unknown))[0][:40]}: unknown field")
        values = {k: d[k] for k in names if k in d}
        for key, (inner, inner_names) in _NESTED.items():
            if key in values:
                items = values[key]
                if not isinstance(items, list):
                    raise ValueError(f"{cls.NAME}.{key}: expected a list")
                built = []
                for x in items:
                    if not isinstance(x, dict) or set(x) - set(inner_names):
                        raise ValueError(f"{cls.NAME}.{key}: each item is an object with {', '.join(inner_names)}")
                    try:
                        built.append(inner(**x))
                    except TypeError:
                        raise ValueError(f"{cls.NAME}.{key}: each item needs {', '.join(inner_names)}") from None
                values[key] = tuple(built)
        for k, v in values.items():
            if isinstance(v, float):
                raise ValueError(f"{cls.NAME}.{k}: expected an integer")
        msg = cls(**values)
    msg.pack()  # validates every field against the wire layout, raising ValueError naming it
    return msg, seq
