"""Timers that behave like sand: the hourglass, the accusation minute, Time Trials — one service, one clock.

    clock = SystemClock()              # tests: FakeClock(), advanced by hand; never sleep
    timers = TimerService(clock)
    timers.subscribe(lambda event: …)  # the UI, the sounds and the table's log follow TimerEvents
    timers.start("hourglass", 60)
    timers.flip("hourglass")           # an hourglass turned over mid-run: the sand that fell is on top now
    timers.poll()                      # fires "expire" for every timer whose sand ran out (the app calls it on time)
    timers.set("hourglass", 60, tag="turn 3 step 4")   # set down full, waiting for someone to turn it (flip)

Time left is computed from the clock whenever it is asked for (never counted down by ticks), so the display cannot
drift from the clock however often it redraws. Every change is a `TimerEvent` stamped with the wall clock; the
table stores them in its log, and `TimerService.restore(events, clock)` rebuilds the timers after a restart with
the right time left (a timer whose sand ran out while the app was closed expires at the next poll).

    idle ──start──▶ running ──pause──▶ paused ──resume──▶ running
      │              │  ▲                 │
      set            │  └──────flip───────┘ (both: remaining = duration − remaining)
      ▼              └──(runs out / run_out)──▶ expired ──flip / start──▶ running (full again)
     set ──flip──▶ running (full: the glass is turned when the book says so)
    any ──cancel──▶ (gone)

A timer carries a `tag` (what its owner keeps with it: the GameClock the run of glasses it belongs to, the narrator
the line it times) and `runs`, how many times its sand has run out since it was started or set: both are stored
with every event, so a restart knows them too.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

log = logging.getLogger(__name__)

OPS = ("start", "set", "pause", "resume", "flip", "expire", "cancel", "tag")
RUNNING, PAUSED, EXPIRED, SET = "running", "paused", "expired", "set"
STATES = (RUNNING, PAUSED, EXPIRED, SET, "cancelled")
MAX_TAG = 200       # characters of a stored tag
MAX_RUNS = 100_000  # glasses run out in one run: far beyond any game


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
    state: str         # running | paused | expired | set | cancelled
    at: float          # wall clock of the change
    tag: str = ""      # the owner's note (a run of glasses, a narrated line); "" for none
    runs: int = 0      # times the sand ran out since the timer was started or set

    def to_json(self) -> dict:
        out = {"timer": self.timer, "op": self.op, "duration": round(self.duration, 3),
               "remaining": round(self.remaining, 3), "state": self.state, "at": round(self.at, 3)}
        if self.tag:  # written only when there is one: a plain timer's event reads as it always did
            out["tag"] = self.tag
        if self.runs:
            out["runs"] = self.runs
        return out

    @staticmethod
    def from_json(d: dict) -> "TimerEvent":
        """ValueError naming the field for a stored event that is not one (a damaged log)."""
        if not isinstance(d, dict):
            raise ValueError("timer event: expected an object")
        name, op, state = d.get("timer"), d.get("op"), d.get("state")
        if not isinstance(name, str) or not name or op not in OPS or state not in STATES:
            raise ValueError("timer event: expected a timer name, an op and a state")
        if set(d) - {"timer", "op", "duration", "remaining", "state", "at", "tag", "runs"}:
            raise ValueError("timer event: unknown field")
        tag, runs = d.get("tag", ""), d.get("runs", 0)
        if not isinstance(tag, str) or len(tag) > MAX_TAG:
            raise ValueError(f"timer event.tag: expected a text of at most {MAX_TAG} characters")
        if isinstance(runs, bool) or not isinstance(runs, int) or not 0 <= runs <= MAX_RUNS:
            raise ValueError("timer event.runs: expected a whole number of glasses")
        numbers = []
        for field in ("duration", "remaining", "at"):
            value = d.get(field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e12:
                raise ValueError(f"timer event.{field}: expected a number of seconds")
            numbers.append(float(value))
        duration, remaining, at = numbers
        return TimerEvent(name, op, duration, min(remaining, duration), state, at, tag, runs)


@dataclass(frozen=True)
class TimerView:
    """What a screen shows of one timer at one moment."""
    name: str
    duration: float
    remaining: float
    state: str
    tag: str = ""
    runs: int = 0

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    @property
    def waiting(self) -> bool:
        """Set down full, waiting for someone to turn it."""
        return self.state == SET

    @property
    def fraction(self) -> float:
        """Sand left, 1.0 full to 0.0 empty."""
        return self.remaining / self.duration if self.duration else 0.0


class _Timer:
    __slots__ = ("name", "duration", "left", "deadline", "state", "ran_out", "tag", "runs")

    def __init__(self, name: str, duration: float, tag: str = "", runs: int = 0):
        self.name = name
        self.duration = duration
        self.tag = tag
        self.runs = runs
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
        return TimerView(t.name, t.duration, t.remaining(self.clock.now()), t.state, t.tag, t.runs)

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
    def start(self, name: str, duration: float, *, tag: str = "", runs: int = 0) -> TimerEvent:
        """A full glass of `duration` seconds, running now (restarts a timer of that name). `runs`: how many glasses
        of the same run already ran out (a run picked up again)."""
        t = self._new(name, duration, tag, runs)
        return self._run(t, t.duration, "start")

    def set(self, name: str, duration: float, *, tag: str = "") -> TimerEvent:
        """A full glass of `duration` seconds set down, not running: it waits for someone to turn it (`flip`)."""
        t = self._new(name, duration, tag, 0)
        t.state = SET
        return self._emit(t, "set")

    def _new(self, name: str, duration: float, tag: str, runs: int) -> _Timer:
        if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 < duration <= 86_400:
            raise ValueError("a timer lasts more than 0 seconds and at most a day")
        if not isinstance(tag, str) or len(tag) > MAX_TAG:
            raise ValueError(f"a timer's tag is a text of at most {MAX_TAG} characters")
        t = _Timer(name, float(duration), tag, runs)
        self._timers[name] = t
        return t

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

    def flip(self, name: str, *, from_expiry: bool = False, tag: str | None = None,
             runs: int | None = None) -> TimerEvent:
        """Turn the glass over: the sand that fell is now on top. An empty glass starts full again.

        `from_expiry`: an empty glass turned over the moment it ran out (the app turning it for the group, e.g.
        onto the next time-track space) counts from that moment, not from when the flip got round to it, so a
        chain of glasses never falls behind the clock. `tag` / `runs`: what the glass's owner now keeps with it."""
        t = self._need(name)
        if tag is not None:
            t.tag = tag
        if runs is not None:
            t.runs = runs
        if t.state == SET:  # the glass is turned for the first time: it runs full
            return self._run(t, t.duration, "flip")
        now = self.clock.now()
        left = t.duration - t.remaining(now)
        if t.state == PAUSED:
            t.left = left
            return self._emit(t, "flip")
        if from_expiry and t.state == EXPIRED and t.ran_out is not None:
            left = t.ran_out + t.duration - now  # below 0 when that glass too ran out meanwhile: it expires at once
        return self._run(t, left, "flip")

    def retag(self, name: str, tag: str, runs: int) -> TimerEvent:
        """What the owner keeps with the glass changes; the sand does not move."""
        t = self._need(name)
        if not isinstance(tag, str) or len(tag) > MAX_TAG:
            raise ValueError(f"a timer's tag is a text of at most {MAX_TAG} characters")
        t.tag, t.runs = tag, runs
        return self._emit(t, "tag")

    def run_out(self, name: str) -> TimerEvent | None:
        """The sand is declared run out now (the group is done before the glass is): it expires at once, as if it
        had, and counts as a glass run out. None when it had already run out."""
        t = self._need(name)
        if t.state == EXPIRED:
            return None
        now = self.clock.now()
        return self._expire(t, now)

    def cancel(self, name: str) -> TimerEvent | None:
        t = self._timers.pop(name, None)
        if t is None:
            return None
        event = TimerEvent(name, "cancel", t.duration, t.remaining(self.clock.now()), "cancelled", self.clock.wall(),
                           t.tag, t.runs)
        self._tell(event)
        return event

    def poll(self) -> list[TimerEvent]:
        """Expire every running timer whose sand has run out; the events, earliest deadline first."""
        now = self.clock.now()
        due = sorted((t for t in self._timers.values() if t.state == RUNNING and t.deadline <= now),
                     key=lambda t: t.deadline)
        return [self._expire(t, t.deadline) for t in due]

    def _expire(self, t: _Timer, at: float) -> TimerEvent:
        t.state, t.left, t.ran_out, t.deadline = EXPIRED, 0.0, at, None
        t.runs += 1
        return self._emit(t, "expire")

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
            t = _Timer(name, event.duration, event.tag, event.runs)
            t.state = event.state
            if event.state == RUNNING:
                away = max(0.0, wall - event.at)  # a clock set backwards must not add sand
                # In the past when the sand ran out while the app was closed: it expires at the next poll, and a
                # glass turned over from that moment (flip(from_expiry=True)) counts from when it really ran out.
                t.deadline = now + event.remaining - away
            else:  # paused, set (full, not turned yet) or expired: no sand moves while nobody turns it
                t.left = event.remaining
                if event.state == EXPIRED:
                    t.ran_out = now - max(0.0, wall - event.at)  # a glass turned from then on counts from then
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
        event = TimerEvent(t.name, op, t.duration, t.remaining(self.clock.now()), t.state, self.clock.wall(), t.tag,
                           t.runs)
        self._tell(event)
        return event

    def _tell(self, event: TimerEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                # The change has happened: a broken view must not stop the sand or the other listeners.
                log.exception("timer listener %r failed on %s", listener, event)
