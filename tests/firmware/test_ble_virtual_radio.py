"""The virtual radio is a real BLE stack (bumble) reached through bleak's own facades (BleakScanner, BleakClient)."""
from __future__ import annotations

import asyncio

import bleak
import pytest

from firmware_bridge.ble.testing import until
from firmware_bridge.ble import uuids
from firmware_bridge.ble.virtual import VirtualRadio, build_advertising, parse_advertising


def run(coro, timeout: float = 20.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_nordic_uart_peripheral_round_trip_through_bleak():
    async def main():
        async with VirtualRadio() as radio:
            echoes = []

            async def on_write(data: bytes) -> None:
                echoes.append(data)
                await board.notify(b"ack:" + data)

            board = await radio.add_nordic_uart("F0:00:00:00:00:09", "TableBus", on_write)
            found = await bleak.BleakScanner.discover(timeout=0.5, backend=radio.scanner_backend, return_adv=True)
            device, adv = found["F0:00:00:00:00:09"]
            assert device.name == "TableBus" and adv.local_name == "TableBus"
            assert uuids.NUS_SERVICE in adv.service_uuids

            received: list[bytes] = []
            got = asyncio.Event()
            async with bleak.BleakClient(device, backend=radio.client_backend) as client:
                tx = client.services.get_characteristic(uuids.NUS_TX)
                rx = client.services.get_characteristic(uuids.NUS_RX)
                assert "notify" in tx.properties and "write" in rx.properties
                await client.start_notify(tx, lambda _c, data: (received.append(bytes(data)), got.set()))
                await client.write_gatt_char(rx, b"PING", response=True)
                await asyncio.wait_for(got.wait(), 2)
                await board.notify(b"spontaneous")
                await until(lambda: len(received) >= 2, "the spontaneous notification")
            assert echoes == [b"PING"] and board.writes == [b"PING"]
            assert received == [b"ack:PING", b"spontaneous"]

    run(main())


def test_faults_reach_bleak_as_its_own_errors():
    async def main():
        async with VirtualRadio() as radio:
            board = await radio.add_nordic_uart("F0:00:00:00:00:0A", "Board", None)
            lost = asyncio.Event()
            client = bleak.BleakClient("F0:00:00:00:00:0A", backend=radio.client_backend,
                                       disconnected_callback=lambda _c: lost.set())
            await client.connect()
            assert client.is_connected
            await board.drop_connection()
            await asyncio.wait_for(lost.wait(), 2)
            assert not client.is_connected

            await board.held_by_other()
            with pytest.raises(bleak.exc.BleakError, match="in use"):
                await bleak.BleakClient("F0:00:00:00:00:0A", backend=radio.client_backend).connect()
            await board.held_by_other(False)

            await board.out_of_range()
            with pytest.raises(bleak.exc.BleakDeviceNotFoundError):
                await bleak.BleakClient("F0:00:00:00:00:0A", backend=radio.client_backend, timeout=0.2).connect()
            assert await bleak.BleakScanner.find_device_by_address("F0:00:00:00:00:0A", timeout=0.2,
                                                                  backend=radio.scanner_backend) is None
            await board.back_in_range()
            await client.connect()
            assert client.is_connected
            await client.disconnect()

    run(main())


def test_rssi_follows_the_simulated_distance():
    async def main():
        async with VirtualRadio() as radio:
            board = await radio.add_nordic_uart("F0:00:00:00:00:0B", "Far", None)
            board.set_rssi(-88)
            found = await bleak.BleakScanner.discover(timeout=0.5, backend=radio.scanner_backend, return_adv=True)
            assert found["F0:00:00:00:00:0B"][1].rssi == -88

    run(main())


def test_advertising_payload_round_trip_and_garbage():
    data = build_advertising("GoDice_A", [uuids.NUS_SERVICE], manufacturer=(0x0D39, b"\x01\x02"))
    fields = parse_advertising(data)
    assert fields["local_name"] == "GoDice_A"
    assert fields["service_uuids"] == [uuids.NUS_SERVICE]
    assert fields["manufacturer_data"] == {0x0D39: b"\x01\x02"}
    for junk in (b"", b"\x00", b"\xff\x09abc", b"\x02\xff\x01", bytes(range(40))):
        parse_advertising(junk)
