"""The Night: captures, the demons on the map moving, the Dark Realm's demons, dawn; dice rolled at the table; the
Time Trials minute running out.

RULING obelisk-capture: an Obelisk captures at most one demon per Night (Consuming Growth two, a Lightning Rod one
per charge), at any moment of the Night — before, during or after movement, the Portal included — when its strength
plus the tile's modifier is at least the demon's strength; a captured demon stops at once. RULING obelisk-night-loss:
a demon can be captured on any tile it stands on tonight before its losing step, never on or after it.

Moments. A demon already on the map is captured at `step` k of tonight's walk (0: before it moves) while the
demons on the map are still to move ("march"); once they moved, only where it stopped. A demon out of the Dark
Realm tonight is captured at any step of its walk until dawn ("swarm"). So a capture never needs what nobody at
the table knew yet: tonight's demons are drawn after the others moved.
"""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obelisk import cycle, words
from companion.games.obelisk.actions import Capture, Dawn, March, Roll, Spawn, Timeout
from companion.games.obelisk.model import Capture as Captured, Demon
from companion.games.obelisk.paths import can_capture, captures_left, effective, reach

CAPTURE = "Capture Demons"
NIGHT = "Night Phase"
SPAWN = "Spawn Demons"
TIME_TRIALS = "Time Trials"


def capture(s, a: Capture):
    if s.phase not in ("march", "spawn", "swarm"):
        raise IllegalAction.of("Demons are captured during the Night", CAPTURE)
    if s.closed:
        raise IllegalAction.of("The Night's minute ran out: no more demons can be captured", TIME_TRIALS)
    o = s.obelisk_at(a.obelisk)
    if o is None:
        raise IllegalAction.of("There is no Obelisk on corner {corner}", CAPTURE, corner=words.corner(a.obelisk))
    if not captures_left(o):
        raise IllegalAction.of("The Obelisk on corner {corner} has captured all it can tonight",
                               "RULING obelisk-capture", corner=words.corner(o.corner))
    d = s.demon(a.demon)
    if d is None:
        raise IllegalAction.of("There is no demon number {n} on the map", CAPTURE, n=a.demon)
    w = s.tonight_walk(d)
    if s.phase != "march" and d.id not in s.tonight:
        if a.step != d.walked:  # it has moved: it stands where it stopped
            raise IllegalAction.of("{demon} has already moved tonight: it can be captured only where it stopped, "
                                   "after step {n}", CAPTURE, demon=words.demon(d.colour), n=d.walked)
    elif a.step > w.steps:
        if w.end is not None and a.step == w.steps + 1:
            raise IllegalAction.of("{demon} loses the game on its {step}: it must be captured before",
                                   "RULING obelisk-night-loss", demon=words.demon(d.colour), step=words.step(a.step))
        raise IllegalAction.of("{demon} walks only {n} tiles tonight", CAPTURE, demon=words.demon(d.colour),
                               n=w.steps)
    cell = w.cells[a.step]
    needed = s.strength(d.colour)
    if not can_capture(o, s.map, cell, needed):
        kind = s.map[cell].kind
        if cell not in reach(o, s.map):
            raise IllegalAction.of("The Obelisk on corner {corner} cannot reach {cell}", CAPTURE,
                                   corner=words.corner(o.corner), cell=words.cell(cell))
        raise IllegalAction.of("The Obelisk on corner {corner} has strength {n} on the {land} at {cell}, "
                               "{demon} has {m}", CAPTURE, corner=words.corner(o.corner),
                               n=effective(o, kind), land=words.land(kind), cell=words.cell(cell),
                               demon=words.demon(d.colour), m=needed)
    return take(s, o, d, a.step, w.cells)


def take(s, o, d: Demon, step: int, cells):
    """Demon `d` captured at `step` of tonight's walk `cells`: it stops at once and waits on the Obelisk."""
    walked_before = d.walked
    history = d.visited + tuple(cells[walked_before + 1:step + 1])
    trodden = s.trodden | set(history)
    new = o.with_(captured=o.captured + (Captured(d.id, d.colour, step, cells[step]),))
    if o.scroll == "lightning_rod":
        new = new.with_(charges=o.charges - 1)  # "Each time this Obelisk captures a Demon, a Charge is consumed"
    seat = s.seat(o.owner)
    caught = s.caught[:seat] + (s.caught[seat] + 1,) + s.caught[seat + 1:]
    s = s._with(demons=tuple(x for x in s.demons if x.id != d.id), trodden=trodden, caught=caught)
    return cycle.replace_obelisk(s, o, new)


def march(s, a: March):
    if s.phase != "march":
        raise IllegalAction.of("The demons on the map move at the start of the Night", NIGHT)
    return cycle.march(s)


def spawn(s, a: Spawn):
    if s.phase != "spawn":
        raise IllegalAction.of("New demons come out of the Dark Realm once the demons on the map have moved", SPAWN)
    due = cycle.spawn_count(s)
    if len(a.demons) != due:
        raise IllegalAction.of("{n} demons come out of the Dark Realm tonight", "RULING obelisk-move-order", n=due)
    for colour in set(a.demons):
        if a.demons.count(colour) > s.realm[colour]:
            raise IllegalAction.of("Demons of colour {colour} left in the Dark Realm: {n}", SPAWN,
                                   n=s.realm[colour], colour=words.colour(colour))
    return cycle.spawn(s, a.demons)


def dawn(s, a: Dawn):
    if s.phase != "swarm":
        raise IllegalAction.of("The Night ends once the new demons are on the Portal", NIGHT)
    return cycle.dawn(s)


def roll(s, a: Roll):
    if s.phase != "roll":
        raise IllegalAction.of("No die is waiting to be rolled", "Scroll Abilities")
    if a.obelisk not in s.pending:
        raise IllegalAction.of("The Obelisk on corner {corner} is not waiting for a roll", "Scroll Abilities",
                               corner=words.corner(a.obelisk))
    s = cycle.apply_roll(s, s.rolling, a.obelisk, a.roll)
    pending = tuple(c for c in s.pending if c != a.obelisk)
    if pending:
        return s._with(pending=pending)
    return cycle.finish_rolls(s, s.rolling)


def timeout(s, a: Timeout):
    """Time Trials: "If the timer expires and you have not completed your action(s), remaining action(s) are
    forfeit. … If the Night timer expires before you have chosen which Demons to capture, no additional Demons can
    be captured. Finish moving and spawning Demons for that night.\""""
    if not s.setup.time_trials:
        raise IllegalAction.of("This table plays without Time Trials", TIME_TRIALS)
    if s.phase == "day":
        return cycle.nightfall(s)
    if s.phase not in ("march", "spawn", "swarm") or s.closed:
        raise IllegalAction.of("No minute is running now", TIME_TRIALS)
    s = s._with(closed=True)
    if s.phase == "march":
        return cycle.march(s)
    if s.phase == "swarm":
        return cycle.dawn(s)
    return s  # the real Dark Realm: the demons that come out are still to be told
