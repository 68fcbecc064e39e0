"""Where demons walk and whom an Obelisk can reach: the geometry every part of the engine and the advisor share.

RULING obelisk-path: a demon on a tile moves to the neighbour its arrow points at. Leaving the grid, entering an empty
space or a Mountain, or entering a tile that demon already stepped on this game loses the game; a demon's history
starts with the Portal tile it spawned on. RULING obelisk-capture: an Obelisk reaches the 1-4 tiles touching its
corner and captures when strength + tile modifier ≥ the demon's strength (Scrolls change the reach and the count).
"""
from __future__ import annotations

from companion.games.obelisk.box import (
    CONSUMING_CAPTURES, CRYSTAL_BONUS, DEMON_COLOURS, MODIFIER,
)
from companion.games.obelisk.model import (
    EMPTY, LOOP, MOUNTAIN, OFF_MAP, Cell, GameMap, Obelisk, Walk, ahead, corner_cells, in_grid, ray_cells,
)


def step_from(game_map: GameMap, cell: Cell, history) -> tuple[Cell, str | None]:
    """(the cell the arrow on `cell` leads to, how that step loses or None). RULING obelisk-path."""
    tile = game_map[cell]
    if tile is None:
        raise ValueError(f"no tile at {cell}: a demon never stands on an empty space")
    target = ahead(cell, tile.facing)
    if not in_grid(target):
        return target, OFF_MAP
    nxt = game_map[target]
    if nxt is None:
        return target, EMPTY
    if nxt.kind == "M":
        return target, MOUNTAIN
    if target in history:
        return target, LOOP
    return target, None


def walk(game_map: GameMap, visited, limit: int | None = None) -> Walk:
    """The walk of a demon that has stood on `visited` (its start last), for at most `limit` steps (None: until it
    would lose, which always happens: every step enters a tile it never stood on)."""
    cells = [visited[-1]]
    history = set(visited)
    while limit is None or len(cells) - 1 < limit:
        target, end = step_from(game_map, cells[-1], history)
        if end is not None:
            return Walk(tuple(cells), end, target)
        cells.append(target)
        history.add(target)
    return Walk(tuple(cells))


def portal_walk(game_map: GameMap, limit: int | None = None) -> Walk:
    """What a demon just out of the Dark Realm walks: from the Portal, which is the first tile of its history."""
    return walk(game_map, (game_map.portal,), limit)


def move_order(demons, speed) -> list:
    """Demons in the order they move. RULING obelisk-move-order: most tiles walked this game first; ties: the faster
    colour first (green, yellow, blue with the printed speeds), then the order they came out of the Dark Realm."""
    return sorted(demons, key=lambda d: (-d.steps, -speed(d.colour), DEMON_COLOURS.index(d.colour), d.id))


# ----------------------------------------------------------------- what an Obelisk reaches

def reach(obelisk: Obelisk, game_map: GameMap) -> tuple[Cell, ...]:
    """The tiles on which `obelisk` can capture: the tiles touching its corner; a Longbow's four tiles along its
    direction instead; a Crystal Network's every Crystal on the map (and nothing else)."""
    if obelisk.scroll == "crystal_network":
        return game_map.cells_of("C")
    cells = ray_cells(obelisk.corner, obelisk.aim) if obelisk.scroll == "longbow" and obelisk.aim \
        else corner_cells(obelisk.corner)
    return tuple(c for c in cells if game_map[c] is not None)


def effective(obelisk: Obelisk, kind: str) -> int:
    """Strength against a demon standing on land `kind`: the die plus the tile's modifier (Crystal Network: +1 on
    Crystals, the pips unchanged)."""
    bonus = CRYSTAL_BONUS if obelisk.scroll == "crystal_network" and kind == "C" else 0
    return obelisk.strength + MODIFIER[kind] + bonus


def can_capture(obelisk: Obelisk, game_map: GameMap, cell: Cell, demon_strength: int) -> bool:
    tile = game_map[cell]
    return tile is not None and cell in reach(obelisk, game_map) and effective(obelisk, tile.kind) >= demon_strength


def captures_left(obelisk: Obelisk) -> int:
    """How many more demons `obelisk` may capture tonight: one (Consuming Growth: two); a Lightning Rod one per
    charge left (each capture uses one)."""
    if obelisk.scroll == "lightning_rod":
        return obelisk.charges
    per_night = CONSUMING_CAPTURES if obelisk.scroll == "consuming_growth" else 1
    return max(0, per_night - len(obelisk.captured))


def touching_lands(obelisk_corner, game_map: GameMap) -> set[str]:
    """The kinds of tile next to a corner (for a Scroll's placement requirement)."""
    return {game_map[c].kind for c in corner_cells(obelisk_corner) if game_map[c] is not None}
