"""The tile-grid board's readings as an Obelisk map (issue 18 §4): cell → (tile id, arrow) becomes a map in the
game's notation, which the setup shows for the players to confirm (sensors propose, people confirm), and a tile
turned during the Day becomes a proposed Rotate. No Kivy here.

Which tile id is which land: the board reads ids 1-27 (firmware_bridge/tablebus/tilefield.py). Until a group teaches
the app its own tiles (not built yet), the ids follow the box's tile list in order: 1 the Portal, 2-5 the Crystals,
6-15 the Forests, 16-21 the Grass, 22-25 the Mountains (`BOX_IDS`); a group labels its tiles that way.
"""
from __future__ import annotations

from companion.games.obelisk.box import TILES
from companion.games.obelisk.model import SIZE

ORDER = ("P", "C", "F", "G", "M")


def _box_ids() -> dict[int, str]:
    out, n = {}, 1
    for kind in ORDER:
        for _ in range(TILES[kind]):
            out[n] = kind
            n += 1
    return out


BOX_IDS = _box_ids()


def map_text(cells: dict[int, tuple[int, str]], kinds: dict[int, str] = BOX_IDS) -> tuple[str, list[int], list[int]]:
    """(the map in notation, the cells holding a Mountain, the tile ids no land is known for) from the board's cells
    (0-24, row by row; tile 0 or a cell never read: an empty space)."""
    rows, mountains, unknown = [], [], []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            i = r * SIZE + c
            tile, direction = cells.get(i, (0, "N"))
            kind = kinds.get(tile) if tile else None
            if tile and kind is None:
                unknown.append(tile)
            if kind == "M":
                mountains.append(i)
            row.append(f"{kind}{direction}" if kind else "--")
        rows.append(" ".join(row))
    return " / ".join(rows), mountains, unknown


def cell_of(index: int) -> tuple[int, int]:
    return divmod(index, SIZE)
