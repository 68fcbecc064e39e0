"""The group's settings beside the tables (companion/session/preferences.py): remembered across starts, and a file
that cannot be read never stops the app (the defaults apply, the next change writes a good file)."""
from __future__ import annotations

import os

from hypothesis import given, settings, strategies as st

from companion.session import preferences
from companion.session.preferences import Preferences


def test_a_change_is_there_at_the_next_start(tmp_path):
    assert preferences.load(tmp_path) == Preferences(lang=None, sound_on=True)  # nothing saved yet
    preferences.changed(tmp_path, lang="de")
    preferences.changed(tmp_path, sound_on=False)
    assert preferences.load(tmp_path) == Preferences(lang="de", sound_on=False)
    assert not (tmp_path / "preferences.json.part").exists()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode)
       | st.sampled_from([b"[" * 100_000, b'{"lang": "de", "lang": 1}', b'{"lang": 7, "sound_on": "no"}',
                          b'{"lang": "' + b"x" * 5000 + b'"}', b"\xef\xbb\xbf{\"lang\": \"es\"}", b"1" * 6000]))
def test_any_file_reads_as_settings_or_the_defaults(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("prefs")
    (folder / "preferences.json").write_bytes(data)
    prefs = preferences.load(folder)
    assert prefs.lang is None or (isinstance(prefs.lang, str) and len(prefs.lang) <= 16)
    assert isinstance(prefs.sound_on, bool)
    assert isinstance(prefs.seats, dict) and all(isinstance(v, dict) for v in prefs.seats.values())


def test_a_disk_that_refuses_leaves_the_settings_for_this_run_only(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    preferences.changed(folder, lang="es")
    os.chmod(folder, 0o500)
    try:
        if os.access(folder, os.W_OK):  # root writes anyway: make the file's name a folder instead
            os.chmod(folder, 0o700)
            (folder / "preferences.json.part").mkdir()
        assert preferences.save(folder, Preferences(lang="de")) is False
        assert preferences.load(folder).lang == "es"  # the previous settings, whole
    finally:
        os.chmod(folder, 0o700)


def test_seats_are_kept_per_table_beside_the_language(tmp_path):
    preferences.changed(tmp_path, lang="de")
    preferences.keep_seats(tmp_path, 3, {"blue": "left", "green": "far"})
    preferences.keep_seats(tmp_path, 4, {"red": "right"})
    preferences.keep_seats(tmp_path, 3, {"blue": "near", "green": "far"})
    assert preferences.table_seats(tmp_path, 3) == {"blue": "near", "green": "far"}
    assert preferences.table_seats(tmp_path, 4) == {"red": "right"}
    assert preferences.table_seats(tmp_path, 5) == {}
    assert preferences.load(tmp_path).lang == "de"          # the other settings untouched


def test_seats_of_many_tables_keep_only_the_newest(tmp_path):
    for table in range(preferences.MAX_SEATED_TABLES + 5):
        preferences.keep_seats(tmp_path, table, {"blue": "far"})
    kept = preferences.load(tmp_path).seats
    assert len(kept) == preferences.MAX_SEATED_TABLES and "0" not in kept and str(table) in kept
