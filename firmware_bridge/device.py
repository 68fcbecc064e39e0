"""Devices by URL, like pyserial's serial_for_url: one parser, one registry of handlers, one abstract Device.

    serial:///dev/ttyACM0?baud=115200          a Table Bus board on a serial port
    ble://F0:00:00:00:00:01?kind=godice&shell=d6
    ble://F0:00:00:00:00:02?kind=pixels
    ble://F0:00:00:00:00:03?kind=tablebus      a Table Bus board over BLE (Nordic UART)
    sim://godice?seed=7                        simulated devices (the virtual radio), the default with no hardware

Handlers are named by module path and imported only when a URL needs them, so listing devices never imports
bleak or pyserial, and a missing optional package is a DeviceError, not an ImportError.
"""
from __future__ import annotations

import asyncio
import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import AsyncIterator, Mapping
from urllib.parse import parse_qsl, urlsplit

from firmware_bridge.commands import Command
from firmware_bridge.errors import BadDeviceURL, DeviceError
from firmware_bridge.observations import Observation

SCHEMES = ("serial", "ble", "sim")
_END = object()   # in a device's inbox: closed, the observations end


@dataclass(frozen=True)
class DeviceURL:
    scheme: str
    address: str                      # a path (/dev/ttyACM0), a BLE address, or the simulated kind
    kind: str | None = None           # ?kind=…  (ble: godice, pixels, tablebus)
    params: Mapping[str, str] = field(default_factory=dict)  # every other query parameter
    text: str = ""                    # the URL as given

    def __str__(self) -> str:
        return self.text

    def number(self, key: str, default, lo: float = 0, hi: float | None = None, *, whole: bool = False):
        """The query parameter `key` as a number (`whole`: an int) from `lo` to `hi` (None: no limit), `default`
        when absent; BadDeviceURL (one line naming it) when it is not one or out of range."""
        text = self.params.get(key)
        if text is None:
            return default
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            raise BadDeviceURL(f"{self}: {key}={text!r} is not a {'whole number' if whole else 'number'}") from None
        if hi is None and value < lo:
            raise BadDeviceURL(f"{self}: {key} cannot be negative" if lo == 0 else f"{self}: {key} is below {lo}")
        if hi is not None and not lo <= value <= hi:
            span = f"{lo} and {hi}" if whole else f"{lo:g} and {hi:g}"
            raise BadDeviceURL(f"{self}: {key} must be between {span}")
        return value


def parse_url(url: str) -> DeviceURL:
    """The parts of a device URL; BadDeviceURL (one line) when it is not one."""
    if not isinstance(url, str) or not url.strip():
        raise BadDeviceURL("a device URL is needed, e.g. serial:///dev/ttyACM0 or ble://ADDRESS?kind=godice")
    try:
        parts = urlsplit(url.strip())
        query = dict(parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query)))
    except ValueError as err:
        raise BadDeviceURL(f"{url}: not a device URL ({err})") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise BadDeviceURL(f"{url}: unknown scheme {parts.scheme!r}; use one of {', '.join(s + '://' for s in SCHEMES)}")
    address = parts.path if scheme == "serial" else parts.netloc or parts.path.lstrip("/")
    if not address:
        raise BadDeviceURL(f"{url}: no address or path")
    kind = query.pop("kind", None)
    return DeviceURL(scheme, address, kind, query, url.strip())


class Device(ABC):
    """One device: open it, read its observations, send it commands, close it.

    `observations()` yields until the device is closed (then it ends) or the link drops (then it raises
    ConnectionLost). Every failure is a DeviceError. The device manager owns reconnecting; a Device is one
    connection attempt's lifetime.

    The loop of `observations()` is written here once, as python-can's `BusABC.recv` calls `_recv_internal`: a
    device hands what it has to its inbox on the loop — `_put(observation)`, `_put(error)` (the link dropped: the
    reader gets it raised) and, once closed, `_end()` — and `_recv_internal()` takes the next one. A device whose
    observations come from somewhere else overrides `_recv_internal` (None: the end).
    """

    def __init__(self, url: DeviceURL):
        self.url = url
        self._inbox: asyncio.Queue = asyncio.Queue()

    @property
    def name(self) -> str:
        """What players call it ("GoDice_A", "Table Bus on ttyACM0")."""
        return self.url.address

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def observations(self) -> AsyncIterator[Observation]:
        while True:
            observation = await self._recv_internal()
            if observation is None:
                return
            yield observation

    async def _recv_internal(self) -> Observation | None:
        """The next observation; None once the device is closed; a DeviceError put in the inbox is raised."""
        item = await self._inbox.get()
        if item is _END:
            return None
        if isinstance(item, DeviceError):
            raise item
        return item

    def _put(self, item: Observation | DeviceError) -> None:
        """Hand an observation (or the error that ends the reading: a lost link) to the reader, in order."""
        self._inbox.put_nowait(item)

    def _end(self) -> None:
        """The device is closed: the reader's `observations()` ends after what it was handed before."""
        self._inbox.put_nowait(_END)

    async def command(self, command: Command) -> None:
        from firmware_bridge.errors import ProtocolError

        raise ProtocolError(f"{self.name} cannot do {type(command).__name__}")

    async def __aenter__(self) -> "Device":
        await self.open()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


# (scheme, kind) -> "module:Class". kind None: the scheme's default.
HANDLERS: dict[tuple[str, str | None], str] = {}


def register(scheme: str, kind: str | None, target: str) -> None:
    """Name the Device class for URLs of `scheme` (and `?kind=`); `target` is "package.module:Class"."""
    HANDLERS[(scheme, kind)] = target


def device_class(url: DeviceURL) -> type[Device]:
    target = HANDLERS.get((url.scheme, url.kind))
    if target is None and url.scheme == "sim":
        target = HANDLERS.get((url.scheme, url.address))
    if target is None:
        kinds = sorted(k for s, k in HANDLERS if s == url.scheme and k)
        hint = f"; kinds: {', '.join(kinds)}" if kinds else ""
        raise BadDeviceURL(f"{url}: no device of kind {url.kind or url.address!r} for {url.scheme}://{hint}")
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except ImportError as err:
        raise DeviceError(f"{url}: this device needs the package {err.name!r}, which is not installed") from err


def open_device(url: str | DeviceURL) -> Device:
    """A Device for `url`, not yet opened (`await device.open()` or `async with`)."""
    parsed = url if isinstance(url, DeviceURL) else parse_url(url)
    return device_class(parsed)(parsed)


# --- Table Bus boards (firmware_bridge/tablebus, hardware/PROTOCOL.md) ---
register("serial", None, "firmware_bridge.tablebus.serial_device:SerialTableBus")
register("ble", "tablebus", "firmware_bridge.tablebus.ble_device:BleTableBus")
register("sim", "tablebus", "firmware_bridge.tablebus.sim_device:SimTableBus")

# --- Smart dice over BLE and simulated (firmware_bridge/ble, firmware_bridge/sim.py; docs/devices.md) ---
register("ble", "godice", "firmware_bridge.ble.godice:GoDiceDevice")
register("ble", "pixels", "firmware_bridge.ble.pixels:Pixels")
register("sim", "godice", "firmware_bridge.sim:SimDice")
register("sim", "pixels", "firmware_bridge.sim:SimDice")
