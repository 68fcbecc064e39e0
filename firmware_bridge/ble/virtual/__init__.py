"""A virtual radio: a real Bluetooth LE stack (Google's bumble) on a virtual link, plugged into bleak as a backend.

Every simulated peripheral (a GoDice, a Pixels die, a Table Bus board behind a Nordic UART) is a bumble Device with its
own link-layer Controller and Host; the host side is one more bumble Device, the "central", on the same LocalLink.
Advertising, connecting, GATT discovery, writes and notifications go through the real HCI/L2CAP/ATT code of bumble,
so what a test exercises is the production path: bleak's BleakScanner/BleakClient facades over our backend classes.

    async with VirtualRadio() as radio:
        die = await radio.add_godice("F0:00:00:00:00:01", name="GoDice_A", shell="d6", color="red", battery=87)
        found = await bleak.BleakScanner.discover(timeout=2, backend=radio.scanner_backend)
        client = bleak.BleakClient("F0:00:00:00:00:01", backend=radio.client_backend)
        await die.roll(4)

    link = await radio.add_nordic_uart("F0:00:00:00:00:09", "TableBus", on_write)   # any NUS peripheral
    await link.notify(b"...")

`radio.scanner_backend` / `radio.client_backend` are classes (bleak's `backend=` takes a class), bound to this radio.
Fault injection lives on the peripherals: drop_connection(), out_of_range()/back_in_range(), held_by_other(),
set_rssi(); the dice add what a hand does (gestures.py): low_battery(), crooked landings, a die held still that
registers a roll.

    advertising     the bytes on the air: advertising payloads built and read, addresses and UUIDs as bleak names them
    peripheral      one simulated peripheral (controller, host, GATT server, advertising, faults); Nordic UART
    dice            GoDice and Pixels peripherals: the firmware models (models.py) behind their GATT services
    bleak_backend   bleak's scanner and client over the radio's central
    radio           the LocalLink, the central, the peripherals by address; scanning and connecting

The radio imports the other four; none of them imports the radio, not even for a type: what they need of it is a
Protocol each names for itself (`peripheral.Air`: the link and a controller at an address; `bleak_backend.Central`:
the peripherals, a connection, a scanner's start and stop). No circle.
"""
from firmware_bridge.ble.virtual.advertising import address_text, build_advertising, parse_advertising, uuid_text
from firmware_bridge.ble.virtual.bleak_backend import VirtualBleakClient, VirtualBleakScanner
from firmware_bridge.ble.virtual.dice import VirtualGoDice, VirtualPixels
from firmware_bridge.ble.virtual.peripheral import (IN_USE, LINK_LOSS, POWER_OFF, NordicUartPeripheral,
                                                    VirtualPeripheral, settle)
from firmware_bridge.ble.virtual.radio import VirtualRadio

__all__ = ["VirtualRadio", "VirtualPeripheral", "NordicUartPeripheral", "VirtualGoDice", "VirtualPixels",
           "VirtualBleakScanner", "VirtualBleakClient", "build_advertising", "parse_advertising", "address_text",
           "uuid_text", "settle", "LINK_LOSS", "IN_USE", "POWER_OFF"]
