"""sim:// dice: a virtual radio with simulated dice, read through bleak like real ones, thrown when someone asks.

    sim://godice?count=5&seed=7              five GoDice (d6 shells), seeded
    sim://pixels?count=2&seed=3&die=d20      two Pixels d20 (current firmware)
    sim://pixels?firmware=2023-11&die=d10    a Pixels d10 whose firmware was built in November 2023: it sends what
                                             that generation sends (models.py), and the app reads it as the SDK does

A simulated die rolls only when someone asks it to (table rule 8, docs/architecture.md): the Throw command
(`manager.command(die, Throw())`, the Roll buttons of the devices screen and of the table's menu) or
`device.dice[i].roll(face)` in a test. Parameters: count (1-12, default 1), seed (default 0), shell (GoDice, default
d6), die and firmware (Pixels: a build date YYYY-MM or YYYY-MM-DD, or current / legacy), crooked (Pixels: the share of
asked-for throws that land tilted, default 0.05), battery (start percent, default 90), every (seconds: the dice also
throw themselves about that often — a demo for `monitor`, never for a table: companion/session/devices.py keeps such
dice away from every game; default 0, off).

Opening starts a VirtualRadio (firmware_bridge.ble.virtual) with the dice as BLE peripherals and connects one
production device per die (GoDiceDevice / PixelsDevice) through bleak's facades with the radio's backend: the same
code path as ble:// dice, with no hardware. Die ids are their simulated addresses (F0:51:00:00:0K:NN).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import replace

from firmware_bridge.commands import Command, Throw
from firmware_bridge.device import Device, DeviceURL, parse_url
from firmware_bridge.errors import BadDeviceURL, ConnectionLost, DeviceError
from firmware_bridge.observations import ConnectionChanged

log = logging.getLogger(__name__)

GODICE_COLOURS = ("red", "green", "blue", "yellow", "orange", "black")


class SimDice(Device):
    """Simulated dice on a private virtual radio (one connection attempt's lifetime, like every Device)."""

    def __init__(self, url: DeviceURL):
        super().__init__(url)
        self.kind = url.address.lower()
        if self.kind not in ("godice", "pixels"):
            raise BadDeviceURL(f"{url}: simulated dice are sim://godice or sim://pixels")
        self.count = url.number("count", 1, 1, 12, whole=True)
        self.seed = url.number("seed", 0, 0, 2 ** 31, whole=True)
        self.every = url.number("every", 0.0, 0.0, 3600.0)
        self.crooked_share = url.number("crooked", 0.05, 0.0, 1.0)
        self.battery = url.number("battery", 90, 0, 100, whole=True)
        self.shell = url.params.get("shell", "d6")
        self.die_type = url.params.get("die", "d6")
        self.firmware = url.params.get("firmware", "current")
        self.source = url.text or f"sim://{self.kind}"
        from firmware_bridge.ble import godice_protocol, pixels_protocol

        if self.shell not in godice_protocol.SHELLS:
            raise BadDeviceURL(f"{url}: shell={self.shell!r}; GoDice shells: {', '.join(godice_protocol.SHELLS)}")
        if self.die_type not in pixels_protocol.DIE_TYPE_CODES or self.die_type == "unknown":
            raise BadDeviceURL(f"{url}: die={self.die_type!r}; Pixels dice: d4 d6 d8 d10 d00 d12 d20")
        from firmware_bridge.ble.models import firmware_timestamp

        try:
            firmware_timestamp(self.firmware)
        except ValueError as err:
            raise BadDeviceURL(f"{url}: {err}") from None
        self.radio = None
        self._rng = random.Random(self.seed)     # the faces of asked-for throws (seeded: a demo replays the same)
        self.dice: list = []                     # the simulated dice (roll(), drop_connection(), …)
        self.devices: dict[str, Device] = {}     # die id → the production device reading it
        self._tasks: set[asyncio.Task] = set()
        self._closed = False
        self.capture = None                      # monitor --capture: handed to each die's device (count=1)

    @property
    def name(self) -> str:
        return f"{self.count} simulated {'GoDice' if self.kind == 'godice' else 'Pixels'}"

    def address(self, i: int) -> str:
        return f"F0:51:00:00:{1 if self.kind == 'godice' else 2:02X}:{i + 1:02X}"

    async def open(self) -> None:
        from firmware_bridge.ble.godice import GoDiceDevice
        from firmware_bridge.ble.pixels import PixelsDevice
        from firmware_bridge.ble.virtual import VirtualRadio

        self._closed = False
        self.radio = VirtualRadio(seed=self.seed)
        try:
            await self.radio.start()
            for i in range(self.count):
                address = self.address(i)
                if self.kind == "godice":
                    die = await self.radio.add_godice(address, name=f"GoDice_{i + 1}", shell=self.shell,
                                                      color=GODICE_COLOURS[i % len(GODICE_COLOURS)],
                                                      battery=self.battery, seed=self.seed * 100 + i)
                    url = parse_url(f"ble://{address}?kind=godice&shell={self.shell}&battery_every=0&timeout=5")
                    device: Device = GoDiceDevice(url, backend=self.radio.backend)
                else:
                    die = await self.radio.add_pixels(address, name=f"Pixel_{i + 1}", die_type=self.die_type,
                                                      firmware=self.firmware, battery=self.battery)
                    device = PixelsDevice(parse_url(f"ble://{address}?kind=pixels&timeout=5"),
                                          backend=self.radio.backend)
                self.dice.append(die)
                device.capture = self.capture
                await device.open()
                self.devices[device.die] = device
                self._spawn(self._forward(device))
                self._put(ConnectionChanged(device.die, "connected", f"{device.name} is connected (simulated)",
                                            source=self.source))
                if self.every:
                    self._spawn(self._roll_by_itself(die, random.Random(self.seed * 1000 + i)))
        except BaseException as err:
            await self.close()
            if isinstance(err, (DeviceError, asyncio.CancelledError)):
                raise
            raise DeviceError(f"{self.url}: the simulated dice could not start ({err!r})") from err

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _forward(self, device: Device) -> None:
        try:
            async for obs in device.observations():
                with contextlib.suppress(TypeError, ValueError):
                    obs = replace(obs, source=self.source)
                self._put(obs)
        except DeviceError as err:
            self._put(err if isinstance(err, ConnectionLost) else ConnectionLost(str(err)))

    async def _roll_by_itself(self, die, rng: random.Random) -> None:
        while not self._closed:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * self.every)
            try:
                await self._throw(die, rng, None)
            except Exception as err:             # a die that cannot roll stops rolling; the others go on
                log.debug("%s: simulated roll failed: %r", die.name, err)
                return

    async def _throw(self, die, rng: random.Random, face: int | None) -> None:
        """One throw of one simulated die: it tumbles a moment (0.4-1.2 s), then lands (now and then crooked)."""
        tumble = rng.uniform(0.4, 1.2)
        if self.kind == "pixels":
            if face is None and rng.random() < self.crooked_share:
                await die.crooked(tumble=tumble)
            else:
                await die.roll(face if face is not None else _pixels_face(self.die_type, rng), tumble=tumble)
        else:
            await die.roll(face if face is not None else rng.choice(_shell_faces(self.shell)), tumble=tumble)

    async def throw(self, die: str | None = None, face: int | None = None) -> None:
        """Throw one die (its id) or, with `die` None or this device's URL, all of them at once, as a hand does.
        Returns once the throw started; the dice land a moment later (each one's tumble)."""
        targets = self._targets(die)
        if face is not None:
            for target in targets:
                target.validate_face(face)
        for target in targets:
            self._spawn(self._throw_logged(target, face))
        await asyncio.sleep(0)

    async def _throw_logged(self, die, face) -> None:
        try:
            await self._throw(die, self._rng, face)
        except Exception as err:                 # a die dropped mid-throw: its reading never comes, as with a real one
            log.info("%s: simulated throw failed: %r", die.name, err)

    def _targets(self, die: str | None) -> list:
        if die is None or die == self.source:
            return list(self.dice)
        ids = list(self.devices)
        if die not in ids:
            raise DeviceError(f"{die} is not one of {self.name}")
        return [self.dice[ids.index(die)]]

    async def command(self, command: Command, die: str | None = None) -> None:
        """Send to one die (`die` = its id), or to all when `die` is None or this device's URL. Throw throws them."""
        if isinstance(command, Throw):
            await self.throw(die, command.face)
            return
        targets = [self.devices[die]] if die in self.devices else list(self.devices.values())
        if die is not None and die not in self.devices and die != self.source:
            raise DeviceError(f"{die} is not one of {self.name}")
        for device in targets:
            await device.command(command)

    async def close(self) -> None:
        if self._closed and self.radio is None:
            return
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for device in list(self.devices.values()):
            with contextlib.suppress(Exception):
                await device.close()
        self.devices.clear()
        radio, self.radio = self.radio, None
        if radio is not None:
            with contextlib.suppress(Exception):
                await radio.close()
        self._end()


def _pixels_face(die_type: str, rng: random.Random) -> int:
    from firmware_bridge.ble.pixels_protocol import face_values

    return rng.choice(face_values(die_type))


def _shell_faces(shell: str) -> tuple[int, ...]:
    from firmware_bridge.ble.godice_protocol import shell as get_shell

    return get_shell(shell).values
