"""The tables database under real faults: odd input, read-only disks, a full disk, a second writer, damaged entries,
files left by a crash, repeated imports. Each fault ends in one plain StoreError (or InvalidInput) and the user's data
is exactly as it was. The CLI side of the same faults is in test_cli_tables.py; waiting for a busy file in
test_table_busy.py.
"""
import sqlite3

import pytest

from companion.games.errors import InvalidInput
from companion.session import StoreError, Table, TableStore
from companion.session.logfile import read_log, write_log
from companion.session.store import DB_NAME, AlreadyImported, StoreBusy, StoreReadOnly
from fault_helpers import (LockHolder, file_bytes, file_bytes_but, killed_writer, read_only_file, read_only_view,
                           small_disk, snapshot)
from session_helpers import game

SETUP = {"players": [{"name": "Anna", "colour": "red"}], "seed": 3}


def one_line(err: Exception) -> str:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text and text.strip()
    return text


def played(store, seed: int, moves: int, title: str = "") -> Table:
    setup, actions = game(seed)
    table = Table.create(store, "obscurians", setup, title=title)
    for action in actions[:moves]:
        table.apply(action)
    return table


# -- 5: values SQLite cannot take -----------------------------------------------------------------------------------

@pytest.mark.parametrize("table_id", [10**22, 2**63, -(2**70), 0, -1])
def test_an_id_sqlite_cannot_hold_is_simply_no_table(tmp_path, table_id):
    with TableStore(tmp_path) as store:
        store.create("obscurians", SETUP)
        with pytest.raises(StoreError, match=f"there is no table {table_id}$"):
            store.get(table_id)
        with pytest.raises(StoreError, match="there is no table"):
            Table.open(store, table_id)
        with pytest.raises(StoreError, match="there is no table"):
            store.append(table_id, 1, "undo", None, finished=False)
        assert store.events(table_id) == []
        assert len(store.tables()) == 1


def test_a_title_with_undecodable_bytes_is_refused_and_nothing_is_stored(tmp_path):
    setup, actions = game(3)
    log = read_log(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:5]]))
    with TableStore(tmp_path) as store:
        with pytest.raises(InvalidInput, match="the title is not valid text"):
            Table.import_log(store, log, title="Friday \udcff night")
        with pytest.raises(InvalidInput, match="the title is not valid text"):
            Table.create(store, "obscurians", setup, title="\udcfe")
        assert store.tables() == []
        assert Table.import_log(store, log, title="Friday \ufffd night").title == "Friday \ufffd night"


# -- 13: a read-only disk is read, never called damaged ---------------------------------------------------------------

def test_a_read_only_disk_is_read_and_a_write_says_it_is_read_only(tmp_path):
    data = tmp_path / "data"
    with TableStore(data) as store:
        table = played(store, 4, 12, title="Friday")
        text, state = table.export(), table.state.to_json()
    before = file_bytes(data)
    with read_only_view(data) as view:
        with TableStore(view, read_only=True) as store:
            (row,) = store.tables()
            assert row.title == "Friday" and Table.open(store, row.id).export() == text
        with TableStore(view) as store:  # the app asks for read-write: it gets read-only, with the reason
            assert store.read_only and "read-only disk" in store.read_only_reason
            again = Table.open(store, table.id)
            assert again.state.to_json() == state
            with pytest.raises(StoreReadOnly) as refused:
                again.apply(game(4)[1][12])
            message = one_line(refused.value)
            assert "read-only" in message and "damaged" not in message and "move it aside" not in message
            assert again.log_length == 12 and again.state.to_json() == state
            with pytest.raises(StoreReadOnly, match="read-only"):
                Table.create(store, "obscurians", game(4)[0])
    assert file_bytes(data) == before


def test_a_read_only_disk_still_shows_moves_that_are_only_in_the_wal(tmp_path):
    data = tmp_path / "data"
    acks = killed_writer(data, seed=5, moves=10)
    assert acks == list(range(1, 11)) and (data / f"{DB_NAME}-wal").stat().st_size > 0
    before = file_bytes(data)
    with read_only_view(data) as view:
        with TableStore(view, read_only=True) as store:
            (row,) = store.tables()
            assert len(Table.open(store, row.id).actions) == 10  # every acknowledged move, read from the -wal
    assert file_bytes(data) == before


def test_a_read_only_disk_with_a_wal_but_no_shm_is_refused_plainly(tmp_path):
    # Without its -shm a WAL database cannot be read, and a read-only disk cannot get one. Reading the main file
    # alone would show a stale game as if it were current, so this is refused, with both files left as they were.
    data = tmp_path / "data"
    killed_writer(data, seed=6, moves=8)
    (data / f"{DB_NAME}-shm").unlink()
    before = file_bytes(data)
    with read_only_view(data) as view:
        for read_only in (True, False):
            with pytest.raises(StoreReadOnly) as refused:
                TableStore(view, read_only=read_only)
            assert one_line(refused.value) == (
                f"cannot read {view / DB_NAME}: its folder is read-only and its latest changes are still in "
                f"{DB_NAME}-wal; make the folder writable so they can be read")
    assert file_bytes(data) == before
    with TableStore(data) as store:  # writable again: SQLite rebuilds the -shm and every move is there
        assert len(Table.open(store, store.tables()[0].id).actions) == 8


def test_a_read_only_file_is_read_and_a_write_names_the_file(tmp_path):
    """The file itself read-only (its folder writable): really read-only for this process, root included
    (fault_helpers.read_only_file), so the store's own check meets it, not only SQLite."""
    data = tmp_path / "data"
    with TableStore(data) as store:
        table = played(store, 8, 10, title="Sunday")
        text, state = table.export(), table.state.to_json()
    path = data / DB_NAME
    with read_only_file(path):
        stored = path.read_bytes()
        with TableStore(data) as store:  # asked for read-write: opened for reading, saying why
            assert store.read_only and store.read_only_reason == f"the file {path} is read-only"
            (row,) = store.tables()
            again = Table.open(store, row.id)
            assert row.title == "Sunday" and again.export() == text and again.state.to_json() == state
            with pytest.raises(StoreReadOnly) as refused:
                again.apply(game(8)[1][10])
            assert one_line(refused.value) == f"could not save to {path}: the file {path} is read-only"
            assert again.log_length == 10 and again.state.to_json() == state
            for write in (lambda: store.rename(row.id, "Monday"), lambda: store.delete(row.id),
                          lambda: store.create("obscurians", game(9)[0].to_json())):
                with pytest.raises(StoreReadOnly, match="the file .* is read-only"):
                    write()
        assert path.read_bytes() == stored
    with TableStore(data) as store:  # writable again: nothing was lost or changed
        assert [r.title for r in store.tables()] == ["Sunday"] and Table.open(store, table.id).export() == text


def test_a_page_of_no_rows_is_empty_and_counts_stay(tmp_path):
    with TableStore(tmp_path) as store:
        ids = [played(store, seed, 3).id for seed in (21, 22, 23)]
        assert store.tables(limit=0) == [] and store.unfinished(limit=0) == []
        assert store.tables(limit=-5) == [] and store.tables(limit=0, offset=1) == []
        assert [r.id for r in store.tables(limit=1)] == [ids[-1]]
        assert [r.id for r in store.tables(limit=None)] == ids[::-1]
        assert [r.id for r in store.tables(limit=2, offset=-3)] == ids[::-1][:2]  # a negative offset is the start
        assert store.count() == 3


def test_a_damaged_page_is_one_line_naming_what_the_check_found_and_the_file_is_kept(tmp_path):
    """PRAGMA quick_check's first finding spans lines ("*** in database main ***", then the page): the error is one
    line, with what the check found, and the file is left byte for byte."""
    with TableStore(tmp_path) as store:
        for seed in range(4):
            played(store, 30 + seed, 20)
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'tables_in_progress'").fetchone()
    conn.close()
    with open(path, "r+b") as f:  # the first cell's offset in an index page, pointed past the page's end
        f.seek((root - 1) * page_size + 8)
        f.write(b"\xff\xff")
    conn = sqlite3.connect(path)
    finding = conn.execute("PRAGMA quick_check").fetchone()[0]
    conn.close()
    assert "\n" in finding  # what SQLite says spans lines
    before = path.read_bytes()
    for read_only in (False, True):
        with pytest.raises(StoreError) as damaged:
            TableStore(tmp_path, read_only=read_only)
        message = one_line(damaged.value)
        assert message.startswith(f"{path} is damaged (*** in database main *** On tree page {root} cell 0: ")
        assert message.endswith("). It was left untouched.")
    assert path.read_bytes() == before  # (SQLite may add an empty -wal and its -shm beside a file it reads)


def test_reading_creates_nothing(tmp_path):
    with TableStore(tmp_path / "none", read_only=True) as store:
        assert store.tables() == [] and store.read_only
        with pytest.raises(StoreReadOnly):
            store.create("obscurians", SETUP)
    assert not (tmp_path / "none").exists()


# -- 14: every SQLite error is one StoreError naming the cause ------------------------------------------------------

def big_log(seed: int, pairs: int) -> str:
    setup, actions = game(seed)
    entries = [("action", a.to_json()) for a in actions[:5]] + [("undo", None), ("redo", None)] * pairs
    return write_log("obscurians", setup.to_json(), entries)


def test_a_full_disk_during_a_big_import_names_the_disk_and_changes_nothing(tmp_path):
    # Bigger than SQLite's page cache (2 MB), so the disk fills while rows are inserted, not at COMMIT: SQLite then
    # cancels the transaction itself, and a second ROLLBACK used to hide the cause ("no transaction is active").
    log = read_log(big_log(7, 30000))
    with small_disk(tmp_path / "disk") as disk:
        with TableStore(disk) as store:
            table = played(store, 8, 6)
            before = snapshot(store.path)
            main_before = store.path.read_bytes()
            with pytest.raises(StoreError) as failed:
                Table.import_log(store, log, title="big")
            message = one_line(failed.value)
            assert "disk is full" in message and "rollback" not in message
            assert snapshot(store.path) == before and store.path.read_bytes() == main_before
            # The connection is not left inside a dead transaction: a small move still saves.
            table.apply(game(8)[1][6])
        with TableStore(disk) as store:
            assert [r.id for r in store.tables()] == [table.id]
            assert len(store.events(table.id)) == 7


def test_a_write_lock_held_by_another_process_is_a_busy_error_with_nothing_written(tmp_path):
    with TableStore(tmp_path, busy_timeout=0.2) as store:
        tid = store.create("obscurians", SETUP)
        with LockHolder(store.path):
            for write in (lambda: store.append(tid, 1, "undo", None, finished=False),
                          lambda: store.create("obscurians", SETUP)):
                with pytest.raises(StoreBusy) as busy:
                    write()
                assert "another program is writing" in one_line(busy.value)
                assert isinstance(busy.value, StoreError)
        assert store.events(tid) == [] and len(store.tables()) == 1
        store.append(tid, 1, "undo", None, finished=False)  # free again: the same store writes normally
        assert len(store.events(tid)) == 1


def test_an_exclusive_lock_makes_opening_busy_not_damaged(tmp_path):
    # A program holding the file in exclusive locking mode (it can get that only while nobody else has it open).
    with TableStore(tmp_path) as store:
        tid = store.create("obscurians", SETUP)
    with LockHolder(tmp_path / DB_NAME, "exclusive"):
        for read_only in (False, True):
            with pytest.raises(StoreBusy) as busy:
                TableStore(tmp_path, read_only=read_only, busy_timeout=0.2)
            assert "another program" in one_line(busy.value) and "damaged" not in str(busy.value)
    with TableStore(tmp_path) as store:
        assert store.get(tid).id == tid


# -- 15: one damaged entry hides nothing else ---------------------------------------------------------------------

def damage(db_path, table: str, column: str, where: str, corrupt) -> None:
    """Rewrite one stored text with bytes `corrupt(bytes)` (as a flipped byte on disk would leave them)."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    raw = conn.execute(f"SELECT CAST({column} AS BLOB) FROM {table} WHERE {where}").fetchone()[0]
    conn.execute(f"UPDATE {table} SET {column} = CAST(? AS TEXT) WHERE {where}", (corrupt(raw),))
    conn.close()


@pytest.mark.parametrize("table, column, corrupt, problem", [
    ("tables", "setup_json", lambda b: b[:10] + b"\xff" + b[11:], "its setup is not valid text"),
    ("tables", "setup_json", lambda b: b[:-1], "its setup is not valid JSON"),
    ("tables", "setup_json", lambda b: b"[1, 2]", "its setup is not a JSON object"),
    ("events", "payload_json", lambda b: b[:5] + b"\xc3\x28" + b[7:],
     "entry 3 is damaged (its move is not valid text)"),
    ("events", "payload_json", lambda b: b"{" + b, "entry 3 is damaged (its move is not valid JSON)"),
    ("events", "payload_json", lambda b: None, "entry 3 is damaged (its move is missing)"),  # a NULL move
])
def test_a_damaged_entry_makes_only_its_own_table_unreadable(tmp_path, table, column, corrupt, problem):
    with TableStore(tmp_path) as store:
        ids = [played(store, seed, 6).id for seed in (11, 12, 13)]
    bad = ids[1]
    where = f"id = {bad}" if table == "tables" else f"table_id = {bad} AND seq = 3"
    damage(tmp_path / DB_NAME, table, column, where, corrupt)
    with TableStore(tmp_path, read_only=True) as store:
        rows = {r.id: r for r in store.tables()}
        assert sorted(rows) == sorted(ids)  # every table is still listed
        for tid in ids:
            if tid == bad:
                with pytest.raises(StoreError) as unreadable:
                    Table.open(store, tid)
                assert f"table {bad} is unreadable" in one_line(unreadable.value)
                assert problem in str(unreadable.value)
            else:
                assert len(Table.open(store, tid).actions) == 6
        if table == "tables":
            assert rows[bad].problem and rows[bad].setup == {}


def test_a_parseable_but_wrong_setup_is_an_input_error(tmp_path):
    with TableStore(tmp_path) as store:
        tid = played(store, 14, 3).id
    damage(tmp_path / DB_NAME, "tables", "setup_json", f"id = {tid}", lambda b: b'{"players": 7}')
    with TableStore(tmp_path) as store:
        with pytest.raises(InvalidInput, match=f"table {tid} is unreadable: its setup is invalid"):
            Table.open(store, tid)


# -- 16: files the app does not recognise are never changed ---------------------------------------------------------

def test_an_empty_main_file_beside_a_wal_is_refused_and_both_files_kept(tmp_path):
    # SQLite itself deletes the -wal of an empty main file on open (even read-only): this must happen before.
    data = tmp_path / "data"
    assert killed_writer(data, seed=15, moves=10) == list(range(1, 11))
    (data / DB_NAME).write_bytes(b"")   # the main file lost, its -wal with 10 acknowledged moves still there
    before = file_bytes(data)
    assert before[f"{DB_NAME}-wal"]
    for read_only in (True, False):
        with pytest.raises(StoreError) as refused:
            TableStore(data, read_only=read_only)
        message = one_line(refused.value)
        assert "left untouched" in message and f"{DB_NAME}-wal" in message
        assert file_bytes(data) == before
    (data / DB_NAME).unlink()           # missing altogether: the same
    with pytest.raises(StoreError, match="left untouched"):
        TableStore(data)
    assert not (data / DB_NAME).exists() and (data / f"{DB_NAME}-wal").read_bytes() == before[f"{DB_NAME}-wal"]


def test_the_app_never_leaves_an_empty_main_file_beside_a_wal(tmp_path):
    # A new file gets its schema in the main file before WAL mode starts, so a crash right after creating it and
    # playing (moves only in the -wal) leaves a main file SQLite can replay the -wal onto.
    data = tmp_path / "data"
    TableStore(data).close()
    assert (data / DB_NAME).stat().st_size > 0
    acks = killed_writer(tmp_path / "fresh", seed=16, moves=10)
    main = tmp_path / "fresh" / DB_NAME
    assert main.stat().st_size > 0 and (tmp_path / "fresh" / f"{DB_NAME}-wal").stat().st_size > 0
    with TableStore(tmp_path / "fresh") as store:
        assert len(store.events(store.tables()[0].id)) == len(acks) == 10


def schema_1_without_our_tables(path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    return path.read_bytes()


def schema_1_missing_a_column(path) -> bytes:
    TableStore(path.parent).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("DROP TABLE events")
    conn.execute("CREATE TABLE events (table_id INTEGER, seq INTEGER, kind TEXT)")
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("make", [schema_1_without_our_tables, schema_1_missing_a_column])
def test_a_schema_1_file_without_our_tables_is_refused_unchanged(tmp_path, make):
    path = tmp_path / DB_NAME
    content = make(path)
    assert content[18:20] == b"\x01\x01"  # rollback-journal mode: switching to WAL would rewrite these bytes
    for read_only in (False, True):
        with pytest.raises(StoreError) as refused:
            TableStore(tmp_path, read_only=read_only)
        assert "not a complete Table Companion database" in one_line(refused.value)
        assert path.read_bytes() == content
    # Nothing new beside it either (the -verified note is from the app that made the file, before the damage).
    assert sorted(p.name for p in tmp_path.iterdir()) in ([DB_NAME], [DB_NAME, f"{DB_NAME}-verified"])


# -- 17: an import repeated after it was interrupted ----------------------------------------------------------------

def test_the_same_log_imported_twice_names_the_first_table(tmp_path):
    setup, actions = game(17)
    entries = [("action", a.to_json()) for a in actions[:20]] + [("undo", None)]
    log = read_log(write_log("obscurians", setup.to_json(), entries))
    with TableStore(tmp_path) as store:
        first = Table.import_log(store, log, title="game")
        with pytest.raises(AlreadyImported) as again:
            Table.import_log(store, log, title="other title")
        assert again.value.table_id == first.id and f"table {first.id}" in one_line(again.value)
        assert [r.id for r in store.tables()] == [first.id]
        # Not the same log: one entry more, or the same moves with another setup, is a new table.
        longer = read_log(write_log("obscurians", setup.to_json(), entries + [("redo", None)]))
        other_setup = read_log(write_log("obscurians", game(18)[0].to_json(), []))
        assert Table.import_log(store, longer).id != first.id
        assert Table.import_log(store, other_setup).id != first.id
        # The first table, played on since, is still where this log went (its hash is kept with it) ...
        first.redo()
        first.undo()
        with pytest.raises(AlreadyImported, match=f"table {first.id}"):
            Table.import_log(store, log)
        # ... copy=True makes a twin on purpose, and a deleted table no longer counts.
        twin = Table.import_log(store, log, copy=True)
        assert twin.id != first.id and twin.export() == write_log("obscurians", setup.to_json(), entries)
        store.delete(first.id)
        with pytest.raises(AlreadyImported, match=f"table {twin.id}"):
            Table.import_log(store, log)
        store.delete(twin.id)
        fresh = Table.import_log(store, log)
        assert fresh.id not in (first.id, twin.id)
        assert len(store.tables()) == 3 and len(store.tables(deleted=True)) == 2


def test_a_damaged_table_does_not_stop_an_import(tmp_path):
    setup, actions = game(19)
    log = read_log(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:4]]))
    with TableStore(tmp_path) as store:
        first = Table.import_log(store, log)
    damage(tmp_path / DB_NAME, "events", "payload_json", f"table_id = {first.id} AND seq = 2",
           lambda b: b[:3] + b"\xff" + b[4:])
    with TableStore(tmp_path) as store:
        second = Table.import_log(store, log)  # the damaged twin is not this log any more
        assert second.id != first.id and len(second.actions) == 4


# -- found by the mutation pass (bench/mutate.py): what a user would notice if one line broke --------------------------

def test_a_title_damaged_outside_the_app_is_listed_with_replacement_characters(tmp_path):
    """A title whose bytes are not UTF-8 (written by another tool, or a damaged page): the table is still listed and
    opens, the bad byte shown as U+FFFD and the rest as it was."""
    with TableStore(tmp_path) as store:
        table = played(store, 12, 6, title="Friday")
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("UPDATE tables SET title = CAST(X'467269ff646179' AS TEXT) WHERE id = ?", (table.id,))
    conn.commit()
    conn.close()
    for read_only in (False, True):
        with TableStore(tmp_path, read_only=read_only) as store:
            (row,) = store.tables()
            assert row.title == "Fri\ufffdday" and store.get(table.id).title == "Fri\ufffdday"
            assert len(Table.open(store, table.id).actions) == 6


def test_reading_a_missing_folder_creates_nothing_anywhere(tmp_path, monkeypatch):
    """Nothing is stored yet, so a reader gets an empty list; no file appears, neither where the tables would be nor
    in the folder the command was started from."""
    monkeypatch.chdir(tmp_path)
    with TableStore(tmp_path / "none", read_only=True) as store:
        assert store.tables() == [] and store.count() == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_clean_close_remembers_the_file_and_a_reader_changes_nothing(tmp_path):
    """After the app closes the file cleanly it keeps a note of it (tables.sqlite3-verified: size and time), so the
    next start need not read the whole file again; a reader (`companion tables`) writes no note and changes no file."""
    with TableStore(tmp_path) as store:
        played(store, 13, 4)
    marker = tmp_path / f"{DB_NAME}-verified"
    assert marker.exists()
    marker.unlink()
    before = file_bytes_but(tmp_path, "-wal", "-shm")
    with TableStore(tmp_path, read_only=True) as store:
        assert len(store.tables()) == 1
    after = file_bytes_but(tmp_path, "-wal", "-shm")
    assert after == before and not marker.exists()


def test_a_folder_where_the_tables_file_should_be_is_one_line_naming_it(tmp_path):
    """Something that is no file at all (a folder) stands where the tables file should be: one line naming the
    path and what SQLite said, and it is left there."""
    (tmp_path / DB_NAME).mkdir()
    with pytest.raises(StoreError) as refused:
        TableStore(tmp_path)
    assert one_line(refused.value) == f"could not open {tmp_path / DB_NAME}: unable to open database file"
    assert (tmp_path / DB_NAME).is_dir()


def test_a_read_only_wal_beside_a_writable_file_is_named_and_its_moves_are_read(tmp_path):
    """The app was killed with moves only in the -wal, and that -wal cannot be written (copied from a read-only
    medium, say): the store opens for reading, names the -wal as the reason, and shows every acknowledged move."""
    data = tmp_path / "data"
    killed_writer(data, seed=7, moves=9)
    wal = data / f"{DB_NAME}-wal"
    with read_only_file(wal):
        stored = wal.read_bytes()
        with TableStore(data) as store:
            assert store.read_only_reason == f"the file {wal} is read-only"
            (row,) = store.tables()
            assert len(Table.open(store, row.id).actions) == 9
        assert wal.read_bytes() == stored


def test_the_whole_file_is_checked_only_when_it_changed_since_the_app_closed_it(tmp_path, monkeypatch):
    """Checking every page costs about 0.4 s per 180 MB at each start: it is done after a crash, a copy or someone
    else's hands, and skipped while the file is as this app left it (SQLite's own statement trace shows which)."""
    with TableStore(tmp_path) as store:
        played(store, 14, 5)
    statements: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    for read_only in (False, True):
        statements.clear()
        with TableStore(tmp_path, read_only=read_only) as store:
            assert len(store.tables()) == 1
        assert "PRAGMA quick_check" not in statements, read_only
    outside = connect(tmp_path / DB_NAME)         # someone else's hands: the file is no longer as the app left it
    outside.execute("UPDATE tables SET title = 'Saturday'")
    outside.commit()
    outside.close()
    statements.clear()
    with TableStore(tmp_path) as store:
        assert [r.title for r in store.tables()] == ["Saturday"]
    assert "PRAGMA quick_check" in statements


def test_a_reader_beside_a_crashed_writer_leaves_its_wal_as_it_was(tmp_path):
    """`companion tables` run after the app was killed (moves only in the -wal), in a folder it could write: it shows
    every move and changes no file: the -wal is not folded into the main file nor removed, since that is the
    writer's business when it next opens."""
    data = tmp_path / "data"
    killed_writer(data, seed=8, moves=7)
    before = file_bytes_but(data, "-shm")
    assert before[f"{DB_NAME}-wal"]
    with TableStore(data, read_only=True) as store:
        (row,) = store.tables()
        assert len(Table.open(store, row.id).actions) == 7
    assert file_bytes_but(data, "-shm") == before
