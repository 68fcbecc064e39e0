"""The SQLite store on its own: round trips, schema, and refusing damaged or foreign files."""
import sqlite3

import pytest

from companion.session.store import DB_NAME, SCHEMA_VERSION, StoreError, TableStore

SETUP = {"players": [{"name": "Anna", "colour": "red"}], "seed": 3}


def test_create_append_and_read_back_after_reopen(tmp_path):
    with TableStore(tmp_path) as store:
        tid = store.create("obscurians", SETUP, title="Friday")
        store.append(tid, 1, "action", {"type": "end"}, finished=False)
        store.append(tid, 2, "undo", None, finished=False)
        store.append(tid, 3, "redo", None, finished=True)
    with TableStore(tmp_path) as store:
        row = store.get(tid)
        assert (row.game, row.setup, row.title) == ("obscurians", SETUP, "Friday")
        assert row.finished is not None and row.updated >= row.created
        events = store.events(tid)
        assert [(e.seq, e.kind, e.payload) for e in events] == [
            (1, "action", {"type": "end"}), (2, "undo", None), (3, "redo", None)]


def test_schema_version_wal_and_full_sync(tmp_path):
    TableStore(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [r[1] for r in conn.execute("PRAGMA table_info(events)")]
    assert columns == ["table_id", "seq", "kind", "payload_json", "at"]
    store = TableStore(tmp_path)
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_unfinished_and_finished_lists(tmp_path, monkeypatch):
    ticks = iter(range(1_700_000_000, 1_800_000_000))
    with TableStore(tmp_path, clock=lambda: next(ticks)) as store:
        a = store.create("obscurians", SETUP)
        b = store.create("obscurians", SETUP)
        c = store.create("obscurians", SETUP)
        store.append(a, 1, "action", {"type": "end"}, finished=False)  # a is now the most recent
        store.append(c, 1, "action", {"type": "end"}, finished=True)
        assert [r.id for r in store.unfinished()] == [a, b]
        assert [r.id for r in store.finished()] == [c]
        store.append(c, 2, "undo", None, finished=False)  # undoing the last move reopens the game
        assert store.finished() == []


def test_conflicting_seq_is_refused_and_nothing_written(tmp_path):
    with TableStore(tmp_path) as store:
        tid = store.create("obscurians", SETUP)
        store.append(tid, 1, "action", {"type": "end"}, finished=False)
        with pytest.raises(StoreError, match="changed elsewhere"):
            store.append(tid, 1, "undo", None, finished=False)
        with pytest.raises(StoreError, match="no table"):
            store.append(999, 1, "undo", None, finished=False)
        assert len(store.events(tid)) == 1
        assert store.events(999) == []


def test_import_style_create_is_all_or_nothing(tmp_path):
    with TableStore(tmp_path) as store:
        with pytest.raises(ValueError):
            store.create("obscurians", SETUP, events=[("action", {"type": "end"}), ("bogus", None)])
        assert store.tables() == []


@pytest.mark.parametrize("content", [
    b"this is not a database, it is a shopping list\n" * 100,
    b"SQLite format 3\x00" + b"\xff" * 4000,
])
def test_corrupt_file_is_reported_and_left_untouched(tmp_path, content):
    path = tmp_path / DB_NAME
    path.write_bytes(content)
    with pytest.raises(StoreError, match="left untouched"):
        TableStore(tmp_path)
    assert path.read_bytes() == content


def test_damaged_pages_are_reported(tmp_path):
    with TableStore(tmp_path) as store:
        tid = store.create("obscurians", SETUP)
        for seq in range(1, 400):
            store.append(tid, seq, "action", {"type": "end", "pad": "x" * 200}, finished=False)
    # Fold the WAL into the main file, then scribble over the middle of it.
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    path = tmp_path / DB_NAME
    data = bytearray(path.read_bytes())
    data[len(data) // 2: len(data) // 2 + 8192] = b"\x5a" * 8192
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        TableStore(tmp_path)
    assert path.read_bytes() == bytes(data)


def test_foreign_and_newer_databases_are_refused(tmp_path):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    conn = sqlite3.connect(foreign / DB_NAME)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="other program"):
        TableStore(foreign)

    newer = tmp_path / "newer"
    TableStore(newer).close()
    conn = sqlite3.connect(newer / DB_NAME)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        TableStore(newer)


def test_default_folder_is_the_platform_user_data_dir(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / app))
    with TableStore() as store:
        assert store.path == tmp_path / "table-companion" / DB_NAME
