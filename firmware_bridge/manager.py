"""The device manager: every device the table uses, kept connected, its observations cleaned and handed on.

    manager = DeviceManager()
    await manager.add("ble://F0:00:00:00:00:01?kind=godice&shell=d6")
    await manager.add("sim://godice?count=5&seed=7")
    manager.bindings.bind("F0:00:00:00:00:01", "henchmen", 0)
    async for obs in manager.observations():          # or manager.subscribe(callback)
        ...

What it does, per device URL (one supervisor task each, all on the one asyncio loop):

- opens the device, reads its observations, and when the link drops or the device cannot be reached, tries again
  with exponential back-off and jitter, capped (`Backoff`, backoff.py; the clock, the sleep and the random source
  are injectable);
- reports the connection as ConnectionChanged: connecting, connected, lost, reconnecting, held_elsewhere (another
  app or phone holds the die — with a sentence saying so), failed (the URL cannot work: no retry), closed;
- dedups rolls across reconnects: a die that reports its standing state again after reconnecting is not a new roll;
  a real new roll — even on the same face — is (`RollFilter`, rolls.py);
- never lets one device stop the others: whatever a device raises becomes a ConnectionChanged and a retry;
- keeps the binding table (which die is whose: `BindingTable`, bindings.py, JSON for the app to persist) and routes
  commands (`await manager.command(die, Blink((255, 0, 0)))`, or by binding with `command_bound`).
"""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable

from firmware_bridge.backoff import Backoff
from firmware_bridge.bindings import Binding, BindingTable
from firmware_bridge.commands import Command
from firmware_bridge.device import Device, DeviceURL, open_device, parse_url
from firmware_bridge.errors import (BadDeviceURL, ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound,
                                    DeviceTimeout)
from firmware_bridge.observations import BatteryLevel, ConnectionChanged, Observation
from firmware_bridge.rolls import RollFilter

log = logging.getLogger(__name__)

# What the manager is made with, importable from here as well (`from firmware_bridge.manager import Backoff`).
__all__ = ["DeviceManager", "Subscription", "Backoff", "Binding", "BindingTable", "RollFilter"]

Callback = Callable[[Observation], Any]
Opener = Callable[[str], Device]
_CLOSED = object()


class Subscription:
    """An async iterator over the manager's observations from the moment it was made; `close()` ends it."""

    def __init__(self, manager: "DeviceManager", maxsize: int = 0):
        self._manager = manager
        self._queue: asyncio.Queue = asyncio.Queue(maxsize)
        self.dropped = 0
        manager._subscriptions.add(self)

    def _put(self, item) -> None:
        try:
            self._queue.put_nowait(item)
        except asyncio.QueueFull:                    # a slow reader loses its oldest observation, never blocks others
            self.dropped += 1
            with contextlib.suppress(asyncio.QueueEmpty):
                self._queue.get_nowait()
            self._queue.put_nowait(item)

    def __aiter__(self) -> "Subscription":
        return self

    async def __anext__(self) -> Observation:
        item = await self._queue.get()
        if item is _CLOSED:
            self._manager._subscriptions.discard(self)
            raise StopAsyncIteration
        return item

    async def get(self, timeout: float | None = None) -> Observation:
        """The next observation (TimeoutError after `timeout` seconds)."""
        return await asyncio.wait_for(self.__anext__(), timeout)

    def close(self) -> None:
        self._manager._subscriptions.discard(self)
        self._put(_CLOSED)


@dataclass
class _Entry:
    url: str
    parsed: DeviceURL
    task: asyncio.Task | None = None
    device: Device | None = None
    dice: set[str] = field(default_factory=set)
    state: ConnectionChanged | None = None
    stopping: bool = False
    attempts: int = 0                  # connection attempts made
    connections: int = 0               # successful connections


class DeviceManager:
    """Keeps every added device connected and hands its cleaned observations to subscribers."""

    def __init__(self, *, opener: Opener | None = None, backoff: Backoff | None = None,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep, clock: Callable[[], float] = time.monotonic,
                 bindings: BindingTable | None = None, held_retry: float = 5.0):
        self._opener = opener or open_device
        self.backoff = backoff or Backoff()
        self._sleep = sleep
        self._clock = clock
        self.bindings = bindings if bindings is not None else BindingTable()
        self.held_retry = held_retry                  # at least this long between tries while held elsewhere
        self.rolls = RollFilter()
        self._entries: dict[str, _Entry] = {}
        self._die_entry: dict[str, _Entry] = {}
        self._callbacks: list[Callback] = []
        self._subscriptions: set[Subscription] = set()
        self._battery: dict[str, tuple[int, bool]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._closed = False

    # --- devices -------------------------------------------------------------------------------------------------
    async def add(self, url: str) -> str:
        """Start keeping `url` connected (returns its key, the URL as given). A bad URL raises BadDeviceURL."""
        if self._closed:
            raise DeviceError("the device manager is closed")
        key = url.strip() if isinstance(url, str) else url
        if key in self._entries:
            return key
        parsed = parse_url(key)
        entry = _Entry(key, parsed)
        if parsed.scheme == "ble":
            entry.dice.add(parsed.address.upper())
            self._die_entry[parsed.address.upper()] = entry
        self._entries[key] = entry
        entry.task = asyncio.get_running_loop().create_task(self._supervise(entry), name=f"device {key}")
        return key

    async def remove(self, url: str) -> None:
        entry = self._entries.pop(url.strip(), None)
        if entry is None:
            return
        await self._stop(entry)
        for die in entry.dice:
            if self._die_entry.get(die) is entry:
                del self._die_entry[die]

    async def _stop(self, entry: _Entry) -> None:
        entry.stopping = True
        if entry.task is not None:
            entry.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await entry.task
        await self._close_device(entry)
        self._set_state(entry, "closed", "")

    @property
    def urls(self) -> list[str]:
        return list(self._entries)

    def state(self, url: str) -> ConnectionChanged | None:
        """The last connection report for `url`."""
        entry = self._entries.get(url.strip())
        return entry.state if entry else None

    def device(self, url: str) -> Device | None:
        """The device object of the current connection (None while disconnected)."""
        entry = self._entries.get(url.strip())
        return entry.device if entry else None

    def dice_of(self, url: str) -> list[str]:
        """The ids of the dice a device URL has reported (all five of `sim://godice?count=5`, the one of a ble://)."""
        entry = self._entries.get(url.strip())
        return sorted(entry.dice) if entry else []

    def url_of(self, die: str) -> str | None:
        """The URL of the device that reports `die` (None when no device added now has reported it)."""
        entry = self._die_entry.get(die)
        return entry.url if entry is not None and self._entries.get(entry.url) is entry else None

    def stats(self, url: str) -> dict[str, int]:
        entry = self._entries.get(url.strip())
        return {"attempts": entry.attempts, "connections": entry.connections} if entry else {}

    def battery(self, die: str) -> tuple[int, bool] | None:
        """(percent, charging) last reported by `die`."""
        return self._battery.get(die)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for entry in list(self._entries.values()):
            await self._stop(entry)
        self._entries.clear()
        for task in list(self._tasks):
            task.cancel()
        for sub in list(self._subscriptions):
            sub.close()

    async def __aenter__(self) -> "DeviceManager":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # --- subscribers ----------------------------------------------------------------------------------------------
    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call `callback(observation)` (a function or a coroutine function) for every observation; returns an
        unsubscribe function. A failing callback is logged and never disturbs the others."""
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._callbacks.remove(callback)

        return unsubscribe

    def observations(self, maxsize: int = 0) -> Subscription:
        """An async iterator over observations from now on (ends when the manager closes)."""
        return Subscription(self, maxsize)

    def _publish(self, obs: Observation) -> None:
        for sub in list(self._subscriptions):
            sub._put(obs)
        for callback in list(self._callbacks):
            try:
                result = callback(obs)
                if inspect.isawaitable(result):
                    task = asyncio.ensure_future(result)
                    self._tasks.add(task)
                    task.add_done_callback(self._callback_done)
            except Exception:
                log.exception("observation subscriber %r failed", callback)

    def _callback_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("observation subscriber failed: %r", task.exception())

    # --- commands ------------------------------------------------------------------------------------------------
    async def command(self, die_or_url: str, command: Command) -> None:
        """Send `command` to the device that holds `die_or_url` (a die id or a device URL). DeviceError when it is
        unknown, not connected now, or cannot do that command."""
        entry = self._entries.get(die_or_url) or self._die_entry.get(die_or_url)
        if entry is None:
            raise DeviceError(f"{die_or_url}: no such device or die at this table")
        device = entry.device
        if device is None or not entry.state or entry.state.state != "connected":
            raise ConnectionLost(f"{die_or_url} is not connected now")
        try:
            await _command(device, die_or_url, command)
        except DeviceError:
            raise
        except Exception as err:
            raise DeviceError(f"{die_or_url}: {type(command).__name__} failed ({err!r})") from err

    async def command_bound(self, role: str, index: int | str, command: Command) -> None:
        """Send `command` to the die bound to (role, index): `command_bound("henchmen", 2, Blink((255, 0, 0)))`."""
        die = self.bindings.die_for(role, index)
        if die is None:
            raise DeviceError(f"no die is bound to {role} {index}")
        await self.command(die, command)

    # --- supervision ---------------------------------------------------------------------------------------------
    def _set_state(self, entry: _Entry, state: str, detail: str) -> None:
        previous = entry.state
        if previous is not None and previous.state == state and previous.detail == detail:
            return
        device = entry.parsed.address.upper() if entry.parsed.scheme == "ble" else entry.parsed.address
        entry.state = ConnectionChanged(device, state, detail, source=entry.url, at=self._clock())
        self._publish(entry.state)

    async def _close_device(self, entry: _Entry) -> None:
        device, entry.device = entry.device, None
        if device is not None:
            try:
                await device.close()
            except Exception as err:
                log.debug("%s: close failed: %r", entry.url, err)

    async def _supervise(self, entry: _Entry) -> None:
        attempt = 0
        self._set_state(entry, "connecting", "")
        while not entry.stopping:
            try:
                device = self._opener(entry.url)
            except DeviceError as err:                 # a URL that can never work: say so, do not retry
                self._set_state(entry, "failed", str(err))
                return
            except Exception as err:
                log.exception("%s: cannot make the device", entry.url)
                self._set_state(entry, "failed", f"{entry.url}: cannot open this device ({err!r})")
                return
            entry.device = device
            entry.attempts += 1
            retry_floor = 0.0
            try:
                await device.open()
                attempt = 0
                entry.connections += 1
                self.rolls.connected(list(entry.dice))
                self._set_state(entry, "connected", f"{device.name} is connected")
                async for obs in device.observations():
                    self._accept(entry, obs)
                if entry.stopping:
                    break
                self._set_state(entry, "lost", f"{device.name} closed the connection")
            except asyncio.CancelledError:
                raise
            except DeviceBusy as err:
                self._set_state(entry, "held_elsewhere", str(err))
                retry_floor = self.held_retry
            except ConnectionLost as err:
                self._set_state(entry, "lost", str(err))
            except BadDeviceURL as err:
                self._set_state(entry, "failed", str(err))
                return
            except (DeviceNotFound, DeviceTimeout, DeviceError) as err:
                self._set_state(entry, "reconnecting", str(err))
            except Exception as err:                   # a bug in a device: report it, keep the others going, retry
                log.exception("%s: device failed", entry.url)
                self._set_state(entry, "reconnecting", f"{entry.url}: internal error ({err!r}); trying again")
            finally:
                if entry.device is device:
                    await self._close_device(entry)
            if entry.stopping:
                break
            delay = max(retry_floor, self.backoff.delay(attempt))
            attempt += 1
            await self._sleep(delay)
            if entry.state is not None and entry.state.state == "lost":
                self._set_state(entry, "reconnecting", entry.state.detail)

    def _accept(self, entry: _Entry, obs: Observation) -> None:
        if getattr(obs, "at", 1.0) == 0.0:
            with contextlib.suppress(Exception):
                obs = replace(obs, at=self._clock())
        die = getattr(obs, "die", None)
        if isinstance(die, str):
            if die not in entry.dice:
                entry.dice.add(die)
            self._die_entry[die] = entry
        if isinstance(obs, BatteryLevel):
            self._die_entry.setdefault(obs.device, entry)
            if self._battery.get(obs.device) == (obs.percent, obs.charging):
                return
            self._battery[obs.device] = (obs.percent, obs.charging)
        if isinstance(obs, ConnectionChanged):
            self._die_entry.setdefault(obs.device, entry)
        if not self.rolls.accept(obs):
            return
        self._publish(obs)


async def _command(device: Device, target: str, command: Command) -> None:
    """A composite device (several dice) takes `die=`; a single device ignores the target."""
    method = device.command
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        params = {}
    if "die" in params:
        await method(command, die=target)
    else:
        await method(command)
