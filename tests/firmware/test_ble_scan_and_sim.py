"""Discovery, reading Pixels rolls from advertisements without connecting, and sim:// dice through the manager."""
from __future__ import annotations

import asyncio

import pytest

from firmware_bridge.ble.pixels import PixelsAdvertDevice
from firmware_bridge.ble.scan import discover
from firmware_bridge.ble.testing import next_matching, pending
from firmware_bridge.ble.virtual import VirtualRadio
from firmware_bridge.device import BadDeviceURL, open_device, parse_url
from firmware_bridge.errors import DeviceError, ProtocolError
from firmware_bridge.manager import DeviceManager
from firmware_bridge.observations import (BatteryLevel, ConnectionChanged, DieCrooked, DieRolled, DieRolling,
                                          SignalStrength)
from firmware_bridge.commands import Blink, Throw
from firmware_bridge.sim import SimDice


def run(coro, timeout: float = 20.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_discover_guesses_kinds():
    async def main():
        async with VirtualRadio() as radio:
            await radio.add_godice("F0:00:00:00:00:01", name="GoDice_A")
            px = await radio.add_pixels("F0:00:00:00:00:02", name="Pix", die_type="d20", battery=64)
            await radio.add_pixels("F0:00:00:00:00:03", name="Old", firmware="legacy")
            await radio.add_nordic_uart("F0:00:00:00:00:04", "TableBus-1")
            await radio.add_nordic_uart("F0:00:00:00:00:05", "Thermometer")
            px.set_rssi(-40)
            found = {f.address: f for f in await discover(timeout=0.5, backend=radio)}
            assert {a: f.kind for a, f in found.items()} == {
                "F0:00:00:00:00:01": "godice", "F0:00:00:00:00:02": "pixels", "F0:00:00:00:00:03": "pixels",
                "F0:00:00:00:00:04": "tablebus", "F0:00:00:00:00:05": None}
            assert next(iter(await discover(timeout=0.5, backend=radio.backend))).address == "F0:00:00:00:00:02"
            assert "d20" in found["F0:00:00:00:00:02"].detail and "64%" in found["F0:00:00:00:00:02"].detail
            # its advertised name travels in the URL: the die is called by its name before it has answered
            assert found["F0:00:00:00:00:01"].url == "ble://F0:00:00:00:00:01?kind=godice&shell=d6&name=GoDice_A"
            assert found["F0:00:00:00:00:05"].url is None

    run(main())


def test_pixels_rolls_read_from_advertisements_without_connecting():
    async def main():
        async with VirtualRadio() as radio:
            px = await radio.add_pixels("F0:00:00:00:00:02", die_type="d6", battery=50)
            px.set_rssi(-62)
            device = PixelsAdvertDevice(parse_url("ble://F0:00:00:00:00:02?kind=pixels&mode=advert"),
                                        backend=radio.backend)
            await device.open()
            seen = []

            async def read():
                async for obs in device.observations():
                    seen.append(obs)

            reader = asyncio.ensure_future(read())
            await asyncio.sleep(0.15)
            await px.roll(3, tumble=0.3)
            await asyncio.sleep(0.15)
            await px.roll(3, tumble=0.3)           # the same face again: a new roll all the same
            await asyncio.sleep(0.15)
            await px.crooked(tumble=0.3)
            await asyncio.sleep(0.15)
            await px.low_battery(6)
            await asyncio.sleep(0.15)
            with pytest.raises(ProtocolError, match="only listened to"):
                await device.command(Blink((1, 1, 1)))
            await device.close()
            await reader
            assert not px.connected and px.connects == 0
            kinds = [type(o).__name__ for o in seen if not isinstance(o, (SignalStrength, BatteryLevel))]
            assert kinds == ["DieIdentified", "DieRolling", "DieRolled", "DieRolling", "DieRolled", "DieRolling",
                             "DieCrooked"]
            assert [o.face for o in seen if isinstance(o, DieRolled)] == [3, 3]
            assert [o.percent for o in seen if isinstance(o, BatteryLevel)] == [50, 6]
            assert [o.rssi for o in seen if isinstance(o, SignalStrength)] == [-62]

    run(main())


def test_sim_urls_are_checked():
    for url in ("sim://godice?count=0", "sim://godice?count=x", "sim://godice?shell=d7", "sim://pixels?die=d9",
                "sim://pixels?firmware=beta", "sim://godice?every=-1"):
        with pytest.raises(BadDeviceURL):
            open_device(url)
    assert isinstance(open_device("sim://godice?count=5&seed=7"), SimDice)
    with pytest.raises(BadDeviceURL, match="shell"):
        open_device("ble://F0:00:00:00:00:01?kind=godice")
    with pytest.raises(BadDeviceURL, match="mode"):
        open_device("ble://F0:00:00:00:00:01?kind=pixels&mode=psychic")


async def added_and_connected(manager: DeviceManager, url: str):
    """A subscription to `manager`, then `url` added and connected."""
    sub = manager.observations()
    await manager.add(url)
    await next_matching(sub, lambda o: isinstance(o, ConnectionChanged) and o.source == url and o.state == "connected")
    return sub


@pytest.mark.parametrize("url", ["sim://godice?count=3&seed=7&every=0.2", "sim://pixels?count=2&seed=3&every=0.2"])
def test_sim_dice_roll_by_themselves_through_the_manager(url):
    async def main():
        async with DeviceManager() as manager:
            sub = await added_and_connected(manager, url)
            dice = set()
            while len(dice) < 2:
                obs = await next_matching(sub, lambda o: isinstance(o, (DieRolled, DieCrooked)), timeout=10)
                dice.add(obs.die)
                assert obs.source == url
            die = sorted(dice)[0]
            await manager.command(die, Blink((255, 0, 0)))          # routed to the one simulated die
            sim = manager.device(url)
            assert isinstance(sim, SimDice) and len(sim.dice) == int(url.split("count=")[1][0])

    run(main())


@pytest.mark.parametrize("url", ["sim://godice?count=3&seed=7", "sim://pixels?count=3&seed=3&crooked=0"])
def test_sim_dice_throw_only_when_asked(url):
    """A simulated die acts only when someone asks it to (table rule 8, docs/architecture.md): Throw to one die throws
    it, Throw to the device throws them all; a real die refuses Throw (a hand throws it)."""
    async def main():
        async with DeviceManager() as manager:
            sub = await added_and_connected(manager, url)
            await asyncio.sleep(1.5)
            assert not [o for o in pending(sub) if isinstance(o, (DieRolling, DieRolled, DieCrooked))]
            dice = manager.dice_of(url)
            assert len(dice) == 3 and manager.url_of(dice[0]) == url
            await manager.command(dice[1], Throw())
            got = await next_matching(sub, lambda o: isinstance(o, DieRolled), timeout=5)
            assert got.die == dice[1]
            await manager.command(url, Throw())
            thrown = set()
            while len(thrown) < 3:
                thrown.add((await next_matching(sub, lambda o: isinstance(o, DieRolled), timeout=5)).die)
            assert thrown == set(dice)
            await manager.command(dice[0], Throw(face=2))
            assert (await next_matching(sub, lambda o: isinstance(o, DieRolled), timeout=5)).face == 2
            with pytest.raises(DeviceError):
                await manager.command(dice[0], Throw(face=7))

    run(main())


def test_a_real_die_cannot_be_thrown_by_the_app():
    async def main():
        async with VirtualRadio() as radio:
            await radio.add_godice("F0:00:00:00:00:01", name="GoDice_A")
            device = radio.open_device("ble://F0:00:00:00:00:01?kind=godice&shell=d6")
            await device.open()
            try:
                with pytest.raises(ProtocolError, match="cannot do Throw"):
                    await device.command(Throw())
            finally:
                await device.close()

    run(main())
