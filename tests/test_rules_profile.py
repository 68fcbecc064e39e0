"""The rules profile a group sees (`companion rules GAME`, the setup screen): every ruling, the editable ones with
the table's value. Whether the stored rulings match the team's RULINGS.md is tests/test_rulings_conformance.py."""
import json

from hypothesis import given
from hypothesis import strategies as st

from companion.games.obscurians.constants import FACES, OPPOSITE
from companion.games.obscurians.rules import DEFAULT_PIPS, Rules, pips_problem, with_pip
from companion.games.obscurians.rulings import RULINGS, profile
from companion.games.rulings import ids_of
from cli_helpers import companion


def test_the_profile_lists_every_obscurians_ruling_with_its_text():
    entries = profile()
    assert [e["id"] for e in entries] == ids_of("obscurians")
    assert {"obscurians-relocate", "obscurians-lamp"} <= {e["id"] for e in entries}
    assert all(e["text"] and e["summary"] and e["title"] for e in entries)
    assert {e["id"] for e in entries if e["editable"]} == {"obscurians-dice", "obscurians-take-cap"}


def test_profile_shows_the_groups_choice():
    capped = {e["id"]: e["value"] for e in profile(Rules(take_cap=True))}
    squared = {e["id"]: e["value"] for e in profile(Rules(take_cap=False))}
    assert capped["obscurians-take-cap"] != squared["obscurians-take-cap"]
    assert "25" in capped["obscurians-take-cap"]
    swapped = Rules.from_json({"pips": {"1": "steal", "6": "donate", "2": "secure", "5": "swap", "3": "relocate",
                                        "4": "wild"}})
    assert {e["id"]: e["value"] for e in profile(swapped)}["obscurians-dice"].startswith("1 steal, 2 secure")
    assert len(RULINGS) == len(profile())


def test_cli_prints_the_profile_and_rejects_a_bad_one(tmp_path):
    good = tmp_path / "rules.json"
    good.write_text(json.dumps({"take_cap": False}))
    run = companion("rules", "obscurians", "--rules", good, "--json")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    entries = {e["id"]: e for e in json.loads(out)}
    assert entries["obscurians-take-cap"]["value"] == "n x n, no cap"
    run = companion("rules", "obscurians", "--full")
    assert run.returncode == 0, run.stderr
    full = run.stdout
    assert "English rulebook" in full  # obscurians-relocate's whole text, as decided
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"take_cap": "maybe"}))
    run = companion("rules", "obscurians", "--rules", bad)
    assert run.returncode == 2
    assert "rules.take_cap" in run.stderr and "Traceback" not in run.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{take_cap: no")
    run = companion("rules", "obscurians", "--rules", broken)
    assert run.returncode == 2
    assert "not valid JSON" in run.stderr and "Traceback" not in run.stderr


@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(FACES)), max_size=12))
def test_changing_one_pips_face_always_leaves_a_die_that_flips_right(changes):
    """RULING obscurians-dice: whatever the group taps on the setup's "Dice faces", the mapping stays one the engine
    accepts (every face once, opposite faces on opposite pips), and the pip shows what was tapped."""
    table = dict(DEFAULT_PIPS)
    for pip, face in changes:
        table = with_pip(table, pip, face)
        assert table[pip] == face and table[7 - pip] == OPPOSITE[face]
        assert pips_problem(table) is None
        Rules(pips=tuple(sorted(table.items())))  # accepted as a table's rules
