"""What goes on the air, as bytes and as bleak names it: advertising payloads (AD structures) built and read, addresses
and UUIDs in bleak's form. Pure."""
from __future__ import annotations

import uuid as uuidlib
from typing import Any, Iterable

from bumble.core import UUID as BumbleUUID


def address_text(address: Any) -> str:
    """"F0:00:00:00:00:01" for a bumble Address or a string (bumble appends "/P" to public addresses)."""
    return str(address).split("/")[0].upper()


def uuid_text(u: BumbleUUID) -> str:
    """bleak's form of a UUID: 128-bit, lower case, dashed."""
    return str(uuidlib.UUID(bytes=bytes(reversed(u.uuid_128_bytes))))


def parse_advertising(data: bytes) -> dict[str, Any]:
    """The AD structures of an advertising payload, as bleak's AdvertisementData fields; never raises."""
    out: dict[str, Any] = {"local_name": None, "manufacturer_data": {}, "service_data": {}, "service_uuids": [],
                           "tx_power": None}
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return out                                                  # not bytes: nothing advertised
    i = 0
    while i < len(data):
        length = data[i]
        if length == 0 or i + 1 + length > len(data):
            break
        kind, value = data[i + 1], bytes(data[i + 2:i + 1 + length])
        i += 1 + length
        if kind in (0x08, 0x09):                                    # shortened / complete local name
            name = value.decode("utf-8", "replace")
            if kind == 0x09 or out["local_name"] is None:
                out["local_name"] = name
        elif kind == 0xFF and len(value) >= 2:                      # manufacturer specific data
            out["manufacturer_data"][int.from_bytes(value[:2], "little")] = value[2:]
        elif kind in (0x02, 0x03):                                  # 16-bit service UUIDs
            for j in range(0, len(value) - 1, 2):
                short = int.from_bytes(value[j:j + 2], "little")
                out["service_uuids"].append(f"0000{short:04x}-0000-1000-8000-00805f9b34fb")
        elif kind in (0x06, 0x07):                                  # 128-bit service UUIDs
            for j in range(0, len(value) - 15, 16):
                out["service_uuids"].append(str(uuidlib.UUID(bytes=bytes(reversed(value[j:j + 16])))))
        elif kind == 0x16 and len(value) >= 2:                      # 16-bit service data
            key = f"0000{int.from_bytes(value[:2], 'little'):04x}-0000-1000-8000-00805f9b34fb"
            out["service_data"][key] = value[2:]
        elif kind == 0x21 and len(value) >= 16:                     # 128-bit service data
            out["service_data"][str(uuidlib.UUID(bytes=bytes(reversed(value[:16]))))] = value[16:]
        elif kind == 0x0A and len(value) == 1:                      # tx power
            out["tx_power"] = int.from_bytes(value, "little", signed=True)
    return out


def build_advertising(name: str | None = None, service_uuids: Iterable[str] = (),
                      manufacturer: tuple[int, bytes] | None = None,
                      service_data: tuple[str, bytes] | None = None, flags: bool = True) -> bytes:
    """An advertising payload (flags, 128-bit service list, name, manufacturer data, service data); a scan response
    carries no flags (`flags=False`)."""
    def ad(kind: int, value: bytes) -> bytes:
        return bytes([len(value) + 1, kind]) + value

    out = ad(0x01, bytes([0x06])) if flags else b""
    uuid_bytes = b"".join(bytes(reversed(uuidlib.UUID(u).bytes)) for u in service_uuids)
    if uuid_bytes:
        out += ad(0x07, uuid_bytes)
    if name:
        out += ad(0x09, name.encode())
    if manufacturer is not None:
        out += ad(0xFF, manufacturer[0].to_bytes(2, "little") + manufacturer[1])
    if service_data is not None:
        out += ad(0x21, bytes(reversed(uuidlib.UUID(service_data[0]).bytes)) + service_data[1])
    return out
