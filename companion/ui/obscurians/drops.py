"""Reading a drag on the round screen: where a good (or a suspicion chip) is picked up and where it is let go say
which move it is, the way the move is made with the real pieces. Free of Kivy, like turn.py.

A good is picked up from a cell of its owner's row (`PickGood(seat, good)`) and let go on a cell of a row
(`PickGood`, which may be empty) or on a player (`PickSeat`: their row's name or their panel on the edge):

- someone's good onto my row: **Steal** it; onto one of my goods: **Swap** the two;
- my good onto someone's row: **Donate** it; onto one of their goods: **Swap** the two;
- an opponent's good onto another opponent: **Relocate** it;
- my good onto another of my goods: **Secure** the two (onto my own name or panel: that one good, the last);
- a chip from my hand (`ChipMission`) onto a player: **place** it on them.

When the turn's action is known (chosen, or picked under All Actions Mandatory) a drag is that action or a
refusal that says what the action needs (`NEEDS`, or the engine's own sentence): under Steal any drop on my row
steals, and my good dropped on Ben's good is no Swap but "Steal takes another player's good …" (issue 14 §3: the
players picked the action; a drag never quietly does another). With no action known yet (All Actions Mandatory,
none picked) the drag is read by its ends alone, as listed above, so the same drag always means the same move;
whether the rules allow it is the engine's to say.
"""
from __future__ import annotations

from companion.games.errors import N_, IllegalAction
from companion.games.obscurians.actions import Donate, PlaceChip, Relocate, Secure, Steal, Swap
from companion.ui.obscurians.refusal import Refusal


# What each action needs, said when a tap or a drag does not fit the action being carried out (Relocate: the
# engine's sentence, "Relocate moves a good between two other players, never from or to you").
NEEDS = {
    "steal": N_("Steal takes another player's good: tap it on their row, or drag it onto yours"),
    "donate": N_("Donate gives one of your goods: tap its colour on the receiver's row, or drag it onto them"),
    "swap": N_("Swap trades one of your goods for one of another player's: drag one onto the other"),
    "secure": N_("Secure uses only your own goods: tap them on your row"),
    "relocate": N_("Relocate: drag a good from its owner's row onto the player who receives it"),
}


def _ends(state, source, target):
    """(from seat, the good, to seat, the good let go on or None): a cell of a good nobody has is no good."""
    to_good = getattr(target, "good", None)
    if to_good is not None and not state.goods[target.seat].get(to_good):
        to_good = None
    return source.seat, source.good, target.seat, to_good


def reading(state, kind: str, source, target):
    """The execution of `kind` this drag makes, or None when it cannot be one."""
    me, colour = state.active, state.colour
    a, g, b, h = _ends(state, source, target)
    if kind == "steal" and a != me and b == me:
        return Steal(colour(a), g)
    if kind == "donate" and a == me and b != me:
        return Donate(colour(b), g)
    if kind == "swap" and h is not None and (a == me) != (b == me):
        return Swap(colour(b), g, h) if a == me else Swap(colour(a), h, g)
    if kind == "relocate" and me not in (a, b) and a != b:
        return Relocate(colour(a), colour(b), g)
    if kind == "secure" and a == b == me and h != g:
        return Secure((g,) if h is None else (g, h))  # onto my own name: that one good (the last one, say)
    return None


def by_its_ends(state, source, target) -> str:
    """The kind a drag means by where it starts and ends alone (see the module's docstring)."""
    me = state.active
    a, g, b, h = _ends(state, source, target)
    if a == b == me:
        if h == g:
            raise Refusal(N_("To secure two goods, drag one of yours onto another of yours"))
        return "secure"
    if a == b:
        raise Refusal(N_("Let it go on another player's row"))
    if a != me and b != me:
        return "relocate"
    if h is not None:
        return "swap"
    return "steal" if b == me else "donate"


def not_this(state, kind: str, source, target) -> Exception:
    """Why a drag is not an execution of `kind`, the action being carried out."""
    by_its_ends(state, source, target)  # a drop on the good's own row, or a good onto itself: said as such
    a, g, b, _ = _ends(state, source, target)
    if kind == "relocate":  # my good, or onto me: the engine says Relocate is between two others
        try:
            state.apply(Relocate(state.colour(a), state.colour(b), g))
        except IllegalAction as err:
            return err
    return Refusal(NEEDS[kind])


def read(state, kind: str | None, source, target):
    """The engine action a good dragged from `source` onto `target` proposes (the engine judges it): under a
    known action that action, or the reason it is not (never another action)."""
    if kind is not None:
        action = reading(state, kind, source, target)
        if action is None:
            raise not_this(state, kind, source, target)
        return action
    return reading(state, by_its_ends(state, source, target), source, target)


def read_chip(state, source, target) -> PlaceChip:
    """A chip from the hand let go on a player: placed on them."""
    if not hasattr(target, "seat") or hasattr(target, "good"):
        raise Refusal(N_("Let the chip go on the player you suspect"))
    return PlaceChip(state.colour(target.seat), source.mission)
