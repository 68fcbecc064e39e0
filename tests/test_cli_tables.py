"""`companion tables/export/import/replay` as real subprocesses: output, exit codes, no tracebacks, no Kivy."""
import json
import os
import subprocess
import sys

import pytest

from companion.session import Table, TableStore
from companion.session.logfile import write_log
from session_helpers import game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def companion(*args, data_dir, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data_dir), *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )


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
