"""Tables written by earlier versions of the app list, open, replay, export and play on exactly as they were played.

Each folder tests/data/<commit>/ holds a tables.sqlite3 that the app at that commit wrote itself, and expected.json,
what that same app showed of it (tests/data/make_old_tables.py made both). The earliest ones hold tables played
while a Secure could put 1 good into the vault (rules version 1): today's rules refuse such a Secure, and the tables
must still open, under the rules they were played under, saying so. Every test works on a copy of the file.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import cli_helpers
from companion.games.errors import InvalidInput
from companion.session import Table, TableStore, games
from companion.session.listing import summary_of
from companion.session.logfile import read_log
from companion.session.store import DB_NAME

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = sorted(p.parent for p in (ROOT / "tests" / "data").glob("*/expected.json"))
EARLIER = "recorded under an earlier ruling: Secure took one good"


def test_the_kept_databases_span_the_apps_history():
    """Schema 1 and 2, both games, a Secure of one good, finished and unfinished tables, a deleted one."""
    seen = {"schema": set(), "games": set(), "one_good": False, "finished": False, "unfinished": False,
            "deleted": False}
    for folder in VERSIONS:
        expected = load(folder)
        seen["schema"].add(expected["schema"])
        seen["games"] |= {t["game"] for t in expected["tables"].values()}
        seen["one_good"] |= any(t["secure_one_good"] for t in expected["tables"].values())
        seen["finished"] |= bool(expected["finished"])
        seen["unfinished"] |= bool(expected["unfinished"])
        seen["deleted"] |= bool(expected.get("deleted"))
    assert seen == {"schema": {1, 2}, "games": {"obscurians", "obscurio"}, "one_good": True, "finished": True,
                    "unfinished": True, "deleted": True}


def load(folder: Path) -> dict:
    return json.loads((folder / "expected.json").read_text())


@pytest.fixture(params=VERSIONS, ids=[p.name for p in VERSIONS])
def old(request, tmp_path):
    """(a copy of the folder, what the earlier app showed of it)."""
    copy = tmp_path / request.param.name
    copy.mkdir()
    shutil.copyfile(request.param / DB_NAME, copy / DB_NAME)
    return copy, load(request.param)


def played_under(game: str, want: dict) -> int:
    """The rules version a table was played under: 1 where it has a Secure of one good, else today's."""
    return 1 if want["secure_one_good"] else games.get(game).rules_version


def naming_version(setup_json: dict, version: int) -> dict:
    return {**setup_json, "rules": {**setup_json.get("rules", {}), "version": version}}


def companion(*args: str, data_dir=None) -> subprocess.CompletedProcess:
    return cli_helpers.companion(*args, data_dir=data_dir, timeout=120)  # exporting a long old table takes a while


def test_lists_every_table_as_the_earlier_app_did_and_changes_nothing(old):
    folder, expected = old
    before = (folder / DB_NAME).read_bytes()
    with TableStore(folder, read_only=True) as store:
        assert [r.id for r in store.unfinished()] == expected["unfinished"]
        assert [r.id for r in store.finished()] == expected["finished"]
        assert [r.id for r in store.tables(deleted=True)] == expected.get("deleted", [])
        for row in store.unfinished() + store.finished():
            want = expected["tables"][str(row.id)]
            summary = summary_of(store, row)
            assert (row.title, summary["status"], summary["players"]) == (want["title"], want["status"],
                                                                          want["players"])
            if want["outcome"] is not None and want["game"] == "obscurians":
                # The score the group saw at the end of the game, point for point.
                assert summary["totals"] == {p["name"]: p["total"] for p in want["outcome"]["players"]}
    listing = companion("tables", data_dir=folder)
    assert listing.returncode == 0 and "unreadable" not in listing.stdout, listing.stdout + listing.stderr
    for tid, want in expected["tables"].items():
        line = next(x for x in listing.stdout.splitlines() if x.split()[:1] == [tid])
        assert f"“{want['title']}”" in line and want["status"] in line
        assert (EARLIER in line) == want["secure_one_good"], line
    assert (folder / DB_NAME).read_bytes() == before  # reading never migrates or writes


def test_every_table_opens_replays_and_exports_exactly_as_played(old):
    folder, expected = old
    with TableStore(folder) as store:  # for writing: a schema-1 file is migrated first
        for tid, want in expected["tables"].items():
            table = Table.open(store, int(tid))
            version = played_under(want["game"], want)
            assert table.rules_version == version
            assert table.rules_note == (EARLIER if version < table.adapter.rules_version else None)
            state = table.state.to_json()
            assert state["setup"] == naming_version(want["state"]["setup"], version)
            assert {**state, "setup": None} == {**want["state"], "setup": None}
            assert table.adapter.outcome_json(table.state) == want["outcome"]
            assert (table.status(), table.players(), table.title) == (want["status"], want["players"], want["title"])
            assert (table.can_undo, table.can_redo) == (want["can_undo"], want["can_redo"])
            # The export is the earlier one, entry for entry; its header now names the rules it was played under.
            head, *entries = table.export().splitlines()
            old_head, *old_entries = want["export"].splitlines()
            assert entries == old_entries
            assert json.loads(head) == {**json.loads(old_head),
                                        "setup": naming_version(json.loads(old_head)["setup"], version)}


def test_an_export_replays_and_imports_on_another_tablet_under_its_rules(old, tmp_path):
    folder, expected = old
    for tid, want in expected["tables"].items():
        exported = companion("export", tid, data_dir=folder)
        assert exported.returncode == 0, exported.stderr
        path = tmp_path / f"table-{tid}.jsonl"
        path.write_text(exported.stdout)
        replayed = companion("replay", str(path), "--json")
        assert replayed.returncode == 0, replayed.stderr
        assert json.loads(replayed.stdout)["outcome"] == want["outcome"]
        described = companion("replay", str(path))
        assert (described.stdout.splitlines()[0] == EARLIER) == want["secure_one_good"]
        imported = companion("import", str(path), data_dir=tmp_path / "other")
        assert imported.returncode == 0, imported.stderr
    with TableStore(tmp_path / "other") as store:
        for row in store.tables():
            table = Table.open(store, row.id)
            want = expected["tables"][str(row.title.rsplit("-", 1)[1])]
            assert table.rules_version == played_under(want["game"], want)
            assert store.get(row.id).setup["rules"]["version"] == table.rules_version  # recorded with the table
            assert table.adapter.outcome_json(table.state) == want["outcome"]


def test_an_unfinished_table_plays_on_to_its_end_under_its_own_rules(old):
    folder, expected = old
    with TableStore(folder) as store:
        for tid in expected["unfinished"]:
            table = Table.open(store, tid)
            version = table.rules_version
            if table.can_redo:
                table.redo()
            game = table.adapter
            moves = 0
            while not table.finished and moves < 2000:
                table.apply(next_move(table))
                moves += 1
            assert table.finished
            again = Table.open(store, tid)
            assert again.rules_version == version and again.state.to_json() == table.state.to_json()
            assert tid in [r.id for r in store.finished()]
            assert summary_of(store, store.get(tid))["status"] == game.status(again.state)


def next_move(table):
    """A legal next move, chosen as the contract's random player would (seeded by the table and its length)."""
    import random

    state = table.state
    if table.game == "obscurians":
        from companion.games.obscurians.randplay import random_action

        return random_action(state, random.Random(table.log_length))
    from companion.games.obscurio.randplay import Secrets, random_action

    rng = random.Random(table.log_length)
    return random_action(state, Secrets(rng, traitor=state.traitor))


def test_a_rules_correction_never_rewrites_an_old_score(old):
    """Under today's rules a table played under version 1 is refused, loudly, never scored differently: it is
    replayed under its own rules or not at all."""
    folder, expected = old
    with TableStore(folder, read_only=True) as store:
        for tid, want in expected["tables"].items():
            if not want["secure_one_good"]:
                continue
            record = store.get(int(tid))
            game = games.get(record.game)
            log = Table.open(store, int(tid)).export()
            head, _, rest = log.partition("\n")
            today = json.loads(head)
            today["setup"] = naming_version(today["setup"], game.rules_version)
            with pytest.raises(InvalidInput, match="Each Secure puts 2 goods"):
                read_log(json.dumps(today) + "\n" + rest)
            assert game.outcome_json(read_log(log).state) == want["outcome"]
