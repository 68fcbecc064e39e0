"""The camera in the real app under Xvfb, by touch (tests/ui/camera_driver.py), with a camera that is a real shared
photo (file://, ../shared/data/dice_photos beside this clone) or rendered goods: the camera screen from Dice and
boards, its boxes, its way back; a doubtful camera reading at a table is a question with the photo; the end screen's
goods from a photo.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.dice_sets import labelled
from tests.ui.conftest import run_script

pytestmark = pytest.mark.ui
DRIVER = Path(__file__).with_name("camera_driver.py")


def shared_photos(n_dice=None, doubtful=False, sure=False):
    """The labelled shared photos the committed reader reads right (every die found, its face right), in name
    order: (path, labels). The tests are about the camera's way into the app; the reader's accuracy is measured in
    bench/bench_vision_dice.py."""
    from companion.session.observe import MIN_CONFIDENCE
    from vision.detections import match_dice
    from vision.dice import default_reader
    from vision.imageio import read_image

    reader = default_reader()
    for path, truth in labelled():
        if n_dice is not None and len(truth) != n_dice:
            continue
        found = reader.read(read_image(path))
        if match_dice(found, truth)[1:] != (0, 0):
            continue
        if doubtful and min(d.confidence for d in found) >= MIN_CONFIDENCE:
            continue
        if sure and min(d.confidence for d in found) < MIN_CONFIDENCE:
            continue
        return path, truth
    pytest.fail("no shared photo" + (f" of {n_dice} dice" if n_dice else "") + " is read right by the committed reader"
                + (" with a die below the door's confidence (0.9)" if doubtful else "")
                + (" with every die at the door's confidence (0.9)" if sure else ""))


def run_driver(tmp_path, scenario, *args):
    data = tmp_path / "data"
    data.mkdir()
    return run_script(DRIVER, "--data-dir", str(data), "--scenario", scenario, *args,
                      out=tmp_path / f"{scenario}.json", timeout=300)


def test_the_camera_screen_reads_a_real_photo_and_draws_each_die(tmp_path):
    photo, truth = shared_photos()
    result = run_driver(tmp_path, "camera", "--photo", str(photo))
    assert result["device_title"] == f"Camera: {photo.name}"
    assert result["title"] == f"Camera: {photo.name}" and result["frame_size"] == [640, 640]
    # Before Read dice nothing is drawn; after it, a box per die with its face and confidence.
    assert result["boxes_before"] == []
    faces = sorted(int(label.split(" · ")[0]) for label in result["labels"])
    assert faces == sorted(face for face, _ in truth)
    assert all(label.endswith(" %") for label in result["labels"])
    assert len(result["boxes"]) == len(truth)
    assert result["status"].startswith(f"{len(truth)} dice: ")
    assert "No table is open: the dice are only shown here." in result["status"]
    # The other two buttons say why they found nothing, in a sentence.
    assert result["map_status"] == "No map stickers found in the picture."
    assert result["goods_status"].startswith("No goods calibration yet")
    assert result["moved_by_reading"] == []                    # no control moves under a finger
    # At every tablet size and in every language: everything fits, nothing leaves the window, the picture shows.
    from tests.ui.fit import WINDOW_SIZES

    assert {(r["size"], r["lang"]) for r in result["sizes"]} == \
        {(f"{w}x{h}", lang) for w, h in WINDOW_SIZES.values() for lang in ("en", "de", "es")}
    for r in result["sizes"]:
        assert r["unfit"] == [], r
        _, _, ww, wh = r["window"]
        for name, (x, y, w, h) in r["controls"].items():
            assert x >= -0.5 and y >= -0.5 and x + w <= ww + 0.5 and y + h <= wh + 0.5, (r["size"], name)
        assert min(r["photo_shown"]) >= 300 and r["labels"] == len(truth), r
    # Back returns to Dice and boards; Home to Home.
    assert result["after_back"] == "devices" and result["after_home"] == "home"
    assert result["preview_stopped"]


def test_a_doubtful_camera_reading_at_a_table_asks_with_the_photo_and_changes_nothing_until_confirmed(tmp_path):
    photo, truth = shared_photos(n_dice=5, doubtful=True)
    result = run_driver(tmp_path, "doubtful", "--photo", str(photo))
    assert result["bound"] == [0, 1, 2, 3, 4] and result["table_kept"]
    assert result["question"].startswith("Is this right? ") and "may have been misread: Anna rolled" in \
        result["question"]
    assert result["answers"] == ["Yes, use these dice", "We roll again", "We enter it on the screen"]
    # The photo with a box per die: its place, its face, how sure.
    assert result["frame_size"] == [640, 640]
    assert [label.split(":")[0] for label in result["labels"]] == ["1", "2", "3", "4", "5"]
    assert sorted(int(label.split(": ")[1].split(" · ")[0]) for label in result["labels"]) == \
        sorted(face for face, _ in truth)
    assert result["log_while_asked"] == 0                     # nothing applied while the table is asked
    assert result["log_after_yes"] == 1 and result["move"].startswith("roll ")
    # The same dice read again after the roll: not the turn's roll any more (a reroll would cost a chip) — asked
    # with the photo again, and answering without confirming leaves the table as it was.
    assert result["again_question"].startswith("Is this right? ") and "rerolled" in result["again_question"]
    assert result["again_labels"] == 5 and result["log_after_no"] == 0 and not result["sheet_after_no"]
    # Back returns to the table the camera was opened from.
    assert result["back_to"] == "round"


def test_a_sure_camera_reading_at_a_table_is_the_roll_at_once_and_says_so(tmp_path):
    """Five dice the reader is sure of (each at least the door's 0.9: read right that sure 99 times in 100 on photos
    it never saw) at a table waiting for the roll: Read dice is the roll, with no question; the camera screen says
    the table took it, and Back shows the table."""
    photo, truth = shared_photos(n_dice=5, sure=True)
    result = run_driver(tmp_path, "sure", "--photo", str(photo))
    assert result["bound"] == [0, 1, 2, 3, 4] and result["table_kept"]
    assert result["sheet"] is None and result["log_after_read"] == 1 and result["move"].startswith("roll ")
    # RULING obscurians-dice default pips: 1 steal, 6 donate, 2 swap, 5 secure, 3 relocate, 4 wild
    names = {1: "steal", 6: "donate", 2: "swap", 5: "secure", 3: "relocate", 4: "wild"}
    assert sorted(result["dice"]) == sorted(names[face] for face, _box in truth)
    assert sorted(int(label.split(" · ")[0]) for label in result["labels"]) == sorted(face for face, _ in truth)
    assert all(int(label.split(" · ")[1].rstrip(" %")) >= 90 for label in result["labels"])
    assert "doubtful" not in result["status"]
    assert result["banner"] == "The table took these dice: Back shows the move in its log."
    assert result["back_to"] == "round"


def test_the_end_screen_counts_goods_on_a_photo_and_uses_them_once_confirmed(tmp_path):
    result = run_driver(tmp_path, "goods")
    names = result["names"]
    assert result["question"] == "The goods on the photo: check the boxes"
    # Ben has a red good more on the table than in the log: the one line that differs; the others agree.
    lines = result["lines"]
    assert [line.split(":")[0] for line in lines[:4]] == names
    assert [line.endswith("— the same as the app") for line in lines[:4]] == [True, False, True, True]
    assert "— the app says" in lines[1]
    reds = result["placed"][1]["red"]
    assert lines[1].startswith(f"Ben: {reds} red") and f"the app says {reds - 1} red" in lines[1]
    assert result["labels"]                                   # detections drawn on the photo
    # Nothing shown on the score cards before the players confirm; then each card has its photo count.
    assert result["cards_before"] == ["", "", "", ""]
    assert [card.endswith("the same as the app") for card in result["cards_after"]] == [True, False, True, True]
    assert result["banner"] == ("The photo differs from the app for Ben: look at their goods, or undo the move that "
                                "moved them.")
    # Count goods on the camera screen (from the end screen's menu): the zones by name, every heap boxed; Back.
    assert [line.split(":")[0] for line in result["camera_status"][:4]] == names
    assert result["camera_status"][1].startswith(f"Ben: {reds} red")
    assert result["camera_boxes"] >= len(result["labels"]) and result["back_to"] == "end"
