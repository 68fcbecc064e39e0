"""How a player who knows what they want to do enters it: the next touch toward an intended engine action, read
from what the round screen shows (the view TurnEntry publishes, which the screen mirrors widget for widget).

Used three ways: Kivy-free tests (tests/ui/test_turn_entry.py), the touch harness (tests/ui/obscurians_driver.py, which
finds the widgets for each touch) and bench/bench_taps.py (touches per action). The intended actions come from a
scripted player (tests/ui/policies.py), so every kind of move gets entered.

A touch is a tuple: ("choice", Choice) a button in the centre, ("player", seat) a player's panel, ("die", i) a die
of the dice row (NEW_ROLL: the slot after them), ("end",) the End turn button, and a drag ("drop", source, target,
onto): a good (`PickGood`) or a chip in hand (`ChipMission`) let go on a cell (`PickGood`) or on a player
(`PickSeat`) — `onto` says where a player is: "row" (their row's name in the centre) or "panel" (on the edge).

`drags=False` enters everything with taps only (the way without drags stays, and bench_taps reports it too).
"""
from __future__ import annotations

from collections import Counter

from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal,
    Swap,
)
from companion.games.obscurians.constants import FACE_DOWN, FACES
from companion.ui.obscurians.turn import (
    NEW_ROLL, AssignWild, Cancel, ChipMission, ChooseAction, DieSlot, FaceCount, PayReroll, PickGood, PickKind,
    PickSeat, Reveal, SecureAll, SecurePair,
)


def as_entered(action):
    """The action as the screen records it: a paid reroll always discards one chip face down (the screen never
    asks which), and the new faces go to the selected dice in face order (the dice are alike)."""
    if isinstance(action, Reroll):
        faces = tuple(sorted(action.faces, key=FACES.index))
        return Reroll(action.dice, faces, None if action.discard is None else FACE_DOWN)
    return action


def alike(a, b) -> bool:
    """The same position of the game, the dice being alike (which die shows a face does not matter)."""
    def norm(s):
        c = s._copy()
        c.dice = None if s.dice is None else tuple(sorted(s.dice))
        return c
    return norm(a) == norm(b)


def with_app_reveal(goal, recorded, wanted):
    """The position meant once `recorded` is in: with the app's deck, a round ending before round 5 also reveals
    the next card (TurnEntry.end_turn), which the players did not have to decide."""
    if isinstance(recorded, RevealEvent) and not isinstance(wanted, RevealEvent):
        return goal.apply(recorded)
    return goal


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
    selected = {d["index"] for d in v["dice"] if d["selected"] and d["index"] != NEW_ROLL}
    for i in sorted(set(dice) ^ selected):
        return ("die", i)
    return None


def _new_roll_on(v) -> bool:
    return any(d["index"] == NEW_ROLL and d["selected"] for d in v["dice"])


def _reroll(state, v, action):
    """A reroll: the dice picked up, their new faces and the payment; or New roll (tap it, then all five dice as
    they lie: the 5th makes the reroll), whichever takes fewer touches. Under Flip the Die a tapped die turns
    over, so a reroll there is always a New roll."""
    after = list(state.dice)
    for i, f in zip(action.dice, action.faces):
        after[i] = f
    free_first = state.event == "reroll_once" and not state.free_reroll_used
    new_roll_pays = None if free_first else FACE_DOWN
    by_new_roll = as_entered(action).discard == new_roll_pays
    turning = state.event == "flip_the_die"
    picking = any(d["selected"] for d in v["dice"] if d["index"] != NEW_ROLL) and not turning
    if _new_roll_on(v) or (by_new_roll and not picking and (turning or 1 + len(set(after)) <= len(action.dice)
                                                            + len(set(action.faces)) + 1)):
        if not _new_roll_on(v):
            return ("die", NEW_ROLL)
        return _count_taps(v, Counter(after))
    tap = _dice_taps(v, action.dice)
    if tap:
        return tap
    tap = _count_taps(v, Counter(action.faces))
    if tap:
        return tap
    return ("choice", PayReroll(None if action.discard is None else FACE_DOWN))


def next_tap(state, v, action, drags: bool = True, goal=None):
    """The next touch toward `action` in `state` (the state the screen shows), given the view `v` it shows now.
    `goal` (the position `action` leads to) is needed for a Flip: the dice still to turn over."""
    tap = _next_tap(state, v, action, drags, goal)
    if tap[0] == "die" and any(s["kind"] == "dice" for s in v["sections"]):
        return ("choice", DieSlot(tap[1]))  # the dice shown among the options (All Actions Mandatory, no Wild)
    return tap


def _next_tap(state, v, action, drags, goal):
    seat = state.seat_of
    me = state.active
    if isinstance(action, RevealEvent):
        option = _find(v, Reveal(action.card)) or next(o for o in _items(v) if isinstance(o["choice"], Reveal))
        return ("choice", option["choice"])
    if isinstance(action, PlaceChip):
        target = seat(action.on)
        if target not in v["panel_selected"]:
            if drags:  # the chip from the hand onto the suspect's panel
                return ("drop", ChipMission(action.mission), PickSeat(target), "panel")
            return ("player", target)
        return ("choice", ChipMission(action.mission))
    if isinstance(action, Roll):
        return _count_taps(v, Counter(action.faces))
    if isinstance(action, Reroll):
        return _reroll(state, v, action)
    if isinstance(action, Flip):  # each die still showing the other face than the one meant: turn it over
        turn = next(i for i in range(len(goal.dice)) if goal.dice[i] != state.dice[i])
        return ("die", turn)
    if isinstance(action, EndTurn):
        return ("end",)
    turning = state.event == "flip_the_die"
    if _new_roll_on(v) or (not turning and any(d["selected"] for d in v["dice"] if d["index"] != NEW_ROLL)) or (
            v["pad"] and state.dice is not None):
        return ("choice", Cancel())  # dice picked for a reroll, but this move is another one
    if isinstance(action, Choose):
        return ("choice", ChooseAction(action.action, action.wilds))
    if isinstance(action, AssignWilds):
        done = v["assigned"]
        if list(action.kinds[:len(done)]) != done:
            return ("choice", Cancel())
        return ("choice", AssignWild(action.kinds[len(done)]))
    if drags:
        touch = _drag(state, v, action)
        if touch:
            return touch
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
        if len(action.goods) == 2 and action.goods[0] == action.goods[1] and _find(v, SecurePair(action.goods[0])):
            return ("choice", SecurePair(action.goods[0]))  # two of one colour: one tap
        have, want = Counter(v["secure_sel"]), Counter(action.goods)
        if have - want:
            return ("choice", Cancel())
        return ("choice", PickGood(me, next(iter((want - have).elements()))))
    raise AssertionError(f"cannot tap in {action!r}")


def _picked(v):
    kinds = next((s for s in v["sections"] if s["kind"] == "kinds"), None)
    return next((o["choice"].kind for o in kinds["items"] if o["selected"]), None) if kinds else None


def _drag(state, v, action):
    """A move in one touch: a tap where one is enough (a steal or a donate of the action being carried out, two
    goods of one colour, a trade ban), else the good dragged from where it is to where it goes."""
    seat, me = state.seat_of, state.active
    if not any(sec["kind"] in ("goods", "chips") for sec in v["sections"]):
        return None  # no rows on screen yet (All Actions Mandatory, no Wild: the action is picked first)
    current = action.TYPE if state.chosen != "all" else _picked(v)
    if current is not None and current != action.TYPE:
        return None  # another action picked (All Actions Mandatory): a drag would be that one; pick this one first
    if isinstance(action, (Steal, Donate)) and current == action.TYPE:
        return None  # one tap (below)
    if isinstance(action, Steal):
        return ("drop", PickGood(seat(action.victim), action.good), PickSeat(me), "row")
    if isinstance(action, Donate):
        return ("drop", PickGood(me, action.good), PickSeat(seat(action.to)), "row")
    if isinstance(action, Swap):  # good onto good
        return ("drop", PickGood(me, action.give), PickGood(seat(action.other), action.take), "row")
    if isinstance(action, Relocate):
        return ("drop", PickGood(seat(action.source), action.good), PickSeat(seat(action.target)), "row")
    if isinstance(action, Secure):
        if _find(v, SecureAll()):
            return ("choice", SecureAll())
        goods = action.goods
        if len(goods) == 2 and goods[0] == goods[1]:  # Pair: shown once Secure is the action (else pick it first)
            return ("choice", SecurePair(goods[0])) if _find(v, SecurePair(goods[0])) else None
        if len(goods) == 2 and not v["secure_sel"]:
            return ("drop", PickGood(me, goods[0]), PickGood(me, goods[1]), "row")
        if len(goods) == 1 and current != "secure":  # the last free good: onto my own name
            return ("drop", PickGood(me, goods[0]), PickSeat(me), "row")
    return None


def _kind_tap(state, v, action):
    """All Actions Mandatory: the action's kind must be the one picked on the row of actions."""
    if state.chosen != "all":
        return None
    if _picked(v) != action.TYPE:
        return ("choice", PickKind(action.TYPE))
    return None


# -- entering a move through TurnEntry alone (no screen): the Kivy-free tests and the figures of bench_taps --------

def touch(vm, state, tap) -> tuple:
    """What `tap` does on the round screen: the actions it records (TurnEntry's answer)."""
    kind, *args = tap
    if kind == "choice":
        return vm.choose(state, args[0])
    if kind == "player":
        return vm.tap_player(state, args[0])
    if kind == "die":
        return vm.tap_die(state, args[0])
    if kind == "drop":
        return vm.drop(state, args[0], args[1])
    return vm.end_turn(state)


def _offered(v, choice) -> bool:
    """Is `choice` shown lit (an option or a count of the pad)? A dimmed one only says why it is off."""
    for o in _items(v):
        if o["choice"] == choice:
            return o["enabled"]
    for row in v["pad"]:
        for c in row["counts"]:
            if c["choice"] == choice:
                return c["enabled"]
    return False


def _draggable(v, choice) -> bool:
    return any(o["choice"] == choice and o["drag"] for o in _items(v))


def enter(vm, state, decided, wanted, drags: bool = True, limit: int = 40):
    """Enter the move `wanted`, decided in the position `decided` (the table's state with what the screen shows as
    made but not recorded yet: TurnEntry.prefix), the way a player who knows it would.

    Returns (the table's new state, the position decided now, the actions recorded, the touches). A move the screen
    only shows (dice turned over, a Wild assignment with nothing to assign) records nothing yet: it goes with the
    next one. Raises AssertionError if the screen records anything else than what was meant."""
    goal = decided.apply(as_entered(wanted))
    for n in range(limit):
        shown = vm.shown(state)
        if alike(shown, goal):
            return state, shown, (), n
        v = vm.view(state, lambda m: m)
        tap = next_tap(shown, v, wanted, drags, goal)
        assert tap[0] != "choice" or _offered(v, tap[1]), f"a dimmed option tapped for {wanted!r}: {tap}"
        assert tap[0] != "drop" or _draggable(v, tap[1]), f"dragged what the screen does not show: {tap}"
        moves = touch(vm, state, tap)
        for action in moves:
            state = state.apply(action)
            vm.after_action(state)
        if moves:
            goal = with_app_reveal(goal, moves[-1], wanted)
            assert alike(state, goal), f"recorded {moves!r}, meant {wanted!r}"
            return state, state, moves, n + 1
    raise AssertionError(f"could not enter {wanted!r} in {state!r}")
