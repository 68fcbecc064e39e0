"""One contract for the smart dice, run over every transport: the scripted fake (the firmware models' bytes handed
straight to the device) and the virtual radio (the same bytes through bumble's BLE stack and bleak's facades).

Every test drives the production path: DeviceManager → GoDiceDevice / PixelsDevice → Link → (fake | bleak).
"""
from __future__ import annotations

import asyncio
import random

import pytest

from firmware_bridge.ble.pixels_protocol import CROOKED
from firmware_bridge.ble.testing import FakeRadio, next_matching, pending
from firmware_bridge.ble.virtual import VirtualRadio
from firmware_bridge.commands import Blink, LightUp, RequestBattery, RequestState
from firmware_bridge.errors import DeviceError
from firmware_bridge.manager import Backoff, DeviceManager
from firmware_bridge.observations import (BatteryLevel, ConnectionChanged, DieCrooked, DieIdentified, DieRolled,
                                          DieRolling, DieSetDown, SignalStrength)

GODICE = "F0:00:00:00:00:01"
PIXELS = "F0:00:00:00:00:02"
GODICE_URL = f"ble://{GODICE}?kind=godice&shell=d6&timeout=0.5"
PIXELS_URL = f"ble://{PIXELS}?kind=pixels&timeout=0.5"


def run(coro, timeout: float = 30.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def is_state(url: str, state: str):
    return lambda o: isinstance(o, ConnectionChanged) and o.source == url and o.state == state


def rolled(die: str):
    return lambda o: isinstance(o, DieRolled) and o.die == die


async def settle(sub, die=None, ticks: int = 0.15):
    """Let in-flight observations arrive; return those of `die` (all if None)."""
    await asyncio.sleep(ticks)
    return [o for o in pending(sub) if die is None or getattr(o, "die", getattr(o, "device", None)) == die]


class DiceContract:
    Radio: type

    def manager(self, radio, **kw) -> DeviceManager:
        kw.setdefault("backoff", Backoff(base=0.01, cap=0.05, rng=random.Random(1)))
        return DeviceManager(opener=radio.open_device, **kw)

    async def ready(self, manager, url, die):
        """Until the manager has the device connected and the die's host is listening."""
        while not (die.subscribed and manager.state(url) and manager.state(url).state == "connected"):
            await asyncio.sleep(0.002)

    async def connected(self, manager, sub, url, die):
        await manager.add(url)
        await next_matching(sub, is_state(url, "connected"))
        await die.wait_subscribed()

    # --- GoDice --------------------------------------------------------------------------------------------------
    def test_godice_roll_identity_and_battery(self):
        async def main():
            async with self.Radio() as radio:
                die = await radio.add_godice(GODICE, name="GoDice_A", shell="d6", color="red", battery=87)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, GODICE_URL, die)
                    ident = await next_matching(sub, lambda o: isinstance(o, DieIdentified))
                    assert (ident.die, ident.kind, ident.model, ident.colour) == (GODICE, "godice", "d6", "red")
                    battery = await next_matching(sub, lambda o: isinstance(o, BatteryLevel))
                    assert (battery.device, battery.percent) == (GODICE, 87)
                    await die.roll(4)
                    seen = [o for o in await settle(sub, GODICE) if isinstance(o, (DieRolling, DieRolled))]
                    assert [type(o) for o in seen] == [DieRolling, DieRolled]
                    assert (seen[1].face, seen[1].confidence, seen[1].source) == (4, 1.0, GODICE_URL)
                    assert seen[1].at >= seen[0].at > 0
                    for face in (4, 4, 1, 6):             # a new roll on the same face counts
                        await die.roll(face)
                    faces = [o.face for o in await settle(sub, GODICE) if isinstance(o, DieRolled)]
                    assert faces == [4, 4, 1, 6]

        run(main())

    def test_godice_feedback_and_battery_request(self):
        async def main():
            async with self.Radio() as radio:
                die = await radio.add_godice(GODICE, shell="d6", color="blue", battery=60)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, GODICE_URL, die)
                    await manager.command(GODICE, LightUp((255, 0, 0)))
                    await manager.command(GODICE, Blink((0, 255, 0), count=4, duration_ms=200))
                    await die.low_battery(7)
                    await manager.command(GODICE, RequestBattery())
                    low = await next_matching(sub, lambda o: isinstance(o, BatteryLevel) and o.percent == 7)
                    assert low.device == GODICE
                    await manager.command(GODICE_URL, RequestState())
                    await settle(sub)
                    names = [c.name for c in die.commands]
                    assert names[:2] == ["colour", "battery"]        # asked on connecting
                    assert die.leds == ((255, 0, 0), (255, 0, 0))
                    pulse = next(c for c in die.commands if c.name == "pulse")
                    assert pulse.args == (4, 100, 100, (0, 255, 0))
                    assert names[-2:] == ["colour", "battery"]

        run(main())

    def test_godice_shells_and_stability(self):
        async def main():
            async with self.Radio() as radio:
                d20 = await radio.add_godice(GODICE, shell="d20")
                d4 = await radio.add_godice("F0:00:00:00:00:03", shell="d4")
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, f"ble://{GODICE}?kind=godice&shell=d20", d20)
                    # the d4 die is configured as a d6 by mistake: the face cannot be right
                    await self.connected(manager, sub, "ble://F0:00:00:00:00:03?kind=godice&shell=d6", d4)
                    for face in (20, 13, 1):
                        await d20.roll(face)
                    await d4.roll(3)
                    await d20.tilt(7)
                    await d20.held_still_roll()
                    seen = await settle(sub)
                    d20_faces = [o.face for o in seen if isinstance(o, DieRolled) and o.die == GODICE]
                    assert d20_faces[:3] == [20, 13, 1]
                    wrong = next(o for o in seen if isinstance(o, DieRolled) and o.die == "F0:00:00:00:00:03")
                    assert wrong.face != 3
                    assert any(isinstance(o, DieCrooked) and o.die == GODICE for o in seen)
                    # "MS" (move stable): turned by hand, not thrown — a set-down, never a roll
                    held = [o for o in seen if isinstance(o, (DieRolled, DieSetDown)) and o.die == GODICE][-1]
                    assert isinstance(held, DieSetDown) and held.face == 1

        run(main())

    # --- Pixels --------------------------------------------------------------------------------------------------
    @pytest.mark.parametrize("firmware", ["current", "legacy", "2023-11"])
    def test_pixels_roll_states(self, firmware):
        async def main():
            async with self.Radio() as radio:
                px = await radio.add_pixels(PIXELS, die_type="d20", firmware=firmware, battery=77)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, PIXELS_URL, px)
                    ident = await next_matching(sub, lambda o: isinstance(o, DieIdentified))
                    assert (ident.kind, ident.model) == ("pixels", "d20")
                    assert (await next_matching(sub, lambda o: isinstance(o, BatteryLevel))).percent == 77
                    await px.roll(17)
                    await px.roll(17)
                    await px.crooked()
                    await px.held_still_roll()
                    await px.set_down(3)             # put down by hand: not a roll
                    await px.low_battery(6)
                    seen = [o for o in await settle(sub, PIXELS)
                            if isinstance(o, (DieRolling, DieRolled, DieCrooked, DieSetDown, BatteryLevel))]
                    kinds = [(type(o).__name__, getattr(o, "face", getattr(o, "percent", None))) for o in seen]
                    # held in the hand: the current firmware says "rolled" (asked about: 0.5); older firmware cannot
                    # tell it from being put down (a set-down)
                    held = ("DieRolled", 17) if firmware == "current" else ("DieSetDown", 17)
                    assert kinds == [("DieRolling", None), ("DieRolled", 17), ("DieRolling", None), ("DieRolled", 17),
                                     ("DieRolling", None), ("DieCrooked", None), ("DieRolling", None), held,
                                     ("DieRolling", None), ("DieSetDown", 3), ("BatteryLevel", 6)]
                    assert [o.confidence for o in seen if isinstance(o, DieRolled)] == \
                        ([1.0, 1.0, 0.5] if firmware == "current" else [1.0, 1.0])

        run(main())

    @pytest.mark.parametrize("firmware", ["current", "legacy"])
    def test_a_pixels_die_asked_answers(self, firmware):
        """Asked, a Pixels die answers, and the app reads the answer (DiceFirmware Message::MessageType:
        RequestBatteryLevel 33 → BatteryLevel 34, RequestRollState 23 → RollState 3): a battery drained and a die
        knocked crooked without a word are known once asked."""
        async def main():
            async with self.Radio() as radio:
                px = await radio.add_pixels(PIXELS, die_type="d20", firmware=firmware, battery=80)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, PIXELS_URL, px)
                    await px.roll(4)
                    await next_matching(sub, rolled(PIXELS))
                    await settle(sub)
                    px.model.battery = 63                    # drained quietly: the die says so when asked
                    await manager.command(PIXELS, RequestBattery())
                    asked = await next_matching(sub, lambda o: isinstance(o, BatteryLevel) and o.device == PIXELS)
                    assert asked.percent == 63
                    px.model.state = CROOKED                 # knocked over quietly: the die says so when asked
                    await manager.command(PIXELS, RequestState())
                    said = await next_matching(sub, lambda o: getattr(o, "die", None) == PIXELS
                                               and not isinstance(o, SignalStrength))
                    assert isinstance(said, DieCrooked)
                    assert px.model.requests[-2:] == [bytes([33]), bytes([23])]

        run(main())

    def test_full_batteries_are_read_whole(self):
        """99 % and 100 % reach the app as the dice send them, from both makes (a clamp to 99 would show)."""
        async def main():
            async with self.Radio() as radio:
                go = await radio.add_godice(GODICE, shell="d6", battery=100)
                px = await radio.add_pixels(PIXELS, die_type="d20", battery=100)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await manager.add(GODICE_URL)
                    await manager.add(PIXELS_URL)
                    battery = {}
                    while set(battery) != {GODICE, PIXELS}:
                        obs = await next_matching(sub, lambda o: isinstance(o, BatteryLevel))
                        battery[obs.device] = obs.percent
                    assert battery == {GODICE: 100, PIXELS: 100}
                    await go.wait_subscribed()
                    await px.wait_subscribed()
                    await go.low_battery(99)
                    await manager.command(GODICE, RequestBattery())
                    await px.low_battery(99)
                    while set(battery.values()) != {99}:
                        obs = await next_matching(sub, lambda o: isinstance(o, BatteryLevel))
                        battery[obs.device] = obs.percent
                    assert manager.battery(GODICE)[0] == manager.battery(PIXELS)[0] == 99

        run(main())

    def test_pixels_blink_the_die_to_reroll(self):
        async def main():
            async with self.Radio() as radio:
                px = await radio.add_pixels(PIXELS, die_type="d6")
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, PIXELS_URL, px)
                    await px.crooked()
                    crooked = await next_matching(sub, lambda o: isinstance(o, DieCrooked))
                    await manager.command(crooked.die, Blink((255, 0, 0), count=3, duration_ms=400))
                    await manager.command(crooked.die, LightUp((0, 0, 255)))
                    await manager.command(crooked.die, LightUp((0, 0, 0)))
                    await settle(sub)
                    first, steady = px.blinks
                    # three flashes of 400 ms each: Pixels takes the whole blink's duration (MessageBlink.duration)
                    assert (first.count, first.duration_ms, first.rgb, first.loop) == (3, 1200, (255, 0, 0), False)
                    assert steady.rgb == (0, 0, 255) and steady.loop       # lit until told otherwise
                    assert px.model.stopped == 1                            # then told: StopAllAnimations

        run(main())

    # --- connection faults ------------------------------------------------------------------------------------------
    def test_reconnect_does_not_duplicate_or_lose_rolls(self):
        async def main():
            async with self.Radio() as radio:
                px = await radio.add_pixels(PIXELS, die_type="d6")
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, PIXELS_URL, px)
                    await px.roll(5)
                    assert (await next_matching(sub, rolled(PIXELS))).face == 5
                    await px.drop_connection()
                    await next_matching(sub, is_state(PIXELS_URL, "lost"))
                    await next_matching(sub, is_state(PIXELS_URL, "connected"))
                    await px.wait_subscribed()
                    # on reconnecting the die reports it stands on 5: the same roll, not a new one
                    assert not [o for o in await settle(sub, PIXELS) if isinstance(o, DieRolled)]
                    await px.roll(5)                 # a real new roll on the same face counts
                    assert (await next_matching(sub, rolled(PIXELS))).face == 5
                    # rolled while we were away, to a different face: reported on reconnecting, counted once
                    await px.out_of_range()
                    await px.roll(2)
                    await px.back_in_range()
                    away = await next_matching(sub, rolled(PIXELS))
                    assert away.face == 2
                    assert not [o for o in await settle(sub, PIXELS) if isinstance(o, DieRolled)]

        run(main())

    def test_held_by_another_app_is_said_plainly_and_recovers(self):
        async def main():
            async with self.Radio() as radio:
                die = await radio.add_godice(GODICE, name="GoDice_A", shell="d6")
                async with self.manager(radio, held_retry=0.05) as manager:
                    sub = manager.observations()
                    await die.held_by_other()
                    await manager.add(GODICE_URL)
                    held = await next_matching(sub, is_state(GODICE_URL, "held_elsewhere"))
                    assert held.device == GODICE
                    assert "held by another app" in held.detail and "close it there" in held.detail
                    await die.held_by_other(False)
                    await next_matching(sub, is_state(GODICE_URL, "connected"))
                    await die.wait_subscribed()
                    await die.roll(3)
                    assert (await next_matching(sub, rolled(GODICE))).face == 3

        run(main())

    def test_out_of_range_reports_and_retries_then_recovers(self):
        async def main():
            async with self.Radio() as radio:
                die = await radio.add_godice(GODICE, shell="d6")
                other = await radio.add_godice("F0:00:00:00:00:04", shell="d6")
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await self.connected(manager, sub, GODICE_URL, die)
                    await self.connected(manager, sub, "ble://F0:00:00:00:00:04?kind=godice&shell=d6", other)
                    await die.out_of_range()
                    await next_matching(sub, is_state(GODICE_URL, "lost"))
                    retry = await next_matching(sub, lambda o: is_state(GODICE_URL, "reconnecting")(o)
                                                and "not found" in o.detail)
                    assert "in range" in retry.detail
                    await other.roll(6)                        # the other die is not disturbed
                    assert (await next_matching(sub, rolled("F0:00:00:00:00:04"))).face == 6
                    with pytest.raises(DeviceError, match="not connected"):
                        await manager.command(GODICE, Blink((1, 2, 3)))
                    await die.back_in_range()
                    await next_matching(sub, is_state(GODICE_URL, "connected"))
                    await die.wait_subscribed()
                    await die.roll(2)
                    assert (await next_matching(sub, rolled(GODICE))).face == 2
                    assert manager.stats(GODICE_URL)["connections"] == 2

        run(main())

    def test_signal_strength_on_connecting(self):
        async def main():
            async with self.Radio() as radio:
                die = await radio.add_godice(GODICE, shell="d6")
                die.set_rssi(-71)
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    await manager.add(GODICE_URL)
                    signal = await next_matching(sub, lambda o: isinstance(o, SignalStrength))
                    assert (signal.device, signal.rssi) == (GODICE, -71)

        run(main())

    def test_reconnect_storm(self):
        """A simulated minute, compressed: a throw every simulated second on two dice, the links dropped every few
        simulated seconds (at random, seeded). Every throw made while connected arrives exactly once, in order."""
        async def main():
            rng = random.Random(8)
            async with self.Radio() as radio:
                dice = {GODICE: await radio.add_godice(GODICE, shell="d6"),
                        PIXELS: await radio.add_pixels(PIXELS, die_type="d6")}
                urls = {GODICE: GODICE_URL, PIXELS: PIXELS_URL}
                async with self.manager(radio) as manager:
                    sub = manager.observations()
                    for die_id, die in dice.items():
                        await self.connected(manager, sub, urls[die_id], die)
                    thrown: dict[str, list[int]] = {GODICE: [], PIXELS: []}
                    got: dict[str, list[int]] = {GODICE: [], PIXELS: []}
                    manager.subscribe(lambda o: got[o.die].append(o.face) if isinstance(o, DieRolled) else None)
                    drops = 0
                    for second in range(60):
                        for die_id, die in dice.items():
                            await self.ready(manager, urls[die_id], die)
                            face = rng.choice([rng.randint(1, 6), thrown[die_id][-1] if thrown[die_id] else 1])
                            await die.roll(face)
                            thrown[die_id].append(face)
                        if second % 3 == 2 or rng.random() < 0.1:
                            victim = rng.choice(list(dice))
                            await dice[victim].drop_connection()
                            drops += 1
                        await asyncio.sleep(0.005)
                    for die_id, die in dice.items():
                        await self.ready(manager, urls[die_id], die)
                    await settle(sub, ticks=0.3)
                    assert drops >= 20
                    assert got == thrown
                    assert manager.stats(GODICE_URL)["connections"] + manager.stats(PIXELS_URL)["connections"] \
                        == drops + 2

        run(main(), timeout=60)


class TestOverScriptedFake(DiceContract):
    Radio = FakeRadio


class TestOverVirtualRadio(DiceContract):
    Radio = VirtualRadio
