"""`companion tables/export/import/replay` as real subprocesses: output, exit codes, no tracebacks, no Kivy."""
import json
import os
import subprocess
import sys

import pytest

from companion.session import Table, TableStore
from companion.session.logfile import write_log
from cli_helpers import ROOT, companion
from session_helpers import game


def no_traceback(result, code):
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def half_played(tmp_path):
    setup, actions = game(21)
    with TableStore(tmp_path / "a") as store:
        table = Table.create(store, "obscurians", setup, title="Friday")
        for a in actions[:40]:
            table.apply(a)
        table.undo()
        return table.id, table.state.to_json(), table.export()


def test_export_import_resumes_on_another_tablet(tmp_path, half_played):
    tid, state_json, text = half_played
    exported = companion("export", str(tid), data_dir=tmp_path / "a")
    no_traceback(exported, 0)
    assert exported.stdout == text
    path = tmp_path / "game.jsonl"
    path.write_text(exported.stdout)
    imported = companion("import", str(path), data_dir=tmp_path / "b")
    no_traceback(imported, 0)
    with TableStore(tmp_path / "b") as store:
        (row,) = store.unfinished()
        table = Table.open(store, row.id)
        assert table.state.to_json() == state_json and table.can_redo and row.title == "game"
        assert table.export() == text
    listing = companion("tables", data_dir=tmp_path / "b")
    no_traceback(listing, 0)
    assert "obscurians" in listing.stdout and "round" in listing.stdout


def test_replay_json_is_exactly_game_state_outcome(tmp_path):
    setup, actions = game(22)
    path = tmp_path / "done.jsonl"
    path.write_text(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions]))
    result = companion("replay", str(path), "--json", data_dir=tmp_path)
    no_traceback(result, 0)
    out = json.loads(result.stdout)
    assert set(out) == {"game", "state", "outcome"} and out["game"] == "obscurians"
    assert out["outcome"]["winners"] and out["state"]["phase"] == "over"
    text = companion("replay", str(path), data_dir=tmp_path)
    no_traceback(text, 0)
    assert "final scoring" in text.stdout and "Winner" in text.stdout
    for p in out["outcome"]["players"]:  # the same itemised lines as `companion score`, each with its points
        assert f"{p['name']} ({p['color']})" in text.stdout
        assert all(line["rule"] in text.stdout for line in p["lines"])

    path.write_text(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:5]]))
    unfinished = json.loads(companion("replay", str(path), "--json", data_dir=tmp_path).stdout)
    assert unfinished["outcome"] is None


def test_errors_are_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": 1, "game": "chess", "setup": {}}\n')
    for args in (["replay", str(bad)], ["import", str(bad)], ["replay", str(tmp_path / "missing.jsonl")],
                 ["export", "42"]):
        result = companion(*args, data_dir=tmp_path / "db")
        no_traceback(result, 2)
        assert result.stderr.strip() and result.stdout == ""
    assert "line 1: unknown game 'chess'" in companion("replay", str(bad), data_dir=tmp_path).stderr


def test_a_corrupt_database_is_reported_and_kept(tmp_path):
    (tmp_path / "tables.sqlite3").write_bytes(b"garbage " * 1000)
    result = companion("tables", data_dir=tmp_path)
    no_traceback(result, 2)
    assert "left untouched" in result.stderr
    assert (tmp_path / "tables.sqlite3").read_bytes() == b"garbage " * 1000


def test_cli_commands_never_import_kivy(tmp_path):
    code = ("import sys; from companion.cli import main; rc = main(['--data-dir', sys.argv[1], 'tables']); "
            "assert 'kivy' not in sys.modules, 'kivy imported'; raise SystemExit(rc)")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    no_traceback(result, 0)
    assert "no tables yet" in result.stdout


def test_session_script_is_hidden_from_help(tmp_path):
    result = companion("--help", data_dir=tmp_path)
    assert "session-script" not in result.stdout and "replay" in result.stdout


def test_a_binary_file_is_an_input_error(tmp_path):
    path = tmp_path / "photo.jsonl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    result = companion("replay", str(path), data_dir=tmp_path)
    no_traceback(result, 2)
    assert "not a text file" in result.stderr


def test_the_app_with_a_corrupt_database_says_so_before_any_window(tmp_path):
    (tmp_path / "tables.sqlite3").write_bytes(b"garbage " * 1000)
    result = companion(data_dir=tmp_path)
    no_traceback(result, 2)
    assert "left untouched" in result.stderr


# -- faults: every one is a single line and exit 2, or a normal answer; the data is never changed ------------------

import contextlib  # noqa: E402
import io  # noqa: E402
import shutil  # noqa: E402
import sqlite3  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from companion.session.store import DB_NAME, StoreError  # noqa: E402
from fault_helpers import (CLI_PACKAGES, LockHolder, companion_as_user, file_bytes, give_to_user,  # noqa: E402
                           killed_writer, small_disk, snapshot, user_folder)


def one_error_line(result):
    no_traceback(result, 2)
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def make_tables(data_dir, seeds=(41, 42, 43), moves=8):
    with TableStore(data_dir) as store:
        tables = []
        for seed in seeds:
            setup, actions = game(seed)
            table = Table.create(store, "obscurians", setup, title=f"seed {seed}")
            for a in actions[:moves]:
                table.apply(a)
            tables.append(table)
        return [(t.id, t.export()) for t in tables]


def log_file(path, seed=44, moves=10):
    setup, actions = game(seed)
    path.write_text(write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:moves]]))
    return path


def test_an_id_too_large_for_sqlite_is_no_table(tmp_path):
    make_tables(tmp_path, seeds=(45,))
    result = companion("export", "99999999999999999999999", data_dir=tmp_path)
    assert "there is no table 99999999999999999999999" in one_error_line(result)


def test_a_file_name_that_is_not_utf8_still_imports_with_a_readable_title(tmp_path):
    path = log_file(tmp_path / "game.jsonl")
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/Fr\xffday.jsonl")  # how such a name arrives in argv
    os.rename(path, odd)
    result = companion("import", odd, data_dir=tmp_path / "db")
    no_traceback(result, 0)
    assert "Fr\ufffdday.jsonl as table 1" in result.stdout
    with TableStore(tmp_path / "db") as store:
        assert [r.title for r in store.tables()] == ["Fr\ufffdday"]


def test_a_title_that_is_not_utf8_is_refused_and_nothing_imported(tmp_path):
    path = log_file(tmp_path / "game.jsonl")
    result = companion("import", str(path), "--title", os.fsdecode(b"Fr\xffday"), data_dir=tmp_path / "db")
    assert "--title is not valid text" in one_error_line(result)
    assert "no tables yet" in companion("tables", data_dir=tmp_path / "db").stdout


def test_importing_the_same_log_twice_makes_one_table(tmp_path):
    # As after an import killed between its commit and its message: running it again must not make a twin.
    path = log_file(tmp_path / "game.jsonl")
    first = companion("import", str(path), data_dir=tmp_path / "db")
    no_traceback(first, 0)
    assert "as table 1" in first.stdout
    again = companion("import", str(path), data_dir=tmp_path / "db")
    no_traceback(again, 0)
    assert "is already table 1" in again.stdout and "nothing was imported" in again.stdout
    with TableStore(tmp_path / "db") as store:
        assert [r.id for r in store.tables()] == [1]
    copy = companion("import", str(path), "--copy", data_dir=tmp_path / "db")
    no_traceback(copy, 0)
    assert "as table 2" in copy.stdout


def test_the_copy_the_other_account_runs_holds_what_the_command_line_imports(tmp_path):
    """The read-only tests run the CLI as another account from a copy of CLI_PACKAGES (the clone may be where that
    account cannot enter): whatever `tables`, `export` and `import` import besides the standard library is in it."""
    data = tmp_path / "data"
    make_tables(data, seeds=(45,))
    path = log_file(tmp_path / "game.jsonl")
    code = ("import sys; from companion.cli import main; d = sys.argv[1]; "
            "[main(['--data-dir', d, *a]) for a in (['tables'], ['export', '1'], ['import', sys.argv[2]])]; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules if not m.startswith('_')})))")
    run = subprocess.run([sys.executable, "-c", code, str(data), str(path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    imported = set(run.stdout.splitlines()[-1].split()) - set(sys.stdlib_module_names)
    assert imported and imported <= set(CLI_PACKAGES), imported


def test_a_read_only_folder_is_listed_and_exported_and_a_write_says_read_only():
    with user_folder() as folder:
        data = folder / "data"
        exports = make_tables(data)
        path = log_file(folder / "game.jsonl")
        give_to_user(folder)
        data.chmod(0o555)
        before = file_bytes(data)
        listing = companion_as_user("tables", data_dir=data)
        no_traceback(listing, 0)
        assert all(" round " in table_lines(listing.stdout)[tid] for tid, _ in exports)
        for tid, text in exports:
            exported = companion_as_user("export", str(tid), data_dir=data)
            no_traceback(exported, 0)
            assert exported.stdout == text
        message = one_error_line(companion_as_user("import", str(path), data_dir=data))
        assert f"the folder {data} is read-only" in message
        assert "damaged" not in message and "move it aside" not in message
        assert file_bytes(data) == before


def test_a_read_only_file_is_listed_and_exported_and_a_write_says_read_only():
    with user_folder() as folder:
        data = folder / "data"
        exports = make_tables(data)
        path = log_file(folder / "game.jsonl")
        give_to_user(folder)
        (data / DB_NAME).chmod(0o444)
        before, stored = (data / DB_NAME).read_bytes(), snapshot(data / DB_NAME)
        listing = companion_as_user("tables", data_dir=data)
        no_traceback(listing, 0)
        assert sum(" round " in line for line in table_lines(listing.stdout).values()) == len(exports)
        exported = companion_as_user("export", str(exports[0][0]), data_dir=data)
        no_traceback(exported, 0)
        assert exported.stdout == exports[0][1]
        message = one_error_line(companion_as_user("import", str(path), data_dir=data))
        assert "is read-only" in message and "damaged" not in message
        assert (data / DB_NAME).read_bytes() == before and snapshot(data / DB_NAME) == stored
        # SQLite may keep its own -wal/-shm beside a file it reads; they hold nothing.
        assert {p.name for p in data.iterdir()} <= {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-verified"}
        assert not (data / f"{DB_NAME}-wal").exists() or (data / f"{DB_NAME}-wal").stat().st_size == 0


def test_a_full_disk_import_says_disk_full_and_keeps_the_database(tmp_path):
    setup, actions = game(46)
    big = tmp_path / "big.jsonl"
    big.write_text(write_log("obscurians", setup.to_json(),
                             [("action", a.to_json()) for a in actions[:5]] + [("undo", None), ("redo", None)] * 30000))
    with small_disk(tmp_path / "disk") as disk:
        exports = make_tables(disk, seeds=(47,))
        before = snapshot(disk / DB_NAME)
        message = one_error_line(companion("import", str(big), data_dir=disk))
        assert "the disk is full" in message and "rollback" not in message
        assert snapshot(disk / DB_NAME) == before
        assert "no tables yet" not in companion("tables", data_dir=disk).stdout
        assert companion("export", str(exports[0][0]), data_dir=disk).stdout == exports[0][1]


def test_import_waits_for_another_program_to_finish_writing(tmp_path):
    import threading
    import time

    path = log_file(tmp_path / "game.jsonl")
    make_tables(tmp_path / "db", seeds=(48,))
    with LockHolder(tmp_path / "db" / DB_NAME) as holder:
        threading.Thread(target=lambda: (time.sleep(1.5), holder.release())).start()
        result = companion("import", str(path), data_dir=tmp_path / "db")
    no_traceback(result, 0)
    assert "as table 2" in result.stdout


def test_an_empty_database_beside_a_wal_is_refused_and_both_files_kept(tmp_path):
    data = tmp_path / "data"
    killed_writer(data, seed=49, moves=10)
    (data / DB_NAME).write_bytes(b"")
    before = file_bytes(data)
    for args in (["tables"], ["export", "1"], ["import", str(log_file(tmp_path / "game.jsonl"))]):
        message = one_error_line(companion(*args, data_dir=data))
        assert "left untouched" in message and "-wal" in message
        assert file_bytes(data) == before


def test_a_schema_1_file_without_our_tables_is_refused_unchanged(tmp_path):
    path = log_file(tmp_path / "game.jsonl")
    data = tmp_path / "data"
    data.mkdir()
    conn = sqlite3.connect(data / DB_NAME)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    before = file_bytes(data)
    for args in (["tables"], ["export", "1"], ["import", str(path)]):
        assert "not a complete Table Companion database" in one_error_line(companion(*args, data_dir=data))
    assert file_bytes(data) == before


def flip(db_path, needle: bytes, index: int, mask: int) -> None:
    data = bytearray(db_path.read_bytes())
    at = data.find(needle)
    assert at >= 0
    data[at + index] ^= mask
    db_path.write_bytes(bytes(data))


def test_a_damaged_entry_is_listed_as_unreadable_and_hides_nothing(tmp_path):
    exports = make_tables(tmp_path)
    bad = exports[1][0]
    with TableStore(tmp_path) as store:
        needle = json.dumps(store.get(bad).setup, sort_keys=True).encode()
    flip(tmp_path / DB_NAME, needle, 5, 0x80)  # a byte of the setup becomes invalid UTF-8
    listing = companion("tables", data_dir=tmp_path)
    no_traceback(listing, 0)
    lines = {str(tid): line for tid, line in table_lines(listing.stdout).items()}
    assert sorted(lines) == sorted(str(tid) for tid, _ in exports)
    assert "unreadable: its setup is not valid text" in lines[str(bad)]
    assert all(" round " in lines[str(tid)] for tid, _ in exports if tid != bad)
    assert f"table {bad} is unreadable" in one_error_line(companion("export", str(bad), data_dir=tmp_path))
    assert companion("export", str(exports[0][0]), data_dir=tmp_path).stdout == exports[0][1]


@pytest.fixture(scope="module")
def three_tables(tmp_path_factory):
    """A database of three tables with everything in the main file, the texts stored in it, and its listing."""
    folder = tmp_path_factory.mktemp("three")
    make_tables(folder, seeds=(51, 52, 53), moves=12)
    db = folder / DB_NAME
    assert not (folder / f"{DB_NAME}-wal").exists()  # closed cleanly: every entry is in the main file
    data = db.read_bytes()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    texts = [r[0] for r in conn.execute("SELECT CAST(setup_json AS BLOB) FROM tables")]
    texts += [r[0] for r in conn.execute("SELECT DISTINCT CAST(payload_json AS BLOB) FROM events "
                                         "WHERE payload_json IS NOT NULL")]
    conn.close()
    spans = [(at, len(t)) for t in texts for at in _occurrences(data, t)]
    assert spans
    return db, spans, run_tables(folder)


def _occurrences(data: bytes, needle: bytes):
    at = data.find(needle)
    while at >= 0:
        yield at
        at = data.find(needle, at + 1)


def run_tables(folder):
    """`companion tables` in this process (fast enough for Hypothesis): (exit code, {id: line}, stderr)."""
    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--data-dir", str(folder), "tables"])
    return code, table_lines(out.getvalue()), err.getvalue()


def table_lines(listing: str) -> dict[int, str]:
    """{table id: its line} of `companion tables` output (headings and "more" lines skipped)."""
    return {int(line.split()[0]): line for line in listing.splitlines() if line.split() and line.split()[0].isdigit()}


def _rows_by_table(db):
    tables, events = snapshot(db)
    rows = {t[0]: [t] for t in tables}
    for e in events:
        rows[e[0]].append(e)
    return rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_byte_flipped_in_a_stored_entry_hides_no_other_table(three_tables, data):
    db, spans, (code, listing, _) = three_tables
    at, length = data.draw(st.sampled_from(spans), label="stored text")
    index = data.draw(st.integers(0, length - 1), label="byte")
    mask = data.draw(st.integers(1, 255), label="xor")
    folder = Path(tempfile.mkdtemp(prefix="flip-"))
    try:
        copy = folder / DB_NAME
        shutil.copy(db, copy)
        raw = bytearray(copy.read_bytes())
        raw[at + index] ^= mask
        copy.write_bytes(bytes(raw))
        damaged = {tid for tid, rows in _rows_by_table(copy).items() if rows != _rows_by_table(db)[tid]}
        assert len(damaged) <= 1
        code_after, listing_after, err = run_tables(folder)
        assert code_after == 0, err
        assert sorted(listing_after) == sorted(listing)  # every table is still listed ...
        for tid, line in listing.items():
            if tid not in damaged:
                assert listing_after[tid] == line  # ... and the undamaged ones exactly as before
        with TableStore(folder, read_only=True) as store:
            for tid in damaged:
                try:
                    Table.open(store, tid)
                except (StoreError, ValueError) as err:  # StoreError or InvalidInput, one line
                    assert "\n" not in str(err) and f"table {tid}" in str(err)
    finally:
        shutil.rmtree(folder)


def test_a_file_this_account_cannot_read_is_one_line_not_damaged():
    with user_folder() as folder:
        data = folder / "data"
        make_tables(data, seeds=(54,))
        give_to_user(folder)
        (data / DB_NAME).chmod(0o000)
        for args in (["tables"], ["export", "1"]):
            message = one_error_line(companion_as_user(*args, data_dir=data))
            assert "not allowed to read it" in message and "damaged" not in message
