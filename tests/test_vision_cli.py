"""`python -m vision …` as a user runs it: the dice JSON exactly as issue 19 §2 specifies, and every bad input (a
missing photo, a zero-byte file, a truncated JPEG, a 60000x60000 PNG header, random bytes, a folder, odd Unicode
names, a hostile calibration or symbol-set file) refused with exit 2 and one line on stderr, never a traceback.

Real subprocesses for what a terminal shows; Hypothesis feeds the in-process entry point hostile files.
"""
from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.__main__ import main
from vision.render.dice import render_dice

ROOT = Path(__file__).resolve().parent.parent


def vision(*argv, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "vision", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=cwd or ROOT, timeout=120, env=env)


def refused(result, *words):
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert result.stdout == b"", result.stdout[:200]
    for w in words:
        assert w in err, err
    return err


def run_in_process(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:       # argparse's own usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    """A rendered photo of four dice, written as JPEG."""
    img, _truth = render_dice(np.random.default_rng(5), (640, 640), n=4, side=60)
    path = tmp_path_factory.mktemp("photos") / "dice.jpg"
    cv2.imwrite(str(path), img)
    return path


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height (the pixel data is a tiny stub)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + \
        chunk(b"IEND", b"")


def test_dice_json_is_one_object_mapping_each_path_to_its_dice(photo, tmp_path):
    other = tmp_path / "zweites Foto ünd 🎲.png"
    cv2.imwrite(str(photo.parent / "x.png"), cv2.imread(str(photo)))
    other.write_bytes((photo.parent / "x.png").read_bytes())
    result = vision("dice", str(photo), str(other), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == [str(photo), str(other)]
    for dice in data.values():
        assert isinstance(dice, list) and dice
        for d in dice:
            assert set(d) == {"face", "box", "confidence"}
            assert d["face"] in range(1, 7)
            assert len(d["box"]) == 4 and all(isinstance(v, (int, float)) for v in d["box"])
            x0, y0, x1, y1 = d["box"]
            assert 0 <= x0 < x1 <= 700 and 0 <= y0 < y1 <= 700
            assert 0.0 <= d["confidence"] <= 1.0
    assert data[str(photo)] == data[str(other)]       # the same pixels read the same, whatever the file's name


def test_dice_without_json_prints_a_line_per_photo(photo):
    result = vision("dice", str(photo))
    assert result.returncode == 0
    assert result.stdout.decode().startswith(f"{photo}: ")


@pytest.mark.parametrize("name, content, words", [
    ("missing.jpg", None, ["no such file"]),
    ("empty.jpg", b"", ["empty"]),
    ("notes.txt", b"these are my notes, not a photo\n", ["not a picture"]),
    ("huge.png", png_header(60000, 60000), ["too large"]),
    ("tiny.png", png_header(4, 4), []),
])
def test_unreadable_photos_are_refused_in_one_line(tmp_path, photo, name, content, words):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    refused(vision("dice", str(photo), str(path), "--json"), str(path), *words)


def test_a_truncated_jpeg_is_refused(tmp_path, photo):
    data = photo.read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    refused(vision("dice", str(cut), "--json"), "cut short")


def test_a_folder_is_not_a_photo(tmp_path):
    refused(vision("dice", str(tmp_path)), "folder")


def test_tiles_and_goods_and_symbols_refuse_bad_files_too(tmp_path, photo):
    refused(vision("tiles", str(tmp_path / "nope.jpg"), "--json"), "no such file")
    refused(vision("goods", str(photo), "--calibration", str(tmp_path / "nope.json")), "no such calibration")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "zones": {"a": [[0, 0], [1, 1]]}, "kinds": {}}')
    refused(vision("goods", str(photo), "--calibration", str(bad)), "zone")
    refused(vision("symbols", str(photo), "--set", str(bad)), "symbol set")
    refused(vision("stickers", "--out", str(tmp_path / "no" / "such" / "folder" / "sheet.png")))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(
    st.binary(max_size=3000),
    st.builds(lambda n: b"\xff\xd8\xff\xe0" + b"\x00" * n, st.integers(0, 2000)),          # a JPEG that stops
    st.builds(lambda w, h: png_header(w, h), st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1)),
))
def test_any_bytes_as_a_photo_give_exit_0_or_2_and_never_raise(tmp_path, data):
    path = tmp_path / "fuzz.img"
    path.write_bytes(data)
    code, out, err = run_in_process("dice", str(path), "--json")
    assert code in (0, 2)
    if code == 2:
        assert err.count("\n") == 1 and out == ""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
                    min_size=1, max_size=40))
def test_odd_unicode_file_names_are_read_or_refused_plainly(tmp_path, photo, name):
    path = tmp_path / name
    try:
        path.write_bytes(photo.read_bytes())
    except OSError:
        return                       # a name this file system itself refuses (too long, '.', '..')
    code, out, err = run_in_process("dice", str(path), "--json")
    if path.is_file():
        assert code == 0, err
        assert list(json.loads(out)) == [str(path)]
    else:
        assert code == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
                        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                        max_leaves=20))
def test_hostile_calibration_and_symbol_files_are_refused_plainly(tmp_path, photo, doc):
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps(doc))
    for argv in (("goods", str(photo), "--calibration", str(cal)), ("symbols", str(photo), "--set", str(cal))):
        code, out, err = run_in_process(*argv)
        assert code == 2 and err.count("\n") == 1 and out == "", (argv, err)


def test_deeply_nested_calibration_is_refused(tmp_path, photo):
    cal = tmp_path / "deep.json"
    cal.write_text("[" * 100_000 + "]" * 100_000)
    refused(vision("goods", str(photo), "--calibration", str(cal)), "calibration")
