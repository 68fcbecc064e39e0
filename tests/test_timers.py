"""The session's timer service on a fake clock (never a sleep): sand that behaves like sand, events the screen and
the log follow, and timers rebuilt from stored events with the right time left after a restart."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.session.timers import EXPIRED, PAUSED, RUNNING, FakeClock, TimerEvent, TimerService


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def timers(clock):
    return TimerService(clock)


def test_an_hourglass_runs_out_once_at_its_time(clock, timers):
    heard = []
    timers.subscribe(heard.append)
    timers.start("hourglass", 60)
    clock.advance(59.99)
    assert timers.poll() == [] and timers.remaining("hourglass") == pytest.approx(0.01)
    clock.advance(0.01)
    (expired,) = timers.poll()
    assert (expired.timer, expired.op, expired.state, expired.remaining) == ("hourglass", "expire", EXPIRED, 0)
    assert timers.poll() == []  # expires once
    assert [e.op for e in heard] == ["start", "expire"]


def test_pause_and_resume_keep_the_sand_where_it_was(clock, timers):
    timers.start("hourglass", 60)
    clock.advance(20)
    timers.pause("hourglass")
    clock.advance(300)  # the table talks; the glass lies on its side
    assert timers.remaining("hourglass") == 40 and timers.get("hourglass").state == PAUSED
    assert timers.poll() == []
    timers.resume("hourglass")
    clock.advance(39.5)
    assert timers.poll() == [] and timers.get("hourglass").running
    clock.advance(0.5)
    assert [e.op for e in timers.poll()] == ["expire"]


def test_flipping_a_running_glass_puts_the_fallen_sand_on_top(clock, timers):
    timers.start("hourglass", 60)
    clock.advance(45)
    event = timers.flip("hourglass")
    assert event.remaining == 45 and event.state == RUNNING
    clock.advance(45)
    assert [e.op for e in timers.poll()] == ["expire"]
    timers.flip("hourglass")  # an empty glass turned over is full again
    assert timers.remaining("hourglass") == 60 and timers.get("hourglass").running


def test_the_shown_sand_never_drifts_from_the_clock_over_a_whole_turn(clock, timers):
    """A screen redrawing at uneven frame times over a 3-minute turn (three glasses) reads the time left from the
    clock each frame: no error accumulates, and each glass runs out in the first frame after its moment."""
    rng = random.Random(5)
    timers.start("hourglass", 60)
    start, flips = clock.now(), []
    while clock.now() - start < 180:
        clock.advance(rng.uniform(0.005, 0.05))  # 20-200 frames a second, jittery
        elapsed = (clock.now() - start) % 60
        for event in timers.poll():
            flips.append(clock.now() - start)
            timers.flip(event.timer, from_expiry=True)
        shown = timers.remaining("hourglass")
        assert abs(shown - (60 - elapsed if elapsed else 60)) < 0.050 or abs(shown) < 0.050
    assert len(flips) == 3
    assert all(abs(t - 60 * (i + 1)) <= 0.05 for i, t in enumerate(flips)), flips


def test_restore_after_a_kill_gives_the_right_time_left(clock):
    timers = TimerService(clock)
    log = []
    timers.subscribe(lambda e: log.append(json.dumps(e.to_json())))  # what the table stores
    timers.start("hourglass", 60)
    clock.advance(25)
    timers.start("accusation", 60)
    clock.advance(5)
    timers.pause("accusation")
    # SIGKILL here; the tablet restarts 12 s later (wall clock), with a fresh monotonic clock.
    later = FakeClock(wall=clock.wall() + 12)
    restored = TimerService.restore([TimerEvent.from_json(json.loads(line)) for line in log], later)
    assert restored.remaining("hourglass") == pytest.approx(60 - 25 - 5 - 12)
    assert restored.get("hourglass").running
    assert restored.remaining("accusation") == pytest.approx(55) and restored.get("accusation").state == PAUSED
    later.advance(18)
    assert [e.timer for e in restored.poll()] == ["hourglass"]


def test_sand_that_ran_out_while_the_app_was_closed_expires_at_the_first_poll(clock):
    timers = TimerService(clock)
    events = []
    timers.subscribe(events.append)
    timers.start("hourglass", 60)
    restored = TimerService.restore(events, FakeClock(wall=clock.wall() + 3600))
    assert restored.remaining("hourglass") == 0
    assert [e.op for e in restored.poll()] == ["expire"]


def test_a_cancelled_timer_is_gone_and_a_broken_listener_stops_nothing(clock, timers):
    def broken(event):
        raise RuntimeError("a view fell over")
    heard = []
    timers.subscribe(broken)
    timers.subscribe(heard.append)
    timers.start("trial", 30)
    timers.cancel("trial")
    assert timers.get("trial") is None and [e.op for e in heard] == ["start", "cancel"]
    assert TimerService.restore(heard, clock).get("trial") is None
    with pytest.raises(ValueError):
        timers.start("trial", 0)


@pytest.mark.parametrize("bad", [None, [], {"timer": "h"}, {"timer": "h", "op": "start", "state": "running",
                                                             "duration": "60", "remaining": 1, "at": 1},
                                 {"timer": "h", "op": "boil", "state": "running", "duration": 1, "remaining": 1,
                                  "at": 1},
                                 {"timer": "h", "op": "start", "state": "running", "duration": 1e300,
                                  "remaining": 1, "at": 1}])
def test_a_damaged_stored_event_is_a_value_error_naming_it(bad):
    with pytest.raises(ValueError, match="timer event"):
        TimerEvent.from_json(bad)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["pause", "resume", "flip", "wait"]), st.floats(0, 30)), max_size=30))
def test_sand_is_never_negative_nor_more_than_a_glass(steps):
    clock = FakeClock()
    timers = TimerService(clock)
    timers.start("h", 20)
    for op, dt in steps:
        if op == "wait":
            clock.advance(dt)
            timers.poll()
        else:
            getattr(timers, op)("h")
        left = timers.remaining("h")
        assert 0 <= left <= 20
        view = timers.get("h")
        assert (view.state == EXPIRED) == (left == 0 and view.state not in (RUNNING, PAUSED))
