"""Charging a deciphered Scroll onto an Obelisk from the table screen (Scrolls expansion): the ways each Scroll can be
charged on one Obelisk — its details (Burnout's boost, the Longbow's direction, the two tiles Broken Earth swaps,
what Siphon Energy drains) — each judged by the engine before it is offered. No Kivy here."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from companion.games.errors import N_
from companion.games.obelisk import payments, words
from companion.games.obelisk.actions import Charge
from companion.games.obelisk.box import BURNOUT_BOOST, MAX_STRENGTH, SEALED
from companion.games.obelisk.model import AIMS, corner_cells
from companion.games.obelisk.vocabulary import SCROLL

MOST = 6   # ways offered per Scroll (the sheet scrolls beyond what a small window holds)
CHARGE = N_("Charge {scroll}")
HOW = N_("Charge {scroll}: how")
PAY = N_("Charge {scroll} on corner {corner}: pay with")
BOOST = N_("{scroll} +{n}")
AIM = N_("{scroll}, pointing {way}")
SWAP = N_("{scroll}: swap {a} and {b}")
SIPHON = N_("{scroll}: {n} from the Obelisk on corner {corner}")
PLAIN = N_("{scroll} as it is")
SHOWS = N_("{scroll}: the die shows {n}")
FACE_UP = N_("Scrolls face up: {names}")
AIM_WAY = {"NE": N_("north-east"), "SE": N_("south-east"), "SW": N_("south-west"), "NW": N_("north-west")}


@dataclass(frozen=True)
class Way:
    """One way to charge `scroll`: the Charge's details and how the table says it (a msgid and its params)."""
    scroll: str
    details: dict
    msgid: str
    params: dict

    def said(self, t) -> str:
        params = {k: (t(v) if k in ("way",) else v) for k, v in self.params.items()}
        return t(self.msgid).format(scroll=t(SCROLL[self.scroll]), **params)

    def action(self, player: str, corner, pay) -> Charge:
        return Charge(player, self.scroll, corner, pay, **self.details)


def _ways(s, scroll: str, o) -> list[Way]:
    if scroll == "burnout":
        top = min(BURNOUT_BOOST, MAX_STRENGTH - o.strength)
        return [Way(scroll, {"boost": n}, BOOST, {"n": n}) for n in range(top, -1, -1)]
    if scroll == "instability":
        if s.setup.dice == "app":
            return [Way(scroll, {"roll": None}, PLAIN, {})]
        return [Way(scroll, {"roll": n}, SHOWS, {"n": n}) for n in range(1, 7)]
    if scroll == "longbow":
        return [Way(scroll, {"aim": a}, AIM, {"way": AIM_WAY[a]}) for a in AIMS]
    if scroll == "broken_earth":
        movable = [c for c in corner_cells(o.corner) if c not in s.trodden]
        return [Way(scroll, {"moves": ((a, b), (b, a))}, SWAP, {"a": words.cell(a), "b": words.cell(b)})
                for a, b in combinations(movable, 2) if s.map[a] != s.map[b]]
    if scroll == "siphon_energy":
        room = MAX_STRENGTH - o.strength
        out = []
        for x in s.obelisks:
            if x.corner != o.corner and x.scroll not in SEALED and room:
                n = min(x.strength, room)
                out.append(Way(scroll, {"siphon": ((x.corner, n),)}, SIPHON,
                               {"n": n, "corner": words.corner(x.corner)}))
        return out
    return [Way(scroll, {}, PLAIN, {})]


def ways(s, player: str, corner) -> dict[str, list[Way]]:
    """Per deciphered Scroll, the ways to charge it on the Obelisk on `corner` that the engine accepts now (with the
    first payment the player can make), at most MOST each; Scrolls with none are left out."""
    pays = payments.affordable(s, player)
    o = s.obelisk_at(corner)
    if not pays or o is None:
        return {}
    out = {}
    for scroll in s.deciphered:
        legal = [w for w in _ways(s, scroll, o) if s.is_legal(w.action(player, corner, pays[0]))]
        if legal:
            out[scroll] = legal[:MOST]
    return out


def said(msgid: str, params: dict, t) -> str:
    """An offer in the players' words: its game words (msgids) translated, its numbers as they are."""
    return t(msgid).format(**{k: t(v) if isinstance(v, str) else v for k, v in params.items()})


def face_up(s, t) -> str:
    return t(FACE_UP).format(names=", ".join(t(SCROLL[x]) for x in s.deciphered)) if s.deciphered else ""


# ----------------------------------------------------------------- what a charged Obelisk can do by day

REROLL = N_("Roll it again ({scroll})")
TURN_BOW = N_("Point the {scroll} {way}")
REROLLED = N_("Rolled again ({scroll}): it shows {n}")


def runes(s, player: str, corner) -> list[tuple[str, dict, object]]:
    """The Day's actions of the Obelisk on `corner` because of its Scroll, the engine accepting them now: Instability
    rolled again (any player, an action), the Longbow turned (its owner, an action). (msgid, params, action) each."""
    from companion.games.obelisk.actions import Aim, Reroll

    o = s.obelisk_at(corner)
    if o is None:
        return []
    out = []
    if o.scroll == "instability":
        rolls = [None] if s.setup.dice == "app" else range(1, 7)   # the app's die, or the one rolled at the table
        for n in rolls:
            action = Reroll(player, corner, n)
            if s.is_legal(action):
                out.append((REROLL if n is None else REROLLED, {"scroll": SCROLL["instability"], "n": n}, action))
    if o.scroll == "longbow":
        for aim in AIMS:
            action = Aim(player, corner, aim)
            if s.is_legal(action):
                out.append((TURN_BOW, {"scroll": SCROLL["longbow"], "way": AIM_WAY[aim]}, action))
    return out
