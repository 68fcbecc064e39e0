"""Obscurio's setup by touch: 2 players with a companion chip; a choice the rules forbid says why; the numbers the
group sets (hourglass, time track) reach the table and the rulings list; a 2-player turn has no night and the
wizard's own chip costs 2 tokens."""
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
    setup = r["setup"]
    assert setup["companion"] == "pink" and setup["loyalty"] == "table"
    assert setup["rules"]["hourglass"] == 90 and setup["rules"]["time_track"] == [1, 1, 2, 3]
    assert [p["name"] for p in setup["players"]] == ["Gala", "Bea"]
    assert r["after_riddle"] == ["obscurio-table", "doors"]       # no step 3 without a Traitor
    assert r["rows"] == ["Bea", "Bea's companion"]
    assert r["time"] == "1:30"
    assert r["exit"]["costs"][:2] == ["Bea: −2", "Cohesion tokens lost: 2"]
    assert "night" not in r["sounds"] and r["said"] == []
