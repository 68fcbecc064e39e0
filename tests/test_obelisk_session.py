"""Obelisk at a real table (a real SQLite file, the session's GameClock on a fake clock): the Time Trials minutes run
with the Day and the Night and running out is recorded as the rulebook says; a table of the game is listed, exported
and reopened like any other; Home offers it (its screens: companion/ui/obelisk)."""
from __future__ import annotations

import pytest

from companion.games.obelisk import Setup
from companion.session import Table, TableStore, games
from companion.session.gameclock import GameClock
from companion.session.logfile import read_log
from companion.session.timers import FakeClock

MAP = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS -- / FN FE GE CE GS / GW -- FN -- --"


@pytest.fixture
def world(tmp_path):
    store = TableStore(tmp_path)
    clock = FakeClock()
    setup = Setup.from_json({"players": [{"name": "Ana", "colour": "green"}, {"name": "Ben", "colour": "blue"}],
                             "map": MAP, "time_trials": True, "realm": "table"})
    table = Table.create(store, "obelisk", setup, clock=clock)
    gc = GameClock(table)
    yield store, clock, table, gc
    gc.close()
    store.close()


def play(table, *moves):
    for move in moves:
        table.apply(table.adapter.action_from_text(move))


def test_the_days_minute_forfeits_the_actions_left_and_the_nights_minute_stops_the_captures(world):
    store, clock, table, gc = world
    glass = table.timers.get("time_trials")
    assert glass.running and glass.duration == 60  # "Each Day lasts one minute"
    play(table, "build green C2")
    clock.advance(60)
    gc.poll()  # ran out: the Day is over, Ben's two actions and Ana's second are forfeit
    assert table.state.phase == "spawn" and table.state.is_night
    assert table.timers.remaining("time_trials") == pytest.approx(60)  # "Night also lasts one minute"
    play(table, "spawn green green blue yellow green blue")
    assert table.state.phase == "swarm"
    clock.advance(60)
    gc.poll()  # no more captures: the new demons walk, the Night ends, the next Day's minute starts
    assert table.state.day == 2 and table.state.phase == "day"
    assert [a.TYPE for a in table.actions].count("timeout") == 2
    assert table.timers.remaining("time_trials") == pytest.approx(60)


def test_an_obelisk_table_is_a_table_like_the_others(world, tmp_path):
    store, clock, table, gc = world
    play(table, "mine green", "mine green", "pass blue")
    log = read_log(table.export())
    assert log.game == "obelisk" and log.state.to_json() == table.state.to_json()
    again = Table.open(store, table.id)
    assert again.state == table.state and again.status() == "night 1"
    assert games.get("obelisk").ui_plugin == "companion.ui.obelisk" and games.card("obelisk").playable
