"""Simulated GoDice and Pixels dice on the virtual radio: the firmware models (models.py) behind real GATT services.

    die = await radio.add_godice("F0:00:00:00:00:01", name="GoDice_A", shell="d6", color="red", battery=87)
    await die.roll(4)                 # "R", then "S" + the accelerometer vector of face 4
    px = await radio.add_pixels("F0:00:00:00:00:02", die_type="d10", firmware="2023-11")   # a firmware by its date
    await px.roll(5)                  # RollState rolling, then at rest on 5 (as that firmware says it); advertised
    await px.crooked()                # lands tilted: RollState crooked (the app asks for a re-roll)
    await px.held_still_roll()        # a die held in the hand registers a roll (a known complaint)
    await die.low_battery(7)
"""
from __future__ import annotations

import asyncio
import random

from bumble import gatt

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.models import GoDiceModel, PixelsModel
from firmware_bridge.ble.virtual import VirtualPeripheral, VirtualRadio, build_advertising

_WRITE = gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE


class _ModelPeripheral(VirtualPeripheral):
    model: GoDiceModel | PixelsModel
    notify_char: gatt.Characteristic

    def _on_write(self, data: bytes) -> None:
        for reply in self.model.on_write(data):
            self._spawn(self._notify(self.notify_char, reply))

    async def send(self, data: bytes) -> None:
        """Send raw bytes as the die would (a garbled message, a message from a future firmware)."""
        await self._notify(self.notify_char, data)


class VirtualGoDice(_ModelPeripheral):
    def __init__(self, radio: VirtualRadio, address: str, name: str, *, shell: str = "d6", color: str = "black",
                 battery: int = 100, noise: int = 3, seed: int | None = None):
        super().__init__(radio, address, name)
        self.model = GoDiceModel(shell=shell, color=color, battery=battery, noise=noise,
                                 rng=random.Random(seed if seed is not None else radio.rng.random()))
        self.notify_char = gatt.Characteristic(uuids.NUS_TX, gatt.Characteristic.Properties.NOTIFY,
                                               gatt.Characteristic.Permissions.READABLE, b"")
        self.write_char = gatt.Characteristic(uuids.NUS_RX, _WRITE, gatt.Characteristic.Permissions.WRITEABLE,
                                              self._write_handler())

    def services(self) -> list[gatt.Service]:
        return [gatt.Service(uuids.NUS_SERVICE, [self.write_char, self.notify_char])]

    def advertising_data(self) -> bytes:
        return build_advertising(self.name, [uuids.NUS_SERVICE])

    @property
    def leds(self):
        """The two LED colours the host last set."""
        return self.model.leds

    @property
    def commands(self):
        """Every host command the die received, decoded (battery, colour, leds, pulse, unknown)."""
        return self.model.commands

    @property
    def face(self) -> int | None:
        return self.model.face

    def validate_face(self, face: int) -> None:
        """ValueError unless the shell the die wears has that face."""
        gp.vector_for(self.model.shell, face)

    async def roll(self, face: int, *, tumble: float = 0.0, kind: str = "S") -> None:
        """What a real GoDice sends when thrown and landing on `face`: "R", then (after `tumble` s) kind + x y z."""
        landing = self.model.landed(face, kind)          # validates the face before anything is sent
        await self._notify(self.notify_char, self.model.roll_started())
        if tumble:
            await asyncio.sleep(tumble)
        await self._notify(self.notify_char, landing)

    async def tilt(self, face: int) -> None:
        """Thrown and resting tilted near `face`: "R", then "TS" with a vector between two faces."""
        await self._notify(self.notify_char, self.model.roll_started())
        await self._notify(self.notify_char, self.model.tilted(face))

    async def held_still_roll(self) -> None:
        """Picked up and put back without a throw: the die reports a move-stable landing on the face it showed."""
        await self._notify(self.notify_char, self.model.landed(self.model.face or 1, "MS"))

    async def turn_by_hand(self, face: int) -> None:
        """Turned from one face to another by hand, not thrown: "MS" (move stable) with the new face's vector."""
        await self._notify(self.notify_char, self.model.landed(face, "MS"))

    async def low_battery(self, percent: int = 7) -> None:
        """The battery runs down (a GoDice reports it when asked)."""
        self.model.battery = percent


class VirtualPixels(_ModelPeripheral):
    """A Pixels die of one firmware generation (`firmware`: its build date like "2023-11", or current / legacy):
    its GATT service, IAmADie, roll states, advertisement and scan response are that generation's (models.py)."""

    def __init__(self, radio: VirtualRadio, address: str, name: str, *, die_type: str = "d6",
                 firmware: str = "current", battery: int = 100, colourway: str = "onyxBlack",
                 pixel_id: int | None = None):
        super().__init__(radio, address, name)
        self.model = PixelsModel(die_type=die_type, battery=battery, colourway=colourway, firmware=firmware,
                                 name=name,
                                 pixel_id=pixel_id if pixel_id is not None else int(address.replace(":", "")[-8:], 16))
        self.gatt = self.model.gatt
        if self.gatt == "current":
            self.service_uuid, notify_uuid, write_uuid = uuids.PIXELS_SERVICE, uuids.PIXELS_NOTIFY, uuids.PIXELS_WRITE
        else:
            self.service_uuid, notify_uuid, write_uuid = (uuids.PIXELS_LEGACY_SERVICE, uuids.PIXELS_LEGACY_NOTIFY,
                                                          uuids.PIXELS_LEGACY_WRITE)
        self.notify_char = gatt.Characteristic(notify_uuid, gatt.Characteristic.Properties.NOTIFY,
                                               gatt.Characteristic.Permissions.READABLE, b"")
        self.write_char = gatt.Characteristic(write_uuid, _WRITE, gatt.Characteristic.Permissions.WRITEABLE,
                                              self._write_handler())

    def services(self) -> list[gatt.Service]:
        return [gatt.Service(self.service_uuid, [self.notify_char, self.write_char])]

    def advertising_data(self) -> bytes:
        # A real die sends the service data (pixel id, firmware date) in its scan response; bleak hands the app the
        # advertisement and the scan response merged, as this one payload.
        return build_advertising(self.name, [self.service_uuid],
                                 manufacturer=(uuids.PIXELS_COMPANY_ID, self.model.advert()),
                                 service_data=(self.service_uuid, self.model.scan_response()))

    @property
    def blinks(self) -> list[pp.Blink]:
        """Every Blink the host sent."""
        return self.model.blinks

    @property
    def face(self) -> int:
        return self.model.face

    def validate_face(self, face: int) -> None:
        """ValueError unless the die has that face."""
        self.model.index_of(face)

    async def _send_all(self, messages, tumble: float = 0.0) -> None:
        """Notify each message (a pause of `tumble` before the last: the die tumbling), advertising the new state."""
        messages = iter(messages)
        message = next(messages)               # a gesture the die cannot make raises here, before anything is sent
        while True:
            await self._notify(self.notify_char, message)
            await self.set_advertising_data(self.advertising_data())
            try:
                message = next(messages)       # the die's state moves on only now
            except StopIteration:
                return
            if tumble:
                await asyncio.sleep(tumble)

    async def roll(self, face: int, *, tumble: float = 0.0) -> None:
        """Thrown, tumbling, landing on `face` (as this firmware reports it)."""
        await self._send_all(self.model.roll(face), tumble)

    async def crooked(self, *, tumble: float = 0.0) -> None:
        """Thrown and landing tilted (on an edge, against a wall)."""
        await self._send_all(self.model.crooked(), tumble)

    async def held_still_roll(self) -> None:
        """Held in the hand, not thrown, and it registers a roll anyway (a known complaint)."""
        await self._send_all(self.model.held_still_roll())

    async def set_down(self, face: int | None = None) -> None:
        """Picked up and put back by hand (on `face`, or on the face it showed): not a roll."""
        await self._send_all(self.model.set_down(face))

    async def pick_up(self) -> None:
        """Picked up, and held a while (put it back with `put_back`)."""
        await self._send_all(self.model.pick_up())

    async def put_back(self, face: int | None = None) -> None:
        await self._send_all(self.model.put_back(face))

    async def low_battery(self, percent: int = 7) -> None:
        """The battery runs down: the die sends BatteryLevel (it does so on every change) and advertises it."""
        self.model.battery = percent
        await self._notify(self.notify_char, self.model.battery_message())
        await self.set_advertising_data(self.advertising_data())
