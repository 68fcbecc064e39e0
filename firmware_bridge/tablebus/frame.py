"""Table Bus framing: one frame layout, its CRC, an encoder and a streaming decoder that never raises.

    +------+-----+------+-----+-----------------+--------+--------+
    | 0xA5 | LEN | TYPE | SEQ | PAYLOAD (LEN)   | CRC lo | CRC hi |
    +------+-----+------+-----+-----------------+--------+--------+

LEN is the payload length (0..MAX_PAYLOAD). The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no
reflection, no final xor; "123456789" -> 0x29B1) over LEN, TYPE, SEQ and PAYLOAD, sent little-endian.
hardware/PROTOCOL.md is the specification; this module and hardware/core/tablebus.c implement it.

The decoder is pure: bytes in, frames out, counters of what it dropped. On a bad length or CRC it skips one byte
past the false start marker and rescans, so a damaged or truncated frame costs only itself.
"""
from __future__ import annotations

from binascii import crc_hqx
from dataclasses import dataclass, fields
from typing import NamedTuple

SOF = 0xA5
MAX_PAYLOAD = 120
HEADER = 4          # SOF, LEN, TYPE, SEQ
OVERHEAD = HEADER + 2
MAX_FRAME = OVERHEAD + MAX_PAYLOAD
CRC_INIT = 0xFFFF
_SOF_BYTE = bytes([SOF])


def crc16(data: bytes | bytearray | memoryview, crc: int = CRC_INIT) -> int:
    """CRC-16/CCITT-FALSE of `data` (binascii.crc_hqx is exactly this CRC when started at 0xFFFF)."""
    return crc_hqx(data, crc)


class Frame(NamedTuple):
    """One checked frame: message type code, sequence number, payload bytes."""
    type: int
    seq: int
    payload: bytes


def encode_frame(type_: int, seq: int, payload: bytes = b"") -> bytes:
    """The bytes of one frame. ValueError when a field does not fit the layout."""
    if not 0 <= type_ <= 0xFF or not 0 <= seq <= 0xFF:
        raise ValueError("frame: type and seq are bytes (0-255)")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"frame: payload of {len(payload)} bytes is over the maximum of {MAX_PAYLOAD}")
    body = bytes((len(payload), type_, seq)) + bytes(payload)
    crc = crc_hqx(body, CRC_INIT)
    return b"\xa5" + body + bytes((crc & 0xFF, crc >> 8))


@dataclass
class DecoderStats:
    """What the decoder saw and dropped. `bytes_skipped` counts every byte that was not part of a good frame."""
    frames: int = 0
    bytes_in: int = 0
    bytes_skipped: int = 0
    bad_length: int = 0        # a start marker followed by a length over MAX_PAYLOAD
    bad_crc: int = 0           # a frame-shaped run of bytes whose CRC did not match (damaged or truncated)
    truncated: int = 0         # a partial frame given up on (the stream ended, or the line stalled: resync)
    unknown_type: int = 0      # good frames of a type this host does not know (messages.MessageDecoder)
    malformed: int = 0         # good frames of a known type whose payload breaks its layout (MessageDecoder)

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def dropped(self) -> bool:
        return bool(self.bytes_skipped or self.bad_length or self.bad_crc or self.truncated or self.unknown_type
                    or self.malformed)


class Decoder:
    """A streaming frame decoder: `feed(bytes) -> list[Frame]`. Never raises, whatever it is given.

    Bytes of a frame not yet complete stay buffered (at most MAX_FRAME - 1 of them), so frames may be split
    anywhere across `feed` calls. `flush()` ends the stream: a partial frame left over is counted as truncated.
    `resync()` gives up on a partial frame now (a transport calls it when the line has gone quiet mid-frame).
    """

    __slots__ = ("_buf", "stats")

    def __init__(self) -> None:
        self._buf = bytearray()
        self.stats = DecoderStats()

    @property
    def pending(self) -> int:
        """Bytes buffered towards a frame not yet complete."""
        return len(self._buf)

    def feed(self, data) -> list[Frame]:
        try:
            self._buf += data
            self.stats.bytes_in += len(data)
        except (TypeError, ValueError, BufferError):
            return []          # not bytes: nothing to decode
        return self._scan()

    def _scan(self) -> list[Frame]:
        buf = self._buf
        n = len(buf)
        out: list[Frame] = []
        append = out.append
        find = buf.find
        stats = self.stats
        skipped = 0
        bad_len = 0
        bad_crc = 0
        pos = 0
        view = memoryview(buf)
        try:
            while True:
                i = find(_SOF_BYTE, pos)
                if i < 0:
                    skipped += n - pos
                    pos = n
                    break
                skipped += i - pos
                if n - i < 2:
                    pos = i
                    break
                length = buf[i + 1]
                if length > MAX_PAYLOAD:
                    bad_len += 1
                    skipped += 1
                    pos = i + 1
                    continue
                end = i + OVERHEAD + length
                if end > n:
                    pos = i
                    break
                if crc_hqx(view[i + 1:end - 2], CRC_INIT) != buf[end - 2] | (buf[end - 1] << 8):
                    bad_crc += 1
                    skipped += 1
                    pos = i + 1
                    continue
                append(Frame(buf[i + 2], buf[i + 3], bytes(view[i + HEADER:end - 2])))
                pos = end
        finally:
            view.release()
        if pos:
            del buf[:pos]
        stats.frames += len(out)
        stats.bytes_skipped += skipped
        stats.bad_length += bad_len
        stats.bad_crc += bad_crc
        return out

    def resync(self) -> list[Frame]:
        """Drop the start marker of the partial frame at the head of the buffer and rescan the rest."""
        if not self._buf:
            return []
        del self._buf[0]
        self.stats.bytes_skipped += 1
        self.stats.truncated += 1
        return self._scan()

    def flush(self) -> list[Frame]:
        """The stream ended: decode what can still be decoded; whatever is left is a truncated frame."""
        out: list[Frame] = []
        while self._buf:
            # rescanning past each false start may still find whole frames inside a claimed-too-long one
            out += self.resync()
        return out


def decode_all(data: bytes) -> tuple[list[Frame], DecoderStats]:
    """Every good frame in a finished byte string, and the decoder's counters."""
    d = Decoder()
    frames = d.feed(data)
    frames += d.flush()
    return frames, d.stats
