"""Every decoder that promises to never raise keeps the promise, whatever it is handed: bytes of any kind, and things
that are not bytes at all (None, numbers, text, lists, objects). What it cannot read is a value (Garbled, Raw, an
empty list), never an exception, because a die or a board that sends nonsense must not stop the app.

The promises, where they are made:
    firmware_bridge/ble/godice_protocol.py    decode, decode_command
    firmware_bridge/ble/pixels_protocol.py    decode, decode_advert
    firmware_bridge/ble/godice_reader.py      GoDiceReader.message (through decode)
    firmware_bridge/ble/pixels_reader.py      PixelsReader.message, PixelsReader.advert
    firmware_bridge/ble/virtual/advertising.py  parse_advertising
    firmware_bridge/tablebus/frame.py         Decoder.feed, resync, flush
    firmware_bridge/tablebus/messages.py      parse_message, MessageDecoder.feed, resync, flush
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble.godice_reader import GoDiceReader
from firmware_bridge.ble.pixels_reader import PixelsReader
from firmware_bridge.ble.virtual.advertising import parse_advertising
from firmware_bridge.tablebus import messages as m
from firmware_bridge.tablebus.frame import Decoder, Frame

DIE = "F0:00:00:00:00:01"

NOT_BYTES = (None, 0, -1, 2 ** 70, 3.5, float("nan"), "", "A5", "Bat", [0xA5, 0x00], (1, 2), {"a": 1}, object(),
             True, b"".decode, Frame)

anything = st.one_of(st.binary(max_size=140), st.none(), st.integers(), st.floats(), st.text(max_size=8),
                     st.lists(st.integers(), max_size=6), st.lists(st.integers(0, 255), max_size=6).map(bytearray),
                     st.binary(max_size=40).map(memoryview), st.sampled_from(NOT_BYTES))


def godice(data):
    message = gp.decode(data)
    assert isinstance(message, (gp.RollStarted, gp.Stable, gp.Battery, gp.Colour, gp.Charging, gp.Tap, gp.Garbled))
    assert isinstance(gp.decode_command(data), gp.HostCommand)
    assert isinstance(GoDiceReader(DIE).message(data), list)
    return message


def pixels(data):
    message = pp.decode(data)
    assert isinstance(message, (pp.IAmADie, pp.RollState, pp.BatteryLevel, pp.Blink, pp.Request, pp.Unknown,
                                pp.Garbled))
    advert = pp.decode_advert(data, data)
    assert isinstance(advert, (pp.Advert, pp.Garbled))
    reader = PixelsReader(DIE)
    assert isinstance(reader.message(data), list) and isinstance(reader.advert(data, data, first=True), list)
    return message


def advertising(data):
    fields = parse_advertising(data)
    assert set(fields) == {"local_name", "manufacturer_data", "service_data", "service_uuids", "tx_power"}
    return fields


def frames(data):
    d = Decoder()
    got = d.feed(data) + d.resync() + d.feed(data) + d.flush()
    assert all(isinstance(f, Frame) for f in got)
    return got


def messages(data):
    d = m.MessageDecoder()
    got = d.feed(data) + d.resync() + d.feed(data) + d.flush()
    assert all(isinstance(seq, int) for seq, _ in got)
    assert isinstance(m.parse_message(data), (m.Raw,) + m.BOARD_MESSAGES + m.HOST_MESSAGES)
    return got


DECODERS = [godice, pixels, advertising, frames, messages]


@pytest.mark.parametrize("decoder", DECODERS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("thing", NOT_BYTES, ids=lambda t: type(t).__name__)
def test_every_decoder_takes_what_is_not_bytes(decoder, thing):
    result = decoder(thing)
    if decoder is godice:
        assert isinstance(result, gp.Garbled)
    elif decoder is pixels:
        assert isinstance(result, pp.Garbled)
    elif decoder in (frames, messages):
        assert result == []


@pytest.mark.parametrize("decoder", DECODERS, ids=lambda f: f.__name__)
@settings(max_examples=150, deadline=None)
@given(data=anything)
def test_every_decoder_takes_anything(decoder, data):
    decoder(data)
