"""Pixels dice over BLE: ble://ADDRESS?kind=pixels   (read rolls from advertisements only: &mode=advert)

Both GATT generations: current firmware (service a6b90001…, notify …0002, write …0003) and legacy (service and
notify 6e400001…, write 6e400002…), chosen by what the die offers. On connecting the host sends WhoAreYou; the die's
IAmADie (every layout: pixels_protocol) gives its type, colourway, firmware date, battery and roll state.

What the messages mean is pixels_reader.PixelsReader's business (pure): DieRolling, DieRolled, DieSetDown (picked up
and put back: the wait for it ends), DieCrooked, BatteryLevel, DieIdentified — with the SDK's corrections for
older firmware. Commands: Blink (message 29, `count` flashes over count × duration_ms: each flash lit for half its
duration, as on GoDice), LightUp (a blink that loops until told otherwise: the die stays lit; (0, 0, 0) stops every
animation, message 59), RequestBattery (33), RequestState (23, RequestRollState).

`mode=advert` never connects: it listens to the advertisements (manufacturer data 0x0D39: roll state, face, battery;
scan response: pixel id and firmware date) and reports changes, plus the signal strength; it cannot send commands.
Optional `stale=SECONDS` (default 20): with no advertisement for that long the die counts as lost.
"""
from __future__ import annotations

import asyncio
import logging

from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.base import BleDie
from firmware_bridge.ble.pixels_reader import PixelsReader
from firmware_bridge.ble.transport import Link, default_backend, translate
from firmware_bridge.commands import Blink, Command, LightUp, RequestBattery, RequestState
from firmware_bridge.errors import BadDeviceURL, ConnectionLost, DeviceError, ProtocolError
from firmware_bridge.observations import SignalStrength

log = logging.getLogger(__name__)

LIGHT_UP_PERIOD_MS = 1000   # LightUp: one flash a second, looping until LightUp((0, 0, 0))


def _die_type(url) -> str | None:
    die_type = url.params.get("die")
    if die_type is not None and die_type not in pp.DIE_TYPE_CODES:
        raise BadDeviceURL(f"{url}: die={die_type!r}; Pixels dice: {', '.join(pp.DIE_TYPE_CODES)}")
    return die_type


class PixelsDevice(BleDie):
    kind = "pixels"
    brand = "Pixels die"

    def __init__(self, url, **kw):
        super().__init__(url, **kw)
        self.die_type_override = _die_type(url)
        self.reader = PixelsReader(self.die, self.source, self.die_type_override)
        self.generation: str | None = None
        self._live = False
        self._notify_uuid = self._write_uuid = ""

    @property
    def tracker(self) -> PixelsReader:
        return self.reader

    @property
    def garbled(self) -> int:
        return self.reader.garbled

    async def _setup(self, link: Link) -> None:
        if link.can(uuids.PIXELS_NOTIFY, "notify"):
            self.generation, self._notify_uuid, self._write_uuid = "current", uuids.PIXELS_NOTIFY, uuids.PIXELS_WRITE
        elif link.can(uuids.PIXELS_LEGACY_NOTIFY, "notify"):
            self.generation, self._notify_uuid, self._write_uuid = ("legacy", uuids.PIXELS_LEGACY_NOTIFY,
                                                                    uuids.PIXELS_LEGACY_WRITE)
        elif link.can(uuids.NUS_TX, "notify"):
            self.generation, self._notify_uuid, self._write_uuid = "legacy", uuids.NUS_TX, uuids.PIXELS_LEGACY_WRITE
        else:
            raise ProtocolError(f"{self.name} does not speak the Pixels protocol (no Pixels service)")
        self.reader.name = self.name
        await link.subscribe(self._notify_uuid, self._on_notification)
        await link.write(self._write_uuid, pp.who_are_you())

    def _on_notification(self, data: bytes) -> None:
        self.captured(data)
        # A RollState before the IAmADie answer: the live stream is newer than that answer's roll state.
        live = not self._live
        if data[:1] == bytes([pp.ROLL_STATE]):
            self._live = True
        for obs in self.reader.message(data, self.clock(), live=live):
            self._put(obs)

    async def command(self, command: Command) -> None:
        if isinstance(command, Blink):
            total = max(1, command.count) * max(1, command.duration_ms)
            await self._write(self._write_uuid, pp.blink(command.colour, command.count, min(0xFFFF, total)))
        elif isinstance(command, LightUp):
            if tuple(command.colour) == (0, 0, 0):
                await self._write(self._write_uuid, pp.stop_all_animations())
            else:
                await self._write(self._write_uuid, pp.blink(command.colour, 1, LIGHT_UP_PERIOD_MS, loop=True))
        elif isinstance(command, RequestBattery):
            await self._write(self._write_uuid, pp.request_battery())
        elif isinstance(command, RequestState):
            await self._write(self._write_uuid, pp.request_roll_state())
        else:
            await super().command(command)


class PixelsAdvertDevice(BleDie):
    """A Pixels die read from its advertisements, never connected (several apps can listen at once)."""

    kind = "pixels"
    brand = "Pixels die"

    def __init__(self, url, **kw):
        super().__init__(url, **kw)
        self.reader = PixelsReader(self.die, self.source, _die_type(url))
        self.stale = url.number("stale", 20.0)
        self._scanner = None
        self._last_seen = 0.0
        self._rssi: int | None = None
        self._identified = False

    @property
    def tracker(self) -> PixelsReader:
        return self.reader

    async def open(self) -> None:
        import bleak

        self._closed = False
        backend = self.backend or default_backend()
        self._scanner = bleak.BleakScanner(self._on_advert, backend=backend.scanner)
        try:
            await self._scanner.start()
        except Exception as err:
            self._scanner = None
            raise translate(err, self.name) from err
        self._last_seen = self.clock()
        if self.stale:
            self.spawn(self._watch())

    async def _watch(self) -> None:
        while not self._closed:
            await asyncio.sleep(min(1.0, self.stale / 4))
            if self.clock() - self._last_seen > self.stale:
                self._put(ConnectionLost(f"{self.name}: no advertisement for {self.stale:g} s "
                                         f"(out of range or switched off?)"))
                return

    def _on_advert(self, device, adv) -> None:
        if device.address.upper() != self.die:
            return
        payload = adv.manufacturer_data.get(uuids.PIXELS_COMPANY_ID)
        if payload is None:
            return
        at = self.clock()
        self._last_seen = at
        if adv.local_name:
            self._display_name = adv.local_name
            self.reader.name = adv.local_name
        service = next((bytes(v) for v in adv.service_data.values() if len(v) >= 8), None)
        first = not self._identified
        observations = self.reader.advert(payload, service, at, first=first)
        if observations or not first:
            self._identified = True
        if self._rssi is None or abs(adv.rssi - self._rssi) >= 6:
            self._rssi = adv.rssi
            self._put(SignalStrength(self.die, adv.rssi, source=self.source, at=at))
        for obs in observations:
            self._put(obs)

    async def close(self) -> None:
        scanner, self._scanner = self._scanner, None
        if scanner is not None:
            try:
                await scanner.stop()
            except Exception as err:
                log.debug("%s: stop scanning: %r", self.name, err)
        await super().close()

    async def command(self, command: Command) -> None:
        raise ProtocolError(f"{self.name} is only listened to (mode=advert): connect to it to send "
                            f"{type(command).__name__}")


def open_pixels(url, **kw) -> BleDie:
    """The right Pixels reader for the URL (connected, or advert-only with mode=advert)."""
    mode = url.params.get("mode", "connect")
    if mode == "advert":
        return PixelsAdvertDevice(url, **kw)
    if mode != "connect":
        raise BadDeviceURL(f"{url}: mode={mode!r}; use mode=connect (default) or mode=advert")
    return PixelsDevice(url, **kw)


class Pixels(BleDie):
    """The registered handler for ble://…?kind=pixels: a PixelsDevice, or a PixelsAdvertDevice with mode=advert."""

    def __new__(cls, url, **kw):
        return open_pixels(url, **kw)


__all__ = ["Pixels", "PixelsDevice", "PixelsAdvertDevice", "PixelsReader", "open_pixels", "DeviceError"]
