"""The setup screen by touch (tests/ui/obscurians_driver.py `setup-checks`): colours swap between seats, seats reorder
by drag and by the up button, a 4-player table puts two mission cards back unseen (the app names
none), a group that looked taps them in, and at the end a mission put back is dimmed and says so."""
from __future__ import annotations

import re

import pytest

from tests.ui.conftest import run_obscurians

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def setup_checks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("setup")
    (tmp / "data").mkdir()
    return run_obscurians("setup-checks", "--data-dir", str(tmp / "data"), "--seed", "7", out=tmp / "setup.json")


def test_tapping_a_taken_colour_swaps_it(setup_checks):
    assert setup_checks["taken_label"] == "2"  # Ben's orange shows his seat number on Anna's row
    assert setup_checks["colours_before"] == ["red", "orange", "yellow", "green"]
    assert setup_checks["colours_after_swap"] == ["orange", "red", "yellow", "green"]


def test_seats_reorder_by_drag_and_by_the_up_button(setup_checks):
    assert setup_checks["names_after_drag"] == ["Ben", "Chris", "Anna", "Dana"]
    assert setup_checks["names_after_up"] == ["Ben", "Chris", "Dana", "Anna"]
    players = setup_checks["setup"]["players"]
    assert [p["name"] for p in players] == ["Ben", "Chris", "Dana", "Anna"]
    assert [p["colour"] for p in players] == ["red", "yellow", "green", "orange"]  # colours moved with them
    assert players[setup_checks["setup"]["start"]]["name"] == "Anna"  # and so did the starting player


def test_four_players_put_two_mission_cards_back_unseen_and_the_app_names_none(setup_checks):
    assert "put one back in the box unseen" in setup_checks["put_back_text"]
    assert setup_checks["put_back_unseen"] is None  # the app knows no more than the players
    # Nothing shown on the setup screen names a card: the rulebook's instruction names the trios, not a pick.
    instruction = setup_checks["put_back_text"]
    shown = [t for t in setup_checks["shown_unseen"] if t != instruction]
    missions = {"Keep", "Take", "Collect", "Give", "Select", "Lose"}
    assert not [t for t in shown if t in missions], shown  # no card buttons on show
    assert not [t for t in shown if re.search(r"(Keep|Take|Collect)\W+(and|&|,)\W+(Give|Select|Lose)", t)], shown


def test_a_group_that_looked_taps_them_in_and_the_end_refuses_them_as_missions(setup_checks):
    assert "tap them in" in setup_checks["put_back_seen_text"]
    assert setup_checks["put_back"] == ["keep", "give"] == setup_checks["setup"]["put_back"]
    assert setup_checks["end_guidance"] == "Put back in the box at the start: Keep and Give"
    assert setup_checks["put_back_dimmed"]
    assert setup_checks["put_back_reason"] == "Keep was put back in the box at the start of the game"
    assert setup_checks["score_reason"].startswith("Tap in every player's mission first:")
    assert setup_checks["small"] == {"setup": [], "missions": []}
