"""Obscurio's hourglass driven by the session: the glass starts with step 4, is turned onto the next time-track space
each time it runs out ("Stop!" on the last), the bonus traps follow, the accusation minute uses the same glass, a
chip moved leaves the sand alone, and a running hourglass survives an app restart with the right time left — all on
a fake clock (no test sleeps), through a real table on a real SQLite file."""
from __future__ import annotations

import pytest

from companion.games.obscurio import Setup
from companion.session import Table, TableStore
from companion.session.gameclock import GameClock
from companion.session.timers import FakeClock

FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))


def play(table, *moves):
    for move in moves:
        table.apply(table.adapter.action_from_text(move))


@pytest.fixture
def world(tmp_path):
    store = TableStore(tmp_path)
    clock = FakeClock()
    table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical"), clock=clock)
    gc = GameClock(table)
    yield store, clock, table, gc
    gc.close()
    store.close()


def test_the_hourglass_runs_with_step_4_and_moves_along_the_time_track(world):
    store, clock, table, gc = world
    assert table.timers.get("hourglass") is None  # nothing to time in steps 1-3
    play(table, "draw dark_night", "riddle", "decoys 0")
    glass = table.timers.get("hourglass")
    assert glass.running and glass.duration == 60 and table.state.space == 0
    play(table, "chip blue 1")  # a chip placed: the sand keeps running
    clock.advance(30)
    gc.poll()
    assert table.timers.remaining("hourglass") == pytest.approx(30)
    clock.advance(30)
    gc.poll()  # ran out on space 1: turned over onto space 2 (+1 trap next turn)
    assert table.state.space == 1 and table.timers.remaining("hourglass") == pytest.approx(60)
    clock.advance(60)
    gc.poll()
    assert table.state.space == 2
    clock.advance(60)
    gc.poll()  # ran out on the last space: "Stop!", step 4 is over and the glass is put away
    assert table.state.phase != "doors" and table.timers.get("hourglass") is None
    kinds = [e.kind for e in store.events(table.id)]
    assert kinds.count("timer") >= 6 and [a.TYPE for a in table.actions].count("sand") == 3


def test_pause_is_the_players_and_the_glass_chain_never_falls_behind(world):
    store, clock, table, gc = world
    play(table, "draw dark_night", "riddle", "decoys 0")
    clock.advance(10)
    table.timers.pause("hourglass")  # the Grimoire lays the glass on its side
    clock.advance(500)
    gc.poll()
    assert table.state.space == 0 and table.timers.remaining("hourglass") == pytest.approx(50)
    table.timers.resume("hourglass")
    clock.advance(50.03)  # the poll comes a frame late ...
    gc.poll()
    clock.advance(59.97)  # ... but the next glass counts from the moment the sand ran out
    gc.poll()
    assert table.state.space == 2


def test_a_running_hourglass_survives_a_restart_and_the_game_catches_up(tmp_path):
    clock = FakeClock()
    store = TableStore(tmp_path)
    table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical"), clock=clock)
    gc = GameClock(table)
    play(table, "draw dark_night", "riddle", "decoys 0")
    clock.advance(20)
    store._conn.close()  # killed: no clean shutdown
    # 15 s later the app is back: 25 s of sand left on the first space.
    later = FakeClock(wall=clock.wall() + 15)
    store = TableStore(tmp_path)
    table = Table.open(store, table.id, clock=later)
    gc = GameClock(table)
    assert table.timers.remaining("hourglass") == pytest.approx(25) and table.state.space == 0
    gc.close()
    store.close()
    # Closed again for 100 s more: the glass ran out twice meanwhile; reopening catches up space by space.
    much_later = FakeClock(wall=later.wall() + 100)
    store = TableStore(tmp_path)
    table = Table.open(store, table.id, clock=much_later)
    gc = GameClock(table)
    gc.poll()
    gc.poll()
    assert table.state.space == 2
    assert table.timers.remaining("hourglass") == pytest.approx(60 - (100 - 25 - 60))
    gc.close()
    store.close()


def test_the_accusation_minute_uses_the_same_glass(world):
    store, clock, table, gc = world
    # Empty the normal area quickly: everyone on a wrong door, turn after turn, until the accusation starts.
    for _ in range(12):
        if table.state.phase == "discussion":
            break
        play(table, "draw dark_night", "riddle", "decoys 0")
        play(table, *[f"chip {c} 2" for c in ("blue", "green", "red", "yellow")], "done", "exit 1")
        if table.state.phase == "end":
            play(table, "end")
    assert table.state.phase == "discussion"
    assert table.timers.get("hourglass").running and table.timers.remaining("hourglass") == pytest.approx(60)
    clock.advance(60)
    gc.poll()
    assert table.state.phase == "vote"
