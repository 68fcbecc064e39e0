"""How a player who knows what they want to do taps it in: the next tap toward an intended engine action, read
from what the round screen shows (the view TurnEntry publishes, which the screen mirrors widget for widget).

Used three ways: Kivy-free tests (tests/ui/test_turn_entry.py), the touch harness (tests/ui/harness.py, which
finds the widget for each tap) and bench/bench_taps.py (taps per action). The intended actions come from the
engine's seeded random player (companion.games.obscurians.randplay), so every kind of move gets entered.

A tap is a tuple: ("choice", Choice) a button in the centre, ("player", seat) a player's panel, ("die", i) a die
of the dice row, ("end",) the End turn button.
"""
from __future__ import annotations

from collections import Counter

from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal,
    Swap,
)
from companion.games.obscurians.constants import FACE_DOWN
from companion.ui.obscurians.turn import (
    AssignWild, Cancel, ChipMission, ChooseAction, FaceCount, FlipSelected, PayReroll, PickGood, PickSeat, Reveal,
    SecureAll,
)


def as_entered(action):
    """The action as the screen records it: a paid reroll always discards one chip face down (the screen never
    asks which), and the new faces go to the selected dice in face order (the dice are alike)."""
    if isinstance(action, Reroll):
        from companion.games.obscurians.constants import FACES
        faces = tuple(sorted(action.faces, key=FACES.index))
        return Reroll(action.dice, faces, None if action.discard is None else FACE_DOWN)
    return action


def same_move(done, wanted) -> bool:
    """Did the screen record the intended move? (The dice are alike: faces compare as a multiset; see as_entered.)"""
    if isinstance(wanted, Roll) and isinstance(done, Roll):
        return Counter(done.faces) == Counter(wanted.faces)
    if isinstance(wanted, Reroll) and isinstance(done, Reroll):
        return (done.dice == wanted.dice and Counter(done.faces) == Counter(wanted.faces)
                and done.discard == as_entered(wanted).discard)
    return done == wanted


def _items(v):
    for section in v["sections"]:
        yield from section["items"]


def _find(v, choice):
    return next((o for o in _items(v) if o["choice"] == choice), None)


def _pad_counts(v) -> Counter:
    out = Counter()
    for row in v["pad"]:
        for c in row["counts"]:
            if c["selected"]:
                out[row["face"]] = c["choice"].n
    return out


def _count_taps(v, want: Counter):
    """The next count button toward `want` faces on the pad (clear a wrong face first: the pad never lets the
    dice add up to more than there are)."""
    have = _pad_counts(v)
    for face in have:
        if have[face] != want.get(face, 0) and want.get(face, 0) == 0:
            return ("choice", FaceCount(face, have[face]))  # tapping the lit count again clears it
    for face, n in want.items():
        if have.get(face, 0) != n:
            return ("choice", FaceCount(face, n))
    return None


def _dice_taps(v, dice):
    selected = {d["index"] for d in v["dice"] if d["selected"]}
    for i in sorted(set(dice) ^ selected):
        return ("die", i)
    return None


def next_tap(state, v, action):
    """The next tap toward `action` in `state`, given the view `v` the screen shows now."""
    seat = state.seat_of
    me = state.active
    if isinstance(action, RevealEvent):
        option = _find(v, Reveal(action.card)) or next(o for o in _items(v) if isinstance(o["choice"], Reveal))
        return ("choice", option["choice"])
    if isinstance(action, EndTurn):
        return ("end",)
    if isinstance(action, PlaceChip):
        target = seat(action.on)
        if target not in v["panel_selected"]:
            return ("player", target)
        return ("choice", ChipMission(action.mission))
    if isinstance(action, Roll):
        return _count_taps(v, Counter(action.faces))
    if isinstance(action, (Reroll, Flip)):
        tap = _dice_taps(v, action.dice)
        if tap:
            return tap
        if isinstance(action, Flip):
            return ("choice", FlipSelected())
        tap = _count_taps(v, Counter(action.faces))
        if tap:
            return tap
        return ("choice", PayReroll(None if action.discard is None else FACE_DOWN))
    if any(d["selected"] for d in v["dice"]) or (v["pad"] and state.dice is not None):
        return ("choice", Cancel())  # dice picked for a reroll, but this move is another one
    if isinstance(action, Choose):
        return ("choice", ChooseAction(action.action, action.wilds))
    if isinstance(action, AssignWilds):
        if not action.kinds:
            return ("choice", AssignWild(None))
        done = v["assigned"]
        if list(action.kinds[:len(done)]) != done:
            return ("choice", Cancel())
        return ("choice", AssignWild(action.kinds[len(done)]))
    kind_tap = _kind_tap(state, v, action)
    if kind_tap:
        return kind_tap
    if isinstance(action, Steal):
        return ("choice", PickGood(seat(action.victim), action.good))
    if isinstance(action, Donate):  # one tap: the colour given, on the receiver's row
        return ("choice", PickGood(seat(action.to), action.good))
    if isinstance(action, Swap):
        take = _find(v, PickGood(seat(action.other), action.take))
        if not take["selected"]:
            return ("choice", take["choice"])
        return ("choice", PickGood(me, action.give))
    if isinstance(action, Relocate):  # the receiver first (it may still be selected from the last one)
        if seat(action.target) not in v["panel_selected"]:
            return ("player", seat(action.target))
        return ("choice", PickGood(seat(action.source), action.good))
    if isinstance(action, Secure):
        if _find(v, SecureAll()):
            return ("choice", SecureAll())
        have, want = Counter(v["secure_sel"]), Counter(action.goods)
        if have - want:
            return ("choice", Cancel())
        return ("choice", PickGood(me, next(iter((want - have).elements()))))
    raise AssertionError(f"cannot tap in {action!r}")


def _kind_tap(state, v, action):
    """All Actions Mandatory: the action's kind must be the one picked on the row of actions."""
    if state.chosen != "all":
        return None
    kinds = next((s for s in v["sections"] if s["kind"] == "kinds"), None)
    picked = next((o["choice"].kind for o in kinds["items"] if o["selected"]), None) if kinds else None
    if picked != action.TYPE:
        from companion.ui.obscurians.turn import PickKind
        return ("choice", PickKind(action.TYPE))
    return None
