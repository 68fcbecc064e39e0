"""The simulated tile-grid board at an Obelisk table (issue 18 §4): the map laid on the board is read at setup and
proposed (shown as the group's map, the Mountains flagged), the players confirm it with Start; during the Day a tile
turned on the board becomes a proposed Rotate on the map, which Rotate confirms. Nothing is played by the board
alone. The board is `sim://tablebus?kind=obelisk`, which reads tiles through the sensor model.

This file is also the driver: `python tests/ui/test_obelisk_board.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
URL = "sim://tablebus?kind=obelisk&name=tile-grid"


def box_map() -> str:
    """A map the box can lay (every tile of it, the Mountains on it), as the app lays one from seed 3."""
    import random

    from companion.games.obelisk.notation import map_to_text
    from companion.games.obelisk.setup import lay_map

    return map_to_text(lay_map(random.Random("obelisk-map:3"), keep_mountains=True))


MAP = box_map()


@pytest.fixture(scope="module")
def board(own_driver):
    return own_driver


def test_the_groups_own_tile_is_taught_once(board):
    assert board["teach_before"] == "Lay one tile on the board first: the app then asks which land it is"
    assert "Tiles the app does not know: 27" in board["unknown_banner"]
    assert board["teach_question"].startswith("Tile 27 lies on ") and board["teach_question"].endswith(
        ": which land is it?")
    assert board["taught_banner"] == "Tile 27 is Crystal from now on"
    assert board["taught_file"] == {"tiles": {"27": "C"}}


def test_the_map_read_at_setup_is_proposed_and_confirmed(board):
    assert board["before_read"] == ""            # laying tiles changes nothing by itself
    assert board["proposed"] == MAP and board["map_by"] == "table"
    assert "Mountains on " + ", ".join(board["mountains"]) + ":" in board["banner"] and board["mountains"]
    assert board["table_map"] == MAP              # Start confirmed it: the table's map is the board's
    assert board["preview_shown"] and board["drawn"] == sum(c != "--" for c in MAP.replace(" / ", " ").split())


def test_a_tile_turned_in_the_day_is_a_proposed_rotate(board):
    assert board["actions_after_turn"] == 0        # proposed, not played
    cell, arrow, name = board["turned"]
    assert board["pending"] == [[cell, arrow]]
    assert board["turn_banner"] == f"The board: {name} was turned. Tap Rotate to confirm, or turn it back"
    assert board["rotate_text"] == "Rotate 1"
    assert board["played"] == f"rotate blue {name}:{arrow}"


def test_a_tile_turned_without_a_marker_is_refused_in_words(board):
    assert board["refused_banner"] and board["pending_after_refusal"] == []


# -- the driver --------------------------------------------------------------------------------------------------

def board_ids(text: str) -> list[tuple[int, int, str]]:
    """(cell, tile id, arrow) for each tile of a map, ids as companion/ui/obelisk/board.py BOX_IDS numbers them."""
    from companion.ui.obelisk.board import BOX_IDS

    free = {}
    for tile_id, kind in sorted(BOX_IDS.items()):
        free.setdefault(kind, []).append(tile_id)
    out = []
    for i, cell in enumerate(c for row in text.split(" / ") for c in row.split()):
        if cell != "--":
            out.append((i, free[cell[0]].pop(0), cell[1]))
    return out




async def scenario(app, args) -> dict:
    from companion.games.obelisk.notation import map_to_text
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    await d.add_device(URL, "Obelisk tile grid")
    sim = app.devices.manager.device(URL).board
    await d.new_game("obelisk", "obelisk-setup")
    setup = app.plugin_for("obelisk").setup
    tiles = board_ids(MAP)
    # This box's first Crystal carries id 27 (not in the box's list): read, it is named as unknown; taught, it is
    # a Crystal in every later reading.
    crystal = next(i for i, t in enumerate(tiles) if MAP.replace(" / ", " ").split()[t[0]][0] == "C")
    tiles[crystal] = (tiles[crystal][0], 27, tiles[crystal][2])
    await d.tap(d.by_id("teach"))
    out["teach_before"] = app.banner
    for cell, tile_id, arrow in tiles:
        sim.script(f"tile {cell} {tile_id} {arrow}")
    await d.until(lambda: len(setup._board) == len(tiles), "every tile read")
    out["before_read"] = setup.map_text
    await d.tap(d.by_id("map_board"))
    out["unknown_banner"] = app.banner
    sim.script(f"tile {tiles[crystal][0]} 27 {tiles[crystal][2]}")   # laid again: the tile to teach
    await d.until(lambda: setup._last_read == (tiles[crystal][0], 27), "the tile to teach")
    await d.tap(d.by_id("teach"))
    out["teach_question"] = app.sheet.question if app.sheet is not None else ""
    await d.pick("Crystal")
    out["taught_banner"] = app.banner
    await d.tap(d.by_id("map_board"))   # read again, now that 27 is known
    out.update(proposed=setup.map_text, map_by=setup.map_by, banner=app.banner,
               drawn=len([t for _, t in setup.picture.get("tiles", ()) if t]),
               preview_shown=d.by_id("preview").opacity == 1)
    await d.shot(shots, "obelisk-setup-board")
    import json

    out["taught_file"] = json.loads((Path(args.data_dir) / "obelisk-tiles.json").read_text())
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model = d.model
    out["table_map"] = map_to_text(model.state.map)
    # Day 1: the first tile that is not a Mountain (it carries a marker) turned on the board.
    from companion.games.obelisk.model import cell_name

    first = next(t for t in tiles if MAP.replace(" / ", " ").split()[t[0]][0] != "M")
    arrow = next(a for a in "NESW" if a != first[2])
    cell = divmod(first[0], 5)
    out["turned"] = [list(cell), arrow, cell_name(cell)]
    out["mountains"] = [cell_name(divmod(t[0], 5)) for t in tiles
                        if MAP.replace(" / ", " ").split()[t[0]][0] == "M"]
    sim.script(f"tile {first[0]} {first[1]} {arrow}")
    await d.until(lambda: model.pending, "the proposed turn")
    out["actions_after_turn"] = len(app.table.actions)
    out["pending"] = [[list(c), f] for c, f in model.pending.items()]
    out["turn_banner"] = app.banner
    out["rotate_text"] = next(w for w in d.by_class("ObeliskAction") if w.value == "rotate").text
    await d.shot(shots, "obelisk-board-turn")
    await d.button("rotate")
    await d.until(lambda: len(app.table.actions) == 1, "the Rotate")
    out["played"] = app.table.actions[-1].to_text()
    # A2's marker is gone: turning it again on the board is refused in words, and proposes nothing.
    banner_before = app.banner
    sim.script(f"tile {first[0]} {first[1]} {first[2]}")
    await d.until(lambda: app.banner and app.banner != banner_before, "the refusal", 10)
    out["refused_banner"] = app.banner
    out["pending_after_refusal"] = [[list(c), f] for c, f in model.pending.items()]
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
