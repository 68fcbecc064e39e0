"""Obscurio's setup by touch: 2 players with a companion chip and no loyalty cards (neither choice lit, both say
why); a choice the rules forbid says why; the numbers the group sets (hourglass, time track) reach the table and
the rulings list, whose words do not contradict them; the box's checklist; a 2-player turn has no night, the glass
is turned by the first card, and the wizard's own chip costs 2 tokens."""
from __future__ import annotations

import pytest

from tests.ui.obscurio_run import run_driver

pytestmark = pytest.mark.ui


def test_two_players_setup_rulings_and_a_turn(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    r = run_driver("small", "--data-dir", str(data), out=tmp_path / "result.json")
    assert r["companion_default"] == "green"
    assert r["companion_refused"] == "The blue chip is already a wizard's"
    assert r["loyalty_refused"] == "With 2 or 3 players there is no Traitor and no loyalty card"
    assert r["box"] == [12, 5]
    assert "Hourglass — this table: 90 s" in r["rulings"]
    assert "Time track — this table: +1, +1, +2, +3" in r["rulings"]
    assert "Cohesion tokens — this table: 12 tokens, 5 of them in the dark area" in r["rulings"]
    # The words under "this table: 90 s" do not say the hourglass runs 60 seconds.
    hourglass = r["ruling_summaries"][r["rulings"].index("Hourglass — this table: 90 s")]
    assert not hourglass.startswith("The hourglass runs 60 seconds") and "sets its own" in hourglass
    # No loyalty cards with 2 players: neither choice is lit, and both say why.
    assert r["loyalty_lit"] == [False, False]
    assert r["real_cards_refused"] == "With 2 or 3 players there is no Traitor and no loyalty card"
    assert r["checklist"][0] == "No loyalty cards with 2 or 3 players; the card holder only holds the time track."
    assert r["menu_de"] == ["Regeln", "Die Schachtel: was aufzubauen ist"]
    setup = r["setup"]
    assert setup["companion"] == "pink" and setup["loyalty"] == "table"
    assert setup["rules"]["hourglass"] == 90 and setup["rules"]["time_track"] == [1, 1, 2, 3]
    assert [p["name"] for p in setup["players"]] == ["Gala", "Bea"]
    assert r["after_riddle"] == ["obscurio-table", "doors"]       # no step 3 without a Traitor
    assert r["rows"] == [["Bea", ""], ["Bea", "companion"]]     # the companion's row: the name, and "companion"
    assert r["time"] == "1:30"
    assert r["exit"]["costs"][:2] == ["Bea: −2", "Cohesion tokens lost this turn: 2"]
    assert "night" not in r["sounds"] and r["said"] == []
