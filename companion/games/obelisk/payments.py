"""Reinforce payments (and a Scroll's charge, which costs the same). RULING obelisk-reinforce: 4 green, 3 yellow, 2
blue, or 1 unplaced Obelisk die; blue is wild and may replace any stone of a set (so e.g. 3 green + 1 blue,
2 yellow + 1 blue, 1 yellow + 2 blue). Stones are paid from the Quarry into the Supply; a sacrificed die goes to the
Supply too.
"""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obelisk.actions import Pay
from companion.games.obelisk.model import Stones

REINFORCE = "Action: Reinforce Any Obelisk"
SETS = {"green": 4, "yellow": 3, "blue": 2}


def is_valid_set(stones: Stones) -> bool:
    """One set: all of one colour (4 green, 3 yellow or 2 blue), any of them blue instead (blue is wild)."""
    g, y, b = stones.green, stones.yellow, stones.blue
    return (y == 0 and g + b == 4) or (g == 0 and y + b == 3) or (g == 0 and y == 0 and b == 2)


def every_set() -> list[Pay]:
    """Every valid set, plain sets first: 4G, 3G1B … 3Y, 2Y1B … 2B (a set all of blue is 2B, 3B or 4B)."""
    out = [Pay(green=g, blue=4 - g) for g in range(4, -1, -1)]
    out += [Pay(yellow=y, blue=3 - y) for y in range(3, -1, -1)]
    out.append(Pay(blue=2))
    return out


def affordable(s, colour: str) -> list[Pay]:
    """Every payment `colour` can make now: the valid sets the Quarry holds, then their own unplaced die."""
    have = Stones(s.quarry_green, s.quarry.yellow, s.quarry.blue)
    out = [p for p in every_set() if have.covers(p.stones)]
    if s.unplaced[s.seat(colour)]:
        out.append(Pay(die=True))
    return out


def sensible(s, colour: str) -> list[Pay]:
    """What a payment picker offers: the affordable payments no other affordable one undercuts (2B, never 4B)."""
    options = affordable(s, colour)
    stone = [p for p in options if not p.die]
    keep = [p for p in stone if not any(q != p and p.stones.covers(q.stones) for q in stone)]
    return keep + [p for p in options if p.die]


def pay(s, colour: str, payment: Pay):
    """The state after `colour` pays; IllegalAction when it is not a valid set or the Quarry cannot cover it."""
    if payment.die:
        i = s.seat(colour)
        if not s.unplaced[i]:
            raise IllegalAction.of("{name} has no unplaced Obelisk to sacrifice", REINFORCE,
                                   name=s.setup.name_of(colour))
        return s._with(unplaced=s.unplaced[:i] + (s.unplaced[i] - 1,) + s.unplaced[i + 1:])
    stones = payment.stones
    if not is_valid_set(stones):
        raise IllegalAction.of("A payment is 4 green, 3 yellow or 2 blue stones (blue may replace any stone), or "
                               "an unplaced Obelisk", "RULING obelisk-reinforce")
    if not Stones(s.quarry_green, s.quarry.yellow, s.quarry.blue).covers(stones):
        raise IllegalAction.of("The Quarry holds only {green} green, {yellow} yellow and {blue} blue stones", REINFORCE,
                               green=s.quarry_green, yellow=s.quarry.yellow, blue=s.quarry.blue)
    tokens_used = min(s.tokens, stones.green)  # stand-ins go back to the Supply first (they are markers)
    demons = Stones(stones.green - tokens_used, stones.yellow, stones.blue)
    return s._with(quarry=s.quarry - demons, tokens=s.tokens - tokens_used, supply=s.supply + demons)
