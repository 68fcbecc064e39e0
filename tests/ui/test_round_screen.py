"""The round screen's promises on the real app, by touch (tests/ui/obscurians_driver.py `checks`): panels around the
edges that a tap on a turned panel really reaches, options that stay in place and say why they are off, the roll in
counts, the reroll's chip face down, the move log with Undo and Redo naming the move, the menu on every side."""
from __future__ import annotations

import pytest

from tests.ui.conftest import run_obscurians

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def checks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("checks")
    (tmp / "data").mkdir()
    return run_obscurians("checks", "--data-dir", str(tmp / "data"), "--seed", "7", out=tmp / "checks.json")


def test_panels_sit_in_seat_order_around_the_edges_and_a_tap_on_a_turned_panel_lands(checks):
    panels = checks["layout"]["panels"]
    assert [(p["seat"], p["angle"]) for p in panels] == [(0, 0), (1, 270), (2, 180), (3, 90)]
    bottom, left, top, right = (p["area"] for p in panels)
    assert bottom[1] == 0 and left[0] == 0 and top[1] + top[3] == 800 and right[0] + right[2] == 1280
    # A finger on Chris (across the table, turned 180°), Ben (left, 270°) and Dana (right, 90°) picks them.
    assert checks["turned_taps"] == {"2": 2, "1": 1, "3": 3}


def test_a_used_chip_stays_in_its_place_dimmed_and_says_why(checks):
    assert checks["log_chip"] == "Anna placed a Give chip on Ben"
    assert checks["mission_slots"] == ["keep", "take", "collect", "give", "select", "lose"]
    assert checks["give_dimmed"]
    assert checks["give_reason"] == "Anna has no Give chip left to place"


def test_the_roll_is_tapped_in_as_counts(checks):
    assert checks["roll_taps"] == 3  # 2 Steal, 1 Swap, 2 Wild: one tap per face shown
    assert sorted(checks["rolled"]) == ["steal", "steal", "swap", "wild", "wild"]


def test_a_reroll_discards_one_chip_face_down_and_names_none(checks):
    assert checks["pay_options"] == [["face_down", "Discard one chip, face down"]]
    assert checks["reroll"]["discard"] == "face_down"
    assert checks["log_reroll"].startswith("Anna discarded a chip face down and rerolled:")
    assert "(1 face down)" in checks["panel_status"]


def test_disabled_options_say_why_in_the_engines_words(checks):
    assert checks["donate_reason"] == "Anna rolled no Donate; add a Wild"
    # My own good under Steal: what Steal needs (issue 14 §3).
    assert checks["own_reason"] == "Steal takes another player's good: tap it on their row, or drag it onto yours"
    assert checks["end_reason"].startswith("Anna still has") and "Steal to carry out" in checks["end_reason"]
    assert checks["own_reason_de"] == ("Rauben nimmt eine Ware von jemand anderem: tippe sie in dessen Zeile an oder "
                                       "ziehe sie in deine")


def test_the_move_log_and_undo_redo_name_the_move(checks):
    assert checks["log_choose"].startswith("Anna chose Steal ×")
    assert checks["log_steal"] == checks["undo_text"] == "Anna stole 1 orange good from Ben"
    after = checks["after_undo"]
    assert after["log0"] == checks["log_choose"] and after["ben_orange"] == 10
    assert after["redo_text"] == "Anna stole 1 orange good from Ben"
    assert checks["after_redo"] == {"log0": "Anna stole 1 orange good from Ben", "ben_orange": 9}
    assert checks["log_de"] == "Anna raubt Ben: 1 Ware orange"


def test_language_and_sound_from_the_menu_and_the_chime_is_asked_for(checks):
    assert checks["menu_open"] == "MenuSheet"
    assert checks["in_hand_angles"] == [0]  # in the hand, every panel upright
    assert checks["sound_on_after_toggle"] is False
    assert checks["sound_after_reveal"] == [["event", True]]
    assert checks["small"] == {"round-de": []} and checks["glyphs"] == {"round-de": []}
