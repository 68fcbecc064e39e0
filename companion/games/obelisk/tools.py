"""`companion obelisk path MAP`: the route a demon just out of the Dark Realm walks from the Portal.

    {"path": [[r, c], …], "end": "off-map" | "empty" | "mountain" | "loop", "loop_at": [r, c]}

`path` is every tile it stands on in order, starting with the Portal, up to the step that would lose; `loop_at`
(only for a loop) is the tile it would step on a second time. The walk is not cut at a speed: it goes on Night
after Night until its losing step, which always comes (each step enters a tile it never stood on).
"""
from __future__ import annotations

from companion.games.errors import Message
from companion.games.obelisk.model import LOOP, cell_name
from companion.games.obelisk.notation import map_from_text
from companion.games.obelisk.paths import portal_walk

ENDING = {
    "off-map": "then it would walk off the map from {cell}",
    "empty": "then it would walk from {cell} into the empty space at {target}",
    "mountain": "then it would walk from {cell} into the Mountain at {target}",
    "loop": "then it would step on {target} a second time, a loop",
}


def path_of(text) -> tuple[dict, str]:
    game_map = map_from_text(text)
    w = portal_walk(game_map)
    out = {"path": [list(c) for c in w.cells], "end": w.end}
    if w.end == LOOP:
        out["loop_at"] = list(w.target)
    tiles = " → ".join(cell_name(c) for c in w.cells)
    target = cell_name(w.target) if w.end in ("empty", "mountain", "loop") else ""
    ending = str(Message(ENDING[w.end], {"cell": cell_name(w.cells[-1]), "target": target}))
    sentence = (f"A new demon walks {w.steps} tile{'s' if w.steps != 1 else ''} from the Portal at "
                f"{cell_name(w.cells[0])}: {tiles}; {ending}.")
    return out, sentence
