"""Serial ports that look like Table Bus boards: what `firmware_bridge scan` prints and the devices screen offers.

The reference boards (hardware/README.md) sit behind common USB-serial bridges or an ESP32's native USB; a port whose
description names the Table Bus counts too. With no pyserial port listing (no /sys, a sandbox) the list is empty and
`problem` says why; nothing here raises.
"""
from __future__ import annotations

from dataclasses import dataclass

# USB-serial bridges the reference boards use: CP210x, CH340/CH9102, FTDI; and Espressif's own USB (any product)
BOARD_USB_IDS = {(0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D4), (0x0403, 0x6001), (0x0403, 0x6015)}
ESPRESSIF_VID = 0x303A


@dataclass(frozen=True)
class Port:
    url: str          # serial:///dev/ttyUSB0
    title: str        # the port's description
    ids: str = ""     # "10c4:ea60" when the USB ids are known


def looks_like_board(port) -> bool:
    vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
    text = f"{getattr(port, 'description', '')} {getattr(port, 'product', '') or ''}".lower()
    return (vid, pid) in BOARD_USB_IDS or vid == ESPRESSIF_VID or "table bus" in text or "tablebus" in text


def serial_boards(every: bool = False) -> tuple[list[Port], str]:
    """(the ports that look like boards — or every port with `every` —, why none could be listed or "")."""
    try:
        from serial.tools import list_ports

        ports = list(list_ports.comports())
    except Exception as err:  # noqa: BLE001 — no pyserial listing, no /sys: no serial ports to list
        return [], f"serial ports not listed ({type(err).__name__}: {err})"
    out = []
    for port in sorted(ports, key=lambda p: p.device):
        if every or looks_like_board(port):
            ids = f"{port.vid:04x}:{port.pid:04x}" if port.vid is not None and port.pid is not None else ""
            out.append(Port(f"serial://{port.device}", port.description or "serial port", ids))
    return out, ""
