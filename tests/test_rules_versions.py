"""Rules versions: every table records the rules it is played under, and replays under them (docs/persistence.md).

Obscurians' version 1 let a Secure put 1 good into the vault; version 2 (RULING obscurians-actions) takes exactly 2.
A table or a log from before versions were recorded names none, and is replayed under the newest version that
accepts its whole log — safe because version 2 only narrowed what is legal: every game legal under 2 plays
exactly the same under 1 (the property below).
"""
from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import Secure
from companion.games.obscurians.randplay import random_action, random_game
from companion.games.obscurians.rules import RULES_VERSION, Rules
from companion.games.obscurians.state import TRADE_BAN_SECURES, new_game
from companion.session import Table, TableStore, games
from companion.session.listing import summary_of
from companion.session.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parent.parent
EARLIER = "recorded under an earlier ruling: Secure took one good"
OBSCURIANS = games.get("obscurians")


def under(setup, version: int):
    return dataclasses.replace(setup, rules=dataclasses.replace(setup.rules, version=version))


def one_good_game(seed: int):
    """(setup under version 1, actions, index of the first Secure of 1 good out of 2 or more free): a game a group
    played before RULING obscurians-actions, through the engine's version-1 rules."""
    setup = under(random_game(seed, 4 + seed % 3)[0], 1)
    rng, state, actions, first = random.Random(seed), new_game(setup), [], None
    while state.phase != "over":
        action = random_action(state, rng)
        if (isinstance(action, Secure) and len(action.goods) == 2 and state.pending["secure"] < TRADE_BAN_SECURES
                and rng.random() < 0.7):
            action = Secure(action.goods[:1])
            first = len(actions) if first is None else first
        state = state.apply(action)
        actions.append(action)
    assert first is not None, "pick another seed: no Secure was played"
    return setup, actions, first


def log_of(setup_json: dict, actions) -> str:
    return write_log("obscurians", setup_json, [("action", a.to_json()) for a in actions])


def without_version(setup_json: dict) -> dict:
    rules = {k: v for k, v in setup_json["rules"].items() if k != "version"}
    return {**setup_json, "rules": rules}


def test_the_engine_applies_each_version():
    setup, actions, first = one_good_game(3)
    state = new_game(setup)
    for a in actions[:first]:
        state = state.apply(a)
    one = actions[first]
    assert one in state.legal_actions()                     # version 1 lists and takes a Secure of 1 good
    assert state.apply(one).secured != state.secured
    today = new_game(under(setup, 2))
    for a in actions[:first]:
        today = today.apply(a)
    assert one not in today.legal_actions()
    with pytest.raises(IllegalAction, match="Each Secure puts 2 goods into the vault"):
        today.apply(one)
    with pytest.raises(IllegalAction, match="1 or 2 goods"):  # three goods were never one Secure
        mine = [g for g, n in state.goods[state.active].items() for _ in range(n)]
        state.apply(Secure(tuple(mine[:3])))


def test_a_new_table_records_todays_rules_and_refuses_earlier_ones(tmp_path):
    setup, actions = random_game(5, 4)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        assert store.get(table.id).setup["rules"]["version"] == RULES_VERSION == OBSCURIANS.rules_version
        assert table.rules_version == RULES_VERSION and table.rules_note is None
        assert json.loads(table.export().splitlines()[0])["setup"]["rules"]["version"] == RULES_VERSION
        assert store.get(table.id).summary["rules_version"] == RULES_VERSION
        with pytest.raises(InvalidInput, match="today's rules"):
            Table.create(store, "obscurians", under(setup, 1))
        obscurio = Table.create(store, "obscurio", games.get("obscurio").random_game(2, 4)[0])
        assert store.get(obscurio.id).setup["rules"]["version"] == 1 == obscurio.rules_version
        assert store.count() == 2


def test_a_log_naming_version_1_replays_under_it_and_says_so():
    setup, actions, first = one_good_game(7)
    parsed = read_log(log_of(setup.to_json(), actions))
    assert parsed.setup.rules.version == 1 and parsed.rules_note == EARLIER
    assert parsed.state.phase == "over"
    # The same moves under today's rules are refused at the Secure of one good, by its line.
    today = log_of(under(setup, 2).to_json(), actions)
    with pytest.raises(InvalidInput, match=rf"^line {first + 2}: Secure .* Each Secure puts 2 goods"):
        read_log(today)


def test_a_log_naming_no_version_is_replayed_under_the_rules_it_was_played_under():
    setup, actions, first = one_good_game(11)
    old = read_log(log_of(without_version(setup.to_json()), actions))
    assert old.setup.rules.version == 1 and old.rules_note == EARLIER
    assert old.state.to_json() == read_log(log_of(setup.to_json(), actions)).state.to_json()
    plain_setup, plain_actions = random_game(12, 5)
    plain = read_log(log_of(without_version(plain_setup.to_json()), plain_actions))
    assert plain.setup.rules.version == RULES_VERSION and plain.rules_note is None
    # A log that no version accepts is refused as today's rules word it.
    broken = log_of(without_version(setup.to_json()), actions[:first] + actions[first + 1:])
    with pytest.raises(InvalidInput, match=r"^line \d+: "):
        read_log(broken)


@pytest.mark.parametrize("version, message", [
    (3, "rules.version: 3 comes from a newer Table Companion"),
    (0, "rules.version: 0 is not a rules version"),
    ("2", "rules.version: '2' is not a rules version"),
    (True, "rules.version: True is not a rules version"),
])
def test_a_version_this_app_does_not_know_is_one_line_naming_it(version, message, tmp_path):
    setup, actions = random_game(13, 4)
    header = setup.to_json()
    header["rules"]["version"] = version
    with pytest.raises(InvalidInput) as info:
        read_log(log_of(header, actions[:10]))
    assert str(info.value).startswith(f"line 1: {message}")
    path = tmp_path / "newer.jsonl"
    path.write_text(log_of(header, actions[:10]))
    run = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_game_legal_today_plays_exactly_the_same_under_version_1(seed):
    """What inferring a missing version relies on: version 2 only took moves away. A game legal under 2 replays
    move for move to the same states and the same score under 1, so an unrecorded table that replays under 2 gets
    the score it was played to, whichever version it was played under."""
    setup, actions = random_game(seed, 4 + seed % 4)
    now, then = new_game(under(setup, 2)), new_game(under(setup, 1))
    for a in actions:
        now, then = now.apply(a), then.apply(a)
        assert without_version(now.to_json()["setup"]) == without_version(then.to_json()["setup"])
        assert {**now.to_json(), "setup": None} == {**then.to_json(), "setup": None}
    assert now.outcome() == then.outcome()


def test_an_old_table_stored_without_a_version_opens_plays_on_and_lists_under_its_rules(tmp_path):
    """As a table written before versions were recorded: its setup names none (written here straight into the
    store, as the earlier app did)."""
    setup, actions, first = one_good_game(17)
    cut = first + 5
    with TableStore(tmp_path) as store:
        tid = store.create("obscurians", without_version(setup.to_json()),
                           events=[("action", a.to_json()) for a in actions[:cut]])
        table = Table.open(store, tid)
        assert table.rules_version == 1 and table.rules_note == EARLIER
        for a in actions[cut:]:
            table.apply(a)  # played on under the rules it was started under
        assert table.finished
        assert store.get(tid).setup == without_version(setup.to_json())  # the stored row is never rewritten
        again = Table.open(store, tid)
        assert again.state.to_json() == table.state.to_json() and again.rules_version == 1
        assert store.get(tid).summary["rules_version"] == 1
        listed = summary_of(store, store.get(tid))
        assert listed["totals"] == OBSCURIANS.summary(again.state)["totals"]
    run = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(tmp_path), "tables"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and EARLIER in run.stdout


def test_an_earlier_apps_import_is_recognised_when_its_file_is_imported_again(tmp_path):
    """The file as an earlier app exported it names no version; that app stored its import under that setup."""
    setup, actions = random_game(19, 4)
    old_setup = without_version(setup.to_json())
    path = tmp_path / "friday.jsonl"
    path.write_text(log_of(old_setup, actions))
    with TableStore(tmp_path / "db") as store:
        first = store.create("obscurians", old_setup, events=[("action", a.to_json()) for a in actions])
    run = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(tmp_path / "db"), "import", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and f"is already table {first}" in run.stdout, run.stdout + run.stderr
    with TableStore(tmp_path / "db") as store:
        assert store.count() == 1
