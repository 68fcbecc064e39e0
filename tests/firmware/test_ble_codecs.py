"""The GoDice and Pixels codecs are pure: bytes in, a value out, never an exception (Hypothesis fuzzes them)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble.models import GoDiceModel

# --- GoDice --------------------------------------------------------------------------------------------------------


def test_godice_messages():
    """Byte vectors after ParticulaCode/GoDiceAndroid_iOS_API common/godiceapi.c (godice_incoming_packet: event keys
    "R", "S", "FS", "MS", "TS", "Tap", "DTap", "Bat", "Char", "Col"; stablePacket_t = key + int8 x y z)."""
    assert gp.decode(b"R") == gp.RollStarted()
    # roll start with trailing bytes: both official parsers match the "R" prefix only (godiceapi.c is_event_prefix,
    # godice dice.py _handle_upd: first_byte == 82)
    assert gp.decode(b"R\x01\x02") == gp.RollStarted() and gp.decode(b"RR") == gp.RollStarted()
    assert gp.decode(b"S" + bytes([0xC0, 0, 0])) == gp.Stable("S", (-64, 0, 0))
    assert gp.decode(b"TS" + bytes([1, 2, 0xFF])) == gp.Stable("TS", (1, 2, -1))
    assert gp.decode(b"MS" + bytes([0, 0x40, 0])) == gp.Stable("MS", (0, 64, 0))
    assert gp.decode(b"Tap") == gp.Tap() and gp.decode(b"DTap") == gp.Tap(double=True)
    assert gp.decode(b"Bat" + bytes([87])) == gp.Battery(87)
    assert gp.decode(b"Bat" + bytes([99])) == gp.Battery(99) and gp.decode(b"Bat" + bytes([100])) == gp.Battery(100)
    assert gp.decode(b"Col\x01") == gp.Colour(1) and gp.Colour(1).name == "red"
    assert gp.decode(b"Char\x01") == gp.Charging(True)
    for junk in (b"", b"S", b"S\x01", b"Bat", b"Bat\x65", b"Col", b"FS\x00", b"X", b"\xff\xfe", b"Ta"):
        assert isinstance(gp.decode(junk), gp.Garbled), junk


def test_godice_commands_match_the_published_bytes():
    assert gp.battery_request() == b"\x03"
    assert gp.colour_request() == bytes([23])
    assert gp.set_leds((1, 2, 3), (4, 5, 6)) == bytes([8, 1, 2, 3, 4, 5, 6])
    assert gp.pulse(3, 200, 100, (255, 0, 9)) == bytes([16, 3, 20, 10, 255, 0, 9, 1, 0])
    assert gp.decode_command(gp.pulse(3, 200, 100, (255, 0, 9))) == gp.HostCommand("pulse", (3, 200, 100,
                                                                                             (255, 0, 9)))
    with pytest.raises(ValueError):
        gp.set_leds((1, 2))


def test_d6_table_from_the_facts():
    expected = {1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64), 6: (64, 0, 0)}
    for face, xyz in expected.items():
        assert gp.read_face("d6", xyz) == (face, 1.0)
    face, confidence = gp.read_face("d6", (-32, 0, 32))        # on the edge between 1 and 2
    assert face in (1, 2) and confidence <= 0.55


def test_a_die_leaning_towards_a_face_is_read_with_a_confidence_between_a_guess_and_sure():
    """Nearer face 1 than face 2, but leaning (a die propped on another): face 1, less sure than a die lying flat
    and surer than one on the edge; the confidence is a fraction, not rounded to 0 or 1."""
    face, leaning = gp.read_face("d6", (-40, 0, 30))
    _, edge = gp.read_face("d6", (-32, 0, 32))
    assert face == 1 and edge < leaning < 1.0
    assert 0.6 < leaning < 0.9 and leaning != round(leaning)


@pytest.mark.parametrize("name", sorted(gp.SHELLS))
def test_every_face_of_every_shell_reads_back(name):
    shell = gp.shell(name)
    rng = random.Random(name)
    for face in shell.values:
        model = GoDiceModel(shell=name, rng=rng, noise=4)
        message = gp.decode(model.landed(face))
        assert isinstance(message, gp.Stable)
        assert gp.read_face(name, message.xyz)[0] == face
    assert len(shell.values) == {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d10x": 10, "d00": 10, "d12": 12, "d20": 20,
                                 "d24": 24}[name]


def test_unknown_shell_and_face():
    with pytest.raises(ValueError, match="d6"):
        gp.shell("d7")
    with pytest.raises(ValueError, match="no face 7"):
        gp.vector_for("d6", 7)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(max_size=40), st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers())))
def test_godice_decoder_never_raises(data):
    message = gp.decode(data)
    assert isinstance(message, (gp.RollStarted, gp.Stable, gp.Battery, gp.Colour, gp.Charging, gp.Tap, gp.Garbled))
    if not isinstance(data, bytes):
        assert isinstance(message, gp.Garbled)
    gp.decode_command(data)
    if isinstance(message, gp.Stable):
        for shell in gp.SHELLS:
            face, confidence = gp.read_face(shell, message.xyz)
            assert face in gp.shell(shell).values and 0.0 <= confidence <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(gp.SHELLS)), st.tuples(*[st.integers(-128, 127)] * 3))
def test_any_vector_reads_as_some_face(shell, xyz):
    face, confidence = gp.read_face(shell, xyz)
    assert face in gp.shell(shell).values and 0.0 <= confidence <= 1.0


# --- Pixels (per firmware generation: tests/firmware/test_pixels_generations.py) ------------------------------------


def test_pixels_host_messages():
    """What the app sends (DiceFirmware Message::MessageType): WhoAreYou 01, RequestRollState 17, RequestBatteryLevel
    21, StopAllAnimations 3b; Blink 1d (MessageBlink)."""
    assert (pp.who_are_you(), pp.request_roll_state(), pp.request_battery()) == (b"\x01", b"\x17", b"\x21")
    assert pp.stop_all_animations() == b"\x3b"
    assert pp.decode(pp.blink((10, 20, 30))).rgb == (10, 20, 30) and len(pp.blink((1, 2, 3))) == 14
    assert pp.decode(bytes([3, 1, 4])) == pp.RollState(1, 4)
    assert pp.decode(bytes([34, 55, 2])).charging
    assert isinstance(pp.decode(bytes([99, 1, 2])), pp.Unknown)
    for junk in (b"", b"\x03", b"\x03\x01", b"\x02" + bytes(10), b"\x22\x05", b"\x1d" + bytes(5)):
        assert isinstance(pp.decode(junk), pp.Garbled), junk


def test_a_pixels_blink_on_some_faces_sends_their_mask():
    """MessageBlink's faceMask u32 (bytes 8-11, little-endian) lights only the faces whose bits are set: a blink of
    face index 2 alone sends 04 00 00 00, not every face (the default, ff ff ff ff)."""
    one_face = pp.blink((255, 0, 0), count=2, duration_ms=600, face_mask=1 << 2)
    assert one_face == bytes([29, 2]) + (600).to_bytes(2, "little") + bytes([0, 0, 255, 255]) \
        + bytes([4, 0, 0, 0]) + bytes([0, 0])
    assert pp.decode(one_face).face_mask == 0b100
    assert pp.blink((255, 0, 0))[8:12] == b"\xff\xff\xff\xff"


def test_pixels_faces():
    assert pp.face_value("d6", 0) == 1 and pp.face_value("d20", 19) == 20
    assert pp.face_value("d10", 0) == 0 and pp.face_value("d00", 9) == 90
    assert pp.face_values("d00") == tuple(range(0, 100, 10)) and pp.face_values("d4") == (1, 2, 3, 4)
