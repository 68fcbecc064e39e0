"""The Table Bus session over any byte transport: handshake, heartbeat watchdog, acknowledged commands.

`TableBusDevice` is a `Device` whose subclasses only move bytes (serial_device.py, ble_device.py, sim_device.py):
they implement `_connect`, `_send` and `_disconnect`, and call `_bytes_received(data)` / `_link_lost(exc)` on the
asyncio loop. Everything else — framing, the version check, the silence watchdog, retries, turning messages into
observations — lives here once, so every transport behaves the same (tests/firmware/test_tablebus_contract.py).

URL parameters every transport understands (milliseconds unless said):
    ack_ms=250        how long to wait for a command's ack before sending it again
    retries=3         how many times a command (and the handshake) is sent before DeviceTimeout
    hello_ms=500      how long to wait for the board's Hello after each HostHello
    silence_ms=…      how long without a good frame before the board counts as lost (default: 3 heartbeats,
                      at least 1000)
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, fields

from firmware_bridge.commands import Blink, Command, LightUp, RequestBattery, RequestState
from firmware_bridge.device import Device, DeviceURL
from firmware_bridge.errors import (BadDeviceURL, ConnectionLost, DeviceError, DeviceTimeout, ProtocolError)
from firmware_bridge.observations import ConnectionChanged
from firmware_bridge.tablebus import messages as m
from firmware_bridge.tablebus.observe import to_observations

WATCH_TICK = 0.05   # seconds between watchdog looks (silence, a partial frame stuck in the decoder)


def _param_ms(url: DeviceURL, key: str, default: float | None) -> float | None:
    raw = url.params.get(key)
    if raw is None:
        return default
    try:
        v = int(raw)
    except ValueError:
        raise BadDeviceURL(f"{url}: {key} must be a whole number of milliseconds") from None
    if not 1 <= v <= 600_000:
        raise BadDeviceURL(f"{url}: {key} must be 1-600000 ms")
    return v / 1000


@dataclass
class LinkStats:
    """What the session saw beyond the decoder's own counters."""
    messages: int = 0
    lost_frames: int = 0      # gaps in the board's sequence numbers
    retries: int = 0          # commands sent again after no ack in time
    stray_acks: int = 0       # acks/nacks for no command in flight (a late ack after a retry)
    resyncs: int = 0          # partial frames given up on after the line stalled

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def command_message(command: Command | m.Led) -> m.Message:
    """The Table Bus message for a host command; ProtocolError when the protocol has none or it does not fit."""
    try:
        if isinstance(command, Blink):
            r, g, b = command.colour
            msg: m.Message = m.Led("blink", r, g, b, command.count, command.duration_ms)
        elif isinstance(command, LightUp):
            r, g, b = command.colour
            msg = m.Led("off" if (r, g, b) == (0, 0, 0) else "solid", r, g, b, 0, 0)
        elif isinstance(command, RequestState):
            msg = m.RequestState()
        elif isinstance(command, RequestBattery):
            msg = m.RequestBattery()
        elif isinstance(command, m.HOST_MESSAGES) and not isinstance(command, m.HostHello):
            msg = command
        else:
            raise ProtocolError(f"a Table Bus board cannot do {type(command).__name__}")
        msg.pack()
    except (ValueError, TypeError) as err:
        raise ProtocolError(f"{type(command).__name__} does not fit the Table Bus: {err}") from None
    return msg


class TableBusDevice(Device):
    """A Table Bus board on some byte transport. One instance is one connection's lifetime."""

    def __init__(self, url: DeviceURL):
        super().__init__(url)
        self.ack_timeout = _param_ms(url, "ack_ms", 0.25)
        self.hello_timeout = _param_ms(url, "hello_ms", 0.5)
        self.silence_timeout = _param_ms(url, "silence_ms", None)
        raw = url.params.get("retries", "3")
        if not raw.isdigit() or not 1 <= int(raw) <= 20:
            raise BadDeviceURL(f"{url}: retries must be 1-20")
        self.retries = int(raw)
        self.decoder = m.MessageDecoder()   # its .stats: dropped bytes, bad CRCs, unknown types, …
        self.stats = LinkStats()
        self.info: m.Hello | None = None
        self._state = "new"          # new -> opening -> open -> lost | closed
        self._seq = 0
        self._rx_seq: int | None = None
        self._pending: dict[int, tuple[asyncio.Future, str]] = {}
        self._hello: asyncio.Future | None = None
        self._cmd_lock = asyncio.Lock()
        self._watchdog: asyncio.Task | None = None
        self._last_frame = 0.0
        self._stall_mark: tuple[int, int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ what a transport implements
    async def _connect(self) -> None:
        raise NotImplementedError

    async def _send(self, data: bytes) -> None:
        raise NotImplementedError

    async def _disconnect(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ what a transport calls (on the loop)
    def _bytes_received(self, data: bytes) -> None:
        if self._state in ("closed", "lost", "new"):
            return
        for seq, msg in self.decoder.feed(data):
            self._message(seq, msg)

    def _link_lost(self, exc: BaseException | None) -> None:
        if self._state in ("open", "opening"):
            detail = str(exc) if exc else "the link closed"
            self._fail(ConnectionLost(f"{self.name}: connection lost ({detail})"))

    # ------------------------------------------------------------------ Device
    @property
    def name(self) -> str:
        if self.info is not None and self.info.name:
            return self.info.name
        return self.url.address

    @property
    def source(self) -> str:
        return str(self.url)

    async def open(self) -> None:
        if self._state != "new":
            raise DeviceError(f"{self.name}: a device is opened once; open the URL again to reconnect")
        self._loop = asyncio.get_running_loop()
        self._state = "opening"
        try:
            await self._connect()
            self._last_frame = self._loop.time()
            hello = await self._handshake()
        except BaseException:
            self._state = "closed"
            await self._quiet_disconnect()
            raise
        self._state = "open"
        self._last_frame = self._loop.time()
        self._watchdog = asyncio.create_task(self._watch(), name=f"tablebus-watchdog {self.name}")
        kind = m.BOARD_KINDS.get(hello.kind, f"kind {hello.kind}")
        self._put(ConnectionChanged(self.name, "connected",
                                    f"{kind} board, firmware {hello.fw_major}.{hello.fw_minor}.{hello.fw_patch}, "
                                    f"Table Bus {hello.proto_major}.{hello.proto_minor}", self.source,
                                    self._loop.time()))

    async def close(self) -> None:
        if self._state == "closed":
            return
        was_open = self._state == "open"
        self._state = "closed"
        self._stop_watchdog()
        self._fail_pending(ConnectionLost(f"{self.name}: closed"))
        await self._quiet_disconnect()
        if was_open:
            self._put(ConnectionChanged(self.name, "closed", "", self.source, self._now()))
        self._end()

    async def command(self, command: Command | m.Led) -> None:
        """Send a command and wait for the board's ack: ProtocolError on a nack (or a command the Table Bus has
        no message for), DeviceTimeout after `retries` sends without an answer, ConnectionLost if the link goes."""
        msg = command_message(command)
        async with self._cmd_lock:
            if self._state != "open":
                raise ConnectionLost(f"{self.name} is not connected")
            seq = self._next_seq()
            frame = m.encode_message(msg, seq)
            fut = self._loop.create_future()
            self._pending[seq] = (fut, msg.NAME)
            try:
                for attempt in range(self.retries):
                    if attempt:
                        self.stats.retries += 1
                    await self._send_checked(frame)
                    try:
                        await asyncio.wait_for(asyncio.shield(fut), self.ack_timeout)
                        return
                    except asyncio.TimeoutError:
                        continue
                raise DeviceTimeout(f"{self.name} did not acknowledge {msg.NAME} "
                                    f"({self.retries} tries, {self.ack_timeout * 1000:.0f} ms each)")
            finally:
                self._pending.pop(seq, None)
                if not fut.done():
                    fut.cancel()

    # ------------------------------------------------------------------ internals
    def _now(self) -> float:
        return self._loop.time() if self._loop else 0.0

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (seq + 1) & 0xFF
        return seq

    async def _send_checked(self, data: bytes) -> None:
        try:
            await self._send(data)
        except ConnectionLost as err:
            self._fail(err)
            raise
        except DeviceError:
            raise
        except (OSError, RuntimeError) as err:
            exc = ConnectionLost(f"{self.name}: cannot send ({err})")
            self._fail(exc)
            raise exc from err

    async def _handshake(self) -> m.Hello:
        self._hello = self._loop.create_future()
        frame = m.encode_message(m.HostHello(*m.PROTOCOL_VERSION), self._next_seq())
        for _ in range(self.retries):
            await self._send_checked(frame)
            try:
                hello = await asyncio.wait_for(asyncio.shield(self._hello), self.hello_timeout)
                break
            except asyncio.TimeoutError:
                continue
        else:
            raise DeviceTimeout(f"{self.name}: no Table Bus board answered "
                                f"(is it powered, and is this its port?)")
        if hello.proto_major != m.PROTOCOL_VERSION[0]:
            newer = "app" if hello.proto_major > m.PROTOCOL_VERSION[0] else "board's firmware"
            raise ProtocolError(f"{self.name} speaks Table Bus {hello.proto_major}.{hello.proto_minor}, this app "
                                f"speaks {m.PROTOCOL_VERSION[0]}.{m.PROTOCOL_VERSION[1]}: update the {newer}")
        return hello

    def _message(self, seq: int, msg: m.Message) -> None:
        now = self._loop.time()
        self._last_frame = now
        if self._rx_seq is not None:
            gap = (seq - self._rx_seq - 1) & 0xFF
            if gap and gap < 128:      # a big "gap" is a board restart, not loss
                self.stats.lost_frames += gap
        self._rx_seq = seq
        t = type(msg)
        if t is m.Raw:                 # counted by the decoder (unknown type / malformed); nothing to act on
            return
        self.stats.messages += 1
        if t is m.Heartbeat:
            return
        if t is m.Hello:
            self.info = msg
            if self._hello is not None and not self._hello.done():
                self._hello.set_result(msg)
            return
        if t is m.Ack or t is m.Nack:
            entry = self._pending.get(msg.acked)
            if entry is None or entry[0].done():
                self.stats.stray_acks += 1
                return
            fut, what = entry
            if t is m.Ack:
                fut.set_result(None)
            else:
                reason = m.ERROR_CODES.get(msg.code, f"error {msg.code}")
                fut.set_exception(ProtocolError(f"{self.name} refused {what}: {reason}"))
            return
        if self._state != "open":
            return
        for o in to_observations(msg, self.name, self.source, now):
            self._put(o)

    def _fail(self, exc: DeviceError) -> None:
        if self._state not in ("open", "opening"):
            return
        was_open = self._state == "open"
        self._state = "lost"
        self._stop_watchdog()
        self._fail_pending(exc)
        if self._hello is not None and not self._hello.done():
            self._hello.set_exception(exc)
            self._hello.exception()     # retrieved: open() reports it through the handshake
        if was_open:
            self._put(ConnectionChanged(self.name, "lost", str(exc), self.source, self._now()))
            self._put(exc)
        asyncio.ensure_future(self._quiet_disconnect())

    def _fail_pending(self, exc: DeviceError) -> None:
        for fut, _ in list(self._pending.values()):
            if not fut.done():
                fut.set_exception(exc)
                fut.exception()

    def _stop_watchdog(self) -> None:
        task, self._watchdog = self._watchdog, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _quiet_disconnect(self) -> None:
        try:
            await self._disconnect()
        except Exception:  # noqa: BLE001 — closing a link that is already gone is not news
            pass

    def _silence_limit(self) -> float:
        if self.silence_timeout is not None:
            return self.silence_timeout
        beat = (self.info.heartbeat_ms if self.info and self.info.heartbeat_ms else 500) / 1000
        return max(3 * beat, 1.0)

    async def _watch(self) -> None:
        while self._state == "open":
            await asyncio.sleep(WATCH_TICK)
            now = self._loop.time()
            # A partial frame that gained no completed frame over a whole tick is a false start (a damaged length
            # byte claiming a long frame): give up on it now rather than after up to MAX_FRAME more bytes.
            mark = (self.decoder.stats.frames, self.decoder.stats.bytes_in)
            if self.decoder.pending and self._stall_mark is not None and self._stall_mark[0] == mark[0]:
                self.stats.resyncs += 1
                for seq, msg in self.decoder.resync():
                    self._message(seq, msg)
            self._stall_mark = mark if self.decoder.pending else None
            silent = now - self._last_frame
            if silent > self._silence_limit():
                self._fail(ConnectionLost(f"{self.name} went silent: no heartbeat for {silent:.1f} s"))
                return
