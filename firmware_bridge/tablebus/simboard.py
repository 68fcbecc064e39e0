"""A Table Bus board in Python: the board end of sim://tablebus and of the in-memory and virtual-BLE test rigs.

It speaks the same script as the C simulator (hardware/sim/tbsim.c, hardware/PROTOCOL.md "Simulator script") so
one test class can drive either: `board.script("flip")`, `"tile 12 7 E"`, `"drop 2"`, `"garbage 64"`, … and writes
the same log lines ("led blink 255 0 0 3 300", "ack 4", "ok flip") to `board.log`, an asyncio.Queue.

The board's link is a callable that takes bytes (`attach(send)`); unplugging calls `on_unplug` so the transport
can tell its host the link is gone. Debounce is the C firmware's business; this board sends the resulting messages
directly. An Obelisk board (`kind="obelisk"`) reads a tile put on it through the sensor model
(firmware_bridge/tablebus/tilefield.py: the magnets' field, the hall sensor's range and saturation, the ADC's band,
every part's tolerance and noise, the neighbouring tiles' magnets) and decodes the readings as the firmware does: a
design that cannot be read misreads or reports the cell unreadable, as a real board would (`tiles="before"`: the
magnets as specified before issue 16).
"""
from __future__ import annotations

import asyncio
import random
from typing import Callable

from firmware_bridge.tablebus import messages as m
from firmware_bridge.tablebus.frame import Decoder, encode_frame

KINDS = {v: k for k, v in m.BOARD_KINDS.items()}


class ScriptError(ValueError):
    pass


class SimBoard:
    def __init__(self, kind: str = "generic", name: str = "sim", heartbeat_ms: int = 100, uid: int = 0x5151,
                 firmware: tuple[int, int, int] = (1, 0, 0), seed: int = 7, tiles: str = "current"):
        from firmware_bridge.tablebus import tilefield

        self.kind = KINDS.get(kind, 0)
        self.tile_design = tilefield.OLD if tiles == "before" else tilefield.CURRENT
        self._tile_edges: tuple[int, ...] | None = None
        self._placed: dict[int, tuple[int, int]] = {}     # cell -> (tile, direction) really lying there
        self.name = name
        self.heartbeat_ms = heartbeat_ms
        self.uid = uid
        self.firmware = firmware
        self.version = m.PROTOCOL_VERSION
        self.log: asyncio.Queue[str] = asyncio.Queue()
        self.on_unplug: Callable[[], None] | None = None
        self._send: Callable[[bytes], None] | None = None
        self._decoder = Decoder()
        self._seq = 0
        self._last_cmd: int | None = None
        self._silent = False
        self._drop = 0
        self._refuse = 0
        self._upright = True
        self._flips = 0
        self._rolls = 0
        self._grid = [m.Cell() for _ in range(m.GRID_CELLS)]
        self._battery = m.Battery(87, False, 3950)
        self._uptime = 0
        self._rng = random.Random(seed)
        self._beat: asyncio.Task | None = None
        self.led: m.Led = m.Led("off")

    # ------------------------------------------------------------------ link
    def attach(self, send: Callable[[bytes], None]) -> None:
        """Plug the board into a link; it starts its heartbeat and says Hello as at power-up."""
        self._send = send
        self._decoder = Decoder()
        if self._beat is None or self._beat.done():
            self._beat = asyncio.get_running_loop().create_task(self._heartbeats())
        self._tx(self._hello())

    def detach(self) -> None:
        self._send = None
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None

    def receive(self, data: bytes) -> None:
        for frame in self._decoder.feed(data):
            self._host_frame(frame)

    # ------------------------------------------------------------------ what the board sends
    def _hello(self) -> m.Hello:
        fw = self.firmware
        return m.Hello(self.version[0], self.version[1], self.kind, fw[0], fw[1], fw[2], self.heartbeat_ms,
                       self.uid, self.name)

    def _raw(self, data: bytes) -> None:
        if self._send is not None and not self._silent:
            self._send(data)

    def _tx(self, msg: m.Message) -> None:
        frame = m.encode_message(msg, self._seq)
        self._seq = (self._seq + 1) & 0xFF
        self._raw(frame)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_ms / 1000)
            self._uptime += self.heartbeat_ms
            self._tx(m.Heartbeat(self._uptime & 0xFFFFFFFF, self._decoder.stats.bad_crc & 0xFFFF))

    def _host_frame(self, frame) -> None:
        msg = m.parse_message(frame)
        if isinstance(msg, m.HostHello):
            self.log.put_nowait("rx host_hello")
            self._last_cmd = None
            self._tx(self._hello())
            return
        if frame.type < 0x80:
            return                                   # a board's message echoed back: not for us
        if self._drop:
            self._drop -= 1
            self.log.put_nowait(f"dropped {frame.seq}")
            return
        if frame.seq == self._last_cmd:              # the host resent a command we did: ack again, do not redo
            self._tx(m.Ack(frame.seq))
            self.log.put_nowait(f"ack {frame.seq} again")
            return
        if self._refuse:
            code, self._refuse = self._refuse, 0
            self._tx(m.Nack(frame.seq, code))
            self.log.put_nowait(f"nack {frame.seq} {code}")
            return
        if isinstance(msg, m.Raw):
            code = 1 if msg.reason == "unknown type" else 2
            self._tx(m.Nack(frame.seq, code))
            self.log.put_nowait(f"nack {frame.seq} {code}")
            return
        self._last_cmd = frame.seq
        self._tx(m.Ack(frame.seq))
        self.log.put_nowait(f"ack {frame.seq}")
        if isinstance(msg, m.Led):
            self.led = msg
            self.log.put_nowait(f"led {msg.pattern} {msg.r} {msg.g} {msg.b} {msg.count} {msg.period_ms}")
        elif isinstance(msg, m.RequestState):
            self._tx(m.Grid(tuple(self._grid)))
            self._tx(m.Flip(self._upright, self._flips))
        elif isinstance(msg, m.RequestBattery):
            self._tx(self._battery)

    def _read_tile(self, cell: int, tile: int, direction: int) -> None:
        """Put `tile` on `cell` and read it as the board's sensors would (noise, tolerances, the neighbours)."""
        from firmware_bridge.tablebus import tilefield

        if tile:
            self._placed[cell] = (tile, direction)
        else:
            self._placed.pop(cell, None)
        if self._tile_edges is None:
            self._tile_edges = tilefield.bands(tilefield.budget(self.tile_design))
        row, col = divmod(cell, 5)
        neighbours = {}
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):      # N, E, S, W
            r, c = row + dr, col + dc
            if 0 <= r < 5 and 0 <= c < 5 and r * 5 + c in self._placed:
                neighbours[side] = self._placed[r * 5 + c]
        codes = tilefield.cell_readings(self.tile_design, tile, direction, self._rng, neighbours)
        read = tilefield.decode_cell(codes, self._tile_edges)
        if read is None:
            self._tx(m.Error(16, f"cell {cell} unreadable"))
            return
        self._grid[cell] = m.Cell(read[0], m.DIRECTIONS[read[1]])
        self._tx(m.Tile(cell, read[0], m.DIRECTIONS[read[1]]))

    # ------------------------------------------------------------------ the script
    def script(self, line: str) -> None:
        """Do one script line (hardware/PROTOCOL.md, "Simulator script"); ScriptError when it is not one."""
        words = line.split()
        if not words:
            return
        cmd, args = words[0], words[1:]
        try:
            self._do(cmd, args)
        except (ValueError, IndexError) as err:
            raise ScriptError(f"{line.strip()}: {err}") from None
        self.log.put_nowait(f"ok {cmd}")

    def _do(self, cmd: str, a: list[str]) -> None:
        if cmd == "flip":
            self._upright = not self._upright
            self._flips = (self._flips + 1) & 0xFFFF
            self._tx(m.Flip(self._upright, self._flips))
        elif cmd == "button":
            self._tx(m.Button(int(a[0]) if a else 0))
        elif cmd == "tile":
            cell, tile, direction = int(a[0]), int(a[1]), a[2].upper()
            msg = m.Tile(cell, tile, direction)
            msg.pack()
            if self.kind == KINDS["obelisk"]:
                self._read_tile(cell, tile, m.DIRECTIONS.index(direction))
                return
            self._grid[cell] = m.Cell(tile, direction)
            self._tx(msg)
        elif cmd == "dump":
            self._tx(m.Grid(tuple(self._grid)))
        elif cmd == "dice":
            dice = []
            for i, word in enumerate(a):
                face, _, conf = word.partition(":")
                dice.append(m.DieResult(i, int(face), int(conf) if conf else 100))
            self._rolls = (self._rolls + 1) & 0xFFFF
            self._tx(m.Dice(self._rolls, tuple(dice)))
        elif cmd == "battery":
            self._battery = m.Battery(int(a[0]), len(a) > 1 and a[1] == "charging", 3700 + 5 * int(a[0]))
            self._tx(self._battery)
        elif cmd == "error":
            self._tx(m.Error(int(a[0]), " ".join(a[1:])))
        elif cmd == "hello":
            self._tx(self._hello())
        elif cmd == "version":
            self.version = (int(a[0]), int(a[1]))
        elif cmd == "heartbeat":
            self.heartbeat_ms = max(10, int(a[0]))
        elif cmd == "silent":
            self._silent = True
        elif cmd == "resume":
            self._silent = False
        elif cmd == "garbage":
            n = int(a[0])
            rng = random.Random(int(a[1])) if len(a) > 1 else self._rng
            junk = bytearray(rng.randrange(256) for _ in range(n))
            for i in range(0, n, 16):                # false start markers, the decoder's worst case
                junk[i] = 0xA5
            self._raw(bytes(junk))
        elif cmd == "truncate":
            frame = encode_frame(m.Button.CODE, self._seq, m.Button(9).pack())
            self._seq = (self._seq + 1) & 0xFF
            self._raw(frame[:len(frame) // 2])
        elif cmd == "drop":
            self._drop = int(a[0])
        elif cmd == "refuse":
            self._refuse = int(a[0])
        elif cmd == "unplug":
            self.detach()
            if self.on_unplug is not None:
                self.on_unplug()
        elif cmd == "quit":
            self.detach()
        else:
            raise ValueError("unknown command")
