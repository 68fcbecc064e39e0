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


# ----------------------------------------------------------------- the group's own tiles (taught once per box)

TAUGHT = "obelisk-tiles.json"   # beside the tables: {"tiles": {"7": "F", …}}


def kinds(data_dir) -> dict[int, str]:
    """Which land each tile id is: the box's list, with what the group taught over it. A file that cannot be read
    is not the players' problem: the box's list applies (and the next lesson writes a good file)."""
    import logging
    from pathlib import Path

    from companion.games.errors import InvalidInput
    from companion.session.jsontext import loads

    out = dict(BOX_IDS)
    try:
        value = loads((Path(data_dir) / TAUGHT).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return out
    except (OSError, UnicodeDecodeError, InvalidInput) as err:
        logging.getLogger(__name__).warning("taught tiles not read (%s): the box's list applies", err)
        return out
    taught = value.get("tiles") if isinstance(value, dict) else None
    for key, kind in (taught or {}).items() if isinstance(taught, dict) else ():
        if isinstance(key, str) and key.isdigit() and 1 <= int(key) <= 27 and kind in ORDER:
            out[int(key)] = kind
    return out


def teach(data_dir, tile: int, kind: str) -> bool:
    """Remember that tile id `tile` is land `kind` for this box (written whole: a new file renamed over the old).
    False when the disk refused (the lesson holds until the app closes)."""
    import json
    import os
    from pathlib import Path

    taught = {k: v for k, v in kinds(data_dir).items() if BOX_IDS.get(k) != v}
    taught[tile] = kind
    folder = Path(data_dir)
    path, part = folder / TAUGHT, folder / (TAUGHT + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(part, "w", encoding="utf-8") as f:
            f.write(json.dumps({"tiles": {str(k): v for k, v in sorted(taught.items())}}))
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
        return True
    except OSError:
        return False
