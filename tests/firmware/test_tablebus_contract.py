"""One contract, every Table Bus transport: the same test class runs over

    InMemory    the Python board simulator over sim:// (the scripted fake transport; bytes still pass the codec)
    Pty         the real C firmware cores in hardware/sim/tbsim on a pseudo-terminal, opened as serial://<pty>
    VirtualBle  the Python board behind a Nordic UART peripheral on the virtual radio (bumble), through bleak

and checks the handshake and version refusal, heartbeat-loss detection, each message -> observation, acked LED
commands with retries/timeouts/refusals, resync after garbage, a truncated frame mid-stream, reconnect after a drop.
The boards are driven by the same script language (hardware/PROTOCOL.md, "Simulator script").
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile

import pytest

from firmware_bridge import observations as obs
from firmware_bridge.commands import Blink, LightUp, RequestBattery, RequestState
from firmware_bridge.device import parse_url
from firmware_bridge.errors import ConnectionLost, DeviceTimeout, ProtocolError
from firmware_bridge.tablebus.link import TableBusDevice

HANG_GUARD = 30.0       # seconds: a test that hangs fails instead of stalling CI (not a timing assertion)
WAIT = 5.0              # seconds to wait for one observation or log line before failing
# fast link settings so a test takes a fraction of a second; silence generous against a loaded CI machine
PARAMS = "ack_ms=300&retries=3&hello_ms=300&silence_ms=700"
HEARTBEAT_MS = 50


class Rig:
    """A board and a way to open the host's device on it. Subclasses provide the transport."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._seen = 0
        self._new_line = asyncio.Event()

    def _line(self, line: str) -> None:
        self.lines.append(line)
        self._new_line.set()

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def device(self) -> TableBusDevice:
        raise NotImplementedError

    async def _send_script(self, line: str) -> None:
        raise NotImplementedError

    async def script(self, line: str) -> None:
        """Do one script line on the board and wait until it is done ("ok <cmd>")."""
        await self._send_script(line)
        reply = await self.expect(lambda s: s.startswith(("ok ", "err ")))
        assert reply == f"ok {line.split()[0]}", reply

    async def expect(self, want, timeout: float = WAIT) -> str:
        """The next log line (after those already consumed) that matches `want` (a prefix or a predicate)."""
        match = want if callable(want) else (lambda s: s.startswith(want))

        async def find() -> str:
            while True:
                while self._seen < len(self.lines):
                    line = self.lines[self._seen]
                    self._seen += 1
                    if match(line):
                        return line
                self._new_line.clear()
                await self._new_line.wait()

        return await asyncio.wait_for(find(), timeout)

    def log_since(self, mark: int) -> list[str]:
        return self.lines[mark:]


class InMemoryRig(Rig):
    async def start(self) -> None:
        from firmware_bridge.tablebus.simboard import SimBoard

        self.board = SimBoard("generic", "pyboard", HEARTBEAT_MS)
        self._pump = asyncio.ensure_future(self._drain(self.board.log))

    async def _drain(self, queue: asyncio.Queue) -> None:
        while True:
            self._line(await queue.get())

    def device(self) -> TableBusDevice:
        from firmware_bridge.tablebus.sim_device import SimTableBus

        return SimTableBus(parse_url(f"sim://tablebus?{PARAMS}"), board=self.board)

    async def _send_script(self, line: str) -> None:
        self.board.script(line)

    async def stop(self) -> None:
        self.board.detach()
        self._pump.cancel()


class PtyRig(Rig):
    build = None

    async def start(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="tbsim-")
        self.link = os.path.join(self._dir.name, "board")
        self.proc = await asyncio.create_subprocess_exec(
            str(self.build / "tbsim"), "--link", self.link, "--heartbeat", str(HEARTBEAT_MS), "--name", "cboard",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        self._pump = asyncio.ensure_future(self._read())
        await self.expect("ready ")

    async def _read(self) -> None:
        while line := await self.proc.stdout.readline():
            self._line(line.decode(errors="replace").strip())

    def device(self) -> TableBusDevice:
        from firmware_bridge.device import open_device

        return open_device(f"serial://{self.link}?{PARAMS}")

    async def _send_script(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def script(self, line: str) -> None:
        await super().script(line)
        if line == "unplug":
            assert any(s.startswith("ready ") for s in self.lines[-3:])

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.stdin.write(b"quit\n")
            await self.proc.stdin.drain()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        self._pump.cancel()
        self._dir.cleanup()


class VirtualBleRig(Rig):
    ADDRESS = "F0:00:00:00:7B:01"

    async def start(self) -> None:
        from firmware_bridge.ble.virtual import VirtualRadio
        from firmware_bridge.tablebus.simboard import SimBoard

        self.radio = await VirtualRadio().start()
        self.board = SimBoard("generic", "bleboard", HEARTBEAT_MS)
        self.peripheral = await self.radio.add_nordic_uart(self.ADDRESS, "TableBus-bleboard", self.board.receive)
        self._pending: set[asyncio.Task] = set()

        def send(data: bytes) -> None:
            for i in range(0, len(data), 20):      # a board that knows only the minimum MTU: 20-byte notifications
                task = asyncio.ensure_future(self.peripheral.notify(data[i:i + 20]))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

        self.board.attach(send)
        self._pump = asyncio.ensure_future(self._drain(self.board.log))

    async def _drain(self, queue: asyncio.Queue) -> None:
        while True:
            self._line(await queue.get())

    def device(self) -> TableBusDevice:
        from firmware_bridge.tablebus.ble_device import BleTableBus

        return BleTableBus(parse_url(f"ble://{self.ADDRESS}?kind=tablebus&{PARAMS}"), backend=self.radio.backend)

    async def _send_script(self, line: str) -> None:
        if line == "unplug":                       # the radio link drops; the board stays powered
            await self.peripheral.drop_connection()
            self._line("ok unplug")
            return
        self.board.script(line)

    async def stop(self) -> None:
        self.board.detach()
        self._pump.cancel()
        await self.radio.close()


class Reader:
    """The device's observations, one at a time, with a hang guard."""

    def __init__(self, device: TableBusDevice):
        self.device = device
        self._it = device.observations().__aiter__()

    async def next(self, timeout: float = WAIT):
        return await asyncio.wait_for(self._it.__anext__(), timeout)

    async def next_of(self, cls, timeout: float = WAIT):
        """The next observation of type `cls`, skipping others (a board may volunteer a grid dump at power-up)."""
        while True:
            o = await self.next(timeout)
            if isinstance(o, cls):
                return o

    async def until_error(self, timeout: float = WAIT) -> tuple[list, BaseException]:
        seen = []
        while True:
            try:
                seen.append(await self.next(timeout))
            except (StopAsyncIteration, asyncio.TimeoutError):
                raise AssertionError(f"no error; saw {seen}") from None
            except Exception as err:  # noqa: BLE001 — what we are waiting for
                return seen, err


class TransportContract:
    """Everything a Table Bus transport must do. Subclasses set `rig_class` (and may need fixtures)."""

    rig_class: type[Rig]

    def make_rig(self) -> Rig:
        return self.rig_class()

    def run(self, body) -> None:
        async def main():
            rig = self.make_rig()
            await rig.start()
            try:
                await body(rig)
            finally:
                await rig.stop()

        asyncio.run(asyncio.wait_for(main(), HANG_GUARD))

    @staticmethod
    async def connect(rig: Rig) -> tuple[TableBusDevice, Reader]:
        device = rig.device()
        await device.open()
        reader = Reader(device)
        first = await reader.next()
        assert isinstance(first, obs.ConnectionChanged) and first.state == "connected", first
        return device, reader

    # ------------------------------------------------------------------------------------------------ handshake
    def test_handshake_introduces_the_board(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            try:
                assert device.info is not None and (device.info.proto_major, device.info.proto_minor) == (1, 0)
                assert device.info.heartbeat_ms == HEARTBEAT_MS
                assert device.name == device.info.name and device.name
                await rig.expect("rx host_hello")
            finally:
                await device.close()
        self.run(body)

    def test_an_incompatible_major_version_is_refused(self):
        async def body(rig):
            await rig.script("version 2 0")
            device = rig.device()
            with pytest.raises(ProtocolError, match=r"Table Bus 2\.0.*1\.0.*update the app"):
                await device.open()
            await device.close()
        self.run(body)

    def test_a_newer_minor_version_is_accepted(self):
        async def body(rig):
            await rig.script("version 1 7")
            device, _ = await self.connect(rig)
            assert device.info.proto_minor == 7
            await device.close()
        self.run(body)

    # ------------------------------------------------------------------------------------------------ heartbeat
    def test_a_silent_board_is_detected(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            await rig.script("silent")
            seen, err = await reader.until_error()
            assert isinstance(err, ConnectionLost) and "silent" in str(err)
            assert [o.state for o in seen if isinstance(o, obs.ConnectionChanged)] == ["lost"]
            await device.close()
        self.run(body)

    # ------------------------------------------------------------------------------------------------- messages
    def test_each_message_becomes_its_observation(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            try:
                await rig.script("flip")
                flipped = await reader.next_of(obs.StandFlipped)
                assert flipped.upright is False and flipped.device == device.name

                await rig.script("button 2")
                assert (await reader.next_of(obs.ButtonPressed)).button == 2

                await rig.script("tile 12 7 E")
                tile = await reader.next_of(obs.TileRead)
                assert (tile.cell, tile.tile, tile.direction) == (12, 7, "E")

                await rig.script("dump")
                grid = await reader.next_of(obs.TileGrid)
                assert len(grid.cells) == 25 and (grid.cells[12].tile, grid.cells[12].direction) == (7, "E")
                assert all(c.tile == 0 for i, c in enumerate(grid.cells) if i != 12)

                await rig.script("dice 3:90 0 6")
                settled = await reader.next_of(obs.DiceSettled)
                assert [(d.face, d.confidence) for d in settled.dice] == [(3, 0.9), (6, 1.0)]
                assert settled.dice[0].roll == settled.dice[1].roll and settled.dice[0].roll is not None
                crooked = await reader.next_of(obs.DieCrooked)
                assert crooked.die.endswith("die1")

                await rig.script("battery 55 charging")
                battery = await reader.next_of(obs.BatteryLevel)
                assert (battery.percent, battery.charging) == (55, True)

                await rig.script("error 16 cell 3 unreadable")
                fault = await reader.next_of(obs.DeviceFault)
                assert fault.code == 16 and "sensor fault" in fault.detail and "cell 3" in fault.detail
                assert device.decoder.stats.unknown_type == device.decoder.stats.malformed == 0
            finally:
                await device.close()
        self.run(body)

    def test_requests_are_answered(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            try:
                await rig.script("battery 40")
                await reader.next_of(obs.BatteryLevel)
                await device.command(RequestBattery())
                assert (await reader.next_of(obs.BatteryLevel)).percent == 40
                await device.command(RequestState())
                state = {}
                while len(state) < 2:                      # the grid and the stand's side, in either order
                    o = await reader.next()
                    if isinstance(o, (obs.TileGrid, obs.StandFlipped)):
                        state[type(o)] = o
                assert state[obs.StandFlipped].upright is True
                assert len(state[obs.TileGrid].cells) == 25
            finally:
                await device.close()
        self.run(body)

    # ------------------------------------------------------------------------------------------------- commands
    def test_led_commands_are_acknowledged(self):
        async def body(rig):
            device, _ = await self.connect(rig)
            try:
                await device.command(Blink((255, 0, 0), 3, 300))
                await rig.expect("led blink 255 0 0 3 300")
                await device.command(LightUp((0, 0, 0)))
                await rig.expect("led off 0 0 0 0 0")
            finally:
                await device.close()
        self.run(body)

    def test_a_lost_command_is_sent_again_and_done_once(self):
        async def body(rig):
            device, _ = await self.connect(rig)
            try:
                await rig.script("drop 2")
                mark = len(rig.lines)
                await device.command(LightUp((0, 0, 255)))
                await rig.expect("led solid 0 0 255")
                assert device.stats.retries >= 2
                log = rig.log_since(mark)
                assert sum(s.startswith("dropped") for s in log) == 2
                assert sum(s.startswith("led ") for s in log) == 1
            finally:
                await device.close()
        self.run(body)

    def test_an_unanswered_command_times_out(self):
        async def body(rig):
            device, _ = await self.connect(rig)
            try:
                await rig.script("drop 50")
                with pytest.raises(DeviceTimeout, match="did not acknowledge led"):
                    await device.command(Blink((0, 255, 0)))
            finally:
                await device.close()
        self.run(body)

    def test_a_refused_command_is_a_protocol_error(self):
        async def body(rig):
            device, _ = await self.connect(rig)
            try:
                await rig.script("refuse 3")
                with pytest.raises(ProtocolError, match="refused led: not supported"):
                    await device.command(LightUp((9, 9, 9)))
                await device.command(LightUp((9, 9, 9)))       # the next one is done again
                await rig.expect("led solid 9 9 9")
            finally:
                await device.close()
        self.run(body)

    # ---------------------------------------------------------------------------------------------- line damage
    def test_garbage_costs_only_itself(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            try:
                await rig.script("garbage 300 99")
                await rig.script("button 1")
                assert (await reader.next_of(obs.ButtonPressed)).button == 1
                assert device.decoder.stats.bytes_skipped >= 250
                assert device.decoder.stats.bad_crc + device.decoder.stats.bad_length > 0
            finally:
                await device.close()
        self.run(body)

    def test_a_truncated_frame_costs_only_itself(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            try:
                await rig.script("truncate")
                await rig.script("button 3")
                pressed = await reader.next_of(obs.ButtonPressed)
                assert pressed.button == 3                 # the cut-off "button 9" never shows up
                assert device.decoder.stats.bad_crc + device.stats.resyncs >= 1
            finally:
                await device.close()
        self.run(body)

    # ------------------------------------------------------------------------------------------------ reconnect
    def test_reconnect_after_the_link_drops(self):
        async def body(rig):
            device, reader = await self.connect(rig)
            await rig.script("unplug")
            seen, err = await reader.until_error()
            assert isinstance(err, ConnectionLost)
            assert [o.state for o in seen if isinstance(o, obs.ConnectionChanged)] == ["lost"]
            await device.close()
            again, reader = await self.connect(rig)
            try:
                await rig.script("flip")
                assert (await reader.next_of(obs.StandFlipped)).upright is False
                await again.command(Blink((1, 2, 3), 1, 100))
                await rig.expect("led blink 1 2 3 1 100")
            finally:
                await again.close()
        self.run(body)


class TestInMemoryTableBus(TransportContract):
    rig_class = InMemoryRig


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
class TestPtyTableBus(TransportContract):
    @pytest.fixture(autouse=True)
    def _build(self, tablebus_build):
        self.build = tablebus_build

    def make_rig(self) -> Rig:
        rig = PtyRig()
        rig.build = self.build
        return rig


class TestVirtualBleTableBus(TransportContract):
    rig_class = VirtualBleRig
