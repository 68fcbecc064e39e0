"""A scripted fake for tests where the real stack is not wanted (virtual time, thousands of steps): `FakeRadio` has
the dice API of VirtualRadio (add_godice, add_pixels, roll, drop_connection, …) and hands devices a `FakeLink` that
delivers the same bytes the simulated firmware (models.py) sends — no BLE stack in between.

    radio = FakeRadio()
    die = await radio.add_godice("F0:00:00:00:00:01", shell="d6")
    device = radio.open_device("ble://F0:00:00:00:00:01?kind=godice&shell=d6")
    await device.open(); await die.roll(4)

`VirtualRadio.open_device` does the same over the real stack, so one test body can run on both.
"""
from __future__ import annotations

import asyncio
import random
from typing import Callable

from firmware_bridge.ble import uuids
from firmware_bridge.ble.gestures import GoDiceGestures, PixelsGestures
from firmware_bridge.ble.models import GoDiceModel, PixelsModel
from firmware_bridge.ble.transport import Link
from firmware_bridge.device import Device, device_class, parse_url
from firmware_bridge.errors import DeviceBusy, DeviceNotFound


class FakeLink(Link):
    """A Link straight to a fake die: writes go to its firmware model, notifications come back on the next tick."""

    def __init__(self, die: "FakeDie"):
        self.die = die
        self.address = die.address
        self.name = die.name
        self.rssi = None
        self._callbacks: dict[str, Callable[[bytes], None]] = {}
        self.connected = False

    async def connect(self) -> None:
        await asyncio.sleep(0)
        if not self.die.in_range:
            raise DeviceNotFound(f"{self.name} was not found: is it switched on, in range, and not connected to "
                                 f"another app (a phone)?")
        if self.die.held:
            raise DeviceBusy(f"{self.name} is held by another app or device: close it there (a phone app?) and it "
                             f"will reconnect")
        self.connected = True
        self.rssi = self.die.rssi
        self.die._attach(self)

    async def close(self) -> None:
        if self.connected:
            self.connected = False
            self.die._detach(self)

    def characteristics(self) -> dict[str, list[str]]:
        return self.die.characteristics() if self.connected else {}

    async def subscribe(self, uuid: str, callback: Callable[[bytes], None]) -> None:
        self._callbacks[uuid.lower()] = callback
        self.die._subscribed.set()

    async def write(self, uuid: str, data: bytes, response: bool = False) -> None:
        if not self.connected:
            from firmware_bridge.errors import ConnectionLost

            raise ConnectionLost(f"{self.name}: not connected")
        self.die.writes.append(bytes(data))
        for reply in self.die.model.on_write(bytes(data)):
            self.deliver(self.die.notify_uuid, reply)

    def deliver(self, uuid: str, data: bytes) -> None:
        callback = self._callbacks.get(uuid.lower())
        if callback is not None and self.connected:
            asyncio.get_running_loop().call_soon(callback, bytes(data))

    def lose(self) -> None:
        if self.connected:
            self.connected = False
            self.die._detach(self)
            if self.on_lost is not None:
                asyncio.get_running_loop().call_soon(self.on_lost, "the connection was lost")


class FakeDie:
    """The controllable side of a fake die (the same methods as the virtual radio's dice)."""

    notify_uuid = uuids.NUS_TX

    def __init__(self, address: str, name: str):
        self.address = address.upper()
        self.name = name
        self.in_range = True
        self.held = False                          # held by another central (a phone app)
        self.rssi = -55
        self.writes: list[bytes] = []
        self.links: list[FakeLink] = []
        self.connects = 0
        self._subscribed = asyncio.Event()

    def characteristics(self) -> dict[str, list[str]]:
        return {}

    def _attach(self, link: FakeLink) -> None:
        self.links.append(link)
        self.connects += 1

    def _detach(self, link: FakeLink) -> None:
        if link in self.links:
            self.links.remove(link)
        if not self.links:
            self._subscribed.clear()

    @property
    def connected(self) -> bool:
        return bool(self.links)

    @property
    def subscribed(self) -> bool:
        return self._subscribed.is_set()

    async def wait_subscribed(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self._subscribed.wait(), timeout)

    async def send(self, data: bytes) -> None:
        for link in list(self.links):
            link.deliver(self.notify_uuid, data)
        await asyncio.sleep(0)

    _say = send                                     # the gestures (gestures.py) speak through it

    async def drop_connection(self) -> None:
        for link in list(self.links):
            link.lose()
        await asyncio.sleep(0)

    async def out_of_range(self) -> None:
        self.in_range = False
        await self.drop_connection()

    async def back_in_range(self) -> None:
        self.in_range = True

    async def held_by_other(self, held: bool = True) -> None:
        self.held = held
        if held:
            await self.drop_connection()

    hold_by_other = held_by_other

    def set_rssi(self, rssi: int) -> None:
        self.rssi = rssi


class FakeGoDice(FakeDie, GoDiceGestures):
    def __init__(self, address: str, name: str, *, shell: str = "d6", color: str = "black", battery: int = 100,
                 noise: int = 3, seed: int = 0):
        super().__init__(address, name)
        self.model = GoDiceModel(shell=shell, color=color, battery=battery, noise=noise, rng=random.Random(seed))

    def characteristics(self) -> dict[str, list[str]]:
        return {uuids.NUS_TX: ["notify"], uuids.NUS_RX: ["write-without-response", "write"]}


class FakePixels(FakeDie, PixelsGestures):
    def __init__(self, address: str, name: str, *, die_type: str = "d6", firmware: str = "current",
                 battery: int = 100, colourway: str = "onyxBlack"):
        super().__init__(address, name)
        self.model = PixelsModel(die_type=die_type, battery=battery, colourway=colourway, firmware=firmware,
                                 name=name)
        self.gatt = self.model.gatt
        self.notify_uuid = uuids.PIXELS_NOTIFY if self.gatt == "current" else uuids.PIXELS_LEGACY_NOTIFY

    def characteristics(self) -> dict[str, list[str]]:
        if self.gatt == "current":
            return {uuids.PIXELS_NOTIFY: ["notify"], uuids.PIXELS_WRITE: ["write-without-response", "write"]}
        return {uuids.PIXELS_LEGACY_NOTIFY: ["notify"], uuids.PIXELS_LEGACY_WRITE: ["write-without-response", "write"]}


class FakeRadio:
    """Fake dice by address, and devices whose links reach them."""

    def __init__(self) -> None:
        self.dice: dict[str, FakeDie] = {}

    async def __aenter__(self) -> "FakeRadio":
        return self

    async def __aexit__(self, *exc) -> None:
        for die in self.dice.values():
            await die.drop_connection()

    async def add_godice(self, address: str, name: str | None = None, shell: str = "d6", color: str = "black",
                         battery: int = 100, **kw) -> FakeGoDice:
        die = FakeGoDice(address, name or f"GoDice_{address[-2:]}", shell=shell, color=color, battery=battery, **kw)
        self.dice[die.address] = die
        return die

    async def add_pixels(self, address: str, name: str | None = None, die_type: str = "d6",
                         firmware: str = "current", battery: int = 100, **kw) -> FakePixels:
        die = FakePixels(address, name or f"Pixel{address[-2:]}", die_type=die_type, firmware=firmware,
                         battery=battery, **kw)
        self.dice[die.address] = die
        return die

    def link(self, url) -> FakeLink:
        die = self.dice.get(url.address.upper())
        if die is None:
            die = FakeDie(url.address, url.address)
            die.in_range = False
        return FakeLink(die)

    def open_device(self, url: str, **kw) -> Device:
        parsed = parse_url(url)
        return device_class(parsed)(parsed, link_factory=self.link, **kw)


async def next_matching(subscription, predicate, timeout: float = 5.0):
    """The next observation from `subscription` for which `predicate(obs)` holds (others are skipped)."""
    async def find():
        async for obs in subscription:
            if predicate(obs):
                return obs
        raise AssertionError("the subscription ended")

    return await asyncio.wait_for(find(), timeout)


def pending(subscription) -> list:
    """What `subscription` holds right now, without waiting."""
    out = []
    queue = subscription._queue
    while not queue.empty():
        item = queue.get_nowait()
        if isinstance(item, object) and item.__class__.__name__ != "object":
            out.append(item)
    return out
