"""The setup screen's house rules: the Take cap toggle and the smart dice's faces go into the table's Setup; every
ruling is listed."""
from __future__ import annotations

import pytest

from companion.games.obscurians.rulings import RULINGS
from companion.session.store import TableStore
from companion.session.table import Table
from tests.ui.conftest import run_obscurians

pytestmark = pytest.mark.ui


def test_take_cap_off_is_stored_with_the_table(data_dir, tmp_path):
    result = run_obscurians("house-rules", "--data-dir", str(data_dir), "--lang", "en", out=tmp_path / "rules.json")
    assert result["toggle_before"] == "Take: 6 or more of one colour score 25"
    assert result["toggle_after"] == "Take: n × n, no cap"

    # The rulings list shows every ruling of the rules profile, the Take one with this table's value.
    assert [r["summary"] for r in result["rulings"]] == [r.summary for r in RULINGS]
    take = next(r for r in result["rulings"] if r["summary"].startswith("Take:"))
    assert "n x n, no cap" in take["title"]
    assert result["rulings_closed"]

    with TableStore(data_dir) as store:
        setup = Table.open(store, result["table_id"]).state.setup
    assert setup.rules.take_cap is False
    # The dice faces: pip 2 was given Wild; its opposite pip follows, and the faces that were there moved to 3 and 4.
    assert result["pip_choices"][:2] == ["1: Steal", "2: Swap"]
    assert result["face_question"].startswith("Pip 2 shows")
    assert result["pips_banner"] == "Smart dice: 1 Steal · 2 Wild · 3 Secure · 4 Swap · 5 Relocate · 6 Donate"
    assert dict(setup.rules.pips) == {1: "steal", 2: "wild", 3: "secure", 4: "swap", 5: "relocate", 6: "donate"}
