"""The Day: Build, Reinforce, Mine, Rotate (and the Scrolls' Reroll and Aim), the action budget, the repetition
rule, Rotating Leadership and the end of the Day.

RULING obelisk-actions: actions per Day and tiles per Rotate per player count (editable, Rules.actions);
repeating an action is allowed only with 1-2 players (the rulebook).
"""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obelisk import cycle, payments, words
from companion.games.obelisk.actions import Aim, Build, Mine, Nightfall, Pass, Reinforce, Reroll, Rotate
from companion.games.obelisk.box import MAX_STRENGTH, SEALED
from companion.games.obelisk.model import Obelisk

DAY = "Day Phase"
BUILD = "Action: Build An Obelisk"
MINE = "Action: Mine Petrified Demons"
ROTATE = "Action: Rotate Trail Signs"
LEADERSHIP = "Rotating Leadership"
SCROLL_ABILITIES = "Scroll Abilities"


def act(s, colour: str, kind: str):
    """Check that `colour` may play an action of `kind` now; the seat."""
    if s.phase != "day":
        raise IllegalAction.of("Actions are played during the Day", DAY)
    if colour not in s.setup.colours:
        raise IllegalAction.of("Nobody plays {colour} at this table", DAY, colour=words.colour(colour))
    name = s.setup.name_of(colour)
    i = s.seat(colour)
    if s.setup.leadership and i != s.leader:
        raise IllegalAction.of("{leader} holds the leader token: {name} acts when it comes to them", LEADERSHIP,
                               leader=s.setup.players[s.leader][0], name=name)
    if s.passed[i] or len(s.used[i]) >= s.budget.actions:
        raise IllegalAction.of("{name} has no action left this Day", "RULING obelisk-actions", name=name)
    if not s.may_repeat(colour, kind):
        raise IllegalAction.of("{name} already played {kind} this Day: at this table an action is not repeated in "
                               "one Day", "RULING obelisk-actions", name=name, kind=words.action(kind))
    return i


def done(s, i: int, kind: str):
    """Seat `i` played an action of `kind`: count it, pass the leader token on, and end the Day when all are done."""
    used = s.used[:i] + (s.used[i] + (kind,),) + s.used[i + 1:]
    return after_turn(s._with(used=used, last_actor=i))


def after_turn(s):
    if s.phase != "day":
        return s
    colours = s.setup.colours
    if s.setup.leadership:
        if s.actions_left(colours[s.leader]):
            return s
        n = len(colours)
        if (s.leader - s.first_leader) % n == n - 1:  # every councillor has led today
            return cycle.nightfall(s)
        return s._with(leader=(s.leader + 1) % n)  # "pass the token to the councillor on their left"
    if any(s.actions_left(c) for c in colours):
        return s
    return cycle.nightfall(s)


def build(s, a: Build):
    i = act(s, a.player, "build")
    name = s.setup.name_of(a.player)
    if not s.unplaced[i]:
        raise IllegalAction.of("{name} has no Obelisk left to build", BUILD, name=name)
    if s.obelisk_at(a.corner) is not None:
        raise IllegalAction.of("Corner {corner} already has an Obelisk", "RULING obelisk-capture",
                               corner=words.corner(a.corner))
    if not s.map.touches_a_tile(a.corner):
        raise IllegalAction.of("Corner {corner} touches no tile: an Obelisk stands at the corner of a tile", BUILD,
                               corner=words.corner(a.corner))
    obelisks = tuple(sorted(s.obelisks + (Obelisk(a.corner, a.player, 1),), key=lambda o: o.corner))
    unplaced = s.unplaced[:i] + (s.unplaced[i] - 1,) + s.unplaced[i + 1:]
    return done(s._with(obelisks=obelisks, unplaced=unplaced), i, "build")


def target(s, corner, rule: str = "Action: Reinforce Any Obelisk") -> Obelisk:
    o = s.obelisk_at(corner)
    if o is None:
        raise IllegalAction.of("There is no Obelisk on corner {corner}", rule, corner=words.corner(corner))
    return o


def reinforce(s, a: Reinforce):
    i = act(s, a.player, "reinforce")
    o = target(s, a.obelisk)
    if o.scroll in SEALED:
        raise IllegalAction.of("The Obelisk on corner {corner} carries {scroll}: it cannot be reinforced",
                               SCROLL_ABILITIES, corner=words.corner(o.corner), scroll=words.scroll(o.scroll))
    if o.strength >= MAX_STRENGTH:
        raise IllegalAction.of("The Obelisk on corner {corner} already has strength {n}", "RULING obelisk-reinforce",
                               corner=words.corner(o.corner), n=MAX_STRENGTH)
    s = payments.pay(s, a.player, a.pay)
    s = cycle.replace_obelisk(s, o, o.with_(strength=o.strength + 1))
    return done(s, i, "reinforce")


def mine(s, a: Mine):
    """One green stone from the Supply into the Quarry; with none left there, a spare rotation marker (or any token)
    stands in for it: "Players can always perform this action" (RULING obelisk-mine)."""
    i = act(s, a.player, "mine")
    if s.supply.green:
        s = s._with(supply=s.supply.plus("green", -1), quarry=s.quarry.plus("green"))
    else:
        s = s._with(tokens=s.tokens + 1)
    return done(s, i, "mine")


def rotate(s, a: Rotate):
    i = act(s, a.player, "rotate")
    most = s.budget.rotate
    if not a.tiles:
        raise IllegalAction.of("Rotate turns at least one tile", ROTATE)
    if len(a.tiles) > most:
        raise IllegalAction.of("One Rotate action turns at most {n} tiles", "RULING obelisk-actions", n=most)
    cells = [cell for cell, _ in a.tiles]
    if len(set(cells)) != len(cells):
        raise IllegalAction.of("Each tile is turned once per Rotate action", ROTATE)
    changes = {}
    for cell, facing in a.tiles:
        tile = s.map[cell]
        if tile is None:
            raise IllegalAction.of("{cell} is an empty space: there is no tile to turn", ROTATE,
                                   cell=words.cell(cell))
        if cell not in s.markers:
            raise IllegalAction.of("The tile at {cell} has no rotation marker: it cannot be turned again", ROTATE,
                                   cell=words.cell(cell))
        if tile.facing == facing:
            raise IllegalAction.of("The tile at {cell} already points that way", ROTATE, cell=words.cell(cell))
        changes[cell] = tile.turned(facing)
    s = s._with(map=s.map.with_tiles(changes), markers=s.markers - set(cells))
    return done(s, i, "rotate")


def reroll(s, a: Reroll):
    """Instability: "any player may spend an action to reroll this Obelisk (as long as the owner approves)"."""
    i = act(s, a.player, "reroll")
    o = target(s, a.obelisk, SCROLL_ABILITIES)
    if o.scroll != "instability":
        raise IllegalAction.of("Only an Obelisk with {scroll} is rerolled", SCROLL_ABILITIES,
                               scroll=words.scroll("instability"))
    s, value = roll_value(s, a.roll)
    return done(cycle.replace_obelisk(s, o, o.with_(strength=value)), i, "reroll")


def roll_value(s, given: int | None):
    """(state, the D6): the app's next die, or the one the table rolled."""
    if s.setup.dice == "app":
        if given is not None:
            raise IllegalAction.of("The app rolls the dice at this table", SCROLL_ABILITIES)
        return s._with(rolls=s.rolls + 1), cycle.app_roll(s.setup.seed, s.rolls)
    if given is None:
        raise IllegalAction.of("Roll the die and enter what it shows", SCROLL_ABILITIES)
    return s, given


def aim(s, a: Aim):
    """Longbow: "the Obelisk owner may spend an action to rotate the target direction"."""
    o = target(s, a.obelisk, SCROLL_ABILITIES)
    if o.scroll != "longbow":
        raise IllegalAction.of("Only an Obelisk with {scroll} has a direction to turn", SCROLL_ABILITIES,
                               scroll=words.scroll("longbow"))
    if o.owner != a.player:
        raise IllegalAction.of("Only the Obelisk's owner, {name}, turns its Longbow", SCROLL_ABILITIES,
                               name=s.setup.name_of(o.owner))
    i = act(s, a.player, "aim")
    if o.aim == a.aim:
        raise IllegalAction.of("The Longbow already points that way", SCROLL_ABILITIES)
    return done(cycle.replace_obelisk(s, o, o.with_(aim=a.aim)), i, "aim")


def pass_(s, a: Pass):
    if s.phase != "day":
        raise IllegalAction.of("Actions are played during the Day", DAY)
    if a.player not in s.setup.colours:
        raise IllegalAction.of("Nobody plays {colour} at this table", DAY, colour=words.colour(a.player))
    i = s.seat(a.player)
    if s.setup.leadership and i != s.leader:
        raise IllegalAction.of("Only the leader passes the token on", LEADERSHIP)
    if not s.actions_left(a.player):
        raise IllegalAction.of("{name} has no action left this Day", "RULING obelisk-actions",
                               name=s.setup.name_of(a.player))
    passed = s.passed[:i] + (True,) + s.passed[i + 1:]
    return after_turn(s._with(passed=passed))


def nightfall(s, a: Nightfall):
    if s.phase != "day":
        raise IllegalAction.of("The Night begins when the Day is over", DAY)
    return cycle.nightfall(s)
