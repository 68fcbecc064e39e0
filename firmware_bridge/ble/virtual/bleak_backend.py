"""bleak's backend over the virtual radio: a scanner and a client whose every advertisement, connection, GATT discovery,
write and notification goes through the radio's central (bumble's real HCI/L2CAP/ATT). Bound to one radio as
`radio.scanner_backend` / `radio.client_backend` (bleak's `backend=` takes a class)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Awaitable, Callable, ClassVar, Protocol

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError, BleakGATTProtocolError
from bumble import gatt
from bumble.att import ATT_Error
from bumble.device import Connection, Peer

from firmware_bridge.ble.virtual.advertising import address_text, parse_advertising, uuid_text
from firmware_bridge.ble.virtual.peripheral import IN_USE, VirtualPeripheral

log = logging.getLogger(__name__)

DEFAULT_MTU = 247


class Central(Protocol):
    """What bleak's backends need of the radio (radio.VirtualRadio): its peripherals by address, a connection from
    its central, and word of a scanner starting or stopping. Named here so that the radio imports this backend and
    never the other way round."""

    peripherals: dict[str, VirtualPeripheral]
    _clients: set[VirtualBleakClient]

    async def _connect(self, address: str, timeout: float) -> Connection: ...

    async def _scanner_started(self, scanner: VirtualBleakScanner) -> None: ...

    async def _scanner_stopped(self, scanner: VirtualBleakScanner) -> None: ...


class VirtualBleakScanner(BaseBleakScanner):
    """bleak scanner backend over the radio's central (bind with `radio.scanner_backend`)."""

    radio: ClassVar[Central]

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

    radio: ClassVar[Central]

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
