"""The Scrolls expansion: deciphering a Scroll each Day, charging it onto an Obelisk, and what each rune does.

"Charging a Scroll counts as a Reinforce Action": an action (of the Reinforce kind, for the repetition rule) and a
payment; it does not raise the strength by one (the rune is the upgrade). The target Obelisk must stand next to one
of the lands the Scroll shows. A new Scroll overwrites the one under an Obelisk — except Burnout and Instability,
which cannot be reinforced, overwritten or targeted by any Scroll. Broken Earth and Siphon Energy act once and are
discarded ("You may discard this card after playing it"): they leave the rune under the Obelisk as it was.
What each rune does at capture time is in paths.py (reach, strength, captures per Night); at the start of a Day or
a Night in cycle.py (Lightning Rod's charge, Instability's and Burnout's rolls).
"""
from __future__ import annotations

from companion.games.errors import IllegalAction, Terms
from companion.games.obelisk import cycle, day, payments, words
from companion.games.obelisk.actions import Charge, Decipher
from companion.games.obelisk.box import (
    BURNOUT_BOOST, FIRST_SCROLL, MAX_STRENGTH, SCROLL_LANDS, SEALED,
)
from companion.games.obelisk.model import corner_cells
from companion.games.obelisk.paths import touching_lands

PLAYING = "Playing with Scrolls"
ABILITIES = "Scroll Abilities"
DETAILS = {"boost": "burnout", "roll": "instability", "aim": "longbow", "moves": "broken_earth",
           "siphon": "siphon_energy"}


def decipher(s, a: Decipher):
    if s.phase != "decipher":
        raise IllegalAction.of("A Scroll is deciphered at the start of a Day, when the deck is not empty", PLAYING)
    if a.scroll == FIRST_SCROLL or a.scroll in s.deciphered or a.scroll in s.spent:
        raise IllegalAction.of("{scroll} has already been deciphered", PLAYING, scroll=words.scroll(a.scroll))
    return cycle.after_decipher(s._with(deciphered=s.deciphered + (a.scroll,)))


def charge(s, a: Charge):
    if not s.setup.scrolls:
        raise IllegalAction.of("This table plays without the Scrolls", PLAYING)
    i = day.act(s, a.player, "reinforce")
    if a.scroll not in s.deciphered:
        raise IllegalAction.of("{scroll} is not deciphered and waiting to be charged", PLAYING,
                               scroll=words.scroll(a.scroll))
    o = day.target(s, a.obelisk, PLAYING)
    if o.scroll in SEALED:
        raise IllegalAction.of("The Obelisk on corner {corner} carries {scroll}: no Scroll can target it",
                               ABILITIES, corner=words.corner(o.corner), scroll=words.scroll(o.scroll))
    lands = SCROLL_LANDS[a.scroll]
    if not touching_lands(o.corner, s.map) & set(lands):
        raise IllegalAction.of("{scroll} goes on an Obelisk next to {lands}", PLAYING, scroll=words.scroll(a.scroll),
                               lands=Terms(words.land(k) for k in lands))
    for name, owner in DETAILS.items():
        given = getattr(a, name)
        if owner != a.scroll and given not in (None, ()):
            raise IllegalAction.of("{scroll} does not use {field}", PLAYING, scroll=words.scroll(a.scroll),
                                   field=name)
    s = APPLY[a.scroll](s, o, a)
    s = payments.pay(s, a.player, a.pay)
    s = s._with(deciphered=tuple(x for x in s.deciphered if x != a.scroll), spent=s.spent + (a.scroll,))
    return day.done(s, i, "reinforce")


def _rune(s, o, a: Charge, **changes):
    """The Scroll slipped under the Obelisk, on top of (overwriting) any other."""
    new = o.with_(**{"scroll": a.scroll, "charges": 0, "aim": None, **changes})
    return cycle.replace_obelisk(s, o, new)


def _burnout(s, o, a: Charge):
    """"Immediately increase the strength of this Obelisk by up to +4"."""
    if a.boost is None:
        raise IllegalAction.of("Say how much Burnout raises the strength (0 to {n})", ABILITIES, n=BURNOUT_BOOST)
    if a.boost > BURNOUT_BOOST or o.strength + a.boost > MAX_STRENGTH:
        raise IllegalAction.of("Burnout raises the strength by at most {n}, and never above {top}", ABILITIES,
                               n=BURNOUT_BOOST, top=MAX_STRENGTH)
    return _rune(s, o, a, strength=o.strength + a.boost)


def _instability(s, o, a: Charge):
    """"Immediately and at the start of every Day, roll this Obelisk to determine its new strength"."""
    s, value = day.roll_value(s, a.roll)
    return _rune(s, o, a, strength=value)


def _lightning_rod(s, o, a: Charge):
    """"when you first buy this upgrade, add a Charge"."""
    return _rune(s, o, a, charges=1)


def _longbow(s, o, a: Charge):
    if a.aim is None:
        raise IllegalAction.of("Say which way the Longbow points (NE, SE, SW or NW)", ABILITIES)
    return _rune(s, o, a, aim=a.aim)


def _broken_earth(s, o, a: Charge):
    """"Immediately move any tiles next to this Obelisk to any other position next to the Obelisk. Do not rotate
    the tiles. You cannot move tiles that any Stone Demon has already stepped on." The tiles trade places: `moves`
    is a permutation of the cells around the corner (an empty space moves like a tile); markers travel with tiles."""
    around = set(corner_cells(o.corner))
    sources = [f for f, _ in a.moves]
    targets = [t for _, t in a.moves]
    if not a.moves or any(f == t for f, t in a.moves) or len(set(sources)) != len(sources) \
            or set(sources) != set(targets):
        raise IllegalAction.of("Broken Earth moves tiles between the places next to its Obelisk: each place gives "
                               "its tile to one other and takes one", ABILITIES)
    for cell in sources:
        if cell not in around:
            raise IllegalAction.of("{cell} is not next to the Obelisk on corner {corner}", ABILITIES,
                                   cell=words.cell(cell), corner=words.corner(o.corner))
        if cell in s.trodden:
            raise IllegalAction.of("A demon has stepped on the tile at {cell}: it cannot be moved", ABILITIES,
                                   cell=words.cell(cell))
    if all(s.map[f] is None for f in sources):
        raise IllegalAction.of("Broken Earth moves at least one tile", ABILITIES)
    changes = {t: s.map[f] for f, t in a.moves}
    markers = (s.markers - set(sources)) | {t for f, t in a.moves if f in s.markers}
    return s._with(map=s.map.with_tiles(changes), markers=frozenset(markers))


def _siphon_energy(s, o, a: Charge):
    """"Immediately increase the strength of this Obelisk by one for each point of strength you remove from other
    Obelisks … If an Obelisk's strength is decreased to zero, remove it and any scrolls on it from the game"."""
    if not a.siphon:
        raise IllegalAction.of("Say which Obelisks give strength to Siphon Energy", ABILITIES)
    seen, total = set(), 0
    for corner, points in a.siphon:
        other = day.target(s, corner, ABILITIES)
        if corner == o.corner or corner in seen:
            raise IllegalAction.of("Siphon Energy takes strength from other Obelisks, each once", ABILITIES)
        if other.scroll in SEALED:
            raise IllegalAction.of("The Obelisk on corner {corner} carries {scroll}: no Scroll can target it",
                                   ABILITIES, corner=words.corner(corner), scroll=words.scroll(other.scroll))
        if points > other.strength:
            raise IllegalAction.of("The Obelisk on corner {corner} has only strength {n}", ABILITIES,
                                   corner=words.corner(corner), n=other.strength)
        seen.add(corner)
        total += points
    if o.strength + total > MAX_STRENGTH:
        raise IllegalAction.of("Siphon Energy raises the strength to at most {top}", ABILITIES, top=MAX_STRENGTH)
    for corner, points in a.siphon:
        other = s.obelisk_at(corner)
        s = cycle.replace_obelisk(s, other, other.with_(strength=other.strength - points)
                                  if points < other.strength else None)
    return cycle.replace_obelisk(s, o, o.with_(strength=o.strength + total))


APPLY = {
    "broken_earth": _broken_earth, "burnout": _burnout, "consuming_growth": _rune, "crystal_network": _rune,
    "instability": _instability, "lightning_rod": _lightning_rod, "longbow": _longbow,
    "siphon_energy": _siphon_energy,
}
