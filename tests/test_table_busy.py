"""A live table while another process holds the write lock: the move waits, the players are told, nothing is lost.

The other process is real (fault_helpers.LockHolder: a second Python holding `BEGIN IMMEDIATE` on the same file).
"""
import threading
import time

import pytest

from companion.session import StoreError, Table, TableStore
from companion.session.logfile import read_log, write_log
from companion.session.store import StoreBusy
from companion.session.table import WAITING
from fault_helpers import LockHolder
from session_helpers import game


@pytest.fixture
def table(tmp_path):
    setup, actions = game(31)
    with TableStore(tmp_path, busy_timeout=0.2) as store:
        table = Table.create(store, "obscurians", setup)
        for action in actions[:4]:
            table.apply(action)
        yield table, actions


def release_after(holder: LockHolder, seconds: float) -> threading.Thread:
    thread = threading.Thread(target=lambda: (time.sleep(seconds), holder.release()))
    thread.start()
    return thread


def stored_actions(table) -> list:
    with TableStore(table.store.data_dir, read_only=True) as store:
        return list(Table.open(store, table.id).actions)


def test_a_move_waits_for_the_lock_tells_the_players_and_is_saved(table):
    table, actions = table
    told = []
    with LockHolder(table.store.path) as holder:
        releaser = release_after(holder, 0.8)
        started = time.monotonic()
        table.apply(actions[4], on_wait=told.append)
        waited = time.monotonic() - started
        releaser.join()
    assert told == [WAITING]  # told once, in plain words
    assert waited >= 0.7 and table.log_length == 5
    assert stored_actions(table) == actions[:5]


@pytest.mark.parametrize("step", ["apply", "undo"])
def test_a_lock_that_never_frees_gives_one_busy_error_with_nothing_written(table, step):
    table, actions = table
    table.wait_limit = 1.0
    state, told = table.state, []
    with LockHolder(table.store.path):
        started = time.monotonic()
        with pytest.raises(StoreBusy) as busy:
            table.apply(actions[4], on_wait=told.append) if step == "apply" else table.undo(on_wait=told.append)
        assert time.monotonic() - started < 3  # bounded: the limit plus one SQLite wait
    message = str(busy.value)
    assert "\n" not in message and "another program is writing" in message and "nothing was saved" in message
    assert isinstance(busy.value, StoreError) and told == [WAITING]
    assert table.state is state and table.log_length == 4
    assert stored_actions(table) == actions[:4]
    table.apply(actions[4])  # the lock is gone: the same table carries on with the right entry number
    assert stored_actions(table) == actions[:5]


def test_undo_and_redo_wait_too(table):
    table, actions = table
    with LockHolder(table.store.path) as holder:
        releaser = release_after(holder, 0.5)
        table.undo()
        releaser.join()
    with LockHolder(table.store.path) as holder:
        releaser = release_after(holder, 0.5)
        table.redo()
        releaser.join()
    assert table.log_length == 6 and stored_actions(table) == actions[:4]


def test_a_broken_wait_callback_does_not_lose_the_move(table):
    table, actions = table

    def broken(message):
        raise RuntimeError("the banner widget is gone")

    with LockHolder(table.store.path) as holder:
        releaser = release_after(holder, 0.5)
        table.apply(actions[4], on_wait=broken)
        releaser.join()
    assert stored_actions(table) == actions[:5]


def test_creating_and_importing_wait_too(tmp_path):
    setup, actions = game(32)
    log = read_log(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:3]]))
    with TableStore(tmp_path, busy_timeout=0.2) as store:
        store.create("obscurians", setup.to_json())  # the file exists, so the holder can lock it
        told = []
        with LockHolder(store.path) as holder:
            releaser = release_after(holder, 0.5)
            created = Table.create(store, "obscurians", setup, on_wait=told.append)
            releaser.join()
        with LockHolder(store.path) as holder:
            releaser = release_after(holder, 0.5)
            imported = Table.import_log(store, log, on_wait=told.append)
            releaser.join()
        assert told == [WAITING, WAITING]
        assert len(store.tables()) == 3 and len(Table.open(store, imported.id).actions) == 3
        with LockHolder(store.path):
            with pytest.raises(StoreBusy):
                Table.import_log(store, log, copy=True, wait_limit=0.5)
        assert {r.id for r in store.tables()} >= {created.id, imported.id} and len(store.tables()) == 3
