"""The goods calibration made by touch in the real app under Xvfb (tests/ui/calibrate_driver.py): a finger across each
player's zone, a tap on a piece of each kind on a rendered photo from the camera, saved; the end screen's "Goods from
a photo" then counts every player's goods with it as well as with a calibration made on the command line
(tests/ui/test_camera_screen.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.conftest import run_script

pytestmark = pytest.mark.ui
DRIVER = Path(__file__).with_name("calibrate_driver.py")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("calibrate")
    (tmp / "data").mkdir()
    return run_script(DRIVER, "--data-dir", str(tmp / "data"), out=tmp / "calibrate.json", timeout=300)


def test_zones_are_drawn_with_a_finger_seat_by_seat(result):
    assert result["prompts"][0].startswith("1. Draw a finger across each player's zone")
    assert result["zones_with_stray"] == 5 and len(result["zones"]) == 4      # Undo took the stray one back
    assert result["zone_labels"] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    # each drawn zone is where the finger went: inside the photo, wider than a piece
    for x0, y0, x1, y1 in result["zones"]:
        assert 0 <= x0 < x1 <= 1280 and 0 <= y0 < y1 <= 960 and x1 - x0 > 100 and y1 - y0 > 100


def test_each_kind_is_asked_for_in_turn_and_a_tap_beside_a_piece_is_refused(result):
    assert result["prompts"][1] == "2. Tap one piece: red. Not on the table? Skip it."
    assert result["table_tap"] == {"banner": "No red piece there: tap the middle of one piece.", "samples": 0}
    assert "refused" not in result
    assert result["learnt"] == ["red", "orange", "yellow", "green", "blue", "pink", "turquoise", "lamp", "artifact"]
    assert result["sample_labels"][4:] == ["cursed artifact"]     # the newest piece named, a box on every piece
    assert result["sample_boxes"] == 4 + 9
    assert result["prompts"][2] == "Every kind tapped or skipped: save the calibration."
    # Skip moves past a kind not on the table; Undo asks for it again
    assert result["after_skip"] == {"prompt": "Every kind tapped or skipped: save the calibration.",
                                    "can_skip": False}
    assert result["after_undo"] == "2. Tap one piece: cursed artifact. Not on the table? Skip it."


def test_the_calibration_is_saved_in_a_few_touches_and_said(result):
    assert result["saved"]
    assert result["banner"] == "Goods calibration saved: 4 zones, 9 kinds of goods."
    # Calibrate goods, 4 drags, Zones done, the refused tap, 9 pieces, Save (the stray drag, Skip and the Undos
    # are left out: they are the test's detours)
    assert result["touches"] == 17


def test_the_calibration_screen_fits_every_tablet_in_every_language(result):
    from tests.ui.fit import WINDOW_SIZES

    assert {(r["size"], r["lang"]) for r in result["sizes"]} == \
        {(f"{w}x{h}", lang) for w, h in WINDOW_SIZES.values() for lang in ("en", "de", "es")}
    # the prompt follows a language switched on this screen
    said = {r["lang"]: (r["prompt"], r["done"]) for r in result["sizes"]}
    assert said["de"] == ("Jede Art angetippt oder übersprungen: speichere die Kalibrierung.", "Speichern")
    assert said["es"][0] == "Cada tipo tocado o saltado: guarda la calibración."
    for r in result["sizes"]:
        assert r["unfit"] == [], (r["size"], r["lang"], r["unfit"])
        _, _, ww, wh = r["window"]
        for name, (x, y, w, h) in r["controls"].items():
            assert x >= -0.5 and y >= -0.5 and x + w <= ww + 0.5 and y + h <= wh + 0.5, (r["size"], r["lang"], name)


def test_the_end_screen_counts_each_players_goods_with_the_calibration_made_in_the_app(result):
    lines, names = result["lines"], result["names"]
    assert [line.split(":")[0] for line in lines[:4]] == names
    # Ben has a red good more on the table than in the log: his line alone differs, with the photo's count
    assert [line.endswith("— the same as the app") for line in lines[:4]] == [True, False, True, True]
    reds = result["placed"][1]["red"]
    assert lines[1].startswith(f"Ben: {reds} red") and f"the app says {reds - 1} red" in lines[1]
