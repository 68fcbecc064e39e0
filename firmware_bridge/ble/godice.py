"""GoDice over BLE: ble://ADDRESS?kind=godice&shell=d6

The shell is required: the die reports an accelerometer vector, and only the shell it wears says which number that
is (a D4 shell read as a D6 reports nonsense — a real user complaint). Shells: d4 d6 d8 d10 d10x/d00 d12 d20 d24.
Optional: timeout=SECONDS (connect), battery_every=SECONDS (battery polling, default 60; 0 = never).

Observations: DieRolling on "R"; DieRolled(face, confidence) on a landing (confidence from the stability kind and
how squarely the vector sits on a face); DieCrooked on a tilt-stable landing; BatteryLevel; DieIdentified (shell,
dot colour) on connecting; SignalStrength from the advertisement found when connecting.
Commands: Blink (pulse both LEDs), LightUp (both LEDs steady; (0, 0, 0) is off), RequestBattery, RequestState.
"""
from __future__ import annotations

import asyncio
import logging

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.base import BleDie, url_float
from firmware_bridge.ble.transport import Link
from firmware_bridge.commands import Blink, Command, LightUp, RequestBattery, RequestState
from firmware_bridge.errors import BadDeviceURL, ProtocolError
from firmware_bridge.observations import BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling

log = logging.getLogger(__name__)


class GoDiceDevice(BleDie):
    kind = "godice"

    def __init__(self, url, **kw):
        super().__init__(url, **kw)
        shell = url.params.get("shell")
        if not shell:
            raise BadDeviceURL(f"{url}: say which shell the die wears, e.g. &shell=d6 "
                               f"({', '.join(s for s in gp.SHELLS)}); the die cannot tell")
        try:
            self.shell = gp.shell(shell).name
        except ValueError as err:
            raise BadDeviceURL(f"{url}: {err}") from None
        self.battery_every = url_float(url, "battery_every", 60.0)
        self.colour: str | None = None
        self.battery: int | None = None
        self.charging = False
        self.garbled = 0

    async def _setup(self, link: Link) -> None:
        if not (link.can(uuids.NUS_TX, "notify") and (link.can(uuids.NUS_RX, "write")
                                                       or link.can(uuids.NUS_RX, "write-without-response"))):
            raise ProtocolError(f"{self.name} does not speak the GoDice protocol (no Nordic UART service)")
        await link.subscribe(uuids.NUS_TX, self._on_notification)
        await link.write(uuids.NUS_RX, gp.colour_request())
        await link.write(uuids.NUS_RX, gp.battery_request())
        if self.battery_every:
            self.spawn(self._poll_battery())

    async def _poll_battery(self) -> None:
        while True:
            await asyncio.sleep(self.battery_every)
            await self._write(uuids.NUS_RX, gp.battery_request())

    def _on_notification(self, data: bytes) -> None:
        at = self.clock()
        message = gp.decode(data)
        if isinstance(message, gp.RollStarted):
            self.emit(DieRolling(self.die, source=self.source, at=at))
        elif isinstance(message, gp.Stable):
            face, confidence = gp.read_face(self.shell, message.xyz)
            if message.kind == "TS":
                self.emit(DieCrooked(self.die, source=self.source, at=at))
            else:
                confidence = round(confidence * gp.STABILITY_CONFIDENCE[message.kind], 3)
                self.emit(DieRolled(self.die, face, confidence, source=self.source, at=at))
        elif isinstance(message, gp.Battery):
            self.battery = message.percent
            self.emit(BatteryLevel(self.die, message.percent, self.charging, source=self.source, at=at))
        elif isinstance(message, gp.Charging):
            self.charging = message.charging
            if self.battery is not None:
                self.emit(BatteryLevel(self.die, self.battery, self.charging, source=self.source, at=at))
        elif isinstance(message, gp.Colour):
            self.colour = message.name
            self.emit(DieIdentified(self.die, "godice", self.shell, message.name, self.name, source=self.source,
                                    at=at))
        else:
            self.garbled += 1
            log.info("%s: ignored %s (%s)", self.name, message.data.hex(), message.reason)

    async def command(self, command: Command) -> None:
        if isinstance(command, Blink):
            on = max(10, command.duration_ms // 2)
            await self._write(uuids.NUS_RX, gp.pulse(command.count, on, command.duration_ms - on, command.colour))
        elif isinstance(command, LightUp):
            await self._write(uuids.NUS_RX, gp.set_leds(command.colour, command.colour))
        elif isinstance(command, RequestBattery):
            await self._write(uuids.NUS_RX, gp.battery_request())
        elif isinstance(command, RequestState):
            await self._write(uuids.NUS_RX, gp.colour_request())
            await self._write(uuids.NUS_RX, gp.battery_request())
        else:
            await super().command(command)
