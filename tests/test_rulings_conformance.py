"""The rulings the app applies live in the repository (companion/games/ruling_texts.py); here they are held against
../shared/rules/RULINGS.md, the team's decisions, wherever that folder exists (CI has it).

    .venv/bin/python tests/test_rulings_conformance.py --write   # rewrite ruling_texts.py from RULINGS.md

Without ../shared the comparison is skipped and says so; the checks that need nothing outside the repository
(every game's profile covers its rulings, editable ones name a Rules field) always run.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS_MD = ROOT.parent / "shared" / "rules" / "RULINGS.md"
TEXTS_PY = ROOT / "companion" / "games" / "ruling_texts.py"
NOT_BESIDE = ("../shared/rules/RULINGS.md is not beside this clone, so the rulings stored in the repository cannot be "
              "compared with the team's file here (CI has it; the app itself never needs it)")


def parse(markdown: str) -> dict[str, tuple[str, bool]]:
    """{id: (text with whitespace folded, editable)} for every "- **id**: text" entry of RULINGS.md."""
    entries = {}
    for m in re.finditer(r"^- \*\*([a-z0-9-]+)\*\*:[ \t]*(.*?)(?=^- \*\*|^#|\Z)", markdown, re.M | re.S):
        text = " ".join(m.group(2).split())
        entries[m.group(1)] = (text, "**editable**" in text)
    return entries


def render(entries: dict[str, tuple[str, bool]]) -> str:
    lines = ['"""Every ruling of RULINGS.md, as decided (generated: .venv/bin/python tests/test_rulings_conformance.py',
             '--write). Read through companion.games.rulings; tests/test_rulings_conformance.py keeps it equal to the',
             'team\'s file."""', "", "TEXTS = {"]
    lines += [f"    {rid!r}: {text!r}," for rid, (text, _) in entries.items()]
    lines += ["}", "", "# The rulings marked **editable**: a group may change them per table.",
              "EDITABLE = frozenset({"]
    lines += [f"    {rid!r}," for rid, (_, editable) in entries.items() if editable]
    lines += ["})", ""]
    return "\n".join(lines)


def shared_entries():
    if not RULINGS_MD.exists():
        pytest.skip(NOT_BESIDE)
    return parse(RULINGS_MD.read_text(encoding="utf-8"))


def test_stored_rulings_are_the_teams_rulings_word_for_word():
    from companion.games.ruling_texts import EDITABLE, TEXTS

    entries = shared_entries()
    assert list(TEXTS) == list(entries), "run: .venv/bin/python tests/test_rulings_conformance.py --write"
    for rid, (text, editable) in entries.items():
        assert TEXTS[rid] == text, f"{rid} changed in RULINGS.md: rewrite ruling_texts.py and check the code citing it"
        assert (rid in EDITABLE) == editable, rid


def registered():
    from companion.session import games

    return games.names()


@pytest.mark.parametrize("game", registered())
def test_each_games_profile_lists_every_ruling_and_edits_exactly_the_editable_ones(game):
    from companion.games.rulings import EDITABLE, ids_of
    from companion.session import games

    adapter = games.get(game)
    listed = adapter.rulings
    assert [r.id for r in listed] == ids_of(game)
    assert {r.id for r in listed if r.editable} == {rid for rid in ids_of(game) if rid in EDITABLE}
    rules = adapter.default_rules()
    for r in listed:
        assert r.summary.strip() and r.text.strip()
        if r.editable:
            assert hasattr(rules, r.field), (r.id, r.field)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    TEXTS_PY.write_text(render(parse(RULINGS_MD.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {TEXTS_PY.relative_to(ROOT)}")
