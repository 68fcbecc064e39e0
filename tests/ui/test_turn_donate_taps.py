"""Donate in one tap (Kivy-free): while the action is Donate, a cell on the RECEIVER's row in colour c means "give one
of my c goods to this player". What a group notices: one tap on Ben's blue cell gives Ben one of my blue goods; a
cell that cannot be used stays in its place, dimmed, and says why in the engine's words; nothing stays selected
from one Donate to the next (there is nothing to repeat: each Donate is whole in its one tap)."""
from __future__ import annotations

import pytest

from companion.games.errors import IllegalAction
from companion.games.obscurians.actions import Choose, Donate, Roll, RevealEvent, Steal
from companion.games.obscurians.setup import Setup
from companion.games.obscurians.state import State, new_game
from companion.ui.obscurians.turn import PickGood, PickSeat, Refusal, TurnEntry

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "yellow"), ("Dana", "green"))


def donating(anna_goods=None, ban=None, event="double_steal", dice=("donate",) * 4 + ("steal",)):
    """Anna's turn, Donate chosen; Anna's free goods as given (her own 10 red and the lamp by default)."""
    s = new_game(Setup(players=PLAYERS, deck="physical")).apply(RevealEvent(event)).apply(Roll(dice))
    s = s.apply(Choose("donate", 0))
    d = s.to_json()
    if anna_goods is not None:
        d["goods"][0] = anna_goods
    if ban is not None:
        d["trade_ban"][ban] = True
    return State.from_json(d)


def cell(vm, state, seat, good):
    return next(o for sec in vm.view(state, lambda m: m)["sections"] if sec["kind"] == "goods"
                for o in sec["items"] if o["choice"] == PickGood(seat, good))


def test_one_tap_on_bens_blue_cell_gives_ben_one_of_my_blue_goods():
    state, vm = donating({"red": 9, "blue": 2, "lamp": 1}), TurnEntry()
    ben_blue, anna_blue = state.goods[1].get("blue", 0), state.goods[0]["blue"]
    assert cell(vm, state, 1, "blue")["enabled"]
    moves = vm.choose(state, PickGood(1, "blue"))  # the one tap
    assert moves == (Donate("blue", "blue"),)
    after = state.apply(moves[0])
    vm.after_action(after)
    assert after.goods[1]["blue"] == ben_blue + 1 and after.goods[0]["blue"] == anna_blue - 1
    # The next Donate is one tap too, to anyone: nothing was left selected.
    v = vm.view(after, lambda m: m)
    assert not v["panel_selected"] and not any(o["selected"] for s in v["sections"] for o in s["items"])
    assert vm.choose(after, PickGood(2, "lamp")) == (Donate("yellow", "lamp"),)


def test_an_empty_cell_on_the_receivers_row_is_a_target_too():
    state, vm = donating(), TurnEntry()  # Chris has no red: his red cell is empty, and still gives him a red
    c = cell(vm, state, 2, "red")
    assert c["text"] == "" and c["enabled"]
    assert vm.choose(state, PickGood(2, "red")) == (Donate("yellow", "red"),)


def test_a_colour_i_do_not_have_stays_dimmed_on_every_row_and_says_why():
    state, vm = donating(), TurnEntry()  # Anna holds red and the lamp only
    for seat in (1, 2, 3):
        c = cell(vm, state, seat, "yellow")
        assert not c["enabled"]
        why = vm.explain(state, c["choice"])
        assert isinstance(why, IllegalAction) and str(why) == "Anna has no yellow good"


def test_my_own_goods_are_carried_to_the_receiver_and_a_tap_on_them_says_how():
    state, vm = donating(ban=3), TurnEntry()
    own = cell(vm, state, 0, "red")
    assert own["enabled"] and own["drag"]  # lit: it can be dragged onto whoever receives it
    with pytest.raises(Refusal, match="Drag it onto the player who receives it, or tap its colour on their row"):
        vm.choose(state, own["choice"])
    assert vm.drop(state, PickGood(0, "red"), PickSeat(2)) == (Donate("yellow", "red"),)
    assert vm.drop(state, PickGood(0, "red"), PickGood(1, "blue")) == (Donate("blue", "red"),)
    with pytest.raises(IllegalAction, match="Dana is under a trade ban"):
        vm.drop(state, PickGood(0, "red"), PickSeat(3))
    empty = cell(vm, state, 0, "yellow")  # a colour Anna has none of: nothing to carry
    assert not empty["enabled"] and not empty["drag"]
    assert str(vm.explain(state, empty["choice"])) == "You cannot donate to yourself"


def test_a_trade_ban_is_dimmed_with_the_engines_sentence():
    state, vm = donating(ban=3), TurnEntry()
    banned = cell(vm, state, 3, "red")
    assert not banned["enabled"]
    assert str(vm.explain(state, banned["choice"])) == \
        "Dana is under a trade ban and cannot receive goods until their next turn"


def test_a_tap_on_the_receivers_name_or_panel_says_where_to_tap():
    state, vm = donating(), TurnEntry()
    name = next(o for s in vm.view(state, lambda m: m)["sections"] for o in s["items"] if o["choice"] == PickSeat(1))
    assert not name["enabled"]
    why = vm.explain(state, name["choice"])
    assert isinstance(why, Refusal) and str(why) == "To give Ben a good, tap it on Ben's row"
    try:
        vm.tap_player(state, 1)
    except Refusal as err:
        assert str(err) == "To give Ben a good, tap it on Ben's row"
    else:
        raise AssertionError("a panel tap under Donate did nothing, silently")


def test_the_prompt_says_the_gesture():
    state, vm = donating(), TurnEntry()
    assert vm.view(state, lambda m: m)["prompt"].endswith(
        "Anna: tap the good to give, on the row of the player who receives it")
    assert Steal  # (the Steal gesture is the same shape: one tap on the row the good leaves)
