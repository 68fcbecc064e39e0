"""The Table Bus codec in Python: CRC, frames, the resyncing decoder (pure, never raises), messages and their JSON."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.tablebus import messages as m
from firmware_bridge.tablebus.frame import (MAX_PAYLOAD, SOF, Decoder, Frame, crc16, decode_all, encode_frame)
from firmware_bridge.tablebus.observe import to_observations
from firmware_bridge import observations as obs


# ------------------------------------------------------------------------------------------------------ CRC, frames

def test_crc_is_ccitt_false_with_its_check_value():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_frame_layout_by_hand():
    # Button 2, seq 5: A5 | LEN 01 | TYPE 13 | SEQ 05 | 02 | CRC over 01 13 05 02, little-endian
    frame = encode_frame(0x13, 5, b"\x02")
    crc = crc16(bytes([0x01, 0x13, 0x05, 0x02]))
    assert frame == bytes([0xA5, 0x01, 0x13, 0x05, 0x02, crc & 0xFF, crc >> 8])
    assert frame.hex() == "a501130502" + f"{crc & 0xFF:02x}{crc >> 8:02x}"


def test_garbage_truncation_and_splits_cost_only_themselves():
    good = [encode_frame(0x13, i, bytes([i])) for i in range(4)]
    stream = b"\x00\xa5\xff" + good[0] + good[1][:4] + good[2] + b"\xa5\x50" + good[3]
    frames, stats = decode_all(stream)
    assert [f.seq for f in frames] == [0, 2, 3]
    assert stats.bad_length == 1 and stats.bad_crc >= 1 and stats.truncated == 1


def test_garbage_then_a_lone_start_byte_skips_the_garbage_and_waits_on_the_start():
    """Three bytes of garbage and a start marker with nothing after it: the garbage is skipped (3), the marker is
    kept (it may begin a frame); when the rest of that frame comes it is read and nothing more is skipped; when the
    stream ends instead, the marker is a truncated frame and skipped too (4)."""
    later = encode_frame(0x13, 1, b"\x07")
    d = Decoder()
    assert d.feed(b"\x00\x11\x22" + later[:1]) == []
    assert (d.stats.bytes_skipped, d.pending, d.stats.truncated) == (3, 1, 0)
    assert d.feed(later[1:]) == [Frame(0x13, 1, b"\x07")]
    assert (d.stats.bytes_skipped, d.pending, d.stats.frames) == (3, 0, 1)
    ended = Decoder()
    ended.feed(b"\x00\x11\x22\xa5")
    assert ended.flush() == []
    assert (ended.stats.bytes_skipped, ended.pending, ended.stats.truncated) == (4, 0, 1)
    assert decode_all(b"\x00\x11\x22\xa5")[1].bytes_skipped == 4


def test_a_damaged_length_byte_claiming_a_long_frame_is_given_up_by_resync():
    d = Decoder()
    later = encode_frame(0x13, 1, b"\x07")
    assert d.feed(b"\xa5\x70\x13") == [] and d.feed(later) == []       # waiting for 0x70 bytes of payload
    assert d.resync() == [Frame(0x13, 1, b"\x07")]


def test_the_decoder_takes_anything():
    d = Decoder()
    for thing in (None, 3, "text", [1, 2], object(), memoryview(b"\xa5\x00"), bytearray(b"\x00\x13\x00")):
        assert d.feed(thing) == []
    assert d.flush() == []
    assert d.feed(encode_frame(0x13, 1, b"\x00")) == [Frame(0x13, 1, b"\x00")]


# ------------------------------------------------------------------------------------------------------ properties

frames_st = st.builds(lambda t, s, p: (t, s, p), st.integers(0, 255), st.integers(0, 255),
                      st.binary(max_size=MAX_PAYLOAD))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4000), st.lists(st.integers(1, 64), max_size=20))
def test_garbage_never_raises_and_chunking_does_not_matter(data, cuts):
    whole, stats = decode_all(data)
    d = Decoder()
    got, at = [], 0
    for n in cuts:
        got += d.feed(data[at:at + n])
        at += n
    got += d.feed(data[at:])
    got += d.flush()
    assert got == whole
    assert d.stats.bytes_in == len(data) == stats.bytes_in
    for f in got:                                   # whatever it found is a well-formed frame
        assert encode_frame(*f) in data


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=40).map(lambda b: b.replace(bytes([SOF]), b"")), frames_st),
                max_size=12))
def test_every_frame_survives_garbage_between_frames(parts):
    stream = b"".join(junk + encode_frame(*f) for junk, f in parts)
    frames, stats = decode_all(stream)
    assert frames == [Frame(*f) for _, f in parts]
    assert stats.bytes_skipped == sum(len(junk) for junk, _ in parts)


@settings(max_examples=200, deadline=None)
@given(st.lists(frames_st, min_size=1, max_size=8), st.data())
def test_a_frame_damaged_anywhere_costs_only_itself(frames, data):
    raw = [encode_frame(*f) for f in frames]
    victim = data.draw(st.integers(0, len(raw) - 1))
    cut = data.draw(st.integers(1, len(raw[victim]) - 1))          # truncated mid-frame
    stream = b"".join(raw[:victim]) + raw[victim][:cut] + b"".join(raw[victim + 1:])
    got, _ = decode_all(stream)
    want = [Frame(*f) for i, f in enumerate(frames) if i != victim]
    assert got[:victim] == want[:victim]
    # a frame after the stump could only be lost to a false start whose CRC happens to match (1 in 65536), which
    # would show as a frame nobody sent
    if all(f in want for f in got):
        assert got == want


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_parse_message_never_raises_and_knows_its_types(code, seq, payload):
    msg = m.parse_message(Frame(code, seq, payload))
    if code not in m.BY_CODE:
        assert isinstance(msg, m.Raw) and msg.reason == "unknown type"
    if not isinstance(msg, m.Raw):
        to_observations(msg, "dev", "src", 1.0)


# messages of every type, built from valid field values
def _u(hi):
    return st.integers(0, hi)


messages_st = st.one_of(
    st.builds(m.Hello, _u(255), _u(255), _u(255), _u(255), _u(255), _u(255), _u(0xFFFF), _u(0xFFFFFFFF),
              st.text(max_size=8)),
    st.builds(m.Heartbeat, _u(0xFFFFFFFF), _u(0xFFFF)),
    st.builds(m.Ack, _u(255)),
    st.builds(m.Nack, _u(255), _u(255)),
    st.builds(m.Dice, _u(0xFFFF), st.lists(st.builds(m.DieResult, _u(255), _u(255), _u(100)), max_size=32)
              .map(tuple)),
    st.builds(m.Grid, st.lists(st.builds(m.Cell, _u(255), st.sampled_from(m.DIRECTIONS)), min_size=25,
                               max_size=25).map(tuple)),
    st.builds(m.Tile, _u(24), _u(255), st.sampled_from(m.DIRECTIONS)),
    st.builds(m.Button, _u(255)),
    st.builds(m.Flip, st.booleans(), _u(0xFFFF)),
    st.builds(m.Battery, _u(100), st.booleans(), _u(0xFFFF)),
    st.builds(m.Error, _u(255), st.text(max_size=16)),
    st.builds(m.HostHello, _u(255), _u(255)),
    st.builds(m.Led, st.sampled_from(m.LED_PATTERNS), _u(255), _u(255), _u(255), _u(255), _u(0xFFFF)),
    st.just(m.RequestState()),
    st.just(m.RequestBattery()),
)


@settings(max_examples=400, deadline=None)
@given(messages_st, _u(255))
def test_messages_round_trip_through_frames_and_json(msg, seq):
    frame = m.encode_message(msg, seq)
    (got,), _ = decode_all(frame)
    assert got.seq == seq and m.parse_message(got) == msg
    assert m.message_from_json(m.message_to_json(msg, seq)) == (msg, seq)


def test_newer_minor_versions_may_append_fields():
    payload = m.Tile(3, 9, "W").pack() + b"\x01\x02"
    assert m.parse_message(Frame(m.Tile.CODE, 0, payload)) == m.Tile(3, 9, "W")


def test_broken_layouts_become_raw_with_a_reason():
    assert m.parse_message(Frame(m.Tile.CODE, 0, b"\x30\x01\x00")).reason.startswith("tile")   # cell 48
    assert isinstance(m.parse_message(Frame(m.Grid.CODE, 0, b"\x00" * 10)), m.Raw)
    assert isinstance(m.parse_message(Frame(m.Dice.CODE, 0, b"\x00\x00\x05\x00")), m.Raw)
    assert isinstance(m.parse_message(("not", "a frame")), m.Raw)


def test_messages_map_to_observations():
    dice = m.Dice(4, (m.DieResult(0, 5, 80), m.DieResult(1, 0, 0)))
    settled, crooked = to_observations(dice, "tower", "serial:///dev/x", 2.0)
    assert settled == obs.DiceSettled((obs.DieRolled("tower/die0", 5, 0.8, "serial:///dev/x", 4, 2.0),),
                                      "serial:///dev/x", 2.0)
    assert crooked == obs.DieCrooked("tower/die1", "serial:///dev/x", 2.0)
    assert to_observations(m.Flip(False, 3), "stand") == [obs.StandFlipped("stand", False)]
    assert to_observations(m.Heartbeat(1, 0), "x") == [] and to_observations(m.Ack(1), "x") == []


def test_the_message_decoder_counts_what_it_could_not_understand():
    d = m.MessageDecoder()
    data = (b"\x01\x02" + m.encode_message(m.Button(1), 4) + encode_frame(0x60, 5, b"?")
            + encode_frame(m.Tile.CODE, 6, b"\x63\x00\x00") + m.encode_message(m.Flip(False, 2), 7))
    got = d.feed(data)
    assert [(seq, type(msg).__name__) for seq, msg in got] == [(4, "Button"), (5, "Raw"), (6, "Raw"), (7, "Flip")]
    assert (d.stats.bytes_skipped, d.stats.unknown_type, d.stats.malformed) == (2, 1, 1)


# ------------------------------------------------------------------------------------------ what a file's author reads

@pytest.mark.parametrize("message, says", [
    (m.Battery(percent=101), "percent: expected an integer 0-100"),
    (m.Error(code=256, text="x"), "code: expected an integer 0-255"),
    (m.Tile(cell=25, tile=1), "cell: expected an integer 0-24"),
])
def test_a_field_out_of_range_is_refused_naming_the_field(message, says):
    """`python -m firmware_bridge encode` shows this line to whoever wrote the JSON: it must name their field."""
    with pytest.raises(ValueError) as refused:
        m.encode_message(message)
    assert str(refused.value) == says


def test_a_board_text_that_is_not_utf8_is_read_with_replacement_characters():
    """A board's Error text with a byte that is not UTF-8 (a newer or broken firmware): the message is read, the bad
    byte shown as U+FFFD, the rest as sent (hardware/PROTOCOL.md: code u8, text length u8, UTF-8 text)."""
    got = m.parse_message(Frame(m.Error.CODE, 1, bytes([16, 4]) + b"IMU\xff"))
    assert got == m.Error(code=16, text="IMU\ufffd")
