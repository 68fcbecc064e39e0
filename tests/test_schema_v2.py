"""Schema 2 of the tables database: a schema-1 file from the earlier app (tests/data/v1) opens, lists, resumes and
exports exactly as before; summaries make lists cheap; timers survive a kill; tables can be renamed, deleted and
brought back. Every test works on a copy of the file: the committed one is never touched."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.games.obscurians.randplay import random_game
from companion.session import Table, TableStore
from companion.session import schema
from companion.session.listing import summary_of
from companion.session.logfile import read_log
from companion.session.store import DB_NAME, SCHEMA_VERSION, StoreError
from companion.session.timers import FakeClock
from cli_helpers import companion

ROOT = Path(__file__).resolve().parent.parent
V1 = ROOT / "tests" / "data" / "v1" / DB_NAME
EXPECTED = json.loads((ROOT / "tests" / "data" / "v1-expected.json").read_text())


def recorded(export: str) -> str:
    """What the schema-1 app exported, with the header naming the rules the table was played under (version 2:
    its Secures all took 2 goods; docs/persistence.md "Rules versions")."""
    head, _, entries = export.partition("\n")
    header = json.loads(head)
    header["setup"]["rules"]["version"] = 2
    return json.dumps(header, sort_keys=True) + "\n" + entries


def naming_version(state: dict) -> dict:
    return {**state, "setup": {**state["setup"], "rules": {**state["setup"]["rules"], "version": 2}}}


@pytest.fixture
def v1_copy(tmp_path) -> Path:
    shutil.copyfile(V1, tmp_path / DB_NAME)
    return tmp_path


def user_version(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_a_schema_1_file_opens_lists_resumes_and_exports_exactly_as_before(v1_copy):
    assert SCHEMA_VERSION == 2 and user_version(v1_copy / DB_NAME) == 1
    with TableStore(v1_copy) as store:
        assert [r.id for r in store.unfinished()] == EXPECTED["unfinished"]
        assert [r.id for r in store.finished()] == EXPECTED["finished"]
        for tid, want in EXPECTED["tables"].items():
            table = Table.open(store, int(tid))
            assert table.export() == recorded(want["export"])
            assert table.state.to_json() == naming_version(want["state"])
            assert (table.status(), table.players(), store.get(int(tid)).title) == (
                want["status"], want["players"], want["title"])
            assert (table.can_undo, table.can_redo) == (want["can_undo"], want["can_redo"])
    assert user_version(v1_copy / DB_NAME) == 2
    # The file as the older app left it is kept beside it, untouched and still schema 1.
    backup = v1_copy / "tables-v1-backup.sqlite3"
    assert backup.exists() and user_version(backup) == 1


def test_the_migrated_tables_play_on_and_keep_their_summaries(v1_copy):
    with TableStore(v1_copy) as store:
        half = Table.open(store, 2)
        assert store.get(2).summary is None  # not known until first listed or changed
        listed = summary_of(store, store.get(2))
        assert listed["status"] == "round 3" and listed["players"] == EXPECTED["tables"]["2"]["players"]
        assert store.get(2).summary == listed  # computed once, kept
        half.redo()
        after = store.get(2).summary
        assert after["turn"] == half.state.round and after["active"] == half.state.name(half.state.active)
        finished = summary_of(store, store.get(1))
        assert finished["status"] == "over" and finished["winners"] and finished["totals"]


def test_reading_a_schema_1_file_never_changes_it(v1_copy, tmp_path):
    before = (v1_copy / DB_NAME).read_bytes()
    with TableStore(v1_copy, read_only=True) as store:
        assert [r.id for r in store.unfinished()] == EXPECTED["unfinished"]
        assert Table.open(store, 4).export() == recorded(EXPECTED["tables"]["4"]["export"])
        assert summary_of(store, store.get(4))["status"] == "over"  # computed, not kept (read-only)
        assert store.count(finished=True) == 2 and store.tables(deleted=True) == []
    assert (v1_copy / DB_NAME).read_bytes() == before
    listing = companion("tables", data_dir=v1_copy)
    assert listing.returncode == 0 and "Half way" in listing.stdout and "round 3" in listing.stdout
    assert (v1_copy / DB_NAME).read_bytes() == before


def test_a_migration_that_fails_halfway_leaves_the_file_at_schema_1(v1_copy, monkeypatch):
    broken = schema._MIGRATE_1_TO_2 + ("THIS IS NOT SQL",)
    monkeypatch.setattr(schema, "_MIGRATE_1_TO_2", broken)
    with pytest.raises(StoreError):
        TableStore(v1_copy)
    assert user_version(v1_copy / DB_NAME) == 1
    monkeypatch.undo()
    with TableStore(v1_copy) as store:  # the next start migrates it whole
        assert Table.open(store, 2).export() == recorded(EXPECTED["tables"]["2"]["export"])


def test_lists_are_paged_most_recent_first_and_counted(tmp_path):
    ticks = iter(range(1_800_000_000, 1_900_000_000))
    with TableStore(tmp_path, clock=lambda: next(ticks)) as store:
        setup, actions = random_game(5, 4)
        made = []
        for i in range(7):
            t = Table.create(store, "obscurians", setup, title=f"table {i}")
            if i % 2:
                for a in actions:
                    t.apply(a)
            made.append(t.id)
        assert store.count(finished=False) == 4 and store.count(finished=True) == 3
        everything = [r.id for r in store.unfinished()]
        assert [r.id for r in store.unfinished(limit=2)] + [r.id for r in store.unfinished(limit=2, offset=2)] \
            == everything
        assert everything == sorted(everything, reverse=True)
        assert all(r.summary["status"] == "over" for r in store.finished())


def test_rename_delete_and_the_way_back(tmp_path):
    with TableStore(tmp_path) as store:
        setup, actions = random_game(6, 5)
        table = Table.create(store, "obscurians", setup, title="Friday")
        table.apply(actions[0])
        store.rename(table.id, "Friday at Ben's")
        assert store.get(table.id).title == "Friday at Ben's"
        store.delete(table.id)
        assert store.unfinished() == [] and [r.id for r in store.tables(deleted=True)] == [table.id]
        assert Table.open(store, table.id).actions == (actions[0],)  # nothing was erased
        store.restore(table.id)
        assert [r.id for r in store.unfinished()] == [table.id] and store.get(table.id).deleted is None
        with pytest.raises(StoreError, match="no table"):
            store.delete(99)


def test_a_running_hourglass_survives_a_kill_with_the_right_time_left(tmp_path):
    clock = FakeClock()
    store = TableStore(tmp_path)
    setup, actions = random_game(8, 4)
    table = Table.create(store, "obscurians", setup, clock=clock)
    table.apply(actions[0])
    table.timers.start("hourglass", 60)
    clock.advance(20)
    table.timers.pause("hourglass")
    clock.advance(3)
    table.timers.resume("hourglass")
    clock.advance(10)
    # No clean shutdown: the process dies here. Twelve seconds later (wall clock) the app starts again.
    store._conn.close()
    later = FakeClock(wall=clock.wall() + 12)
    with TableStore(tmp_path) as again:
        reopened = Table.open(again, table.id, clock=later)
        assert reopened.timers.remaining("hourglass") == pytest.approx(60 - 20 - 10 - 12)
        assert reopened.timers.get("hourglass").running
        assert reopened.actions == (actions[0],) and reopened.can_undo
        reopened.undo()  # timer entries are not moves: undo takes back the move
        assert reopened.actions == ()
        exported = reopened.export()
    assert '{"timer": {' in exported
    game_log = read_log(exported)  # a log with timer entries reads back and imports with its timers
    with TableStore(tmp_path / "other") as other:
        imported = Table.import_log(other, game_log)
        assert imported.timers.get("hourglass") is not None
