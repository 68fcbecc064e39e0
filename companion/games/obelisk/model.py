"""The small values of Obelisk: the grid and its corners, tiles and the map, stones, demons, obelisks, a walk.

Cells are `(row, col)`, row 0 at the top, 0-4 each. Corners are `(i, j)` on the 6×6 grid of tile corners, corner
`(i, j)` being the top-left corner of tile `(i, j)`: it touches tiles `(i-1..i, j-1..j)` that exist. Players read
cells as a column letter and a row number ("C4" is row 3, column 2) and corners the same way on the corner grid
("corner F6" is the map's bottom-right corner).

Imports nothing from the package: every other module builds on these.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

SIZE = 5                      # the map is 5 × 5 tiles
CORNERS = SIZE + 1            # … on a 6 × 6 grid of corners
Cell = tuple[int, int]
Corner = tuple[int, int]

KINDS = ("P", "G", "F", "C", "M")       # Portal, Grass, Forest, Crystal, Mountain
DIRECTIONS = ("N", "E", "S", "W")       # the arrow on a tile: up, right, down, left
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
AIMS = ("NE", "SE", "SW", "NW")         # a Longbow's direction: a diagonal from its corner (docs/obelisk-engine.md)

# How a walk ends when the next step would lose the game (RULING obelisk-path).
OFF_MAP, EMPTY, MOUNTAIN, LOOP = "off-map", "empty", "mountain", "loop"
ENDS = (OFF_MAP, EMPTY, MOUNTAIN, LOOP)


def in_grid(cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def all_cells() -> Iterator[Cell]:
    return ((r, c) for r in range(SIZE) for c in range(SIZE))


def all_corners() -> Iterator[Corner]:
    return ((i, j) for i in range(CORNERS) for j in range(CORNERS))


def ahead(cell: Cell, facing: str) -> Cell:
    """The cell an arrow pointing `facing` leads to (possibly off the grid)."""
    dr, dc = STEP[facing]
    return (cell[0] + dr, cell[1] + dc)


def corner_cells(corner: Corner) -> tuple[Cell, ...]:
    """The 1-4 grid cells touching a corner, in reading order."""
    i, j = corner
    return tuple(c for c in ((i - 1, j - 1), (i - 1, j), (i, j - 1), (i, j)) if in_grid(c))


def ray_cells(corner: Corner, aim: str) -> tuple[Cell, ...]:
    """The cells along a Longbow's diagonal from its corner, nearest first (those on the grid)."""
    i, j = corner
    dr = -1 if aim[0] == "N" else 1
    dc = 1 if aim[1] == "E" else -1
    r0 = i - 1 if dr < 0 else i
    c0 = j if dc > 0 else j - 1
    return tuple(c for c in ((r0 + k * dr, c0 + k * dc) for k in range(4)) if in_grid(c))


def cell_name(cell: Cell) -> str:
    """'C4' for (3, 2): the column letter, then the row number (A1 is the top-left tile)."""
    return f"{'ABCDEF'[cell[1]]}{cell[0] + 1}"


def corner_name(corner: Corner) -> str:
    """'corner C4': the top-left corner of tile C4 (columns A-F and rows 1-6 on the corner grid)."""
    return f"corner {cell_name(corner)}"


@dataclass(frozen=True)
class Tile:
    kind: str      # one of KINDS
    facing: str    # one of DIRECTIONS

    def turned(self, facing: str) -> "Tile":
        return Tile(self.kind, facing)


@dataclass(frozen=True)
class GameMap:
    """The 5 × 5 map: `tiles[r * 5 + c]` is a Tile or None (an empty space)."""
    tiles: tuple[Tile | None, ...]

    def __post_init__(self):
        if len(self.tiles) != SIZE * SIZE:
            raise ValueError("a map has 25 cells")

    def __getitem__(self, cell: Cell) -> Tile | None:
        return self.tiles[cell[0] * SIZE + cell[1]] if in_grid(cell) else None

    def with_tiles(self, changes: Mapping[Cell, Tile | None]) -> "GameMap":
        tiles = list(self.tiles)
        for (r, c), tile in changes.items():
            tiles[r * SIZE + c] = tile
        return GameMap(tuple(tiles))

    def cells_of(self, kind: str) -> tuple[Cell, ...]:
        return tuple(c for c in all_cells() if (t := self[c]) is not None and t.kind == kind)

    @property
    def portal(self) -> Cell | None:
        found = self.cells_of("P")
        return found[0] if len(found) == 1 else None

    def touches_a_tile(self, corner: Corner) -> bool:
        return any(self[c] is not None for c in corner_cells(corner))


@dataclass(frozen=True, order=True)
class Stones:
    """Stone Demons (or stones) counted by colour."""
    green: int = 0
    yellow: int = 0
    blue: int = 0

    def __add__(self, other: "Stones") -> "Stones":
        return Stones(self.green + other.green, self.yellow + other.yellow, self.blue + other.blue)

    def __sub__(self, other: "Stones") -> "Stones":
        return Stones(self.green - other.green, self.yellow - other.yellow, self.blue - other.blue)

    def __getitem__(self, colour: str) -> int:
        return getattr(self, colour)

    @property
    def total(self) -> int:
        return self.green + self.yellow + self.blue

    def covers(self, other: "Stones") -> bool:
        return self.green >= other.green and self.yellow >= other.yellow and self.blue >= other.blue

    def plus(self, colour: str, n: int = 1) -> "Stones":
        return replace(self, **{colour: self[colour] + n})

    @staticmethod
    def of(colours) -> "Stones":
        out = Stones()
        for colour in colours:
            out = out.plus(colour)
        return out

    def to_json(self) -> dict:
        return {"green": self.green, "yellow": self.yellow, "blue": self.blue}


@dataclass(frozen=True)
class Demon:
    """A Stone Demon on the map. `id` counts the demons in the order they came out of the Dark Realm (1, 2, …);
    `visited` is every tile it stood on this game, from the Portal it spawned on to `at` (RULING obelisk-path);
    `walked` is how many tiles it walked tonight (0 during the Day)."""
    id: int
    colour: str
    visited: tuple[Cell, ...]
    walked: int = 0

    @property
    def at(self) -> Cell:
        return self.visited[-1]

    @property
    def steps(self) -> int:
        """Tiles walked this game: how far along the path it is (RULING obelisk-move-order)."""
        return len(self.visited) - 1


@dataclass(frozen=True)
class Capture:
    """A demon an Obelisk captured tonight: where and when (`step`: tiles it had walked tonight, 0 = before it
    moved)."""
    demon: int
    colour: str
    step: int
    cell: Cell


@dataclass(frozen=True)
class Obelisk:
    corner: Corner
    owner: str                       # the player's colour (their player guide)
    strength: int                    # the die's top face, 1-6
    scroll: str | None = None        # the rune on it (the Scroll on top), None without
    charges: int = 0                 # Lightning Rod charges, 0-3
    aim: str | None = None           # Longbow direction (one of AIMS)
    captured: tuple[Capture, ...] = ()  # tonight's captures, until the Night ends

    def with_(self, **changes: Any) -> "Obelisk":
        return replace(self, **changes)


@dataclass(frozen=True)
class Walk:
    """Where a demon goes: `cells` it stands on in order (its start first), and, when its next step would lose,
    how (`end`, one of ENDS) and the cell it would step into (`target`; off the grid for "off-map")."""
    cells: tuple[Cell, ...]
    end: str | None = None
    target: Cell | None = None

    @property
    def steps(self) -> int:
        return len(self.cells) - 1


# The game's phases and results, shared by the state, the handlers and the JSON.
PHASES = ("decipher", "roll", "day", "march", "spawn", "swarm", "over")
NIGHT_PHASES = ("march", "spawn", "swarm")
ROLLING = ("instability", "burnout")
RESULTS = ("won", "lost")


@dataclass(frozen=True)
class Loss:
    """How the game was lost: demon `demon` (`colour`) stood on `at` and its `step`-th step tonight would have
    entered `target`, which loses (`end`: off-map, empty, mountain or loop)."""
    demon: int
    colour: str
    end: str
    at: Cell
    target: Cell
    step: int


TIME_TRIALS = "time_trials"  # the one timer of the game (contract GameTimer.name)
