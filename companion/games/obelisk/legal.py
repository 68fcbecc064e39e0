"""What is legal now: the action types, and every concrete action except those too many to list.

Rotate (up to 3 of 21 tiles, each to one of three new directions: 37,863 choices for one player) and Charge (Broken
Earth's moves, Siphon Energy's drains …) are left out of `legal_actions()` but in `legal_types()` when legal; the
advisor lists and ranks a player's Rotate choices (advisor.rotate_choices). So is the real Dark Realm's draw.
"""
from __future__ import annotations

from companion.games.obelisk import payments
from companion.games.obelisk.actions import (
    Aim, Build, Capture, Dawn, Decipher, March, Mine, Nightfall, Pass, Reinforce, Reroll, Roll, Timeout,
)
from companion.games.obelisk.box import FIRST_SCROLL, MAX_STRENGTH, SCROLL_LANDS, SCROLLS, SEALED
from companion.games.obelisk.model import AIMS, corner_cells
from companion.games.obelisk.paths import can_capture, captures_left, touching_lands


def _may(s, colour: str, kind: str) -> bool:
    return colour in s.acting and s.may_repeat(colour, kind)


def _reinforceable(s):
    return [o for o in s.obelisks if o.scroll not in SEALED and o.strength < MAX_STRENGTH]


def _day_actions(s) -> list:
    out = []
    free = s.free_corners()
    for colour in s.acting:
        i = s.seat(colour)
        if _may(s, colour, "build") and s.unplaced[i]:
            out += [Build(colour, c) for c in free]
        if _may(s, colour, "reinforce"):
            pays = payments.affordable(s, colour)
            out += [Reinforce(colour, o.corner, p) for o in _reinforceable(s) for p in pays]
        if _may(s, colour, "mine"):
            out.append(Mine(colour))
        if _may(s, colour, "reroll"):
            rolls = [None] if s.setup.dice == "app" else range(1, 7)  # the app's die, or what the table rolled
            out += [Reroll(colour, o.corner, r) for o in s.obelisks if o.scroll == "instability" for r in rolls]
        if _may(s, colour, "aim"):
            out += [Aim(colour, o.corner, aim) for o in s.obelisks
                    if o.scroll == "longbow" and o.owner == colour for aim in AIMS if aim != o.aim]
        out.append(Pass(colour))
    out.append(Nightfall())
    return out


def captures(s) -> list[Capture]:
    """Every capture possible now (each obelisk, demon and step)."""
    if s.closed or s.phase not in ("march", "spawn", "swarm"):
        return []
    out = []
    hunters = [o for o in s.obelisks if captures_left(o)]
    for d in s.demons:
        w = s.tonight_walk(d)
        if s.phase == "march" or d.id in s.tonight:
            steps = range(w.steps + 1)
        else:
            steps = (d.walked,)
        need = s.strength(d.colour)
        for o in hunters:
            out += [Capture(o.corner, d.id, k) for k in steps if can_capture(o, s.map, w.cells[k], need)]
    return out


def can_charge(s, colour: str) -> bool:
    """Whether some Charge by `colour` would be legal now."""
    if not (s.setup.scrolls and s.deciphered and _may(s, colour, "reinforce") and payments.affordable(s, colour)):
        return False
    for scroll in s.deciphered:
        for o in s.obelisks:
            if o.scroll in SEALED or not touching_lands(o.corner, s.map) & set(SCROLL_LANDS[scroll]):
                continue
            if scroll == "broken_earth":
                movable = [c for c in corner_cells(o.corner) if c not in s.trodden]
                if len(movable) < 2 or all(s.map[c] is None for c in movable):
                    continue
            if scroll == "siphon_energy" and (o.strength >= MAX_STRENGTH or not any(
                    x.corner != o.corner and x.scroll not in SEALED for x in s.obelisks)):
                continue
            return True
    return False


def legal_types(s) -> set[str]:
    phase = s.phase
    timed = s.setup.time_trials and not s.closed
    if phase == "decipher":
        return {"decipher"}
    if phase == "roll":
        return {"roll"}
    if phase == "day":
        out = {a.TYPE for a in _day_actions(s)}
        if any(_may(s, c, "rotate") for c in s.acting) and s.markers:
            out.add("rotate")
        if any(can_charge(s, c) for c in s.acting):
            out.add("charge")
        return out | ({"timeout"} if timed else set())
    if phase in ("march", "spawn", "swarm"):
        out = {"march": {"march"}, "spawn": {"spawn"}, "swarm": {"dawn"}}[phase]
        if captures(s):
            out.add("capture")
        return out | ({"timeout"} if timed else set())
    return set()


def legal_actions(s) -> list:
    phase = s.phase
    timed = [Timeout()] if s.setup.time_trials and not s.closed else []
    if phase == "decipher":
        return [Decipher(x) for x in SCROLLS if x != FIRST_SCROLL and x not in s.deciphered and x not in s.spent]
    if phase == "roll":
        return [Roll(c, v) for c in s.pending for v in range(1, 7)]
    if phase == "day":
        return _day_actions(s) + timed
    if phase == "march":
        return captures(s) + [March()] + timed
    if phase == "spawn":
        return captures(s) + timed  # the draw itself is the real box's: too many to list
    if phase == "swarm":
        return captures(s) + [Dawn()] + timed
    return []
