"""sim://tablebus: a Table Bus board simulated in this process, over an in-memory link that delivers bytes on the
loop like a real transport (never synchronously), so the app runs and the protocol is exercised with no hardware.

    sim://tablebus?kind=stand&name=stand-1&heartbeat_ms=500&demo=1
    sim://tablebus?kind=obelisk&tiles=before          tiles read through the sensor model (tilefield.py); `before`:
                                                      with the magnets specified before issue 16 (unreadable)

`demo=1` makes the board play by itself (flips, buttons, tiles, dice): a demo for `monitor`, never for a table
(companion/session/devices.py keeps what such a board does away from every game). Without it the board acts only
when asked: the TurnOver command turns a simulated stand over, as a hand turns the real one.
"""
from __future__ import annotations

import asyncio
import random

from firmware_bridge.commands import TurnOver
from firmware_bridge.device import DeviceURL
from firmware_bridge.errors import BadDeviceURL, ConnectionLost
from firmware_bridge.tablebus.link import TableBusDevice
from firmware_bridge.tablebus.simboard import KINDS, SimBoard


class SimTableBus(TableBusDevice):
    def __init__(self, url: DeviceURL, board: SimBoard | None = None):
        super().__init__(url)
        if board is None:
            kind = url.kind or url.params.get("board", "generic")
            if kind not in KINDS:
                raise BadDeviceURL(f"{url}: board must be one of {', '.join(KINDS)}")
            beat = url.params.get("heartbeat_ms", "500")
            if not beat.isdigit() or not 10 <= int(beat) <= 60000:
                raise BadDeviceURL(f"{url}: heartbeat_ms must be 10-60000")
            tiles = url.params.get("tiles", "current")
            if tiles not in ("current", "before"):
                raise BadDeviceURL(f"{url}: tiles must be current (the magnets as built) or before (as specified "
                                   f"before issue 16)")
            board = SimBoard(kind, url.params.get("name", "sim-tablebus")[:32], int(beat), tiles=tiles)
        self.board = board
        self._demo_task: asyncio.Task | None = None
        self._connected = False

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        self._connected = True

        def to_host(data: bytes) -> None:
            if self._connected:
                loop.call_soon(self._bytes_received, bytes(data))

        def unplugged() -> None:
            if self._connected:
                self._connected = False
                loop.call_soon(self._link_lost, ConnectionResetError("the simulated board was unplugged"))

        self.board.on_unplug = unplugged
        self.board.attach(to_host)
        if self.url.params.get("demo") == "1":
            self._demo_task = loop.create_task(self._demo())

    async def command(self, command) -> None:
        if isinstance(command, TurnOver):      # the simulated hand, not a Table Bus message
            if not self._connected:
                raise ConnectionLost(f"{self.name} is not connected")
            self.board.script("flip")
            return
        await super().command(command)

    async def _send(self, data: bytes) -> None:
        if not self._connected:
            raise ConnectionResetError("the simulated board is unplugged")
        asyncio.get_running_loop().call_soon(self.board.receive, bytes(data))

    async def _disconnect(self) -> None:
        self._connected = False
        if self._demo_task is not None:
            self._demo_task.cancel()
            self._demo_task = None
        self.board.detach()

    async def _demo(self) -> None:
        rng = random.Random(self.url.params.get("seed", "7"))
        while True:
            await asyncio.sleep(rng.uniform(1.0, 4.0))
            roll = rng.randrange(4)
            if roll == 0:
                self.board.script("flip")
            elif roll == 1:
                self.board.script(f"button {rng.randrange(2)}")
            elif roll == 2:
                self.board.script(f"tile {rng.randrange(25)} {rng.randrange(1, 28)} {rng.choice('NESW')}")
            else:
                self.board.script("dice " + " ".join(f"{rng.randrange(1, 7)}:{rng.randrange(70, 101)}"
                                                     for _ in range(3)))
