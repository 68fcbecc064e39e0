"""One simulated BLE peripheral on the virtual radio: its own controller and host, a GATT server, advertising, and the
faults a real one has (the link lost, carried out of range, held by a phone). A die's firmware (dice.py) or a Table Bus
board (NordicUartPeripheral) stands on it."""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Protocol

from bumble import gatt, hci
from bumble.device import Connection

from firmware_bridge.ble import uuids
from firmware_bridge.ble.virtual.advertising import address_text, build_advertising

if TYPE_CHECKING:
    import random

    from bumble.controller import Controller
    from bumble.device import Device
    from bumble.link import LocalLink

log = logging.getLogger(__name__)

# HCI reasons a peripheral gives when it ends a link
LINK_LOSS = hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR                                          # 0x08
IN_USE = hci.HCI_ErrorCode.REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_LOW_RESOURCES_ERROR      # 0x14
POWER_OFF = hci.HCI_ErrorCode.REMOTE_DEVICE_TERMINATED_CONNECTION_DUE_TO_POWER_OFF_ERROR       # 0x15


async def settle(ticks: int = 30) -> None:
    """Let the stack's pending call_soon chains (HCI commands and their answers) run to the end."""
    for _ in range(ticks):
        await asyncio.sleep(0)


class Air(Protocol):
    """What a peripheral needs of the radio it is on (radio.VirtualRadio): the link, its timing, its seeded randomness
    and a controller-and-host pair at an address. Named here so that the radio imports its peripherals and never
    the other way round."""

    link: LocalLink | None
    advertising_interval_ms: float
    rng: random.Random

    def _make_device(self, name: str, address: str) -> tuple[Controller, Device]: ...


class VirtualPeripheral:
    """One simulated BLE peripheral on the radio: its own controller and host, a GATT server, advertising.

    Fault injection: drop_connection() (the link is lost, the device advertises again), out_of_range() (link lost,
    no advertising, connections impossible) / back_in_range(), held_by_other() (ends every connection we make at
    once, as a die that a phone already holds), set_rssi()."""

    def __init__(self, radio: Air, address: str, name: str):
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

    def __init__(self, radio: Air, address: str, name: str,
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
