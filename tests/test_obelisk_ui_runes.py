"""What the Obelisk screen offers on a Scroll-charged Obelisk by day, without Kivy (companion/ui/obelisk/charges.py):
the Longbow's owner may turn it to each of the three other directions, nobody else may; every offer is an action the
engine accepts. The table is brought there by the engine's seeded random player (a Scrolls game), the Longbow charged
by a player with an action to spare."""
from __future__ import annotations

import random

from companion.games.obelisk.setup import Setup
from companion.games.obelisk.state import new_game
from companion.ui.obelisk import charges
from tests.ui.obelisk_touch import choose


def a_day_with_a_longbow():
    """A Day on which a player with two actions left charges the Longbow (one action): the second may turn it."""
    from companion.games.obelisk import payments

    for seed in range(1, 40):
        s = new_game(Setup.from_json({"players": [{"name": "Ana", "colour": "blue"},
                                                  {"name": "Ben", "colour": "yellow"}], "scrolls": True, "seed": seed}))
        rng = random.Random(seed)
        while not s.is_over:
            for colour in (s.acting if s.phase == "day" else ()):
                if s.actions_left(colour) < 2:
                    continue
                for o in s.obelisks:
                    ways = charges.ways(s, colour, o.corner).get("longbow")
                    if ways:
                        pay = next(p for p in payments.sensible(s, colour)
                                   if s.is_legal(ways[0].action(colour, o.corner, p)))
                        s = s.apply(ways[0].action(colour, o.corner, pay))
                        return s, s.obelisk_at(o.corner)
            s = s.apply(choose(s, rng))
    raise AssertionError("no Day on which the Longbow is charged with an action to spare")


def test_the_longbows_owner_may_turn_it_each_other_way_and_nobody_else():
    s, bow = a_day_with_a_longbow()
    offers = charges.runes(s, bow.owner, bow.corner)
    assert sorted(a.aim for _, _, a in offers) == sorted(a for a in ("NE", "SE", "SW", "NW") if a != bow.aim)
    assert all(s.is_legal(a) for _, _, a in offers)
    assert all(msgid == charges.TURN_BOW for msgid, _, _ in offers)
    other = next(c for c in s.setup.colours if c != bow.owner)
    assert charges.runes(s, other, bow.corner) == []


def test_an_obelisk_without_a_scroll_offers_nothing_of_the_kind():
    s, bow = a_day_with_a_longbow()
    plain = next((o for o in s.obelisks if o.scroll is None), None)
    if plain is not None:
        assert charges.runes(s, bow.owner, plain.corner) == []
