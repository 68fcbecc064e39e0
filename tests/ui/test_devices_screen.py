"""The devices screen and the dice at a table, in the real app under Xvfb, by touch (tests/ui/devices_driver.py).

With no radio, simulated dice are offered; they connect through the real BLE stack on the virtual radio and act only
when someone asks (table rule 8, docs/architecture.md); a tap binds a die; the binding and the devices are kept in the
data folder.
Issue 14's report is played as reported: bind five simulated dice, resume a 7-player table, wait — nothing rolls into
it; a throw nobody announced is a question in words; no question ever covers Home.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.ui.conftest import run_script

pytestmark = pytest.mark.ui
DRIVER = Path(__file__).with_name("devices_driver.py")
ADDRESS = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}", re.I)   # a radio address, never shown


def run_driver(data_dir, out, *args):
    return run_script(DRIVER, "--data-dir", str(data_dir), *args, out=out)


def test_simulated_dice_roll_only_when_asked_and_a_tap_binds_one(data_dir, tmp_path):
    result = run_driver(data_dir, tmp_path / "devices.json")
    assert not result["offer_after"] and result["dice"] == 5
    # Shown by name (the die's own, its shell and colour), never by radio address.
    assert result["titles"] == ["GoDice_1 d6 red", "GoDice_2 d6 green", "GoDice_3 d6 blue", "GoDice_4 d6 yellow",
                                "GoDice_5 d6 orange"]
    assert not [text for text in result["titles"] + result["titles_d20"] + result["every_title"]
                if ADDRESS.search(text)]
    assert [status for _, status in result["devices"]] == ["connected", "connected"]
    # Nobody asked: six seconds without a roll, every face still blank.
    assert result["rolls_while_nobody_asks"] == 0 and result["faces_while_nobody_asks"] == [["–"] * 5]
    # Roll all throws each die once; a die's Roll throws that one only.
    assert result["roll_all_text"] == "Roll all" and sorted(result["rolls_after_roll_all"].values()) == [1] * 5
    assert all(face.isdigit() and 1 <= int(face) <= 6 for face in result["faces"])
    assert sorted(result["rolled_one"].values()) == [0, 0, 0, 0, 1]
    assert result["bound"] and "henchmen die 1" in result["detail"]
    assert result["banner_after_flash"] == ""  # a flash is not an error
    assert result["stand_status"] == "connected · turned over"
    # The shell is picked on the screen: the dice read as D20 from then on, and keep their places.
    assert (result["shell_before"], result["shell_after"]) == ("Shell: D6", "Shell: D20")
    assert all(" d20 " in title for title in result["titles_d20"]) and result["still_bound"]
    assert result["grid_cell_12"] == "7 E" and "Obelisk tile grid" in result["grid_title"]
    assert result["saved_urls"] == ["sim://godice?count=5&seed=7&shell=d20", "sim://tablebus?kind=stand",
                                    "sim://tablebus?kind=obelisk&name=tile-grid"]
    assert [(b["role"], b["index"]) for b in result["saved_bindings"]] == [("henchmen", 0)]
    # Removed: no die rows left behind, no place still held.
    assert result["dice_after_remove"] == [] and result["bindings_after_remove"] == 0
    # Find devices lists serial ports in a worker thread: the loop kept running while they were listed (on the loop,
    # a 0.6 s listing would let no tick through)
    assert result["ports_listed_off_the_loop"] and result["loop_ticks_while_listing"] >= 1
    assert result["scan_message"]  # no radio here: said so in a sentence


def test_bound_dice_roll_into_the_open_table_and_a_throw_nobody_announced_is_asked_about(data_dir, tmp_path):
    result = run_driver(data_dir, tmp_path / "table.json", "--scenario", "table")
    # Before the event card: a question on a sheet, and the table unchanged.
    assert result["question"] == "The dice show no move the game expects now"
    assert result["answers"] == ["No, ignore this throw", "We enter it on the screen"]
    assert result["dice_after_question"] is None and not result["sheet_after_answer"]
    # The throw shows on the round screen by itself and is the newest move in the log.
    assert result["dice"] == ["steal", "steal", "swap", "wild", "relocate"]
    assert len(result["shown"]) == 5 and "Anna" in result["log"][0]
    # Dice thrown again without a word: a question in words; nothing paid until someone says yes.
    assert result["reroll_question"] == "Anna rolled dice 1, 4 again (Secure, Donate): discard a chip face down?"
    assert result["chips_while_asked"] == 0
    assert result["after_reroll"] == ["secure", "steal", "swap", "donate", "relocate"]
    assert result["chips_used"] == 1 and result["face_down"] == 1
    # A die picked on the screen lights up; another die thrown is asked about; the picked one is the reroll.
    assert result["lit"] == [2]
    assert "Dice 2 were thrown, but dice 3 were to be rerolled" in result["wrong_die"]
    assert result["after_announced"] == ["secure", "steal", "steal", "donate", "relocate"]
    assert result["sheet_after_announced"] is None


def test_issue_14_simulated_dice_never_play_into_a_table_by_themselves(tmp_path):
    """Dice and boards → Add simulated dice → bind five → resume a 7-player table (a new run of the app), wait."""
    data = tmp_path / "data"
    data.mkdir()
    bound = run_driver(data, tmp_path / "bind.json", "--scenario", "bind")
    assert bound["bound"] == [["henchmen", i] for i in range(5)] and bound["chips"] == [7] * 7
    result = run_driver(data, tmp_path / "unasked.json", "--scenario", "unasked")
    # Nobody touched anything: no roll, no question, no chip spent (the report: player 7 went to "0 (7 face down)").
    assert result["sheets_while_waiting"] == []
    assert result["chips_after_wait"] == result["chips_before"] == [7] * 7
    assert result["log_after_wait"] == result["log_before"]
    # The table's menu throws the simulated dice: a Roll button per die and Roll all.
    assert result["menu"][-1] == "Throw the simulated dice"
    assert result["roll_sheet"] == {"all": "Roll all 5", "dice": [f"Roll {n}" for n in range(1, 6)], "picked": ""}
    # Thrown without an announced reroll: a question in words (never "The dice say reroll 0,1,2,3,4 …").
    assert result["question"].startswith("Anna rolled dice 1, 2, 3, 4, 5 again (")
    assert result["question"].endswith("): discard a chip face down?")
    assert result["answers"] == ["Yes, use these dice", "No, ignore this throw"]
    assert result["after_no"] == {"chips": 7, "log": result["log_before"], "sheet": None}
    assert result["sheets_after_no"] == []  # it does not come back by itself
    # Die 3 picked on the screen and rolled from the menu: the announced reroll is booked, one chip face down.
    assert result["picked_text"] == "Roll the picked dice: 3"
    assert result["after_announced"]["chips"] == 6 and result["after_announced"]["hidden"] == 1
    assert result["after_announced"]["last"].startswith("reroll 2 ")
    # Home: whatever the dice do, no question covers it.
    assert result["sheets_on_home"] == []


def test_a_die_picked_up_and_put_back_does_not_stall_the_table_and_a_godice_turned_by_hand_is_no_roll(data_dir,
                                                                                                    tmp_path):
    result = run_driver(data_dir, tmp_path / "hands.json", "--scenario", "hands")
    # Dice 1 and 2 picked and rolled while die 4 is held: the table waits for die 4 while it is in a hand …
    assert result["picked_text"] == "Roll the picked dice: 1, 2" and result["waiting_while_held"]
    # … and books the reroll once die 4 is put back (set down: no roll, its face stands), without a question.
    assert result["reroll"].startswith("reroll 0,1 ") and result["die_4_unchanged"]
    assert result["seconds_after_put_back"] < 5 and result["question_after_pickup"] is None
    # A GoDice turned to another face by hand ("MS", move stable): not a roll — nothing booked, nothing asked.
    assert result["after_turn"] == {"log_unchanged": True, "dice_unchanged": True, "questions": []}
    assert "set down by hand" in result["devices_row"]["detail"]
