"""vision's JSON files are read through firmware_bridge/strictjson.py: a key written twice is refused with one line
naming it, never read by its last value. A goods calibration whose `max_distance` is written twice, a zones file
tapping `red` twice, a symbol set naming a face twice and a dice model card with two thresholds: each says which key,
on the command line with exit 2 and no traceback.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import DEFAULT_MODEL, DiceModelError, DiceReader
from vision.goods import calibrate
from vision.render.goods import calibration_scene
from vision.render.symbols import FACES, render_symbols
from vision.symbols import teach

ROOT = Path(__file__).resolve().parent.parent


def vision(*argv):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "vision", *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env=env)


def refused_naming(result, key: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert f"the key '{key}' appears twice in one object" in result.stderr, result.stderr
    assert result.stdout == ""
    return result.stderr


def with_key_twice(text: str, key: str, value) -> str:
    """The JSON object `text` with `key` written once more, first, with another value."""
    assert text.lstrip().startswith("{")
    return "{" + json.dumps(key) + ": " + json.dumps(value) + ", " + text.lstrip()[1:]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table")
    photo, setup = calibration_scene(np.random.default_rng(3))
    cv2.imwrite(str(folder / "table.png"), photo)
    (folder / "zones.json").write_text(json.dumps({"zones": setup["zones"], "samples": setup["samples"]}))
    calibrate(photo, {"zones": setup["zones"], "samples": setup["samples"]}).save(folder / "cal.json")
    return folder


def test_a_calibration_with_a_threshold_twice(table, tmp_path):
    cal = tmp_path / "cal.json"
    cal.write_text(with_key_twice((table / "cal.json").read_text(), "max_distance", 199))
    said = refused_naming(vision("goods", str(table / "table.png"), "--calibration", str(cal)), "max_distance")
    assert "not a calibration file" in said


def test_a_zones_file_tapping_a_kind_twice(table, tmp_path):
    zones = json.loads((table / "zones.json").read_text())
    x, y = zones["samples"]["red"]
    text = json.dumps(zones).replace('"samples": {', f'"samples": {{"red": [{x + 40}, {y}], ', 1)
    (tmp_path / "zones.json").write_text(text)
    said = refused_naming(vision("calibrate", str(table / "table.png"), "--zones", str(tmp_path / "zones.json"),
                                 "--out", str(tmp_path / "cal.json")), "red")
    assert "zones file" in said and not (tmp_path / "cal.json").exists()


def test_a_symbol_set_naming_a_face_twice(tmp_path):
    rng = np.random.default_rng(4)
    photos = {f: [render_symbols(rng, faces=[f], n=1, side=70, tables=("plain",))[0]] for f in FACES}
    teach(photos).save(tmp_path / "set.json")
    data = json.loads((tmp_path / "set.json").read_text())
    first = FACES[0]
    another = json.dumps(data["faces"][FACES[1]])
    text = json.dumps(data).replace('"faces": {', f'"faces": {{{json.dumps(first)}: {another}, ', 1)
    (tmp_path / "set.json").write_text(text)
    cv2.imwrite(str(tmp_path / "photo.png"), photos[first][0])
    said = refused_naming(vision("symbols", str(tmp_path / "photo.png"), "--set", str(tmp_path / "set.json")), first)
    assert "not a symbol set" in said


def test_a_dice_model_card_with_its_threshold_twice(tmp_path):
    for path in DEFAULT_MODEL.parent.glob(DEFAULT_MODEL.name + "*"):
        shutil.copy(path, tmp_path / path.name)
    card = tmp_path / "dice.json"
    card.write_text(with_key_twice(card.read_text(), "min_confidence", 0.0))
    with pytest.raises(DiceModelError, match="the key 'min_confidence' appears twice in one object") as err:
        DiceReader(tmp_path / "dice")
    assert "\n" not in str(err.value)
