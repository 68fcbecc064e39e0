"""The device manager: every device the table uses, kept connected, its observations cleaned and handed on.

    manager = DeviceManager()
    await manager.add("ble://F0:00:00:00:00:01?kind=godice&shell=d6")
    await manager.add("sim://godice?count=5&seed=7")
    manager.bindings.bind("F0:00:00:00:00:01", "henchmen", 0)
    async for obs in manager.observations():          # or manager.subscribe(callback)
        ...

What it does, per device URL (one supervisor task each, all on the one asyncio loop):

- opens the device, reads its observations, and when the link drops or the device cannot be reached, tries again
  with exponential back-off and jitter, capped (`Backoff`; the clock, the sleep and the random source are injectable);
- reports the connection as ConnectionChanged: connecting, connected, lost, reconnecting, held_elsewhere (another
  app or phone holds the die — with a sentence saying so), failed (the URL cannot work: no retry), closed;
- dedups rolls across reconnects: a die that reports its standing state again after reconnecting is not a new roll;
  a real new roll — even on the same face — is (see `RollFilter`);
- never lets one device stop the others: whatever a device raises becomes a ConnectionChanged and a retry;
- keeps the binding table (which die is whose: `BindingTable`, JSON for the app to persist) and routes commands
  (`await manager.command(die, Blink((255, 0, 0)))`, or by binding with `command_bound`).
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import json
import logging
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, Iterator

import strictjson

from firmware_bridge.commands import Command
from firmware_bridge.device import Device, DeviceURL, open_device, parse_url
from firmware_bridge.errors import (BadDeviceURL, ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound,
                                    DeviceTimeout)
from firmware_bridge.observations import (BatteryLevel, ConnectionChanged, DieCrooked, DieRolled, DieRolling,
                                          Observation)

log = logging.getLogger(__name__)

# --- bindings ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Binding:
    """A die's place at the table: a role and an index — ("player", "red"), ("henchmen", 2), ("obelisk", "NE")."""
    role: str
    index: int | str = 0

    def __post_init__(self) -> None:
        if not isinstance(self.role, str) or not self.role.strip():
            raise ValueError("binding.role: a non-empty string is needed")
        if isinstance(self.index, bool) or not isinstance(self.index, (int, str)):
            raise ValueError(f"binding.index: an integer or a string is needed, not {self.index!r}")


class BindingTable:
    """Which die is which: die id (a BLE address) ↔ Binding. A die holds one place, a place one die: binding a die to
    a taken place moves the place to it. `to_json()` / `from_json()` round-trip for the app to persist."""

    VERSION = 1

    def __init__(self, bindings: dict[str, Binding] | None = None):
        self._by_die: dict[str, Binding] = {}
        for die, binding in (bindings or {}).items():
            self.bind(die, binding.role, binding.index)

    def bind(self, die: str, role: str, index: int | str = 0) -> Binding:
        binding = Binding(role, index)
        if not isinstance(die, str) or not die:
            raise ValueError("binding.die: a die id is needed")
        for other, b in list(self._by_die.items()):
            if b == binding and other != die:
                del self._by_die[other]
        self._by_die[die] = binding
        return binding

    def unbind(self, die: str) -> Binding | None:
        return self._by_die.pop(die, None)

    def clear(self, role: str | None = None) -> None:
        for die, b in list(self._by_die.items()):
            if role is None or b.role == role:
                del self._by_die[die]

    def binding(self, die: str) -> Binding | None:
        return self._by_die.get(die)

    def die_for(self, role: str, index: int | str = 0) -> str | None:
        wanted = Binding(role, index)
        return next((die for die, b in self._by_die.items() if b == wanted), None)

    def role(self, role: str) -> dict[int | str, str]:
        """index → die for one role (the five henchmen dice: {0: …, 1: …})."""
        return {b.index: die for die, b in self._by_die.items() if b.role == role}

    def __iter__(self) -> Iterator[tuple[str, Binding]]:
        return iter(sorted(self._by_die.items(), key=lambda kv: (kv[1].role, str(kv[1].index), kv[0])))

    def __len__(self) -> int:
        return len(self._by_die)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BindingTable) and self._by_die == other._by_die

    def to_json(self) -> dict:
        return {"version": self.VERSION,
                "bindings": [{"die": die, "role": b.role, "index": b.index} for die, b in self]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, data: Any) -> "BindingTable":
        """The table a to_json() dict describes; ValueError with one line naming the problem otherwise."""
        if not isinstance(data, dict):
            raise ValueError("bindings: expected an object")
        if data.get("version", cls.VERSION) != cls.VERSION:
            raise ValueError(f"bindings.version: {data.get('version')!r} is not {cls.VERSION}")
        items = data.get("bindings", [])
        if not isinstance(items, list):
            raise ValueError("bindings.bindings: expected a list")
        table = cls()
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise ValueError(f"bindings[{i}]: expected an object")
            unknown = set(item) - {"die", "role", "index"}
            if unknown:
                raise ValueError(f"bindings[{i}].{sorted(unknown)[0]}: unknown field")
            try:
                table.bind(item.get("die"), item.get("role"), item.get("index", 0))
            except ValueError as err:
                raise ValueError(f"bindings[{i}]: {err}") from None
        return table

    @classmethod
    def loads(cls, text: str) -> "BindingTable":
        try:
            data = strictjson.loads(text)
        except strictjson.JSONInputError as err:  # not JSON, or a key written twice: one line naming it
            raise ValueError(f"bindings: not JSON we can read ({err})") from None
        return cls.from_json(data)


# --- back-off ------------------------------------------------------------------------------------------------------


@dataclass
class Backoff:
    """Delay before reconnect attempt n (0, 1, 2 …): base × factor^n, capped, then scaled by a random factor in
    [1 - jitter, 1] so dice that dropped together do not retry in lock-step."""
    base: float = 0.5
    factor: float = 2.0
    cap: float = 30.0
    jitter: float = 0.5
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int) -> float:
        raw = min(self.cap, self.base * self.factor ** min(attempt, 64))
        return raw * (1.0 - self.jitter * self.rng.random())


# --- roll dedup ----------------------------------------------------------------------------------------------------


@dataclass
class _DieMemory:
    moving: bool = False                   # a DieRolling came since the last result: the next result is a roll
    fresh: bool = True                     # no report yet since its device (re)connected
    last: tuple | None = None              # the last result: ("face", n) or ("crooked",)
    rolls: collections.deque = field(default_factory=lambda: collections.deque(maxlen=64))


class RollFilter:
    """Decides which results are new rolls. Per die:

    - a result carrying the device's roll number counts once per number (the device numbers its rolls);
    - after a DieRolling, the next result counts (a real roll — the same face as before still counts);
    - the first result after (re)connecting that did not follow a DieRolling is the die telling where it stands: it
      counts only if it differs from the last result we know (the die was rolled while we were away), otherwise it
      is the old roll re-sent and is dropped; at the very first connection it is the die's resting face, not a roll;
    - otherwise (a device that never reports movement) every result counts.
    A roll made while disconnected that lands on the same face as the last one cannot be told from a re-send; it is
    lost unless the device numbers its rolls."""

    def __init__(self) -> None:
        self._dice: dict[str, _DieMemory] = {}

    def connected(self, dice: Iterator[str] | list[str]) -> None:
        """A device (re)connected: its dice's next unprompted report is a state report."""
        for die in dice:
            memory = self._dice.setdefault(die, _DieMemory())
            memory.fresh = True

    def accept(self, obs: Observation) -> bool:
        if isinstance(obs, DieRolling):
            memory = self._dice.setdefault(obs.die, _DieMemory())
            memory.moving, memory.fresh = True, False
            return True
        if not isinstance(obs, (DieRolled, DieCrooked)):
            return True
        memory = self._dice.setdefault(obs.die, _DieMemory())
        result = ("face", obs.face) if isinstance(obs, DieRolled) else ("crooked",)
        number = getattr(obs, "roll", None)
        if number is not None:
            keep = number not in memory.rolls
            memory.rolls.append(number)
        elif memory.moving:
            keep = True
        elif memory.fresh:
            keep = memory.last is not None and memory.last != result
        else:
            keep = True
        memory.moving, memory.fresh, memory.last = False, False, result
        return keep

    def last(self, die: str) -> tuple | None:
        memory = self._dice.get(die)
        return memory.last if memory else None


# --- the manager ---------------------------------------------------------------------------------------------------

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
