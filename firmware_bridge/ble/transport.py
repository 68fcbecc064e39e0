"""One BLE connection that only moves bytes: find the peripheral, connect, subscribe, write — through bleak's
facades (BleakScanner, BleakClient) over whichever backend: the platform's, or the virtual radio's.

Every bleak/OS failure is translated here, at the boundary, into the DeviceError family (`raise … from err`), with
a sentence a player understands. Protocols (GoDice, Pixels, Table Bus) sit above and never see bleak.
"""
from __future__ import annotations

import asyncio
import logging
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

from firmware_bridge.errors import (ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound, DeviceTimeout,
                                    ProtocolError, RadioBusy)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BleBackend:
    """bleak backend classes to use (None: the platform's own). The virtual radio provides a pair."""
    scanner: type | None = None
    client: type | None = None


_default = BleBackend()


def default_backend() -> BleBackend:
    return _default


def set_default_backend(backend: BleBackend | None) -> None:
    """Make every ble:// device opened from now on use `backend` (None: the platform's again)."""
    global _default
    _default = backend or BleBackend()


_IN_PROGRESS = re.compile(r"inprogress|in progress", re.I)
_BUSY = re.compile(r"already connected|alreadyconnected|in use|busy|0x14|low resources|"
                   r"limited resources|connection rejected|not permitted", re.I)
_LOST = re.compile(r"not connected|disconnected|connection lost|link lost|broken pipe", re.I)
_NO_RADIO = re.compile(r"no bluetooth adapters|bluetooth.*(off|unavailable|not available)|org\.bluez.*not ?ready|"
                       r"dbus|no such file|powered off", re.I)


def translate(err: BaseException, name: str) -> DeviceError:
    """The DeviceError that says what `err` means for the device called `name`."""
    if isinstance(err, DeviceError):
        return err
    try:
        from bleak import exc as bexc
    except ImportError:                      # pragma: no cover - bleak is a dependency
        bexc = None
    text = f"{type(err).__name__}: {err}"
    if bexc is not None:
        if isinstance(err, bexc.BleakDeviceNotFoundError):
            return DeviceNotFound(f"{name} was not found: is it switched on, in range, and not connected to "
                                  f"another app (a phone)?")
        if isinstance(err, getattr(bexc, "BleakBluetoothNotAvailableError", ())):
            return DeviceError(f"Bluetooth is not available on this computer ({err}); switch it on to use {name}")
        if isinstance(err, getattr(bexc, "BleakCharacteristicNotFoundError", ())):
            return ProtocolError(f"{name} does not offer the expected characteristic ({err}): is it the right kind "
                                 f"of device?")
        if isinstance(err, getattr(bexc, "BleakGATTProtocolError", ())):
            return ProtocolError(f"{name} refused a request ({err})")
        if isinstance(err, bexc.BleakError):
            dbus = getattr(err, "dbus_error", "") or ""
            if _IN_PROGRESS.search(dbus) or _IN_PROGRESS.search(str(err)):
                # BlueZ connects one device at a time: another die is connecting now. Not "held elsewhere".
                return RadioBusy(f"{name}: this computer's Bluetooth is busy connecting another die; "
                                 f"trying again in a moment")
            if _BUSY.search(dbus) or _BUSY.search(str(err)):
                return DeviceBusy(f"{name} is held by another app or device: close it there (a phone app?) and it "
                                  f"will reconnect")
            if _LOST.search(str(err)):
                return ConnectionLost(f"{name}: the connection was lost")
            if _NO_RADIO.search(str(err)) or _NO_RADIO.search(dbus):
                return DeviceError(f"Bluetooth is not available on this computer ({err}); switch it on to use {name}")
            return DeviceError(f"{name}: Bluetooth error: {err}")
    if isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        return DeviceTimeout(f"{name} did not answer in time")
    if isinstance(err, OSError):
        return DeviceError(f"{name}: Bluetooth is not available ({err.strerror or err})")
    return DeviceError(f"{name}: unexpected failure ({text})")


class Link(ABC):
    """One connection attempt to a peripheral: bytes in (notifications) and out (writes)."""

    address: str
    name: str
    rssi: int | None = None
    on_lost: Callable[[str], None] | None = None          # set by the device: called once if the link drops

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def characteristics(self) -> dict[str, list[str]]:
        """UUID → properties ("notify", "write", …) of every characteristic, once connected."""

    @abstractmethod
    async def subscribe(self, uuid: str, callback: Callable[[bytes], None]) -> None: ...

    @abstractmethod
    async def write(self, uuid: str, data: bytes, response: bool = False) -> None: ...

    def can(self, uuid: str, prop: str) -> bool:
        return prop in self.characteristics().get(uuid.lower(), [])


class BleakLink(Link):
    """A Link through bleak: scan for the address (its name and RSSI come with it), connect, discover."""

    def __init__(self, address: str, *, backend: BleBackend | None = None, timeout: float = 10.0,
                 scan_timeout: float | None = None, name: str | None = None):
        self.advertisement: dict = {}
        self.address = address.upper()
        self.name = name or address
        self.backend = backend or default_backend()
        self.timeout = timeout
        self.scan_timeout = scan_timeout if scan_timeout is not None else timeout
        self._client: Any = None
        self._closing = False

    async def connect(self) -> None:
        import bleak

        self._closing = False
        found: dict[str, Any] = {}

        def wanted(device, adv) -> bool:
            if device.address.upper() != self.address:
                return False
            found["adv"] = adv
            return True

        try:
            device = await bleak.BleakScanner.find_device_by_filter(wanted, timeout=self.scan_timeout,
                                                                    backend=self.backend.scanner)
            if device is None:
                raise DeviceNotFound(f"{self.name} was not found: is it switched on, in range, and not connected "
                                     f"to another app (a phone)?")
            adv = found.get("adv")
            self.name = (adv.local_name if adv is not None and adv.local_name else None) or device.name or self.name
            self.rssi = adv.rssi if adv is not None else None
            if adv is not None:
                self.advertisement = {"manufacturer_data": {str(k): bytes(v).hex()
                                                            for k, v in adv.manufacturer_data.items()},
                                      "service_data": {str(k): bytes(v).hex() for k, v in adv.service_data.items()}}
            self._client = bleak.BleakClient(device, disconnected_callback=self._disconnected, timeout=self.timeout,
                                             backend=self.backend.client)
            await self._client.connect()
        except DeviceError:
            raise
        except Exception as err:
            raise translate(err, self.name) from err

    def _disconnected(self, _client) -> None:
        if not self._closing and self.on_lost is not None:
            self.on_lost("the connection was lost")

    async def close(self) -> None:
        self._closing = True
        client, self._client = self._client, None
        if client is not None:
            try:
                await client.disconnect()
            except Exception as err:                   # closing never fails loudly
                log.debug("%s: disconnect: %r", self.name, err)

    def characteristics(self) -> dict[str, list[str]]:
        if self._client is None:
            return {}
        try:
            services = self._client.services
        except Exception:
            return {}
        return {c.uuid.lower(): list(c.properties) for c in services.characteristics.values()}

    def _char(self, uuid: str, prop: str):
        if self._client is None:
            raise ConnectionLost(f"{self.name}: not connected")
        wanted = uuid.lower()
        for c in self._client.services.characteristics.values():
            if c.uuid.lower() == wanted and (prop in c.properties or (prop == "write" and
                                                                     "write-without-response" in c.properties)):
                return c
        raise ProtocolError(f"{self.name} has no {prop} characteristic {uuid}: is it the right kind of device?")

    async def subscribe(self, uuid: str, callback: Callable[[bytes], None]) -> None:
        char = self._char(uuid, "notify")
        try:
            await self._client.start_notify(char, lambda _c, data: callback(bytes(data)))
        except Exception as err:
            raise translate(err, self.name) from err

    async def write(self, uuid: str, data: bytes, response: bool = False) -> None:
        char = self._char(uuid, "write")
        if response and "write" not in char.properties:
            response = False
        try:
            await self._client.write_gatt_char(char, bytes(data), response=response)
        except Exception as err:
            raise translate(err, self.name) from err
