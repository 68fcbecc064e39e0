"""The map's canonical text form, used by save files, tests and the command line.

Five rows, top to bottom, separated by `/`; each row five cells, left to right, separated by spaces. A cell is a
kind letter and a direction letter — `P` Portal, `G` Grass, `F` Forest, `C` Crystal, `M` Mountain; `N`, `E`, `S`,
`W` — or `--` for an empty space:

    PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS

`map_to_text` writes exactly that (one space between cells, " / " between rows) and `map_from_text(s)` reads it back,
so `map_to_text(map_from_text(s)) == s` for every canonical `s`. Reading is forgiving about what a person types
(any run of spaces or tabs, lower-case letters, a line break at the end) and strict about everything else.
"""
from __future__ import annotations

from companion.games.errors import InvalidInput
from companion.games.obelisk.model import DIRECTIONS, KINDS, SIZE, GameMap, Tile
from companion.games.text import shown

EMPTY_CELL = "--"
MAX_TEXT = 400  # a map is 74 characters; a long text is not one
_SPACES = " \t\r\n"
KIND_NAME = {"P": "Portal", "G": "Grass", "F": "Forest", "C": "Crystal", "M": "Mountain"}


def cell_to_text(tile: Tile | None) -> str:
    return EMPTY_CELL if tile is None else tile.kind + tile.facing


def map_to_text(game_map: GameMap) -> str:
    rows = (" ".join(cell_to_text(game_map[(r, c)]) for c in range(SIZE)) for r in range(SIZE))
    return " / ".join(rows)


def _words(row: str) -> list[str]:
    for ch in _SPACES[1:]:
        row = row.replace(ch, " ")
    return [w for w in row.split(" ") if w]


def cell_from_text(word: str, where: str) -> Tile | None:
    if word == EMPTY_CELL:
        return None
    up = word.upper() if word.isascii() else word
    if len(up) == 2 and up[0] in KINDS and up[1] in DIRECTIONS:
        return Tile(up[0], up[1])
    raise InvalidInput(f"{where}: {shown(word)} is not a tile (a kind P, G, F, C or M and an arrow N, E, S or W, "
                       f"or -- for an empty space)")


def map_from_text(text, where: str = "map") -> GameMap:
    """The map a text describes; InvalidInput naming the row and cell that is wrong. It must hold exactly one
    Portal: that is where the demons come out."""
    if not isinstance(text, str):
        raise InvalidInput(f"{where}: expected the map as text (five rows separated by /)")
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"{where}: {len(text)} characters is far too long for a map of 25 cells")
    rows = text.split("/")
    if len(rows) != SIZE:
        raise InvalidInput(f"{where}: expected {SIZE} rows separated by /, found {len(rows)}")
    tiles: list[Tile | None] = []
    for r, row in enumerate(rows):
        words = _words(row)
        if len(words) != SIZE:
            raise InvalidInput(f"{where}: row {r + 1} has {len(words)} cells, expected {SIZE}")
        tiles += [cell_from_text(w, f"{where}: row {r + 1}, cell {c + 1}") for c, w in enumerate(words)]
    game_map = GameMap(tuple(tiles))
    portals = game_map.cells_of("P")
    if len(portals) != 1:
        raise InvalidInput(f"{where}: a map has exactly one Portal (P), this one has {len(portals)}")
    return game_map
