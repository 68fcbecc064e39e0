"""Timers that behave like sand: the hourglass, the accusation minute, Time Trials — one service, one clock.

    clock = SystemClock()              # tests: FakeClock(), advanced by hand; never sleep
    timers = TimerService(clock)
    timers.subscribe(lambda event: …)  # the UI, the sounds and the table's log follow TimerEvents
    timers.start("hourglass", 60)
    timers.flip("hourglass")           # an hourglass turned over mid-run: the sand that fell is on top now
    timers.poll()                      # fires "expire" for every timer whose sand ran out (the app calls it on time)

Time left is computed from the clock whenever it is asked for (never counted down by ticks), so the display cannot
drift from the clock however often it redraws. Every change is a `TimerEvent` stamped with the wall clock; the
table stores them in its log, and `TimerService.restore(events, clock)` rebuilds the timers after a restart with
the right time left (a timer whose sand ran out while the app was closed expires at the next poll).

    idle ──start──▶ running ──pause──▶ paused ──resume──▶ running
                     │  ▲                 │
                     │  └──────flip───────┘ (both: remaining = duration − remaining)
                     └──(sand runs out)──▶ expired ──flip / start──▶ running (full again)
    any ──cancel──▶ (gone)
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

log = logging.getLogger(__name__)

OPS = ("start", "pause", "resume", "flip", "expire", "cancel")
RUNNING, PAUSED, EXPIRED = "running", "paused", "expired"


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds: what deadlines are measured in."""

    def wall(self) -> float:
        """Seconds since the epoch: what is stored, so a restart (even a reboot) knows how long it was away."""


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told: tests drive timers exactly, without sleeping."""

    def __init__(self, wall: float = 1_800_000_000.0):
        self._now = 1000.0
        self._wall = wall

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self._wall += seconds


@dataclass(frozen=True)
class TimerEvent:
    """One change of one timer, as stored in the table's log (`to_json`) and told to listeners."""
    timer: str
    op: str            # one of OPS
    duration: float    # seconds of a full glass
    remaining: float   # seconds of sand left right after the change
    state: str         # running | paused | expired | cancelled
    at: float          # wall clock of the change

    def to_json(self) -> dict:
        return {"timer": self.timer, "op": self.op, "duration": round(self.duration, 3),
                "remaining": round(self.remaining, 3), "state": self.state, "at": round(self.at, 3)}

    @staticmethod
    def from_json(d: dict) -> "TimerEvent":
        """ValueError naming the field for a stored event that is not one (a damaged log)."""
        if not isinstance(d, dict):
            raise ValueError("timer event: expected an object")
        name, op, state = d.get("timer"), d.get("op"), d.get("state")
        if not isinstance(name, str) or not name or op not in OPS or state not in (RUNNING, PAUSED, EXPIRED,
                                                                                    "cancelled"):
            raise ValueError("timer event: expected a timer name, an op and a state")
        numbers = []
        for field in ("duration", "remaining", "at"):
            value = d.get(field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e12:
                raise ValueError(f"timer event.{field}: expected a number of seconds")
            numbers.append(float(value))
        duration, remaining, at = numbers
        return TimerEvent(name, op, duration, min(remaining, duration), state, at)


@dataclass(frozen=True)
class TimerView:
    """What a screen shows of one timer at one moment."""
    name: str
    duration: float
    remaining: float
    state: str

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    @property
    def fraction(self) -> float:
        """Sand left, 1.0 full to 0.0 empty."""
        return self.remaining / self.duration if self.duration else 0.0


class _Timer:
    __slots__ = ("name", "duration", "left", "deadline", "state", "ran_out")

    def __init__(self, name: str, duration: float):
        self.name = name
        self.duration = duration
        self.left = duration          # sand left when not running
        self.deadline: float | None = None  # clock.now() when the sand runs out, while running
        self.state = PAUSED
        self.ran_out: float | None = None   # clock.now() at which the sand ran out, once expired

    def remaining(self, now: float) -> float:
        if self.state == RUNNING:
            return min(self.duration, max(0.0, self.deadline - now))  # float noise never adds sand
        return self.left


class TimerService:
    def __init__(self, clock: Clock | None = None):
        self.clock = clock or SystemClock()
        self._timers: dict[str, _Timer] = {}
        self._listeners: list[Callable[[TimerEvent], None]] = []

    # -- reading -------------------------------------------------------------------------------------------------
    def get(self, name: str) -> TimerView | None:
        t = self._timers.get(name)
        if t is None:
            return None
        return TimerView(t.name, t.duration, t.remaining(self.clock.now()), t.state)

    def remaining(self, name: str) -> float:
        view = self.get(name)
        return 0.0 if view is None else view.remaining

    def names(self) -> list[str]:
        return list(self._timers)

    def next_deadline(self) -> float | None:
        """clock.now() of the next expiry, so a scheduler can sleep exactly until then; None when none runs."""
        deadlines = [t.deadline for t in self._timers.values() if t.state == RUNNING]
        return min(deadlines) if deadlines else None

    # -- changing ------------------------------------------------------------------------------------------------
    def start(self, name: str, duration: float) -> TimerEvent:
        """A full glass of `duration` seconds, running now (restarts a timer of that name)."""
        if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 < duration <= 86_400:
            raise ValueError("a timer lasts more than 0 seconds and at most a day")
        t = _Timer(name, float(duration))
        self._timers[name] = t
        return self._run(t, t.duration, "start")

    def pause(self, name: str) -> TimerEvent | None:
        t = self._need(name)
        if t.state != RUNNING:
            return None
        t.left = t.remaining(self.clock.now())
        t.state, t.deadline = PAUSED, None
        return self._emit(t, "pause")

    def resume(self, name: str) -> TimerEvent | None:
        t = self._need(name)
        if t.state != PAUSED:
            return None
        return self._run(t, t.left, "resume")

    def flip(self, name: str, *, from_expiry: bool = False) -> TimerEvent:
        """Turn the glass over: the sand that fell is now on top. An empty glass starts full again.

        `from_expiry`: an empty glass turned over the moment it ran out (the app turning it for the group, e.g.
        onto the next time-track space) counts from that moment, not from when the flip got round to it, so a
        chain of glasses never falls behind the clock."""
        t = self._need(name)
        now = self.clock.now()
        left = t.duration - t.remaining(now)
        if t.state == PAUSED:
            t.left = left
            return self._emit(t, "flip")
        if from_expiry and t.state == EXPIRED and t.ran_out is not None:
            left = t.ran_out + t.duration - now  # below 0 when that glass too ran out meanwhile: it expires at once
        return self._run(t, left, "flip")

    def cancel(self, name: str) -> TimerEvent | None:
        t = self._timers.pop(name, None)
        if t is None:
            return None
        event = TimerEvent(name, "cancel", t.duration, t.remaining(self.clock.now()), "cancelled", self.clock.wall())
        self._tell(event)
        return event

    def poll(self) -> list[TimerEvent]:
        """Expire every running timer whose sand has run out; the events, earliest deadline first."""
        now = self.clock.now()
        due = sorted((t for t in self._timers.values() if t.state == RUNNING and t.deadline <= now),
                     key=lambda t: t.deadline)
        events = []
        for t in due:
            t.state, t.left, t.ran_out, t.deadline = EXPIRED, 0.0, t.deadline, None
            events.append(self._emit(t, "expire"))
        return events

    # -- listeners -----------------------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[TimerEvent], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- persistence ---------------------------------------------------------------------------------------------
    @classmethod
    def restore(cls, events: Iterable[TimerEvent], clock: Clock | None = None) -> "TimerService":
        """The timers as the stored `events` left them, with the time that passed since (by the wall clock)."""
        service = cls(clock)
        last: dict[str, TimerEvent] = {}
        for event in events:
            last[event.timer] = event
        now, wall = service.clock.now(), service.clock.wall()
        for name, event in last.items():
            if event.state == "cancelled":
                continue
            t = _Timer(name, event.duration)
            t.state = event.state
            if event.state == RUNNING:
                away = max(0.0, wall - event.at)  # a clock set backwards must not add sand
                # In the past when the sand ran out while the app was closed: it expires at the next poll, and a
                # glass turned over from that moment (flip(from_expiry=True)) counts from when it really ran out.
                t.deadline = now + event.remaining - away
            else:
                t.left = event.remaining
            service._timers[name] = t
        return service

    # -- internals -----------------------------------------------------------------------------------------------
    def _need(self, name: str) -> _Timer:
        t = self._timers.get(name)
        if t is None:
            raise KeyError(f"there is no timer {name!r}")
        return t

    def _run(self, t: _Timer, left: float, op: str) -> TimerEvent:
        t.state, t.deadline = RUNNING, self.clock.now() + left
        return self._emit(t, op)

    def _emit(self, t: _Timer, op: str) -> TimerEvent:
        event = TimerEvent(t.name, op, t.duration, t.remaining(self.clock.now()), t.state, self.clock.wall())
        self._tell(event)
        return event

    def _tell(self, event: TimerEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                # The change has happened: a broken view must not stop the sand or the other listeners.
                log.exception("timer listener %r failed on %s", listener, event)
