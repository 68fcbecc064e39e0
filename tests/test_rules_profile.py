"""Every Obscurians ruling in RULINGS.md is visible in the rules profile; the editable ones show the group's value."""
import json
import re
import subprocess
import sys
from pathlib import Path

from companion.games.obscurians.rules import Rules
from companion.games.obscurians.rulings import RULINGS, profile

RULINGS_MD = Path(__file__).resolve().parents[2] / "shared" / "rules" / "RULINGS.md"


def test_profile_covers_every_obscurians_ruling():
    documented = set(re.findall(r"\*\*(obscurians-[a-z-]+)\*\*", RULINGS_MD.read_text()))
    assert documented, "RULINGS.md not found beside the repository"
    assert {rid for rid, _, _ in RULINGS} == documented


def test_editable_rulings_are_those_marked_editable():
    text = RULINGS_MD.read_text()
    marked = {rid for rid in re.findall(r"\*\*(obscurians-[a-z-]+)\*\*", text)
              if "**editable**" in text.split(f"**{rid}**", 1)[1].split("\n- **", 1)[0]}
    assert {e["id"] for e in profile() if e["editable"]} == marked


def test_profile_shows_the_groups_choice():
    capped = {e["id"]: e["value"] for e in profile(Rules(take_cap=True))}
    squared = {e["id"]: e["value"] for e in profile(Rules(take_cap=False))}
    assert capped["obscurians-take-cap"] != squared["obscurians-take-cap"]
    assert "25" in capped["obscurians-take-cap"]


def test_cli_prints_the_profile_and_rejects_a_bad_one(tmp_path):
    good = tmp_path / "rules.json"
    good.write_text(json.dumps({"take_cap": False}))
    out = subprocess.run([sys.executable, "-m", "companion", "rules", "obscurians", "--rules", str(good), "--json"],
                         capture_output=True, text=True, check=True).stdout
    entries = {e["id"]: e for e in json.loads(out)}
    assert entries["obscurians-take-cap"]["value"] == "n x n, no cap"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"take_cap": "maybe"}))
    run = subprocess.run([sys.executable, "-m", "companion", "rules", "obscurians", "--rules", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "rules.take_cap" in run.stderr and "Traceback" not in run.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{take_cap: no")
    run = subprocess.run([sys.executable, "-m", "companion", "rules", "obscurians", "--rules", str(broken)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "not valid JSON" in run.stderr and "Traceback" not in run.stderr
