"""Home by touch (tests/ui/obscurians_driver.py `home-checks`): each unfinished table says its round and whose turn
it is; a table can be renamed, and deleted only after a question, with the banner offering it back."""
from __future__ import annotations

import pytest

from tests.ui.conftest import run_obscurians

pytestmark = pytest.mark.ui


def test_home_says_where_each_table_stands_and_tables_can_be_renamed_deleted_and_brought_back(data_dir, tmp_path):
    result = run_obscurians("home-checks", "--data-dir", str(data_dir), out=tmp_path / "home.json")
    for expected in result["expected"]:
        row = next(r for r in result["rows"] if r["id"] == expected["id"])
        assert f"Round {expected['round']}" in row["detail"]
        assert f"{expected['active']}'s turn" in row["detail"]
    assert result["renamed"] == "Obscurians — Friday night"
    renamed_id = result["rows"][0]["id"]
    assert result["delete_asks"] == "ConfirmSheet"
    assert renamed_id in result["after_cancel"]            # Cancel: nothing deleted
    assert renamed_id not in result["after_delete"]        # Yes: gone from the list ...
    assert "Tap here to bring it back" in result["banner"]
    assert renamed_id in result["after_restore"]           # ... and back with a tap on the banner
    assert result["small"] == {"home": []} and result["glyphs"] == {"home": []}
