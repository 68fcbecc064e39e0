"""The camera's map against the app's (companion/ui/obelisk/camera_map.py): which cells are a proposed Rotate, which
lie as the app has them, which no Rotate explains, which were not read — and the unread cells of a map text that the
group fills in by hand. On a rendered sticker photo: the one tile turned on the table is the one proposed."""
from __future__ import annotations

import numpy as np

from companion.games.obelisk.notation import map_from_text
from companion.ui.obelisk.camera_map import compare, filled, unread

MAP = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW -- FN CW FS"


def cells_of(text):
    return [row.split() for row in text.split(" / ")]


def test_turned_same_other_and_unread_cells():
    seen = cells_of(MAP)
    seen[0][1] = "GS"          # turned: a Rotate
    seen[1][0] = "FN"          # another land: no Rotate makes that
    seen[2][2] = "??"          # a hand over it: not read, not guessed
    seen[4][1] = "--"          # the empty space is still empty
    turned, same, other, unseen = compare(map_from_text(MAP), seen)
    assert turned == {(0, 1): "S"}
    assert other == [(1, 0)] and unseen == [(2, 2)]
    assert (4, 1) in same and len(same) == 25 - 3


def test_a_tile_on_an_empty_space_or_a_tile_gone_is_no_rotate():
    seen = cells_of(MAP)
    seen[4][1] = "MN"
    seen[0][0] = "--"
    turned, _same, other, _unseen = compare(map_from_text(MAP), seen)
    assert turned == {} and other == [(0, 0), (4, 1)]


def test_unread_cells_are_filled_one_by_one():
    text = MAP.replace("GE", "??", 1).replace("MN", "??")
    assert unread(text) == [(0, 1), (2, 4)]
    text = filled(text, (0, 1), "GE")
    assert unread(text) == [(2, 4)]
    assert filled(text, (2, 4), "MN") == MAP


def test_a_rendered_photo_with_one_tile_turned_proposes_that_turn():
    from vision.render.tiles import notation, random_map, render_map
    from vision.tiles import read_map

    rng = np.random.default_rng(5)
    cells = random_map(rng, empty=0)
    r, c = next((r, c) for r in range(5) for c in range(5) if cells[r][c][0] not in "PM")
    turned_to = "NESW"[("NESW".index(cells[r][c][1]) + 2) % 4]
    on_table = [row[:] for row in cells]
    on_table[r][c] = cells[r][c][0] + turned_to
    photo, truth = render_map(rng, cells=on_table, obelisks=[], hands=0, glare=False, corner_markers=True)
    reading = read_map(photo)
    turned, _same, other, unseen = compare(map_from_text(notation(cells)), reading.cells)
    assert turned == {(r, c): turned_to} and other == []
    assert unseen == [(i, j) for i in range(5) for j in range(5) if truth["cells"][i][j] == "??"]
