"""A key written twice in one JSON object is refused by every JSON reader, with one line naming the key.

json.loads keeps the last value silently: `{"type": "exit", "door": 1, "door": 2}` replayed as Exit 2, though the
writer may have meant 1. Every reader goes through firmware_bridge/strictjson.py (the house's one JSON reader): log files (header and
entries), END.json, rules files, the preferences and devices save files, the tables database's JSON columns,
`companion session-script`'s input, and firmware_bridge's bindings and `encode` input. The Hypothesis property at
the end writes arbitrary JSON with one key doubled somewhere inside and hands it to each of them.
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import strictjson
from companion.cli import main
from companion.games.errors import InvalidInput
from companion.session import Table, TableStore, games, preferences
from companion.session.devices import DeviceService
from companion.session.logfile import read_log, write_log
from companion.session.store import DB_NAME, StoreError
from firmware_bridge.manager import BindingTable

ROOT = Path(__file__).resolve().parent.parent
EXIT_TWICE = '{"type": "exit", "door": 1, "door": 2}'


def obscurio_log(*lines: str) -> str:
    setup, _ = games.get("obscurio").random_game(4, 5)
    head = write_log("obscurio", setup.to_json(), [])
    return head + "".join(line + "\n" for line in lines)


def run(*argv: str, stdin: str | None = None, module: str = "companion") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def one_line_naming(result: subprocess.CompletedProcess, key: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert f"the key '{key}' appears twice in one object" in result.stderr, result.stderr
    return result.stderr


# -- the example of the issue, through the command line ------------------------------------------------------------

def test_an_exit_naming_its_door_twice_is_refused_not_replayed_as_exit_2(tmp_path):
    path = tmp_path / "night.jsonl"
    path.write_text(obscurio_log('{"action": ' + EXIT_TWICE + "}"))
    said = one_line_naming(run("replay", str(path)), "door")
    assert said.startswith(f"companion replay: {path}: line 2: ")
    one_line_naming(run("--data-dir", str(tmp_path / "db"), "import", str(path)), "door")
    assert not (tmp_path / "db" / DB_NAME).exists() or run("--data-dir", str(tmp_path / "db"), "tables").stdout \
        .startswith("no tables")


def test_a_header_an_end_json_and_a_rules_file_with_a_key_twice(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"format": 1, "game": "obscurians", "game": "obscurio", "setup": {}}\n')
    assert "line 1: " in one_line_naming(run("replay", str(log)), "game")
    end = json.loads((ROOT / "examples" / "end-obscurians-4p.json").read_text())
    text = json.dumps(end)
    end_path = tmp_path / "END.json"
    end_path.write_text(text.replace('"players": [', '"players": [], "players": [', 1))
    one_line_naming(run("score", "obscurians", str(end_path)), "players")
    rules = tmp_path / "house.json"
    rules.write_text('{"take_cap": false, "take_cap": true}')
    one_line_naming(run("rules", "obscurians", "--rules", str(rules)), "take_cap")
    one_line_naming(run("score", "obscurians", str(ROOT / "examples" / "end-obscurians-4p.json"), "--rules",
                        str(rules)), "take_cap")


def test_session_script_and_the_firmware_bridge_refuse_a_key_twice(tmp_path):
    with TableStore(tmp_path) as store:
        setup, _ = games.get("obscurio").random_game(4, 5)
        tid = Table.create(store, "obscurio", setup).id
    said = one_line_naming(run("--data-dir", str(tmp_path), "session-script", "--table", str(tid),
                               stdin=EXIT_TWICE + "\n"), "door")
    assert "stdin line 1" in said
    encoded = run("encode", stdin='{"type": "button", "button": 1, "button": 2}\n', module="firmware_bridge")
    assert encoded.returncode == 2 and "the key 'button' appears twice" in encoded.stderr
    assert "Traceback" not in encoded.stderr and encoded.stdout == ""
    with pytest.raises(ValueError, match="the key 'die' appears twice"):
        BindingTable.loads('{"version": 1, "bindings": [{"die": "A", "die": "B", "role": "henchmen"}]}')


def test_save_files_with_a_key_twice_are_not_read_by_their_last_value(tmp_path, caplog):
    (tmp_path / preferences.FILE_NAME).write_text('{"lang": "de", "lang": "es", "sound_on": false}')
    with caplog.at_level(logging.WARNING):
        prefs = preferences.load(tmp_path)
    assert prefs == preferences.Preferences()  # the defaults, not Spanish: which language was meant is unknown
    assert "the key 'lang' appears twice" in caplog.text
    (tmp_path / "devices.json").write_text('{"devices": [], "devices": [{"url": "sim://godice/1"}]}')
    service = DeviceService(tmp_path)
    assert service.devices == [] and "the key 'devices' appears twice" in service.problem


def test_a_stored_move_with_a_key_twice_names_its_table_entry_and_key(tmp_path):
    with TableStore(tmp_path) as store:
        setup, actions = games.get("obscurio").random_game(4, 5)
        table = Table.create(store, "obscurio", setup)
        for action in actions[:3]:
            table.apply(action)
    conn = sqlite3.connect(tmp_path / DB_NAME)
    payload = conn.execute("SELECT payload_json FROM events WHERE seq = 2").fetchone()[0]
    first_key = next(iter(json.loads(payload)))
    doubled = "{" + json.dumps(first_key) + ": 0, " + payload[1:]
    with conn:
        conn.execute("UPDATE events SET payload_json = ? WHERE seq = 2", (doubled,))
    conn.close()
    with TableStore(tmp_path) as store, pytest.raises(StoreError) as info:
        Table.open(store, table.id)
    assert str(info.value) == (f"table {table.id} is unreadable: entry 2 is damaged (its move cannot be read: "
                               f"the key {first_key!r} appears twice in one object)")


# -- every reader, over arbitrary JSON -----------------------------------------------------------------------------

KEYS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
SCALARS = st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=8)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
                      max_leaves=12)


@st.composite
def doubled(draw) -> tuple[str, str]:
    """(JSON text holding one object with the same key twice, that key), the object anywhere in a random value."""
    value = draw(VALUES)
    key, other = draw(KEYS), draw(SCALARS)
    text_of = lambda v: json.dumps(v, ensure_ascii=draw(st.booleans()))  # noqa: E731
    obj = draw(st.dictionaries(KEYS, VALUES, max_size=3)) | {key: draw(VALUES)}
    items = [json.dumps(k) + ": " + text_of(v) for k, v in obj.items()]
    items.insert(draw(st.integers(0, len(items))), json.dumps(key) + ": " + text_of(other))
    inner = "{" + ", ".join(items) + "}"
    # Wrap it somewhere inside another value, or at the top.
    depth = draw(st.integers(0, 3))
    for _ in range(depth):
        if draw(st.booleans()):
            inner = "[" + text_of(value) + ", " + inner + "]"
        else:
            inner = "{" + json.dumps(draw(KEYS)) + ": " + inner + "}"
    return inner, key


def _log_line(text: str) -> None:
    read_log(obscurio_log(text))


def _log_header(text: str) -> None:
    read_log(text.replace("\n", " ") + "\n")


def _cli_file(tmp: Path, *argv: str):
    def read(text: str) -> None:
        (tmp / "in.json").write_text(text, encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main([a.replace("IN", str(tmp / "in.json")) for a in argv])
        assert code == 2
        raise InvalidInput(err.getvalue())
    return read


def _preferences(tmp: Path):
    def read(text: str) -> None:
        (tmp / preferences.FILE_NAME).write_text(text, encoding="utf-8")
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        logging.getLogger(preferences.__name__).addHandler(handler)
        try:
            assert preferences.load(tmp) == preferences.Preferences()
        finally:
            logging.getLogger(preferences.__name__).removeHandler(handler)
        raise InvalidInput(" ".join(r.getMessage() for r in records))
    return read


def _devices(tmp: Path):
    def read(text: str) -> None:
        (tmp / "devices.json").write_text(text, encoding="utf-8")
        raise InvalidInput(DeviceService(tmp).problem or "read")
    return read


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=doubled())
def test_every_json_reader_refuses_a_key_written_twice_naming_it(case, tmp_path_factory):
    text, key = case
    tmp = tmp_path_factory.mktemp("dup")
    readers = {
        "strictjson": strictjson.loads,
        "log entry": _log_line,
        "log header": _log_header,
        "END.json": _cli_file(tmp, "score", "obscurians", "IN"),
        "rules file": _cli_file(tmp, "rules", "obscurians", "--rules", "IN"),
        "preferences": _preferences(tmp),
        "devices.json": _devices(tmp),
        "bindings": BindingTable.loads,
    }
    named = strictjson.key_shown(key)
    for name, read in readers.items():
        with pytest.raises(ValueError) as info:
            read(text)
        message = str(info.value)
        assert f"the key {named} appears twice in one object" in message, (name, message)
        assert "\n" not in message.strip(), (name, message)
    json.loads(text)  # which the standard reader reads silently, the last value winning


@settings(max_examples=60, deadline=None)
@given(value=VALUES)
def test_json_without_a_key_twice_reads_as_json_loads_reads_it(value):
    text = json.dumps(value)
    assert strictjson.loads(text) == json.loads(text)
    assert strictjson.loads(text.encode("utf-8")) == json.loads(text)
