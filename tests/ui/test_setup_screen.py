"""The setup screen by touch (tests/ui/harness.py `setup-checks`): colours swap between seats, seats reorder by
drag and by the up button, a 4-player table is told which two mission cards to put back, and at the end a mission
put back is dimmed and says so."""
from __future__ import annotations

import pytest

from companion.games.obscurians.setup import draw_put_back
from tests.ui.conftest import run_harness

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def setup_checks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("setup")
    (tmp / "data").mkdir()
    return run_harness("setup-checks", "--data-dir", str(tmp / "data"), "--seed", "7", out=tmp / "setup.json")


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


def test_four_players_are_told_which_missions_to_put_back(setup_checks):
    a, b = draw_put_back(7)
    assert setup_checks["put_back"] == [a, b] == setup_checks["setup"]["put_back"]
    assert f"{a.capitalize()} and {b.capitalize()}" in setup_checks["put_back_text"]
    assert setup_checks["end_guidance"] == f"Put back in the box at the start: {a.capitalize()} and {b.capitalize()}"
    assert setup_checks["put_back_dimmed"]
    assert setup_checks["put_back_reason"] == f"{a.capitalize()} was put back in the box at the start of the game"
    assert setup_checks["score_reason"].startswith("Tap in every player's mission first:")
    assert setup_checks["small"] == {"setup": [], "missions": []}
