"""Pixels dice over BLE: ble://ADDRESS?kind=pixels   (read rolls from advertisements only: &mode=advert)

Both GATT generations: current firmware (service a6b90001…, notify …0002, write …0003) and legacy (service and
notify 6e400001…, write 6e400002…), chosen by what the die offers. On connecting the host sends WhoAreYou; the die's
IAmADie gives its type, battery and current roll state.

RollState → observations: handling / rolling → DieRolling; rolled → DieRolled (confidence 0.5 when the die was only
handled, never seen rolling — a die held still can register a roll); crooked → DieCrooked (ask for a re-roll);
onFace → nothing (set down by hand, not a roll). BatteryLevel → BatteryLevel.
Commands: Blink (message 29), LightUp (a looping Blink in that colour; (0, 0, 0) stops it), RequestBattery (33),
RequestState (23, RequestRollState).

`mode=advert` never connects: it listens to the advertisements (manufacturer data 0x0D39: roll state, face, battery)
and reports changes, plus the signal strength; it cannot send commands. Optional `stale=SECONDS` (default 20): with
no advertisement for that long the die counts as lost (the manager looks for it again).
"""
from __future__ import annotations

import asyncio
import logging

from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.base import BleDie, url_float
from firmware_bridge.ble.transport import Link, default_backend, translate
from firmware_bridge.commands import Blink, Command, LightUp, RequestBattery, RequestState
from firmware_bridge.errors import BadDeviceURL, ConnectionLost, DeviceError, ProtocolError
from firmware_bridge.observations import (BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling,
                                          SignalStrength)

log = logging.getLogger(__name__)

HELD_STILL_CONFIDENCE = 0.5
LIGHT_UP_MS = 0xFFFF


class RollTracker:
    """Turns a Pixels die's roll-state changes into observations (shared by the connected and advert readers)."""

    def __init__(self, die: str, source: str):
        self.die, self.source = die, source
        self.die_type = "d6"
        self.state: int | None = None
        self.face: int | None = None
        self.moved = ""            # "", "handling" or "rolling": the motion seen since the last rest

    def update(self, state: int, face_index: int, at: float, *, report: bool = False):
        """Observations for the die now being in `state` on `face_index`. `report`: an answer to a question
        (IAmADie, RequestRollState), not a change the die noticed."""
        previous, previous_face = self.state, self.face
        self.state, self.face = state, face_index
        if state in (pp.HANDLING, pp.ROLLING):
            first = not self.moved
            self.moved = "rolling" if state == pp.ROLLING else (self.moved or "handling")
            if first and not report:
                return [DieRolling(self.die, source=self.source, at=at)]
            return []
        moved, self.moved = self.moved, ""
        if state == pp.ROLLED:
            if not moved and not report and previous == pp.ROLLED and previous_face == face_index:
                return []                                  # the same rest state again, not a roll
            confidence = HELD_STILL_CONFIDENCE if moved == "handling" else 1.0
            return [DieRolled(self.die, pp.face_value(self.die_type, face_index), confidence, source=self.source,
                              at=at)]
        if state == pp.CROOKED and (moved or report or previous != pp.CROOKED):
            return [DieCrooked(self.die, source=self.source, at=at)]
        return []


class PixelsDevice(BleDie):
    kind = "pixels"

    def __init__(self, url, **kw):
        super().__init__(url, **kw)
        self.tracker = RollTracker(self.die, self.source)
        die_type = url.params.get("die")
        if die_type is not None and die_type not in pp.DIE_TYPE_CODES:
            raise BadDeviceURL(f"{url}: die={die_type!r}; Pixels dice: {', '.join(pp.DIE_TYPE_CODES)}")
        self.die_type_override = die_type
        self.generation: str | None = None
        self._live = False
        self._notify_uuid = self._write_uuid = ""
        self.garbled = 0

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
        if self.die_type_override:
            self.tracker.die_type = self.die_type_override
        await link.subscribe(self._notify_uuid, self._on_notification)
        await link.write(self._write_uuid, pp.who_are_you())

    def _on_notification(self, data: bytes) -> None:
        at = self.clock()
        message = pp.decode(data)
        if isinstance(message, pp.RollState):
            self._live = True
            for obs in self.tracker.update(message.state, message.face_index, at):
                self.emit(obs)
        elif isinstance(message, pp.IAmADie):
            if not self.die_type_override and message.die_type != "unknown":
                self.tracker.die_type = message.die_type
            self.emit(DieIdentified(self.die, "pixels", self.tracker.die_type, message.colourway, self.name,
                                    source=self.source, at=at))
            self.emit(BatteryLevel(self.die, message.battery, message.battery_state in pp.CHARGING_STATES,
                                   source=self.source, at=at))
            if not self._live:       # a RollState already came: the live stream is newer than this answer
                for obs in self.tracker.update(message.roll_state, message.face_index, at, report=True):
                    self.emit(obs)
        elif isinstance(message, pp.BatteryLevel):
            self.emit(BatteryLevel(self.die, message.percent, message.charging, source=self.source, at=at))
        elif isinstance(message, pp.Garbled):
            self.garbled += 1
            log.info("%s: ignored %s (%s)", self.name, message.data.hex(), message.reason)

    async def command(self, command: Command) -> None:
        if isinstance(command, Blink):
            await self._write(self._write_uuid, pp.blink(command.colour, command.count, command.duration_ms))
        elif isinstance(command, LightUp):
            if tuple(command.colour) == (0, 0, 0):
                await self._write(self._write_uuid, pp.blink((0, 0, 0), 1, 1))
            else:
                await self._write(self._write_uuid, pp.blink(command.colour, 1, LIGHT_UP_MS, loop=True))
        elif isinstance(command, RequestBattery):
            await self._write(self._write_uuid, pp.request_battery())
        elif isinstance(command, RequestState):
            await self._write(self._write_uuid, pp.request_roll_state())
        else:
            await super().command(command)


class PixelsAdvertDevice(BleDie):
    """A Pixels die read from its advertisements, never connected (several apps can listen at once)."""

    kind = "pixels"

    def __init__(self, url, **kw):
        super().__init__(url, **kw)
        self.tracker = RollTracker(self.die, self.source)
        self.stale = url_float(url, "stale", 20.0)
        self._scanner = None
        self._last_seen = 0.0
        self._battery: tuple[int, bool] | None = None
        self._rssi: int | None = None
        self._identified = False

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
                self._queue.put_nowait(ConnectionLost(f"{self.name}: no advertisement for {self.stale:g} s "
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
        state = pp.decode_advert(payload)
        if isinstance(state, pp.Garbled):
            return
        if adv.local_name:
            self._display_name = adv.local_name
        self.tracker.die_type = self.url.params.get("die") or (state.die_type if state.die_type != "unknown"
                                                              else self.tracker.die_type)
        if not self._identified:
            self._identified = True
            self.emit(DieIdentified(self.die, "pixels", self.tracker.die_type, state.colourway, self.name,
                                    source=self.source, at=at))
        if self._rssi is None or abs(adv.rssi - self._rssi) >= 6:
            self._rssi = adv.rssi
            self.emit(SignalStrength(self.die, adv.rssi, source=self.source, at=at))
        if self._battery != (state.battery, state.charging):
            self._battery = (state.battery, state.charging)
            self.emit(BatteryLevel(self.die, state.battery, state.charging, source=self.source, at=at))
        if (state.roll_state, state.face_index) != (self.tracker.state, self.tracker.face):
            first = self.tracker.state is None
            for obs in self.tracker.update(state.roll_state, state.face_index, at, report=first):
                self.emit(obs)

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


__all__ = ["Pixels", "PixelsDevice", "PixelsAdvertDevice", "RollTracker", "open_pixels", "DeviceError"]
