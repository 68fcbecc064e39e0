"""The devices screen in the real app under Xvfb: with no radio, simulated dice are offered; they connect through the
real BLE stack on the virtual radio and roll by themselves on screen; a tap binds a die to henchmen die 1, and the
binding and the devices are kept in the data folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.conftest import run_script

pytestmark = pytest.mark.ui
DRIVER = Path(__file__).with_name("devices_driver.py")


def run_driver(data_dir, out, *args):
    return run_script(DRIVER, "--data-dir", str(data_dir), *args, out=out)


def test_simulated_dice_roll_on_screen_and_a_tap_binds_one(data_dir, tmp_path):
    result = run_driver(data_dir, tmp_path / "devices.json")
    assert result["offered_simulated"] and not result["offer_after"] and result["dice"] >= 5
    assert any(face.isdigit() and 1 <= int(face) <= 6 for face in result["faces"])
    assert any("connected" in status for _, status in result["devices"])
    assert result["bound"] and "henchmen die 1" in result["detail"]
    assert result["banner_after_flash"] == ""  # a flash is not an error
    assert result["grid_cell_12"] == "7 E" and "Obelisk tile grid" in result["grid_title"]
    assert result["saved_urls"][:2] == ["sim://godice?count=5&seed=7", "sim://tablebus?kind=stand&demo=1"]
    assert [title for title, _ in result["devices"]] == ["Simulated dice (5 GoDice)", "Simulated hourglass stand"]
    assert [(b["role"], b["index"]) for b in result["saved_bindings"]] == [("henchmen", 0)]


def test_bound_dice_roll_into_the_open_table_and_a_throw_out_of_turn_is_asked_about(data_dir, tmp_path):
    result = run_driver(data_dir, tmp_path / "table.json", "--scenario", "table")
    # Before the event card: a question on a sheet, with the engine's words, and the table unchanged.
    assert "dice" in result["question"].lower() and result["dice_after_question"] is None
    assert "We roll again" in result["answers"] and "Yes, use these dice" not in result["answers"]
    assert not result["sheet_after_answer"]
    # The throw shows on the round screen by itself and is the newest move in the log.
    assert result["dice"] == ["steal", "steal", "swap", "wild", "relocate"]
    assert len(result["shown"]) == 5 and "Anna" in result["log"][0]
    # Dice thrown again without a word: a reroll, one chip face down.
    assert result["after_reroll"] == ["secure", "steal", "swap", "donate", "relocate"]
    assert result["chips_used"] == 1 and result["face_down"] == 1
    # A die picked on the screen lights up; another die thrown is asked about; the picked one is the reroll.
    assert result["lit"] == [2]
    assert "Dice 2 were thrown, but dice 3 were to be rerolled" in result["wrong_die"]
    assert result["after_announced"] == ["secure", "steal", "steal", "donate", "relocate"]
