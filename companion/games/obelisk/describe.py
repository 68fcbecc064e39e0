"""Short texts for the shared screen and `companion replay`: `status` (a phrase) and `describe` (a few lines).

Nothing hidden is shown: the Dark Realm is covered ("cover the Dark Realm with a cloth so that players cannot see
what types of monsters remain inside"), so only how many demons are left in it is said, and the app's Scrolls deck
stays face down.
"""
from __future__ import annotations

from companion.games.obelisk.model import SIZE, cell_name
from companion.games.obelisk.notation import cell_to_text

PHASE_TEXT = {"decipher": "decipher a Scroll", "roll": "roll the dice", "day": "Day", "march": "Night: the demons "
              "on the map move", "spawn": "Night: draw the new demons", "swarm": "Night: the new demons move"}


def status(s) -> str:
    """'day 3', 'night 3', 'won', 'lost'."""
    if s.phase == "over":
        return s.result
    return f"{'night' if s.is_night else 'day'} {s.day}"


def _grid(s) -> list[str]:
    """The map as the table sees it: each tile's kind and arrow; * marks a rotation marker, a count the demons."""
    demons: dict = {}
    for d in s.demons:
        demons[d.at] = demons.get(d.at, 0) + 1
    rows = ["      " + "".join(f"{'ABCDE'[c]:<6}" for c in range(SIZE))]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            text = cell_to_text(s.map[(r, c)]) + ("*" if (r, c) in s.markers else " ")
            n = demons.get((r, c))
            cells.append(f"{text}{n if n else ' ':<3}")
        rows.append(f"  {r + 1}   " + "".join(cells))
    return rows


def describe(s) -> str:
    setup = s.setup
    players = ", ".join(f"{name} ({colour})" for name, colour in setup.players)
    lines = [f"Obelisk, {setup.n_players} player{'s' if setup.n_players > 1 else ''} ({players}), "
             f"{setup.difficulty.replace('_', ' ')}, {status(s)}"
             + (f": {PHASE_TEXT[s.phase]}" if s.phase in PHASE_TEXT else "")]
    lines += _grid(s)
    for o in s.obelisks:
        extra = "".join([f", {o.scroll.replace('_', ' ')}" if o.scroll else "",
                         f" aimed {o.aim}" if o.aim else "", f", {o.charges} charge(s)" if o.charges else "",
                         f", holding {len(o.captured)} demon(s)" if o.captured else ""])
        lines.append(f"  obelisk at corner {cell_name(o.corner)}: {setup.name_of(o.owner)}, strength {o.strength}"
                     + extra)
    for d in s.in_order():
        lines.append(f"  demon {d.id} ({d.colour}) on {cell_name(d.at)}, {d.steps} tile(s) walked")
    q = s.quarry
    lines.append(f"Quarry: {q.green + s.tokens} green, {q.yellow} yellow, {q.blue} blue; Dark Realm: {s.realm.total} "
                 f"demon(s) left")
    if s.phase == "day":
        left = ", ".join(f"{name} {s.actions_left(c)}" for name, c in setup.players)
        lines.append(f"actions left: {left}")
        if setup.leadership:
            lines.append(f"leader token: {setup.players[s.leader][0]}; may speak: "
                         + ", ".join(setup.name_of(c) for c in s.speakers))
    result = s.outcome()
    if result is not None:
        lines += ["", result.detail["why"], "winners: " + (", ".join(setup.name_of(w) for w in result.winners)
                                                          or "nobody")]
    return "\n".join(lines)
