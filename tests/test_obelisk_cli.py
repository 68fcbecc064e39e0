"""`companion obelisk path MAP` and `companion obelisk advise NIGHT.json` as a user runs them: the exact JSON the
issue asks for, sentences without --json, and hostile input (deep nesting, huge numbers, odd Unicode, duplicate
keys, any bytes) refused with one line on stderr and exit 2, never a traceback."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_hostile_input import DEEP, _json_values, _mutated, companion, refused, run_in_process

EXAMPLE = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS"
NIGHT = {"map": EXAMPLE,
         "obelisks": [{"corner": [1, 2], "colour": "green", "strength": 5},
                      {"corner": [3, 4], "colour": "blue", "strength": 3}],
         "demons": [{"colour": "yellow", "at": [2, 2], "visited": [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]]}],
         "spawns": ["green", "blue", "blue"], "scrolls": False}


def out(result) -> str:
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    return result.stdout.decode("utf-8")


# ----------------------------------------------------------------- path

def test_path_of_the_issues_example_map(tmp_path):
    route = json.loads(out(companion("obelisk", "path", EXAMPLE, "--json", data_dir=tmp_path)))
    assert route == {"path": [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 3], [3, 3], [3, 4], [4, 4]],
                     "end": "off-map"}


@pytest.mark.parametrize("text, expected", [
    ("PE GS GE GE GS / GN GW FE FE FS / GS FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
     {"path": [[0, 0], [0, 1], [1, 1], [1, 0]], "end": "loop", "loop_at": [0, 0]}),
    ("PS GE GE GE GS / GE GE FE FE FS / -- FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
     {"path": [[0, 0], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [2, 4], [3, 4], [4, 4]], "end": "off-map"}),
    ("PS GE GE GE GS / GS GE FE FE FS / -- FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
     {"path": [[0, 0], [1, 0]], "end": "empty"}),
    ("PE MS GE GE GS / GS GE FE FE FS / GE FE GE FE FS / FS FE FE GE GS / GE GE GE GE GS",
     {"path": [[0, 0]], "end": "mountain"}),
])
def test_path_ends_and_the_loop_tile(tmp_path, text, expected):
    assert json.loads(out(companion("obelisk", "path", text, "--json", data_dir=tmp_path))) == expected


def test_path_in_words_and_from_a_file(tmp_path):
    text = out(companion("obelisk", "path", EXAMPLE, data_dir=tmp_path))
    assert text == ("A new demon walks 8 tiles from the Portal at A1: A1 → B1 → C1 → C2 → C3 → D3 → D4 → E4 → E5; "
                    "then it would walk off the map from E5.\n")
    saved = tmp_path / "map.txt"
    saved.write_text(EXAMPLE + "\n", encoding="utf-8")
    assert json.loads(out(companion("obelisk", "path", str(saved), "--json", data_dir=tmp_path)))["end"] == "off-map"


@pytest.mark.parametrize("text, words", [
    ("PE GE", "map: expected 5 rows"),
    ("GE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "exactly one Portal"),
    ("PE GE FS CW G\u200bN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS", "row 1, cell 5"),
    ("", "map: expected 5 rows"),
])
def test_a_bad_map_is_one_line(tmp_path, text, words):
    refused(companion("obelisk", "path", text, "--json", data_dir=tmp_path), "companion obelisk: ", words)


# ----------------------------------------------------------------- advise

def write(tmp_path, data, name="night.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_advise_prints_exactly_the_issues_json(tmp_path):
    answer = json.loads(out(companion("obelisk", "advise", write(tmp_path, NIGHT), "--json", data_dir=tmp_path)))
    assert list(answer) == ["safe", "best_captured_strength", "plan", "lost"]
    assert answer == {"safe": True, "best_captured_strength": 8, "lost": [],
                      "plan": [{"obelisk": 1, "demon": "demons[0]", "step": 3},
                               {"obelisk": 0, "demon": "spawns[1]", "step": 1}]}
    words = out(companion("obelisk", "advise", write(tmp_path, NIGHT), data_dir=tmp_path)).splitlines()
    assert words == ["The yellow demon can be captured on E4 after its third step, by the blue Obelisk on corner E4",
                     "The blue demon can be captured on B1 after its first step, by the green Obelisk on corner C2",
                     "Every demon can be stopped tonight; this plan captures strength 8 in all"]


def test_advise_with_the_groups_rules_profile(tmp_path):
    rules = write(tmp_path, {"demons": {"blue": {"strength": 6}}}, "rules.json")
    answer = json.loads(out(companion("obelisk", "advise", write(tmp_path, NIGHT), "--json", "--rules", rules,
                                      data_dir=tmp_path)))
    # Blues of strength 6 are out of the green Obelisk's reach (5 on Grass): it takes a green instead.
    assert answer["best_captured_strength"] == 4 and answer["safe"]


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(map="nope"), "night.json: map: expected 5 rows"),
    (lambda d: d["obelisks"][0].update(corner=[0, 9]), "obelisks[0].corner[1]"),
    (lambda d: d["obelisks"][1].update(corner=[1, 2]), "obelisks[1].corner: corner [1, 2] already has"),
    (lambda d: d["obelisks"][0].update(strength=7), "obelisks[0].strength"),
    (lambda d: d["obelisks"][0].update(strength=True), "obelisks[0].strength"),
    (lambda d: d["demons"][0].update(visited=[[0, 0], [0, 2], [2, 2]]), "demons[0].visited[1]: [0, 2] is not next"),
    (lambda d: d["demons"][0].update(visited=[[0, 1], [0, 2]], at=[0, 2]), "starts on the Portal"),
    (lambda d: d["demons"][0].update(at=[3, 3]), "ends where the demon is"),
    (lambda d: d.update(spawns=["green"] * 7), "spawns: at most 6"),
    (lambda d: d.update(spawns=["red"]), "spawns[0]: 'red' is not a demon colour"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d.pop("spawns"), "spawns: missing"),
    (lambda d: d["obelisks"][0].update(scroll="longbow", aim="NE"), "a rune needs \"scrolls\": true"),
    (lambda d: d.update(demons=[{"colour": "blue", "at": [0, 0], "visited": [[0, 0]]}] * 19),
     "the box has 18 blue demons"),
])
def test_a_bad_night_names_the_field(tmp_path, change, words):
    d = json.loads(json.dumps(NIGHT))
    change(d)
    refused(companion("obelisk", "advise", write(tmp_path, d), "--json", data_dir=tmp_path), words)


@pytest.mark.parametrize("text, words", [
    (DEEP, "nested too deeply"),
    (json.dumps(NIGHT).replace('"strength": 5', '"strength": ' + "9" * 5000), "5000 digits is too large"),
    (json.dumps(NIGHT).replace('"strength": 5', '"strength": 1e999'), "too large"),
    (json.dumps(NIGHT).replace('"strength": 5', '"strength": NaN'), "NaN is not a number"),
    ('{"map": "a", "map": "b", "obelisks": [], "demons": [], "spawns": []}', "the key 'map' appears twice"),
    (json.dumps(NIGHT).replace('"colour": "green"', '"colour": "gr\\u00e9en"'), "'gr\\xe9en' is not an Obelisk colour"),
    (json.dumps(NIGHT).replace('"spawns"', '"sp\\ud800awns"'), "unknown field"),
    (json.dumps(NIGHT)[:-5], "not valid JSON"),
    ("", "not valid JSON"),
])
def test_hostile_files_are_one_line(tmp_path, text, words):
    result = companion("obelisk", "advise", write(tmp_path, text), "--json", data_dir=tmp_path)
    err = refused(result, words)
    assert "Traceback" not in err


def test_a_missing_or_binary_file(tmp_path):
    refused(companion("obelisk", "advise", str(tmp_path / "none.json"), data_dir=tmp_path), "cannot read the file")
    binary = tmp_path / "night.json"
    binary.write_bytes(b"\xff\xfe\x00junk")
    refused(companion("obelisk", "advise", str(binary), data_dir=tmp_path), "not UTF-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300) | _json_values().map(lambda v: json.dumps(v).encode()) | _mutated(NIGHT))
def test_advise_fed_anything_exits_0_or_2(tmp_path, data):
    path = tmp_path / "night.json"
    path.write_bytes(data)
    code, err = run_in_process(["--data-dir", str(tmp_path), "obelisk", "advise", str(path), "--json"])
    assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=100) | st.sampled_from([EXAMPLE, EXAMPLE.lower(), EXAMPLE.replace("/", "//")]))
def test_path_fed_any_text_exits_0_or_2(tmp_path, text):
    if text.startswith("-"):
        text = " " + text  # argparse would read it as an option
    code, err = run_in_process(["--data-dir", str(tmp_path), "obelisk", "path", text, "--json"])
    assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err


def test_the_rules_profile_of_obelisk(tmp_path):
    entries = json.loads(out(companion("rules", "obelisk", "--json", data_dir=tmp_path)))
    by_id = {e["id"]: e for e in entries}
    assert by_id["obelisk-demons"]["value"] == ("green: speed 4, strength 1; yellow: speed 3, strength 3; "
                                                "blue: speed 2, strength 5")
    assert by_id["obelisk-actions"]["editable"] and not by_id["obelisk-mine"]["editable"]
