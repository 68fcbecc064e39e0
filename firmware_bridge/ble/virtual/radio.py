"""The virtual radio: a LocalLink with a central (the app's side) and any number of simulated peripherals, each a bumble
Device with its own link-layer controller and host. What bleak's backend (bleak_backend.py) asks of the air — scan,
connect — the radio does here."""
from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any, Callable

from bleak.exc import BleakDeviceNotFoundError, BleakError
from bumble import hci
from bumble.controller import Controller
from bumble.device import Connection, Device
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

from firmware_bridge.ble.virtual.advertising import address_text
from firmware_bridge.ble.virtual.bleak_backend import VirtualBleakClient, VirtualBleakScanner
from firmware_bridge.ble.virtual.dice import VirtualGoDice, VirtualPixels
from firmware_bridge.ble.virtual.peripheral import NordicUartPeripheral, VirtualPeripheral, settle

CENTRAL_ADDRESS = "C0:00:00:00:00:01"
DEFAULT_ADVERTISING_MS = 40.0


class _Controller(Controller):
    """bumble's emulated link-layer controller, with two things a real controller does that it lacks: cancelling a
    pending LE connection ends it with a failed LE Connection Complete (so a connect timeout returns), and the RSSI
    in each advertising report comes from the radio's model of where the peripheral is."""

    rssi_of: Callable[[hci.Address], int] | None = None

    def on_hci_le_create_connection_cancel_command(self, command):
        pending, self.pending_le_connection = self.pending_le_connection, None
        if pending is not None:
            event = hci.HCI_LE_Connection_Complete_Event(
                status=hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR, connection_handle=0,
                role=hci.Role.CENTRAL, peer_address_type=pending.peer_address.address_type,
                peer_address=pending.peer_address, connection_interval=0, peripheral_latency=0,
                supervision_timeout=0, central_clock_accuracy=0)
            asyncio.get_running_loop().call_soon(self.send_hci_packet, event)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def send_hci_packet(self, packet) -> None:
        if self.rssi_of is not None and isinstance(packet, (hci.HCI_LE_Extended_Advertising_Report_Event,
                                                             hci.HCI_LE_Advertising_Report_Event)):
            import dataclasses

            packet = type(packet)([dataclasses.replace(r, rssi=self.rssi_of(r.address)) for r in packet.reports])
        super().send_hci_packet(packet)


class VirtualRadio:
    """A LocalLink with a central and any number of simulated peripherals; an async context manager."""

    def __init__(self, *, advertising_interval_ms: float = DEFAULT_ADVERTISING_MS,
                 central_address: str = CENTRAL_ADDRESS, seed: int | None = None, bluez: bool = False):
        # `bluez`: a connection asked for while another is pending fails at once with BlueZ's
        # org.bluez.Error.InProgress (as several dice reconnecting together meet it on Linux), instead of waiting.
        self.bluez = bluez
        self.in_progress_refusals = 0
        self.advertising_interval_ms = advertising_interval_ms
        self.central_address = central_address
        self.rng = random.Random(seed)
        self.peripherals: dict[str, VirtualPeripheral] = {}
        self.link: LocalLink | None = None
        self.central: Device | None = None
        self._scanners: set["VirtualBleakScanner"] = set()
        self._scan_lock = asyncio.Lock()
        self._connect_lock = asyncio.Lock()
        self._clients: set["VirtualBleakClient"] = set()
        self.scanner_backend: type[VirtualBleakScanner] = type("VirtualBleakScanner", (VirtualBleakScanner,),
                                                              {"radio": self})
        self.client_backend: type[VirtualBleakClient] = type("VirtualBleakClient", (VirtualBleakClient,),
                                                            {"radio": self})
        self.started = False

    async def start(self) -> "VirtualRadio":
        if self.started:
            return self
        self.link = LocalLink()
        controller, self.central = self._make_device("Table Companion", self.central_address)
        controller.rssi_of = self._rssi_of
        await self.central.power_on()
        self.central.on("advertisement", self._on_advertisement)
        self.started = True
        return self

    async def close(self) -> None:
        if not self.started:
            return
        for client in list(self._clients):
            with contextlib.suppress(Exception):
                await client.disconnect()
        for peripheral in list(self.peripherals.values()):
            with contextlib.suppress(Exception):
                await peripheral.close()
        if self._scanners:
            self._scanners.clear()
            with contextlib.suppress(Exception):
                await self.central.stop_scanning()
        self.peripherals.clear()
        await settle()
        self.started = False

    async def __aenter__(self) -> "VirtualRadio":
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    @property
    def backend(self):
        """The (scanner, client) backend pair our transports take (firmware_bridge.ble.transport.BleBackend)."""
        from firmware_bridge.ble.transport import BleBackend

        return BleBackend(scanner=self.scanner_backend, client=self.client_backend)

    def open_device(self, url: str, **kw):
        """The production Device for a ble:// URL, reaching its peripheral on this radio (not yet opened)."""
        from firmware_bridge.device import device_class, parse_url

        parsed = parse_url(url)
        return device_class(parsed)(parsed, backend=self.backend, **kw)

    # --- peripherals ---------------------------------------------------------------------------------------------
    def _make_device(self, name: str, address: str) -> tuple[_Controller, Device]:
        controller = _Controller(name, link=self.link, public_address=address)
        host = Host(controller, AsyncPipeSink(controller))
        return controller, Device(name=name, address=hci.Address(address), host=host)

    async def add(self, peripheral: VirtualPeripheral) -> VirtualPeripheral:
        if not self.started:
            await self.start()
        if peripheral.address in self.peripherals:
            raise ValueError(f"{peripheral.address} is already on this radio")
        self.peripherals[peripheral.address] = peripheral
        await peripheral.start()
        return peripheral

    async def add_nordic_uart(self, address: str, name: str,
                              on_write: Callable[[bytes], Any] | None = None) -> NordicUartPeripheral:
        """A generic Nordic UART peripheral (a Table Bus board simulator plugs in here)."""
        return await self.add(NordicUartPeripheral(self, address, name, on_write))

    async def add_godice(self, address: str, name: str | None = None, shell: str = "d6", color: str = "black",
                         battery: int = 100, **kw) -> VirtualGoDice:
        return await self.add(VirtualGoDice(self, address, name or f"GoDice_{address[-2:]}", shell=shell,
                                            color=color, battery=battery, **kw))

    async def add_pixels(self, address: str, name: str | None = None, die_type: str = "d6",
                         firmware: str = "current", battery: int = 100, **kw) -> VirtualPixels:
        return await self.add(VirtualPixels(self, address, name or f"Pixel{address[-2:]}", die_type=die_type,
                                            firmware=firmware, battery=battery, **kw))

    async def remove(self, address: str) -> None:
        peripheral = self.peripherals.pop(address_text(address), None)
        if peripheral is not None:
            await peripheral.close()

    def _rssi_of(self, address: hci.Address) -> int:
        peripheral = self.peripherals.get(address_text(address))
        return peripheral.rssi if peripheral is not None else -90

    # --- central: scanning and connecting -------------------------------------------------------------------------
    async def _scanner_started(self, scanner: "VirtualBleakScanner") -> None:
        if not self.started:
            raise BleakError("the virtual radio is not running")
        async with self._scan_lock:
            self._scanners.add(scanner)
            if len(self._scanners) == 1:
                await self.central.start_scanning(filter_duplicates=False)

    async def _scanner_stopped(self, scanner: "VirtualBleakScanner") -> None:
        async with self._scan_lock:
            if scanner in self._scanners:
                self._scanners.discard(scanner)
                if not self._scanners and self.started:
                    await self.central.stop_scanning()

    def _on_advertisement(self, advertisement) -> None:
        for scanner in list(self._scanners):
            scanner._deliver(advertisement)

    async def _connect(self, address: str, timeout: float) -> Connection:
        if not self.started:
            raise BleakError("the virtual radio is not running")
        if self.bluez and self._connect_lock.locked():
            from bleak.exc import BleakDBusError

            self.in_progress_refusals += 1
            raise BleakDBusError("org.bluez.Error.InProgress", ["Operation already in progress"])
        async with self._connect_lock:              # one LE connection may be pending at a time
            try:
                return await self.central.connect(hci.Address(address), timeout=timeout)
            except Exception as err:
                if type(err).__name__ == "TimeoutError" or isinstance(err, asyncio.TimeoutError):
                    raise BleakDeviceNotFoundError(address, f"Device with address {address} was not found.") from err
                raise BleakError(f"{address}: connection failed: {err}") from err
