"""The Obelisk map from a photo (issue 19 §4): the sticker sheet, and rendered photos of maps with random camera
slant and turn, blur, noise, uneven light, glare and hands: never a wrong cell, hidden cells unknown, the rest read.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.render.tiles import random_map, render_map
from vision.stickers import CORNER_IDS, TILE_KINDS, dictionary, sheet, tile_label, write_sheet
from vision.tiles import UNKNOWN, read_map

ROOT = Path(__file__).resolve().parent.parent


class NoDice:
    """Stands in for the dice reader where a test is about the tiles alone."""
    def read(self, image):
        return []


def cells_of(notation: str) -> list[list[str]]:
    return [row.split() for row in notation.split(" / ")]


def test_the_sheet_carries_every_marker_once_and_readably():
    page = sheet()
    assert page.shape == (3508, 2480)                        # A4 at 300 dpi
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters()).detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == list(range(len(TILE_KINDS))) + sorted(CORNER_IDS)
    side_mm = np.mean([np.linalg.norm(c[0][0] - c[0][1]) for c in corners]) / 300 * 25.4
    assert 20 < side_mm < 40                                 # big enough to read from above the table


def test_the_tiles_named_on_the_sheet_are_the_boxs_tiles():
    labels = [tile_label(i) for i in range(len(TILE_KINDS))]
    assert labels.count("Portal") == 1
    assert sum(label.startswith("Crystals") for label in labels) == 4
    assert sum(label.startswith("Forest") for label in labels) == 10
    assert sum(label.startswith("Grass") for label in labels) == 6
    assert sum(label.startswith("Mountain") for label in labels) == 4
    assert len(set(labels)) == 25


def test_stickers_command_writes_png_and_pdf(tmp_path):
    out = tmp_path / "sheet.png"
    result = subprocess.run([sys.executable, "-m", "vision", "stickers", "--out", str(out)], cwd=ROOT,
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    png = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert png.shape == (3508, 2480)
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/Width 2480 /Height 3508" in pdf and b"/MediaBox [0 0 595.20 841.92]" in pdf


def test_write_sheet_takes_a_pdf_path(tmp_path):
    written = write_sheet(tmp_path / "a.png", pdf=tmp_path / "elsewhere.pdf")
    assert [p.name for p in written] == ["a.png", "elsewhere.pdf"]


@pytest.mark.parametrize("seed", range(6))
def test_rendered_maps_are_read_without_a_wrong_cell(seed):
    """Six random photos each (perspective, turn, blur, noise, glare, hands, corner markers or not)."""
    rng = np.random.default_rng(1000 + seed)
    visible = read = 0
    for _ in range(6):
        photo, truth = render_map(rng)
        reading = read_map(photo, NoDice())
        actual = cells_of(truth["map"])
        for r in range(5):
            for c in range(5):
                got = reading.cells[r][c]
                if got != UNKNOWN:
                    assert got == actual[r][c], (seed, r, c, truth["map"], reading.notation)
                if truth["cells"][r][c] not in (UNKNOWN, "--"):
                    visible += 1
                    read += got == actual[r][c]
    assert read >= 0.95 * visible, (read, visible)


def test_a_clean_photo_reads_the_whole_map_in_the_notation():
    rng = np.random.default_rng(7)
    cells = random_map(rng, empty=0)
    photo, truth = render_map(rng, cells=cells, obelisks=[], hands=0, glare=False, slant=0.05)
    reading = read_map(photo, NoDice())
    assert reading.notation == truth["map"]
    assert reading.to_json()["map"] == truth["map"] and reading.unknown == []


def test_a_hand_over_tiles_makes_them_unknown_not_guessed():
    rng = np.random.default_rng(21)
    hidden_seen = 0
    for _ in range(8):
        photo, truth = render_map(rng, hands=2, obelisks=[])
        reading = read_map(photo, NoDice())
        actual = cells_of(truth["map"])
        for r, c in reading.unknown:
            assert reading.cells[r][c] == UNKNOWN
        for r in range(5):
            for c in range(5):
                if truth["cells"][r][c] == UNKNOWN:
                    hidden_seen += 1
                    assert reading.cells[r][c] in (UNKNOWN, actual[r][c])
    assert hidden_seen > 0


def test_removed_mountains_read_as_empty_or_unknown_never_as_a_tile():
    """On a plain table or felt an empty space is seen as one; on a patterned table it stays unknown."""
    rng = np.random.default_rng(33)
    empties = found = 0
    for _ in range(6):
        cells = random_map(rng, empty=4)
        photo, truth = render_map(rng, cells=cells, hands=0, obelisks=[], glare=False, tables=("plain", "felt"))
        reading = read_map(photo, NoDice())
        for r in range(5):
            for c in range(5):
                if cells[r][c] == "--":
                    empties += 1
                    assert reading.cells[r][c] in ("--", UNKNOWN)
                    found += reading.cells[r][c] == "--"
    assert empties == 24 and found >= empties // 2


def test_no_marker_at_all_is_all_unknown_with_a_reason():
    reading = read_map(np.full((480, 640, 3), 128, np.uint8), NoDice())
    assert reading.unknown == [[r, c] for r in range(5) for c in range(5)]
    assert reading.problems and "marker" in reading.problems[0]


def test_obelisks_on_corners_with_colour_and_strength():
    """The committed dice reader reads the obelisk dice; colours from the dice bodies. The bar is what the committed
    nets reach today (docs/vision.md): an obelisk is never put on a wrong corner, and many are read whole."""
    rng = np.random.default_rng(5)
    right = total = wrong_corner = 0
    for _ in range(6):
        photo, truth = render_map(rng, hands=0, glare=False, slant=0.06)
        reading = read_map(photo)
        got = {tuple(o.corner): o for o in reading.obelisks}
        want = {tuple(o["corner"]): o for o in truth["obelisks"]}
        wrong_corner += len(set(got) - set(want))
        for corner, ob in want.items():
            total += 1
            if corner in got and got[corner].colour == ob["colour"] and got[corner].strength == ob["strength"]:
                right += 1
    assert total > 10
    assert wrong_corner <= 1 and right >= 0.35 * total, (right, total, wrong_corner)


def test_tiles_command_prints_the_notation_json(tmp_path):
    rng = np.random.default_rng(8)
    photo, truth = render_map(rng, hands=0, glare=False, obelisks=[], corner_markers=True)
    path = tmp_path / "map.jpg"
    cv2.imwrite(str(path), photo)
    result = subprocess.run([sys.executable, "-m", "vision", "tiles", str(path), "--json"], cwd=ROOT,
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"map", "obelisks", "unknown"}
    assert len(data["map"].split(" / ")) == 5 and all(len(r.split()) == 5 for r in data["map"].split(" / "))
    actual = cells_of(truth["map"])
    for r, row in enumerate(cells_of(data["map"])):
        for c, cell in enumerate(row):
            assert cell in (UNKNOWN, actual[r][c])
