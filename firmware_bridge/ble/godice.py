"""GoDice over BLE: ble://ADDRESS?kind=godice&shell=d6

The shell is required: the die reports an accelerometer vector, and only the shell it wears says which number that
is (a D4 shell read as a D6 reports nonsense — a real user complaint). Shells: d4 d6 d8 d10 d10x/d00 d12 d20 d24.
Optional: timeout=SECONDS (connect), battery_every=SECONDS (battery polling, default 60; 0 = never).

Observations (godice_reader.py): DieRolling on "R"; DieRolled(face, confidence) on a landing (confidence from the
stability kind and how squarely the vector sits on a face); DieCrooked on a tilt-stable landing; DieSetDown on a
move-stable one (turned by hand: no throw); BatteryLevel; DieIdentified (shell, dot colour) on connecting;
SignalStrength from the advertisement found when connecting.
Commands: Blink (pulse both LEDs, each flash lit for half its duration), LightUp (both LEDs steady until told
otherwise; (0, 0, 0) is off), RequestBattery, RequestState.
"""
from __future__ import annotations

import asyncio
import logging

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.base import BleDie
from firmware_bridge.ble.godice_reader import GoDiceReader
from firmware_bridge.ble.transport import Link
from firmware_bridge.commands import Blink, Command, LightUp, RequestBattery, RequestState
from firmware_bridge.errors import BadDeviceURL, ProtocolError

log = logging.getLogger(__name__)


class GoDiceDevice(BleDie):
    kind = "godice"
    brand = "GoDice"

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
        self.battery_every = url.number("battery_every", 60.0)
        self.reader = GoDiceReader(self.die, self.source, self.shell)

    async def _setup(self, link: Link) -> None:
        if not (link.can(uuids.NUS_TX, "notify") and (link.can(uuids.NUS_RX, "write")
                                                       or link.can(uuids.NUS_RX, "write-without-response"))):
            raise ProtocolError(f"{self.name} does not speak the GoDice protocol (no Nordic UART service)")
        self.reader.name = self.name
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
        self.captured(data)
        for obs in self.reader.message(data, self.clock()):
            self._put(obs)

    @property
    def garbled(self) -> int:
        return self.reader.garbled

    async def command(self, command: Command) -> None:
        if isinstance(command, Blink):
            # each flash lit for the first half of its duration, dark for the second (as Pixels blinks)
            on = max(10, command.duration_ms // 2)
            await self._write(uuids.NUS_RX, gp.pulse(command.count, on, max(10, command.duration_ms - on),
                                                     command.colour))
        elif isinstance(command, LightUp):
            await self._write(uuids.NUS_RX, gp.set_leds(command.colour, command.colour))
        elif isinstance(command, RequestBattery):
            await self._write(uuids.NUS_RX, gp.battery_request())
        elif isinstance(command, RequestState):
            await self._write(uuids.NUS_RX, gp.colour_request())
            await self._write(uuids.NUS_RX, gp.battery_request())
        else:
            await super().command(command)
