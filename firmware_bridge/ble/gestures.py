"""What a hand does to a simulated die, written once for both stands it can be on: the virtual radio's peripherals
(virtual/dice.py, the real BLE stack) and the scripted fakes (testing.py, no stack). The firmware model (models.py)
makes the bytes; a die here only says them, in order, the way its stand delivers them (`_say`), and a Pixels die
advertises its new state after each message (`_advertise_state`, nothing where there is no radio).

    await die.roll(4)                 # thrown, landing on 4 (GoDice: "R" then "S" + x y z; Pixels: rolling, then 4)
    await die.tilt(4)                 # GoDice resting tilted near 4 ("TS")
    await px.crooked()                # Pixels landing tilted (RollState crooked: the app asks for a re-roll)
    await die.held_still_roll()       # held in the hand, not thrown: it registers a roll anyway (a known complaint)
    await px.pick_up(); await px.put_back()    # picked up and put back by hand: no roll
    await die.low_battery(7)
"""
from __future__ import annotations

import asyncio

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble.models import GoDiceModel, PixelsModel


class _Gestures:
    async def _say(self, data: bytes) -> None:
        """Send one message of the die's to whoever listens (the stand's own way)."""
        raise NotImplementedError

    async def _advertise_state(self) -> None:
        """Advertise the die's new state (a stand without a radio has nothing to do)."""


class GoDiceGestures(_Gestures):
    model: GoDiceModel

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
        await self._say(self.model.roll_started())
        if tumble:
            await asyncio.sleep(tumble)
        await self._say(landing)

    async def tilt(self, face: int) -> None:
        """Thrown and resting tilted near `face`: "R", then "TS" with a vector between two faces."""
        await self._say(self.model.roll_started())
        await self._say(self.model.tilted(face))

    async def held_still_roll(self) -> None:
        """Picked up and put back without a throw: the die reports a move-stable landing on the face it showed."""
        await self._say(self.model.landed(self.model.face or 1, "MS"))

    async def turn_by_hand(self, face: int) -> None:
        """Turned from one face to another by hand, not thrown: "MS" (move stable) with the new face's vector."""
        await self._say(self.model.landed(face, "MS"))

    async def low_battery(self, percent: int = 7) -> None:
        """The battery runs down (a GoDice reports it when asked)."""
        self.model.battery = percent


class PixelsGestures(_Gestures):
    model: PixelsModel

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

    async def _say_all(self, messages, tumble: float = 0.0) -> None:
        """Say each message (a pause of `tumble` before the last: the die tumbling), advertising the new state."""
        messages = iter(messages)
        message = next(messages)               # a gesture the die cannot make raises here, before anything is sent
        while True:
            await self._say(message)
            await self._advertise_state()
            try:
                message = next(messages)       # the die's state moves on only now
            except StopIteration:
                return
            if tumble:
                await asyncio.sleep(tumble)

    async def roll(self, face: int, *, tumble: float = 0.0) -> None:
        """Thrown, tumbling, landing on `face` (as this firmware reports it)."""
        await self._say_all(self.model.roll(face), tumble)

    async def crooked(self, *, tumble: float = 0.0) -> None:
        """Thrown and landing tilted (on an edge, against a wall)."""
        await self._say_all(self.model.crooked(), tumble)

    async def held_still_roll(self) -> None:
        """Held in the hand, not thrown, and it registers a roll anyway (a known complaint)."""
        await self._say_all(self.model.held_still_roll())

    async def set_down(self, face: int | None = None) -> None:
        """Picked up and put back by hand (on `face`, or on the face it showed): not a roll."""
        await self._say_all(self.model.set_down(face))

    async def pick_up(self) -> None:
        """Picked up, and held a while (put it back with `put_back`)."""
        await self._say_all(self.model.pick_up())

    async def put_back(self, face: int | None = None) -> None:
        await self._say_all(self.model.put_back(face))

    async def low_battery(self, percent: int = 7) -> None:
        """The battery runs down: the die sends BatteryLevel (it does so on every change) and advertises it."""
        self.model.battery = percent
        await self._say(self.model.battery_message())
        await self._advertise_state()
