"""The C firmware core against the Python host codec, so protocol drift between firmware and app cannot pass CI:
the C unit tests, the CRC check value in C, C decoding Python's frames and Python decoding C's frames."""
from __future__ import annotations

import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.__main__ import _demo_messages
from firmware_bridge.tablebus import messages as m
from firmware_bridge.tablebus.frame import MAX_PAYLOAD, Decoder, Frame, encode_frame


@pytest.fixture(scope="module")
def tbcodec(tablebus_build):
    return str(tablebus_build / "tbcodec")


def c_decode(tbcodec: str, data: bytes) -> tuple[list[Frame], dict]:
    out = subprocess.run([tbcodec, "decode"], input=data, capture_output=True, check=True).stdout.decode()
    *lines, stats = out.splitlines()
    frames = []
    for line in lines:
        t, s, p = line.split()
        frames.append(Frame(int(t, 16), int(s, 16), b"" if p == "-" else bytes.fromhex(p)))
    counts = dict(kv.split("=") for kv in stats.split()[1:])
    return frames, {k: int(v) for k, v in counts.items()}


def py_decode(data: bytes) -> tuple[list[Frame], dict]:
    d = Decoder()
    frames = d.feed(data)
    s = d.stats
    return frames, {"frames": s.frames, "skipped": s.bytes_skipped, "bad_length": s.bad_length,
                    "bad_crc": s.bad_crc}


def test_c_unit_tests_pass(tablebus_build):
    done = subprocess.run([str(tablebus_build / "test_core")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(" 0 failed")


def test_c_crc_has_the_check_value(tbcodec):
    assert subprocess.run([tbcodec, "crc", "123456789"], capture_output=True, text=True).stdout.strip() == "0x29B1"


def test_c_decodes_every_python_message_type(tbcodec):
    messages = list(_demo_messages(300))
    assert {type(msg) for msg, _ in messages} == set(m.BOARD_MESSAGES + m.HOST_MESSAGES)
    data = b"".join(m.encode_message(msg, seq) for msg, seq in messages)
    frames, stats = c_decode(tbcodec, data)
    assert [m.parse_message(f) for f in frames] == [msg for msg, _ in messages]
    assert stats["skipped"] == 0


def test_c_skips_garbage_and_keeps_a_lone_start_byte_like_python(tbcodec):
    """Garbage, then a start marker the stream has not finished: both decoders skip the three bytes, not the marker."""
    for data in (b"\x00\x11\x22\xa5", b"\x00\x11\x22\xa5" + encode_frame(0x13, 1, b"\x07")[1:]):
        assert c_decode(tbcodec, data) == py_decode(data)
        assert py_decode(data)[1]["skipped"] == 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=30), st.integers(0, 255), st.integers(0, 255),
                          st.binary(max_size=MAX_PAYLOAD), st.integers(0, 3)), max_size=10))
def test_c_and_python_decoders_agree_on_damaged_streams(tbcodec, parts):
    """Garbage (with start markers), frames, frames cut short: both decoders find the same frames and count
    the same dropped bytes."""
    data = b""
    for junk, t, s, payload, cut in parts:
        frame = encode_frame(t, s, payload)
        data += junk + (frame[:len(frame) // 2] if cut == 0 else frame)
    data += encode_frame(0x02, 0, b"\0" * 6)       # end on a whole frame: no partial left to count differently
    assert c_decode(tbcodec, data) == py_decode(data)


def test_python_decodes_frames_the_c_encoder_made(tbcodec):
    rng = random.Random(5)
    frames = [Frame(rng.randrange(256), rng.randrange(256), rng.randbytes(rng.randrange(MAX_PAYLOAD + 1)))
              for _ in range(200)]
    lines = "".join(f"{f.type:02x} {f.seq:02x} {f.payload.hex() or '-'}\n" for f in frames)
    data = subprocess.run([tbcodec, "encode"], input=lines.encode(), capture_output=True, check=True).stdout
    assert data == b"".join(encode_frame(*f) for f in frames)
    assert Decoder().feed(data) == frames
