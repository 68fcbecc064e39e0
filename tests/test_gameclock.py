"""Obscurio's hourglass driven by the session: the glass is set down with step 4 and turned when the first card is
laid, is turned onto the next time-track space each time it runs out ("Stop!" on the last), the accusation minute
uses the same glass once the group has seen the turn's result, a chip moved leaves the sand alone, Undo takes back
what was entered and never gives time back, and a running hourglass survives an app restart with the right time
left — all on a fake clock (no test sleeps), through a real table on a real SQLite file."""
from __future__ import annotations

import pytest

from companion.games.obscurio import Setup
from companion.games.obscurio.actions import Chip, Look, Sand
from companion.session import Table, TableStore
from companion.session.gameclock import GameClock
from companion.session.timers import EXPIRED, SET, FakeClock, TimerEvent

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


def to_step_4(table, gc, clock=None, turn=True):
    play(table, "draw dark_night", "riddle", "decoys -")
    if turn:
        gc.turn()


def to_accusation(table, gc) -> None:
    """Empty the normal area quickly: everyone on a wrong door, turn after turn, until the accusation starts."""
    for _ in range(12):
        if table.state.phase == "discussion":
            break
        to_step_4(table, gc)
        play(table, *[f"chip {c} 2" for c in ("blue", "green", "red", "yellow")], "done", "exit 1")
        if table.state.phase == "end":
            play(table, "end")


def test_the_glass_waits_for_the_first_card_then_moves_along_the_time_track(world):
    store, clock, table, gc = world
    assert table.timers.get("hourglass") is None  # nothing to time in steps 1-3
    play(table, "draw dark_night", "riddle", "decoys -")
    glass = table.timers.get("hourglass")
    # Step 4 has begun, but the Grimoire is still shuffling: the glass is set down full until the first card is laid.
    assert glass.state == SET and gc.waiting and glass.duration == 60 and table.state.space == 0
    clock.advance(45)
    gc.poll()
    assert table.timers.remaining("hourglass") == 60 and table.state.space == 0
    gc.turn()                              # "First card down: turn the glass"
    assert table.timers.get("hourglass").running and not gc.waiting
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
    gc.poll()  # ran out on the last space: "Stop!", step 4 is over; the glass lies empty
    assert table.state.phase == "exit" and table.state.stopped
    assert table.timers.get("hourglass").state == EXPIRED and table.timers.get("hourglass").runs == 3
    kinds = [e.kind for e in store.events(table.id)]
    assert kinds.count("timer") >= 6 and [a.TYPE for a in table.actions].count("sand") == 3


def test_the_glass_can_be_turned_only_once(world):
    store, clock, table, gc = world
    to_step_4(table, gc)
    with pytest.raises(Exception, match="already turned"):
        gc.turn()


def test_undo_never_gives_time_back(world):
    """The issue's table: the sand ran out (glass on +1, 0:57), then Undo of a chip. The chip goes, the glass stays
    on +1 with the sand the clock says, and the time track does not move back."""
    store, clock, table, gc = world
    to_step_4(table, gc)
    play(table, "chip blue 3")
    clock.advance(60)
    gc.poll()
    assert table.state.space == 1
    clock.advance(3)
    assert table.timers.remaining("hourglass") == pytest.approx(57)
    assert [a.TYPE for a in table.actions[-2:]] == ["chip", "sand"]
    gc.undo()                               # Undo: Bea: door 3
    assert table.state.door_of("blue") is None
    assert table.state.space == 1 and table.timers.remaining("hourglass") == pytest.approx(57)
    assert table.timers.get("hourglass").running
    clock.advance(57)
    gc.poll()
    assert table.state.space == 2           # and the next glass runs out when the real time says
    gc.redo()                               # Redo: Bea's chip again, on the table as it is now
    assert table.state.door_of("blue") == 3 and table.state.space == 2


def test_undo_after_stop_takes_back_the_chip_and_stop_stays(world):
    store, clock, table, gc = world
    to_step_4(table, gc)
    play(table, "chip blue 3", "chip green 2")
    clock.advance(180)
    gc.poll(), gc.poll(), gc.poll()
    assert table.state.phase == "exit" and table.state.stopped
    gc.undo()
    state = table.state
    assert state.phase == "exit" and state.stopped and state.door_of("green") is None and state.door_of("blue") == 3
    assert [a.TYPE for a in table.actions].count("sand") == 3


def test_nothing_to_undo_but_the_time(world):
    store, clock, table, gc = world
    play(table, "draw dark_night")
    gc.undo()
    assert table.state.phase == "traps" and not gc.can_undo
    with pytest.raises(Exception, match="Nothing to undo"):
        gc.undo()


def test_leaving_step_4_by_undo_and_coming_back_finds_the_glass_where_the_time_took_it(world):
    store, clock, table, gc = world
    to_step_4(table, gc)
    clock.advance(70)
    gc.poll()
    assert table.state.space == 1
    gc.undo()                              # takes back "decoys": back to the night; the time's move stays aside
    assert table.state.phase == "traitor"
    clock.advance(20)
    gc.redo()                              # step 4 again: the glass never stopped
    assert table.state.phase == "doors" and table.state.space == 1 and not gc.waiting
    assert table.timers.remaining("hourglass") == pytest.approx(30)


def test_a_kill_in_the_middle_of_an_undo_is_caught_up_from_the_real_time(tmp_path):
    clock = FakeClock()
    store = TableStore(tmp_path)
    table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical"), clock=clock)
    gc = GameClock(table)
    to_step_4(table, gc)
    play(table, "chip blue 3")
    clock.advance(61)
    gc.poll()
    # The undo had written "undo" twice (the time's move and the chip) when the app died: no time's move again.
    gc._busy = True
    table.undo(), table.undo()
    store._conn.close()
    later = FakeClock(wall=clock.wall() + 5)
    store = TableStore(tmp_path)
    table = Table.open(store, table.id, clock=later)
    assert table.state.space == 0
    gc = GameClock(table)
    assert table.state.space == 1 and table.state.door_of("blue") is None   # the real time wins
    assert table.timers.remaining("hourglass") == pytest.approx(54)
    gc.close()
    store.close()


def test_a_look_at_a_loyalty_card_stays_noted_after_an_undo(tmp_path):
    clock = FakeClock()
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical", loyalty="app"), clock=clock)
        gc = GameClock(table)
        to_step_4(table, gc)
        play(table, "chip blue 3")
        table.apply(Look("red"))
        gc.undo()
        assert table.actions[-1] == Look("red") and table.state.door_of("blue") is None
        assert gc.redo_action == Chip("blue", 3)
        gc.redo()
        assert table.state.door_of("blue") == 3
        gc.close()


def test_pause_is_the_players_and_the_glass_chain_never_falls_behind(world):
    store, clock, table, gc = world
    to_step_4(table, gc)
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
    to_step_4(table, gc)
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


def test_a_glass_started_by_an_earlier_version_keeps_its_sand(tmp_path):
    """A table recorded before the glass waited for the first card: its running glass has no run. Reopened, it is
    taken as it is (no fresh glass, no time given back) and goes on along the track."""
    clock = FakeClock()
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical"), clock=clock)
        play(table, "draw dark_night", "riddle", "decoys 0")
        table.timers.start("hourglass", 60)   # what the earlier version logged
        clock.advance(40)
        gc = GameClock(table)
        assert table.timers.remaining("hourglass") == pytest.approx(20) and not gc.waiting
        assert table.timers.get("hourglass").tag == "turn 1 step 4"
        clock.advance(20)
        gc.poll()
        assert table.state.space == 1 and table.timers.remaining("hourglass") == pytest.approx(60)
        gc.close()


def test_the_accusation_minute_waits_for_the_result_then_uses_the_same_glass(world):
    store, clock, table, gc = world
    to_accusation(table, gc)
    assert table.state.phase == "discussion"
    assert gc.waiting                       # the group reads what the turn cost first
    clock.advance(30)
    gc.poll()
    assert table.state.phase == "discussion"
    gc.turn()                               # "Turn the glass: one minute to find the Traitor"
    clock.advance(60)
    gc.poll()
    assert table.state.phase == "vote"
    assert table.actions[-1] == Sand()


def test_ready_to_vote_runs_the_glass_out(world):
    store, clock, table, gc = world
    to_accusation(table, gc)
    gc.turn()
    clock.advance(12)
    gc.run_out()
    assert table.state.phase == "vote" and table.timers.get("hourglass").state == EXPIRED


def test_stored_timer_events_keep_their_run():
    event = TimerEvent("hourglass", "expire", 60, 0, "expired", 1.0, "turn 3 step 4", 2)
    assert TimerEvent.from_json(event.to_json()) == event
    plain = TimerEvent("hourglass", "start", 60, 60, "running", 1.0)
    assert "tag" not in plain.to_json() and "runs" not in plain.to_json()   # as earlier versions wrote it
    for bad in ({**event.to_json(), "runs": -1}, {**event.to_json(), "tag": 5}, {**event.to_json(), "x": 1}):
        with pytest.raises(ValueError, match="timer event"):
            TimerEvent.from_json(bad)


def test_redo_knows_its_move_after_a_restart_even_when_the_time_moved_on(tmp_path):
    clock = FakeClock()
    store = TableStore(tmp_path)
    table = Table.create(store, "obscurio", Setup(players=FIVE, bag="physical"), clock=clock)
    gc = GameClock(table)
    to_step_4(table, gc)
    play(table, "chip blue 3", "chip green 2")
    clock.advance(61)
    gc.poll()
    gc.undo()                                  # Cruz's chip, behind the sand that ran out
    assert gc.redo_action == Chip("green", 2) and not table.can_redo   # the time's move came after the undo
    gc.close()
    store.close()
    store = TableStore(tmp_path)
    table = Table.open(store, table.id, clock=FakeClock(wall=clock.wall() + 5))
    gc = GameClock(table)
    assert gc.redo_action == Chip("green", 2)  # read back from the stored log
    gc.redo()
    assert table.state.door_of("green") == 2 and gc.redo_action is None
    play(table, "chip red 1")                  # a new move by a person forgets what was undone
    gc.close()
    store.close()
