"""The Table Bus: our framed serial/BLE protocol for DIY sensor boards (hardware/PROTOCOL.md).

    frame.py        frame layout, CRC-16/CCITT-FALSE, encoder, the streaming decoder (pure, never raises)
    messages.py     message types and payload layouts, MessageDecoder (bytes -> messages), JSON form (the CLI's
                    encode/decode lines)
    observe.py      messages -> firmware_bridge.observations
    link.py         TableBusDevice: handshake, heartbeat watchdog, acked commands — over any byte transport
    serial_device.py, ble_device.py, sim_device.py    the transports (they only move bytes)
    simboard.py     a board in Python that speaks the C simulator's script
"""
from firmware_bridge.tablebus.frame import (CRC_INIT, MAX_FRAME, MAX_PAYLOAD, SOF, Decoder, DecoderStats, Frame,
                                            crc16, decode_all, encode_frame)
from firmware_bridge.tablebus.messages import (PROTOCOL_VERSION, MessageDecoder, encode_message,
                                               message_from_json, message_to_json, parse_message)
from firmware_bridge.tablebus.observe import to_observations

__all__ = ["CRC_INIT", "MAX_FRAME", "MAX_PAYLOAD", "SOF", "Decoder", "DecoderStats", "Frame", "crc16", "decode_all",
           "encode_frame", "PROTOCOL_VERSION", "MessageDecoder", "encode_message", "message_from_json", "message_to_json",
           "parse_message", "to_observations"]
