"""What is legal in each phase of the turn: the moves a screen offers and the random players pick from."""
from __future__ import annotations

from companion.games.obscurio import turn
from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Sand, Unmask,
)


# legal_types / legal_actions list the game's moves. Two things are accepted besides, and never listed: a Look (a
# note, in any phase until the end, with app-dealt loyalty) and Decoys(None) (step 3 over, the count not told).


def legal_types(s) -> set[str]:
    phase = s.phase
    if phase == "doors":
        out = {"sand"}
        if _chip_moves(s):
            out.add("chip")
        if s.locked and s.opened < s.n_doors:
            out.add("open")
        if s.is_legal(Done()):
            out.add("done")
        return out
    return set(_SINGLE.get(phase, ()))


_SINGLE = {"traps": ("draw",), "riddle": ("riddle",), "traitor": ("decoys",), "exit": ("exit",),
           "discussion": ("sand",), "vote": ("votes",), "loyalty": ("loyalty",), "end": ("end",),
           "unmask": ("traitor",)}


def legal_actions(s) -> list:
    phase = s.phase
    if phase == "traps":
        return [Draw(turn.the_apps_draw(s))] if s.setup.bag == "app" else []
    if phase == "riddle":
        return [Riddle()]
    if phase == "traitor":
        return [Decoys(n) for n in range(s.max_decoys + 1)]
    if phase == "doors":
        out = _chip_moves(s)
        if "open" in legal_types(s):
            out.append(Open())
        out.append(Sand())
        if s.is_legal(Done()):
            out.append(Done())
        return out
    if phase == "exit":
        return [Exit(d) for d in range(1, s.n_doors + 1)]
    if phase == "discussion":
        return [Sand()]
    if phase == "loyalty":
        return [Loyalty(c) for c in s.accused if c not in s.cleared] + [Loyalty(None)]
    if phase == "end":
        return [EndTurn()]
    if phase == "unmask":
        return [Unmask(c) for c in s.setup.wizards if c not in s.cleared]
    return []  # "vote": every combination of votes is too many to list; "over"


def _chip_moves(s) -> list:
    out = []
    for c in s.chips:
        now = s.door_of(c)
        if s.locked:
            if now is None:
                out.append(Chip(c, s.opened))
            continue
        out.extend(Chip(c, d) for d in range(1, s.n_doors + 1) if d != now)
        if now is not None:
            out.append(Chip(c, None))
    return out
