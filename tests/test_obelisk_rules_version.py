"""Obelisk's rules version (docs/persistence.md "Rules versions"): every new Obelisk table records version 1 with its
rules — in the store, the exported log's header and the state — so that a future correction of how the app applies
the rules never rewrites a table played before it. A table or a log from before the version was recorded (this
log or a table of the earlier app) is version 1, opens, replays and plays on exactly as it was."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.errors import InvalidInput
from companion.games.obelisk.rules import RULES_VERSION, Rules
from companion.session import Table, TableStore, games
from companion.session.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parent.parent
OBELISK = games.get("obelisk")


def without_version(setup_json: dict) -> dict:
    return {**setup_json, "rules": {k: v for k, v in setup_json["rules"].items() if k != "version"}}


def test_version_1_is_todays_and_the_rules_carry_it():
    assert RULES_VERSION == 1 == OBELISK.rules_version and OBELISK.records_rules_version
    assert Rules().to_json()["version"] == 1
    assert Rules.from_json({}) == Rules() and Rules.from_json({"version": 1}).version == 1


def test_a_new_table_records_version_1_everywhere(tmp_path):
    setup, actions = OBELISK.random_game(4, 2)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obelisk", setup)
        assert store.get(table.id).setup["rules"]["version"] == 1
        assert table.rules_version == 1 and table.rules_note is None
        for a in actions[:10]:
            table.apply(a)
        assert json.loads(table.export().splitlines()[0])["setup"]["rules"]["version"] == 1
        assert table.state.to_json()["setup"]["rules"]["version"] == 1
        assert store.get(table.id).summary["rules_version"] == 1


@pytest.mark.parametrize("version, message", [
    (2, "rules.version: 2 comes from a newer Table Companion"),
    (0, "rules.version: 0 is not a rules version"),
    ("1", "rules.version: '1' is not a rules version"),
])
def test_a_version_this_app_does_not_know_is_one_line_naming_it(version, message):
    setup, actions = OBELISK.random_game(6, 1)
    header = setup.to_json()
    header["rules"]["version"] = version
    with pytest.raises(InvalidInput, match=message):
        read_log(write_log("obelisk", header, [("action", a.to_json()) for a in actions]))


def test_a_table_stored_before_versions_were_recorded_is_version_1_and_plays_on(tmp_path):
    setup, actions = OBELISK.random_game(8, 3)
    cut = len(actions) // 2
    with TableStore(tmp_path) as store:
        tid = store.create("obelisk", without_version(setup.to_json()),
                           events=[("action", a.to_json()) for a in actions[:cut]])
        table = Table.open(store, tid)
        assert table.rules_version == 1 and table.rules_note is None
        for a in actions[cut:]:
            table.apply(a)
        assert table.finished
        assert store.get(tid).setup == without_version(setup.to_json())   # the stored row is never rewritten
        again = Table.open(store, tid)
        assert again.state.to_json() == table.state.to_json() and again.rules_version == 1


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("obelisk-*.jsonl")), ids=lambda p: p.name)
def test_the_examples_record_version_1_and_replay_alike_without_it(example, tmp_path):
    """The examples name version 1; the same log as the earlier app wrote it (no version) replays to the same end."""
    lines = example.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["setup"]["rules"]["version"] == 1
    old = tmp_path / example.name
    old.write_text("\n".join([json.dumps({**header, "setup": without_version(header["setup"])}), *lines[1:]]) + "\n",
                   encoding="utf-8")
    ends = []
    for path in (example, old):
        run = subprocess.run([sys.executable, "-m", "companion", "replay", str(path), "--json"],
                             capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        ends.append(json.loads(run.stdout)["outcome"])
        assert read_log(path.read_text(encoding="utf-8")).setup.rules.version == 1
    assert ends[0] == ends[1]
