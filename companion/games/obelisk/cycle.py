"""From Day to Night and back: what happens at the start of a Day, at nightfall, when the demons move, and at dawn.

Chance that the app plays is a pure function of the seed and the state (a fresh random.Random per draw, seeded with
the seed and the draw's place in the game), so undo, replays and a state loaded from JSON draw the same:
- the Dark Realm (setup realm "app"): tonight's demons, drawn when they come out, never before;
- the Scrolls deck: Broken Earth on top of six of the other seven, shuffled at setup;
- the dice (setup dice "app"): Burnout at nightfall, Instability at dawn and when charged or rerolled.
When the table plays them, the state waits in a phase ("decipher", "roll", "spawn") for the group to say what came
out.
"""
from __future__ import annotations

import random
from functools import lru_cache

from companion.games.obelisk.box import (
    BURNOUT_OVERHEAT, FIRST_SCROLL, LIGHTNING_MAX, SCROLL_DECK, SCROLLS, SPAWNS, SPAWNS_SCROLLS,
)
from companion.games.obelisk.model import Demon, Loss, Stones
from companion.games.obelisk.paths import walk


# ----------------------------------------------------------------- the app's chance

def app_roll(seed: int, n: int) -> int:
    """The app's `n`-th D6 of the game."""
    return random.Random(f"obelisk-die:{seed}:{n}").randint(1, 6)


def app_draw(seed: int, night: int, realm: Stones, k: int) -> tuple[str, ...]:
    """Tonight's demons out of the app's Dark Realm, in the order they come out."""
    pool = [c for c in ("green", "yellow", "blue") for _ in range(realm[c])]
    return tuple(random.Random(f"obelisk-realm:{seed}:{night}").sample(pool, min(k, len(pool))))


@lru_cache(maxsize=64)
def app_deck(seed: int) -> tuple[str, ...]:
    """The app's Scrolls deck, top first: Broken Earth on six of the other seven (the seventh stays in the Supply)."""
    others = [s for s in SCROLLS if s != FIRST_SCROLL]
    random.Random(f"obelisk-scrolls:{seed}").shuffle(others)
    return (FIRST_SCROLL, *others[:SCROLL_DECK])


def spawn_count(s) -> int:
    """Six demons a Night (seven with Scrolls), all that are left when fewer remain (RULING obelisk-move-order)."""
    return min(SPAWNS_SCROLLS if s.setup.scrolls else SPAWNS, s.realm.total)


# ----------------------------------------------------------------- the Day begins

def start_day(s):
    """A new Day: actions reset; with Scrolls one is deciphered; Lightning Rods charge; Instability rolls."""
    n = s.setup.n_players
    s = s._with(phase="day", used=((),) * n, passed=(False,) * n, first_leader=s.leader, last_actor=None)
    if s.deck_left:
        flipped = len(s.deciphered) + len(s.spent)
        if flipped == 0:  # Broken Earth lies on top of the deck: no need to ask
            return after_decipher(s._with(deciphered=s.deciphered + (FIRST_SCROLL,)))
        if s.setup.realm == "app":
            return after_decipher(s._with(deciphered=s.deciphered + (app_deck(s.setup.seed)[flipped],)))
        return s._with(phase="decipher")
    return after_decipher(s)


def after_decipher(s):
    """Lightning Rod: "At the start of each Day … add a Charge (max 3)"; Instability: "at the start of every Day,
    roll this Obelisk to determine its new strength"."""
    obelisks = tuple(o.with_(charges=min(LIGHTNING_MAX, o.charges + 1)) if o.scroll == "lightning_rod" else o
                     for o in s.obelisks)
    s = s._with(phase="day", obelisks=obelisks)
    return begin_rolls(s, "instability", [o.corner for o in obelisks if o.scroll == "instability"])


# ----------------------------------------------------------------- dice

def begin_rolls(s, kind: str, corners):
    if not corners:
        return finish_rolls(s, kind)
    if s.setup.dice == "app":
        for corner in corners:
            value = app_roll(s.setup.seed, s.rolls)
            s = apply_roll(s._with(rolls=s.rolls + 1), kind, corner, value)
        return finish_rolls(s, kind)
    return s._with(phase="roll", rolling=kind, pending=tuple(corners))


def apply_roll(s, kind: str, corner, value: int):
    """Instability: the roll is the new strength. Burnout: 4 or more overheats it (-1); at 0 the Obelisk and its
    Scroll go to the Supply."""
    o = s.obelisk_at(corner)
    if kind == "instability":
        return replace_obelisk(s, o, o.with_(strength=value))
    if value < BURNOUT_OVERHEAT:
        return s
    return replace_obelisk(s, o, o.with_(strength=o.strength - 1) if o.strength > 1 else None)


def finish_rolls(s, kind: str):
    s = s._with(rolling=None, pending=())
    return s._with(phase="day") if kind == "instability" else begin_march(s)


def replace_obelisk(s, old, new):
    """`old` replaced by `new` (None: removed from the game)."""
    rest = [o for o in s.obelisks if o.corner != old.corner]
    if new is not None:
        rest.append(new)
    return s._with(obelisks=tuple(sorted(rest, key=lambda o: o.corner)))


# ----------------------------------------------------------------- the Night

def nightfall(s):
    """The Day is over. With Rotating Leadership the last player who acted keeps the token for the next Day."""
    if s.setup.leadership and s.last_actor is not None:
        s = s._with(leader=s.last_actor)
    s = s._with(phase="march", used=tuple(() for _ in s.used), passed=tuple(False for _ in s.passed))
    return begin_rolls(s, "burnout", [o.corner for o in s.obelisks if o.scroll == "burnout"])


def begin_march(s):
    return s._with(phase="march") if s.demons else begin_spawn(s)


def move(s, demon_id: int):
    """Demon `demon_id` walks tonight's steps (RULING obelisk-path); returns (state, Loss or None)."""
    d = s.demon(demon_id)
    speed = s.speed(d.colour)
    w = walk(s.map, d.visited, speed)
    moved = Demon(d.id, d.colour, d.visited + w.cells[1:], w.steps)
    s = s._with(demons=tuple(moved if x.id == d.id else x for x in s.demons), trodden=s.trodden | set(w.cells))
    if w.end is not None and w.steps < speed:
        return s, Loss(d.id, d.colour, w.end, w.cells[-1], w.target, w.steps + 1)
    return s, None


def move_all(s, ids):
    """Move these demons in order; the first losing step ends the game (RULING obelisk-night-loss)."""
    for demon_id in ids:
        s, loss = move(s, demon_id)
        if loss is not None:
            return s._with(phase="over", result="lost", loss=loss, closed=False)
    return s


def march(s):
    """The demons on the map move, furthest along first (RULING obelisk-move-order), then tonight's spawn."""
    s = move_all(s, [d.id for d in s.in_order()])
    return s if s.is_over else begin_spawn(s)


def begin_spawn(s):
    k = spawn_count(s)
    if k == 0:
        return swarm(s._with(tonight=()))
    if s.setup.realm == "app":
        return spawn(s, app_draw(s.setup.seed, s.day, s.realm, k))
    return s._with(phase="spawn")


def spawn(s, colours):
    """The demons that came out of the Dark Realm stand on the Portal, the first tile of their history."""
    portal = s.map.portal
    new = tuple(Demon(s.drawn + i + 1, c, (portal,)) for i, c in enumerate(colours))
    s = s._with(demons=s.demons + new, realm=s.realm - Stones.of(colours), drawn=s.drawn + len(new),
                tonight=tuple(d.id for d in new), trodden=s.trodden | {portal})
    return swarm(s)


def swarm(s):
    s = s._with(phase="swarm")
    return dawn(s) if s.closed else s  # the Night's minute ran out: no more captures, finish the Night


def dawn(s):
    """Tonight's demons move; then the captured demons turn to stone: into the Quarry (Consuming Growth's into the
    Supply); every Demon captured and none left in the Dark Realm: victory; otherwise the next Day."""
    s = move_all(s, [d.id for d in s.in_order() if d.id in s.tonight])
    if s.is_over:
        return s
    quarry, supply, obelisks = s.quarry, s.supply, []
    for o in s.obelisks:
        stones = Stones.of(c.colour for c in o.captured)
        if o.scroll == "consuming_growth":
            supply = supply + stones
        else:
            quarry = quarry + stones
        obelisks.append(o.with_(captured=()))
    demons = tuple(d.__class__(d.id, d.colour, d.visited) for d in s.demons)  # walked back to 0
    s = s._with(obelisks=tuple(obelisks), quarry=quarry, supply=supply, demons=demons, tonight=(), closed=False)
    if not s.demons and not s.realm.total:
        return s._with(phase="over", result="won")
    return start_day(s._with(day=s.day + 1))
