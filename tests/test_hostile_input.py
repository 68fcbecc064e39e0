"""Files a hostile (or unlucky) user hands the CLI: one line on stderr, exit 2, nothing stored, never a traceback.

Each class of issue 5 has a real-subprocess test (what a user sees in a terminal); the Hypothesis properties at the
end feed every file-reading command arbitrary bytes and mutated valid files in-process, with a strict UTF-8 stdout
like a terminal's, and require exit 0 or 2 and no exception.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.obscurians.randplay import random_game
from companion.games.obscurians.end_json import parse_end
from companion.session.logfile import write_log

import cli_helpers

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
END4 = json.loads((EXAMPLES / "end-obscurians-4p.json").read_text(encoding="utf-8"))
DEEP = "[" * 100_000 + "]" * 100_000


def companion(*argv, data_dir, **kw):
    return cli_helpers.companion(*argv, data_dir=data_dir, text=False, **kw)  # bytes: hostile input may print odd bytes


def refused(result, *words):
    """Exit 2, one line on stderr holding `words`, no traceback, nothing on stdout."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert result.stdout in (b"", None), result.stdout[:200]
    for w in words:
        assert w in err, err
    return err


def a_log(players=None, header_extra=None, setup_extra=None, actions=4) -> str:
    setup, acts = random_game(3)
    setup_json = setup.to_json()
    if players is not None:
        setup_json["players"] = players
    setup_json.update(setup_extra or {})
    text = write_log("obscurians", setup_json, [("action", a.to_json()) for a in acts[:actions]])
    if header_extra:
        head, rest = text.split("\n", 1)
        text = json.dumps({**json.loads(head), **header_extra}) + "\n" + rest
    return text


# ----------------------------------------------------------------------------- tracebacks that must be one line

@pytest.mark.parametrize("command", ["score", "replay", "import", "score --rules", "rules --rules"])
def test_deep_nesting_is_one_line(tmp_path, command):
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    argv = {"score": ["score", "obscurians", str(path)], "replay": ["replay", str(path)],
            "import": ["import", str(path)],
            "score --rules": ["score", "obscurians", str(EXAMPLES / "end-obscurians-4p.json"), "--rules", str(path)],
            "rules --rules": ["rules", "obscurians", "--rules", str(path)]}[command]
    refused(companion(*argv, data_dir=tmp_path / "db"), "nested too deeply")


@pytest.mark.parametrize("where", ["end", "rules", "log"])
def test_numbers_of_thousands_of_digits_are_named_not_crashed_on(tmp_path, where):
    huge = "9" * 5000
    if where == "end":
        text = json.dumps(END4).replace('"green": 6', f'"green": {huge}')
        argv = ["score", "obscurians"]
    elif where == "rules":
        text = '{"take_cap": true, "pips": {"1": ' + huge + "}}"
        argv = ["rules", "obscurians", "--rules"]
    else:
        text = a_log().replace('"seed": 3', f'"seed": {huge}')
        argv = ["replay"]
    path = tmp_path / "f.json"
    path.write_text(text)
    refused(companion(*argv, str(path), data_dir=tmp_path), "5000 digits is too large")


@pytest.mark.parametrize("value", [["steal"], None, 1])
def test_rules_whose_pips_are_not_faces_name_the_entry(tmp_path, value):
    rules = {"pips": {"1": value, "2": "swap", "3": "relocate", "4": "wild", "5": "secure", "6": "donate"}}
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules))
    refused(companion("rules", "obscurians", "--rules", str(path), data_dir=tmp_path),
            "rules.pips.1:", "is not a henchmen face")
    # The same profile inside a log header: the field is named, no Python repr leaks.
    log = tmp_path / "game.jsonl"
    log.write_text(a_log(setup_extra={"rules": rules}))
    err = refused(companion("replay", str(log), data_dir=tmp_path), "line 1: rules.pips.1:")
    assert "TypeError" not in err and "<" not in err


def test_a_pip_mapping_that_breaks_flip_the_die_is_refused_naming_the_pair(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"pips": {"1": "steal", "2": "swap", "3": "relocate", "4": "wild", "5": "donate",
                                         "6": "secure"}}))
    refused(companion("rules", "obscurians", "--rules", str(path), data_dir=tmp_path),
            "pips 1 and 6 are opposite sides", "steal and donate")


@pytest.mark.parametrize("command", ["score", "replay", "import"])
def test_a_lone_surrogate_in_a_name_is_a_field_error_and_stores_nothing(tmp_path, command):
    if command == "score":
        end = json.loads(json.dumps(END4))
        end["players"][1]["name"] = "An\ud800a"
        text, argv = json.dumps(end), ["score", "obscurians"]
    else:
        setup, _ = random_game(3)
        players = setup.to_json()["players"]
        players[1]["name"] = "An\ud800a"
        text, argv = a_log(players=players), [command]
    path = tmp_path / "bad.json"
    path.write_text(text)  # json.dumps escapes the surrogate: the file is valid JSON and valid UTF-8
    err = refused(companion(*argv, str(path), data_dir=tmp_path / "db"), "players[1].name", "invisible character")
    assert "UnicodeEncodeError" not in err
    listing = companion("tables", data_dir=tmp_path / "db")  # the database is not poisoned
    assert listing.returncode == 0 and b"no tables yet" in listing.stdout


# ----------------------------------------------------------------------------- silently wrong results

def test_score_applies_the_four_player_mission_draw_like_the_engine(tmp_path):
    end = json.loads(json.dumps(END4))
    for p, m in zip(end["players"], ("keep", "take", "collect", "give")):
        p["mission"] = m
    path = tmp_path / "END.json"
    path.write_text(json.dumps(end))
    refused(companion("score", "obscurians", str(path), data_dir=tmp_path), "players[*].mission",
            "two of Keep/Take/Collect")
    # The engine refuses the same deal in a log header, with the same sentence.
    setup, _ = random_game(3)
    log = tmp_path / "game.jsonl"
    log.write_text(a_log(setup_extra={"missions": ["keep", "take", "collect", "give"]}))
    refused(companion("replay", str(log), data_dir=tmp_path), "missions:", "two of Keep/Take/Collect")


@pytest.mark.parametrize("change, field, words", [
    (lambda e: e["players"][0].update(lamp=False), "players[*].lamp", "nobody holds the magic lamp"),
    (lambda e: e["players"][1].update(lamp=True), "players[1].lamp", "already has the magic lamp"),
    (lambda e: e["players"][1].update(name=e["players"][0]["name"]), "players[1].name", "already at the table"),
    (lambda e: e["players"][1].update(name="Ben\nWinner: Ben (orange)"), "players[1].name", "line breaks"),
    (lambda e: e["players"][1].update(name="Ben\x07"), "players[1].name", "invisible character U+0007"),
])
def test_impossible_end_positions_are_refused_naming_the_field(tmp_path, change, field, words):
    end = json.loads(json.dumps(END4))
    change(end)
    path = tmp_path / "END.json"
    path.write_text(json.dumps(end))
    refused(companion("score", "obscurians", str(path), data_dir=tmp_path), field, words)


# ----------------------------------------------------------------------------- valid input that was refused

@pytest.mark.parametrize("separator", ["\u2028", "\u0085", "\u2029"])
def test_a_raw_line_separator_inside_a_json_string_does_not_split_the_line(tmp_path, separator):
    """Lines end at \\n only: the header is read as one JSON line, and the error (a name cannot hold a line
    break) names line 1 and the field, not "not valid JSON"; an action's odd string is on its own line number."""
    setup, _ = random_game(3)
    players = setup.to_json()["players"]
    players[2]["name"] = f"Cleo{separator}Two"
    path = tmp_path / "game.jsonl"
    path.write_text(a_log(players=players).replace("\\u" + f"{ord(separator):04x}", separator), encoding="utf-8")
    assert separator in path.read_text(encoding="utf-8")
    err = refused(companion("replay", str(path), data_dir=tmp_path), "line 1: players[2].name")
    assert "not valid JSON" not in err
    # In a later line, the line number counts "\n" only.
    text = a_log(actions=2).rstrip("\n") + "\n" + json.dumps({"action": {"type": "reveal", "card": f"x{separator}"}},
                                                              ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    refused(companion("replay", str(path), data_dir=tmp_path), "line 4: reveal.card")


def test_a_byte_order_mark_is_accepted(tmp_path):
    end = tmp_path / "END.json"
    end.write_bytes(b"\xef\xbb\xbf" + json.dumps(END4).encode())
    assert companion("score", "obscurians", str(end), data_dir=tmp_path).returncode == 0
    rules = tmp_path / "rules.json"
    rules.write_bytes(b"\xef\xbb\xbf" + b'{"take_cap": false}')
    assert companion("rules", "obscurians", "--rules", str(rules), data_dir=tmp_path).returncode == 0
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + a_log().encode())
    assert companion("replay", str(log), data_dir=tmp_path).returncode == 0
    assert companion("import", str(log), data_dir=tmp_path / "db").returncode == 0


def test_date_options_are_checked_and_never_silently_ignored(tmp_path):
    end = str(EXAMPLES / "end-obscurians-4p.json")
    refused(companion("score", "obscurians", end, "--bgstats", "--date", "2024-02-30 20:00:00", data_dir=tmp_path),
            "real date")
    refused(companion("score", "obscurians", end, "--date", "2024-02-28 20:00:00", data_dir=tmp_path),
            "only used with --bgstats")
    ok = companion("score", "obscurians", end, "--bgstats", "--date", "2024-02-29 20:00:00", data_dir=tmp_path)
    assert ok.returncode == 0 and json.loads(ok.stdout)["playDate"] == "2024-02-29 20:00:00"


def test_a_header_format_true_and_unknown_player_keys_are_refused(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(a_log(header_extra={"format": True}))
    refused(companion("replay", str(path), data_dir=tmp_path), "line 1: unsupported format True")
    setup, _ = random_game(3)
    players = setup.to_json()["players"]
    players[0]["age"] = 41
    path.write_text(a_log(players=players))
    refused(companion("replay", str(path), data_dir=tmp_path), "line 1: players[0].age: unknown field")


def test_output_into_a_closed_pipe_exits_quietly(tmp_path):
    """`companion … | head -1`: the reader is gone before we write; no "Broken pipe", no error code."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = companion("replay", str(EXAMPLES / "obscurians-6p.jsonl"), "--json", data_dir=tmp_path,
                           stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 0
    assert result.stderr == b""


# ----------------------------------------------------------------------------- properties: any bytes, exit 0 or 2

def run_in_process(argv) -> tuple[int, str]:
    """main(argv) with a terminal-like strict UTF-8 stdout; (exit code, stderr). An escaping exception fails."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
        out.flush()
    return code, err.getvalue()


def _json_values():
    scalars = st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats(allow_nan=False) | st.text()
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _mutated(document):
    """A valid document with one value somewhere replaced by an arbitrary JSON value."""
    @st.composite
    def build(draw):
        doc = json.loads(json.dumps(document))
        node = doc
        for _ in range(draw(st.integers(0, 4))):
            if isinstance(node, dict) and node:
                k = draw(st.sampled_from(sorted(node)))
                if not isinstance(node[k], (dict, list)) or not node[k]:
                    break
                node = node[k]
            elif isinstance(node, list) and node:
                i = draw(st.integers(0, len(node) - 1))
                if not isinstance(node[i], (dict, list)) or not node[i]:
                    break
                node = node[i]
        if isinstance(node, dict) and node:
            node[draw(st.sampled_from(sorted(node)) | st.text(max_size=6))] = draw(_json_values())
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(_json_values())
        return json.dumps(doc, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    return build()


LOG_LINES = a_log(actions=12).splitlines()


@st.composite
def mutated_logs(draw):
    lines = list(LOG_LINES)
    i = draw(st.integers(0, len(lines) - 1))
    lines[i] = draw(_mutated(json.loads(lines[i]))).decode("utf-8", "surrogatepass")
    return "\n".join(lines).encode("utf-8", "surrogatepass")


ANY_BYTES = st.binary(max_size=400) | _json_values().map(lambda v: json.dumps(v).encode())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=ANY_BYTES | _mutated(END4))
def test_score_fed_anything_exits_0_or_2(tmp_path, data):
    path = tmp_path / "END.json"
    path.write_bytes(data)
    code, err = run_in_process(["--data-dir", str(tmp_path / "db"), "score", "obscurians", str(path), "--json"])
    assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=ANY_BYTES | _mutated({"take_cap": True, "pips": {"1": "steal", "2": "swap", "3": "relocate",
                                                             "4": "wild", "5": "secure", "6": "donate"}}))
def test_rules_files_fed_anything_exit_0_or_2(tmp_path, data):
    path = tmp_path / "rules.json"
    path.write_bytes(data)
    for argv in (["rules", "obscurians", "--rules", str(path)],
                 ["score", "obscurians", str(EXAMPLES / "end-obscurians-4p.json"), "--rules", str(path)]):
        code, err = run_in_process(["--data-dir", str(tmp_path / "db"), *argv])
        assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=ANY_BYTES | mutated_logs())
def test_logs_fed_anything_exit_0_or_2_for_replay_and_import(tmp_path, data):
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    for argv in (["replay", str(path), "--json"], ["import", str(path)]):
        code, err = run_in_process(["--data-dir", str(tmp_path / "db"), *argv])
        assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err
    code, err = run_in_process(["--data-dir", str(tmp_path / "db"), "tables"])
    assert code == 0, err  # whatever was imported, the list still opens


def reachable(end: dict) -> bool:
    """An independent check that an END.json describes a position a real game can reach."""
    players = end["players"]
    names = [p["name"].strip() for p in players]
    colours = {p["color"] for p in players}
    held: dict[str, int] = {}
    for p in players:
        for colour, n in p.get("goods", {}).items():
            held[colour] = held.get(colour, 0) + n
    chips = [(c["by"], c["mission"]) for c in end.get("suspicions", [])]
    return (len(set(names)) == len(names)
            and sum(bool(p.get("lamp")) for p in players) == 1
            and sum(bool(p.get("artifact")) for p in players) <= 1
            and all(n <= 10 and c in colours for c, n in held.items())
            and len(set(chips)) == len(chips)
            and all(c["by"] != c["on"] for c in end.get("suspicions", [])))


@settings(max_examples=300, deadline=None)
@given(data=_mutated(END4))
def test_every_accepted_end_position_is_reachable(data):
    try:
        end = json.loads(data)
        parse_end(end)
    except ValueError:
        return
    assert reachable(end), end
