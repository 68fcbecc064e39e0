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
set_rssi(); the dice add low_battery(), crooked landings, a die held still that registers a roll.
"""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
import uuid as uuidlib
from typing import Any, Awaitable, Callable, ClassVar, Iterable

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakDeviceNotFoundError, BleakError, BleakGATTProtocolError
from bumble import gatt, hci
from bumble.att import ATT_Error
from bumble.controller import Controller
from bumble.core import UUID as BumbleUUID
from bumble.device import Connection, Device, Peer
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

from firmware_bridge.ble import uuids

log = logging.getLogger(__name__)

CENTRAL_ADDRESS = "C0:00:00:00:00:01"
DEFAULT_ADVERTISING_MS = 40.0
DEFAULT_MTU = 247

# HCI reasons a peripheral gives when it ends a link
LINK_LOSS = hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR                                          # 0x08
IN_USE = hci.HCI_ErrorCode.REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_LOW_RESOURCES_ERROR      # 0x14
POWER_OFF = hci.HCI_ErrorCode.REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_POWER_OFF_ERROR       # 0x15


async def settle(ticks: int = 30) -> None:
    """Let the stack's pending call_soon chains (HCI commands and their answers) run to the end."""
    for _ in range(ticks):
        await asyncio.sleep(0)


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


class VirtualPeripheral:
    """One simulated BLE peripheral on the radio: its own controller and host, a GATT server, advertising.

    Fault injection: drop_connection() (the link is lost, the device advertises again), out_of_range() (link lost,
    no advertising, connections impossible) / back_in_range(), held_by_other() (ends every connection we make at
    once, as a die that a phone already holds), set_rssi()."""

    def __init__(self, radio: "VirtualRadio", address: str, name: str):
        self.radio = radio
        self.address = address_text(address)
        self.name = name
        self.rssi = -55
        self.in_range = True
        self.held = False                          # held by another central (a phone app)
        self.writes: list[bytes] = []             # every value the host wrote, in order
        self.connects = 0                          # connections accepted (not refused)
        self._advertising = b""
        self._send_lock = asyncio.Lock()
        self._subscribed = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self.controller, self.device = radio._make_device(name, self.address)
        self.device.on("connection", self._on_connection)
        self.device.on("characteristic_subscription", self._on_subscription)

    # --- set-up ------------------------------------------------------------------------------------------------
    def services(self) -> list[gatt.Service]:
        return []

    def advertising_data(self) -> bytes:
        return build_advertising(self.name)

    def scan_response_data(self) -> bytes:
        """What the peripheral answers an active scan with (empty: nothing)."""
        return b""

    async def start(self) -> None:
        for service in self.services():
            self.device.add_service(service)
        await self.device.power_on()
        self._advertising = self.advertising_data()
        await self._advertise()

    async def _advertise(self) -> None:
        await self.device.start_advertising(advertising_data=self._advertising,
                                            scan_response_data=self.scan_response_data(),
                                            advertising_interval_min=self.radio.advertising_interval_ms,
                                            advertising_interval_max=self.radio.advertising_interval_ms,
                                            auto_restart=True)

    async def set_advertising_data(self, data: bytes) -> None:
        """Change what the peripheral advertises (a Pixels die's roll state), at once if it is advertising."""
        self._advertising = data
        self.device.advertising_data = data
        adv_set = self.device.legacy_advertising_set
        if adv_set is not None:
            with contextlib.suppress(Exception):
                await adv_set.set_advertising_data(data)

    # --- state ---------------------------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return bool(self.device.connections)

    @property
    def subscribed(self) -> bool:
        return self._subscribed.is_set()

    async def wait_subscribed(self, timeout: float = 5.0) -> None:
        """Until a central has subscribed to this peripheral's notifications (the host is listening)."""
        await asyncio.wait_for(self._subscribed.wait(), timeout)

    def _on_connection(self, connection: Connection) -> None:
        connection.on("disconnection", lambda reason: self._on_disconnection())
        if self.held or not self.in_range:
            # one central at a time: a die held by a phone ends our connection at once
            self._spawn(connection.disconnect(reason=IN_USE))
            return
        self.connects += 1

    def _on_disconnection(self) -> None:
        if not self.device.connections:
            self._subscribed.clear()

    def _on_subscription(self, connection, characteristic, notify_enabled, indicate_enabled) -> None:
        if notify_enabled or indicate_enabled:
            self._subscribed.set()
            self.on_subscribed()

    def on_subscribed(self) -> None:
        """Hook: a host started listening."""

    def _spawn(self, aw: Awaitable) -> None:
        task = asyncio.ensure_future(aw)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("%s: background task failed: %r", self.name, task.exception())

    def _on_write(self, data: bytes) -> None:
        """A host wrote `data`; subclasses answer (the firmware's behaviour)."""

    def _write_handler(self) -> gatt.CharacteristicValue:
        def write(connection, value) -> None:
            data = bytes(value)
            self.writes.append(data)
            self._on_write(data)
        return gatt.CharacteristicValue(write=write)

    async def _notify(self, characteristic: gatt.Characteristic, data: bytes) -> None:
        async with self._send_lock:           # FIFO: notifications leave in the order they were made
            if self.device.connections:
                await self.device.notify_subscribers(characteristic, bytes(data))

    # --- fault injection -------------------------------------------------------------------------------------------
    async def drop_connection(self, reason: int = LINK_LOSS) -> None:
        """The link drops (supervision timeout by default); the peripheral advertises again."""
        for connection in list(self.device.connections.values()):
            with contextlib.suppress(Exception):
                await connection.disconnect(reason=reason)

    async def out_of_range(self) -> None:
        """Carried away: the link drops, advertising stops, connecting fails until back_in_range()."""
        self.in_range = False
        await self.device.stop_advertising()
        await self.drop_connection(LINK_LOSS)

    async def back_in_range(self) -> None:
        self.in_range = True
        await self._advertise()

    async def held_by_other(self, held: bool = True) -> None:
        """Held by another central (a phone app): every connection we make is ended at once, with "in use"."""
        self.held = held
        if held:
            await self.drop_connection(IN_USE)

    hold_by_other = held_by_other

    def set_rssi(self, rssi: int) -> None:
        self.rssi = rssi

    async def close(self) -> None:
        self.in_range = False
        await self.drop_connection(POWER_OFF)
        await settle()                     # let an advertising restart after the drop finish first
        with contextlib.suppress(Exception):
            await self.device.stop_advertising()
        for task in list(self._tasks):
            task.cancel()
        if self.radio.link is not None and self.controller in self.radio.link.controllers:
            self.radio.link.remove_controller(self.controller)


class NordicUartPeripheral(VirtualPeripheral):
    """A generic Nordic UART peripheral: RX (…0002) the host writes, TX (…0003) notifies the host.

    `on_write(data)` is called for every write (a function or a coroutine function); `await notify(data)` sends."""

    def __init__(self, radio: "VirtualRadio", address: str, name: str,
                 on_write: Callable[[bytes], Any] | None = None, service_uuids: Iterable[str] = (uuids.NUS_SERVICE,)):
        super().__init__(radio, address, name)
        self.on_write = on_write
        self._service_uuids = tuple(service_uuids)
        self.tx = gatt.Characteristic(uuids.NUS_TX, gatt.Characteristic.Properties.NOTIFY,
                                      gatt.Characteristic.Permissions.READABLE, b"")
        self.rx = gatt.Characteristic(uuids.NUS_RX, gatt.Characteristic.Properties.WRITE
                                      | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                                      gatt.Characteristic.Permissions.WRITEABLE, self._write_handler())

    def services(self) -> list[gatt.Service]:
        return [gatt.Service(uuids.NUS_SERVICE, [self.rx, self.tx])]

    def advertising_data(self) -> bytes:
        return build_advertising(self.name, self._service_uuids)

    def _on_write(self, data: bytes) -> None:
        if self.on_write is None:
            return
        result = self.on_write(data)
        if inspect.isawaitable(result):
            self._spawn(result)

    async def notify(self, data: bytes) -> None:
        """Send `data` to the subscribed host (nothing happens when no host listens, as on a real link)."""
        await self._notify(self.tx, data)


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
                         battery: int = 100, **kw):
        from firmware_bridge.ble.virtual_dice import VirtualGoDice

        return await self.add(VirtualGoDice(self, address, name or f"GoDice_{address[-2:]}", shell=shell,
                                            color=color, battery=battery, **kw))

    async def add_pixels(self, address: str, name: str | None = None, die_type: str = "d6",
                         firmware: str = "current", battery: int = 100, **kw):
        from firmware_bridge.ble.virtual_dice import VirtualPixels

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


class VirtualBleakScanner(BaseBleakScanner):
    """bleak scanner backend over the radio's central (bind with `radio.scanner_backend`)."""

    radio: ClassVar[VirtualRadio]

    def __init__(self, detection_callback=None, service_uuids=None, scanning_mode="active", **kwargs: Any):
        super().__init__(detection_callback, service_uuids)
        self._scanning = False

    async def start(self) -> None:
        self.seen_devices = {}
        self._scanning = True
        await self.radio._scanner_started(self)

    async def stop(self) -> None:
        self._scanning = False
        await self.radio._scanner_stopped(self)

    def _deliver(self, advertisement) -> None:
        if not self._scanning:
            return
        # the advertisement merged with its scan response (bumble accumulates them), as an OS stack delivers it
        fields = parse_advertising(bytes(advertisement.data) if advertisement.data is not None
                                   else bytes(advertisement.data_bytes))
        if not self.is_allowed_uuid(fields["service_uuids"]):
            return
        address = address_text(advertisement.address)
        data = AdvertisementData(local_name=fields["local_name"], manufacturer_data=fields["manufacturer_data"],
                                 service_data=fields["service_data"], service_uuids=fields["service_uuids"],
                                 tx_power=fields["tx_power"], rssi=advertisement.rssi, platform_data=(advertisement,))
        device = self.create_or_update_device(address, address, fields["local_name"], advertisement, data)
        self.call_detection_callbacks(device, data)


_PROPERTY_NAMES = (
    (gatt.Characteristic.Properties.BROADCAST, "broadcast"),
    (gatt.Characteristic.Properties.READ, "read"),
    (gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE, "write-without-response"),
    (gatt.Characteristic.Properties.WRITE, "write"),
    (gatt.Characteristic.Properties.NOTIFY, "notify"),
    (gatt.Characteristic.Properties.INDICATE, "indicate"),
    (gatt.Characteristic.Properties.AUTHENTICATED_SIGNED_WRITES, "authenticated-signed-writes"),
    (gatt.Characteristic.Properties.EXTENDED_PROPERTIES, "extended-properties"),
)


class VirtualBleakClient(BaseBleakClient):
    """bleak client backend: one GATT connection from the radio's central (bind with `radio.client_backend`)."""

    radio: ClassVar[VirtualRadio]

    def __init__(self, address_or_ble_device: BLEDevice | str, *, disconnected_callback=None, services=None,
                 timeout: float = 10.0, **kwargs: Any):
        super().__init__(address_or_ble_device, disconnected_callback=disconnected_callback, timeout=timeout)
        self.address = address_text(self.address)
        self._name = address_or_ble_device.name if isinstance(address_or_ble_device, BLEDevice) else None
        self._connection: Connection | None = None
        self._lost: asyncio.Future | None = None
        self._reason: int | None = None
        self._closing = False
        self._subscribers: dict[int, Callable] = {}

    # --- properties ----------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name or self.address.replace(":", "-")

    @property
    def mtu_size(self) -> int:
        return self._connection.att_mtu if self._connection is not None else 23

    @property
    def is_connected(self) -> bool:
        return self._connection is not None

    # --- connection ----------------------------------------------------------------------------------------------
    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        if self._connection is not None:
            return
        loop = asyncio.get_running_loop()
        connection = await self.radio._connect(self.address, self._timeout)
        self._connection, self._lost, self._reason, self._closing = connection, loop.create_future(), None, False
        connection.on("disconnection", self._on_disconnection)
        self.radio._clients.add(self)
        try:
            self.services = await self._guard(self._discover(connection))
        except BaseException:
            if self._connection is not None:          # set-up failed on a live link: do not leave it open
                await self.disconnect()
            if self._reason == IN_USE:
                raise BleakError(f"{self.address}: the device ended the connection as soon as it was made "
                                 f"(HCI 0x{IN_USE:02X} low resources): it is in use by another central") from None
            raise
        if self._name is None:
            peripheral = self.radio.peripherals.get(self.address)
            self._name = peripheral.name if peripheral is not None else None

    def _on_disconnection(self, reason: int) -> None:
        was_up = self._connection is not None
        self._connection, self._reason = None, reason
        self.radio._clients.discard(self)
        if self._lost is not None and not self._lost.done():
            self._lost.set_result(reason)
        if was_up and not self._closing and self.services is not None and self._disconnected_callback is not None:
            self._disconnected_callback()

    async def disconnect(self) -> None:
        connection = self._connection
        if connection is None:
            return
        self._closing = True
        with contextlib.suppress(Exception):
            await connection.disconnect()
        self._connection = None
        self.radio._clients.discard(self)

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        log.info("virtual radio: pairing is not needed for these devices; ignored")

    async def unpair(self) -> None:
        log.info("virtual radio: nothing to unpair")

    async def _guard(self, aw: Awaitable):
        """Run a GATT operation, failing at once (BleakError) if the link drops meanwhile."""
        if self._connection is None or self._lost is None:
            raise BleakError(f"{self.address}: Not connected")
        task = asyncio.ensure_future(aw)
        lost = self._lost
        try:
            await asyncio.wait({task, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not task.done():
                task.cancel()
        if task.done() and not task.cancelled():
            try:
                return task.result()
            except ATT_Error as err:
                raise BleakGATTProtocolError(err.error_code) from err
            except BleakError:
                raise
            except asyncio.CancelledError:
                if not lost.done():
                    raise
            except Exception as err:
                if not lost.done():
                    raise BleakError(f"{self.address}: {err!r}") from err
        with contextlib.suppress(BaseException):
            await task
        raise BleakError(f"{self.address}: Not connected (link lost, HCI reason 0x{self._reason or 0:02X})")

    async def _discover(self, connection: Connection) -> BleakGATTServiceCollection:
        peer = Peer(connection)
        await peer.request_mtu(DEFAULT_MTU)          # as the OS stacks do on connecting
        await peer.discover_services()
        collection = BleakGATTServiceCollection()
        for service in peer.services:
            await service.discover_characteristics()
            bleak_service = BleakGATTService(service, service.handle, uuid_text(service.uuid))
            collection.add_service(bleak_service)
            for characteristic in service.characteristics:
                await characteristic.discover_descriptors()
                props = [name for flag, name in _PROPERTY_NAMES if characteristic.properties & flag]
                bleak_char = BleakGATTCharacteristic(characteristic, characteristic.handle,
                                                     uuid_text(characteristic.uuid), props,
                                                     lambda: max(20, self.mtu_size - 3), bleak_service)
                collection.add_characteristic(bleak_char)
                for descriptor in characteristic.descriptors:
                    collection.add_descriptor(BleakGATTDescriptor(descriptor, descriptor.handle,
                                                                  uuid_text(descriptor.type), bleak_char))
        return collection

    # --- I/O -----------------------------------------------------------------------------------------------------
    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, *, use_cached: bool = False,
                             **kwargs: Any) -> bytearray:
        return bytearray(await self._guard(characteristic.obj.read_value()))

    async def read_gatt_descriptor(self, descriptor: BleakGATTDescriptor, *, use_cached: bool = False,
                                   **kwargs: Any) -> bytearray:
        return bytearray(await self._guard(descriptor.obj.read_value()))

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data, response: bool) -> None:
        await self._guard(characteristic.obj.write_value(bytes(data), with_response=response))

    async def write_gatt_descriptor(self, descriptor: BleakGATTDescriptor, data) -> None:
        await self._guard(descriptor.obj.write_value(bytes(data), with_response=True))

    async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback,
                           **kwargs: Any) -> None:
        def subscriber(value: bytes) -> None:
            callback(bytearray(value))

        self._subscribers[characteristic.handle] = subscriber
        await self._guard(characteristic.obj.subscribe(subscriber, prefer_notify=True))

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        subscriber = self._subscribers.pop(characteristic.handle, None)
        await self._guard(characteristic.obj.unsubscribe(subscriber))
