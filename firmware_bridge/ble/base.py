"""What the BLE dice share: one Link per connection attempt, a queue of observations, errors as DeviceErrors.

A die's id (`DieRolled.die`) is its Bluetooth address, upper case: stable across reconnects and app restarts, so the
binding table can key on it. `source` is the device URL.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Callable

from firmware_bridge.ble.transport import BleakLink, BleBackend, Link, default_backend, translate
from firmware_bridge.device import Device, DeviceURL
from firmware_bridge.errors import ConnectionLost, DeviceError
from firmware_bridge.observations import SignalStrength

log = logging.getLogger(__name__)

LinkFactory = Callable[[DeviceURL], Link]


class BleDie(Device):
    """Base of the BLE dice. Subclasses implement `_setup(link)` (subscribe, first requests) and `command()`.

    `link_factory` builds the Link for an attempt (default: bleak with `backend`, or the process default);
    `clock` stamps observations' `at` (monotonic seconds)."""

    kind = "die"

    def __init__(self, url: DeviceURL, *, backend: BleBackend | None = None, link_factory: LinkFactory | None = None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(url)
        self.die = url.address.upper()
        self.source = url.text or f"{url.scheme}://{url.address}"
        self.backend = backend
        self.clock = clock
        self.timeout = url.number("timeout", 10.0)
        self._link_factory = link_factory or self._bleak_link
        self._link: Link | None = None
        self._tasks: set[asyncio.Task] = set()
        self._closed = False
        self._display_name: str | None = url.params.get("name")
        # `python -m firmware_bridge monitor --capture`: called with (seconds since the link came up, bytes) for every
        # notification, before it is read, so a group with a misbehaving die can send us exactly what it said.
        self.capture: Callable[[float, bytes], None] | None = None
        self._opened_at = 0.0

    def _bleak_link(self, url: DeviceURL) -> Link:
        return BleakLink(url.address, backend=self.backend or default_backend(), timeout=self.timeout,
                         name=self._display_name)

    @property
    def name(self) -> str:
        """What players call the die: its advertised name, the URL's `name=`, else its make — never its address."""
        if self._link is not None and self._link.name and self._link.name.upper() != self._link.address.upper():
            return self._link.name
        return self._display_name or self.brand

    brand = "Bluetooth die"

    @property
    def advertisement(self) -> dict:
        """What the die advertised when it was found (for a capture's first line): manufacturer and service data."""
        link = self._link
        return getattr(link, "advertisement", None) or {} if link is not None else {}

    def captured(self, data: bytes) -> None:
        if self.capture is not None:
            try:
                self.capture(self.clock() - self._opened_at, bytes(data))
            except Exception as err:  # a full disk must not stop the die
                log.warning("%s: capture failed: %r", self.name, err)

    # --- lifecycle -----------------------------------------------------------------------------------------------
    async def open(self) -> None:
        self._closed = False
        link = self._link_factory(self.url)
        link.on_lost = self._on_lost
        self._link = link
        self._opened_at = self.clock()
        try:
            await link.connect()
            await self._setup(link)
        except BaseException as err:
            await self._close_link()
            if isinstance(err, (asyncio.CancelledError, KeyboardInterrupt)):
                raise
            if isinstance(err, DeviceError):
                raise
            raise translate(err, self.name) from err
        if link.rssi is not None:
            self._put(SignalStrength(self.die, int(link.rssi), source=self.source, at=self.clock()))

    async def _setup(self, link: Link) -> None:
        """Subscribe and ask the first questions; raise DeviceError (ProtocolError) if this is not the device."""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await self._close_link()
        self._end()

    async def _close_link(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.on_lost = None
            with contextlib.suppress(Exception):
                await link.close()

    def _on_lost(self, reason: str) -> None:
        if not self._closed:
            self._put(ConnectionLost(f"{self.name}: {reason}"))

    def spawn(self, coro) -> None:
        """A background job of this connection (battery polling), cancelled on close; failures are logged."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None and not self._closed:
                log.debug("%s: background job failed: %r", self.name, t.exception())

        task.add_done_callback(done)

    async def _write(self, uuid: str, data: bytes) -> None:
        link = self._link
        if link is None:
            raise ConnectionLost(f"{self.name} is not connected")
        await link.write(uuid, data, response=False)
