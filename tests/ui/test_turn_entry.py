"""The round screen's turn entry without Kivy: whatever it shows as tappable leads to a legal action, whatever it
shows disabled says why, options keep their places, and every kind of move can be entered in few touches.

Random games are played through TurnEntry alone (the same touches the screen offers: options, the roll pad, the
panels, the dice, drags of goods and chips), for every player count and both event decks.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.games.errors import IllegalAction
from companion.games.obscurians.actions import (
    AssignWilds, Choose, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal, Swap,
)
from companion.games.obscurians.constants import FACE_DOWN
from companion.games.obscurians.randplay import random_action
from companion.games.obscurians.setup import Setup, deal_missions
from companion.games.obscurians.state import State, new_game
from companion.ui.obscurians.turn import (
    NEW_ROLL, AssignWild, ChipMission, ChooseAction, FaceCount, PayReroll, PickGood, PickKind, PickSeat, Refusal,
    SecurePair, TurnEntry, goods_columns, rerolled,
)
from companion.ui.obscurians.choices import DieSlot
from tests.ui.intents import enter, touch

COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "turquoise")
NAMES = ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay", "Gus")


def setup_of(n, deck="app", seed=0, start=0):
    return Setup(players=tuple(zip(NAMES, COLOURS[:6] if n < 7 else COLOURS))[:n], start=start, deck=deck, seed=seed)


def offers(v):
    """Every tappable thing the screen shows, enabled or not: (kind, argument, enabled)."""
    out = [("choose", o["choice"], o["enabled"]) for s in v["sections"] for o in s["items"] if o["choice"]]
    out += [("choose", c["choice"], c["enabled"]) for row in v["pad"] for c in row["counts"]]
    out += [("die", d["index"], d["enabled"]) for d in v["dice"]]
    out += [("player", seat, True) for seat in range(7)]
    out.append(("end", None, v["end_turn"]))
    return out


def drags(v, n_players):
    """Every drag the screen allows: a piece marked `drag` let go on any cell, row name or panel."""
    pieces = [o["choice"] for s in v["sections"] for o in s["items"] if o.get("drag")]
    spots = [o["choice"] for s in v["sections"] for o in s["items"] if isinstance(o["choice"], (PickGood, PickSeat))]
    spots += [PickSeat(i) for i in range(n_players)]
    return [("drop", p, t, True) for p in pieces for t in spots]


def tap(vm, state, kind, arg, target=None):
    if kind == "choose":
        return vm.choose(state, arg)
    if kind == "die":
        return vm.tap_die(state, arg)
    if kind == "player":
        return vm.tap_player(state, arg)
    if kind == "drop":
        return vm.drop(state, arg, target)
    return vm.end_turn(state)


def play(state, moves):
    for action in moves:
        state = state.apply(action)
    return state


@pytest.mark.parametrize("n_players", [4, 5, 6, 7])
@pytest.mark.parametrize("deck", ["app", "physical"])
def test_every_offered_touch_is_legal_every_disabled_one_says_why_and_games_end(n_players, deck):
    for seed in range(2):
        rng = random.Random(seed * 10 + n_players)
        state, vm = new_game(setup_of(n_players, deck, seed, rng.randrange(n_players))), TurnEntry()
        for _ in range(20000):
            if state.phase in ("missions", "over"):
                break
            v = vm.view(state, lambda m: m)
            assert v["prompt"], state
            options = [o for o in offers(v) if o[0] != "player" or o[1] < state.n_players]
            some_drags = drags(v, state.n_players)
            if some_drags and rng.random() < 0.3:
                kind, arg, target, enabled = rng.choice(some_drags)
            else:
                (kind, arg, enabled), target = rng.choice(options), None
            if kind == "end" and not enabled:  # the engine's refusal is the reason shown
                with pytest.raises(IllegalAction):
                    play(state, vm.end_turn(state))
                continue
            if kind == "choose" and not enabled:
                why = vm.explain(state, arg)
                assert isinstance(why, (IllegalAction, Refusal)) and str(why), (arg, state)
                continue
            before = vm.view(state, lambda m: m)
            try:
                moves = tap(vm, state, kind, arg, target)
            except (IllegalAction, Refusal) as why:  # a touch that does nothing says why, and changes nothing
                assert str(why)
                assert kind != "choose" or not enabled or isinstance(why, Refusal), (arg, why)
                if kind == "drop":
                    assert vm.view(state, lambda m: m) == before, (arg, target)
                continue
            for action in moves:
                state = state.apply(action)  # raises IllegalAction if the view offered an illegal move
                vm.after_action(state)
        assert state.phase == "missions", f"game did not end: {state!r}"
        state = state.apply(vm.reveal_missions(state, deal_missions(rng, n_players)))
        assert state.outcome() is not None


# The touches a move takes at most with drags: one per face shown for a roll; one for a steal, a donate, a swap, a
# relocate, a secure, a chip (a tap where it says everything, else the good or chip dragged to where it goes). Taps
# only: two for a move that names a second player or a second good, and one more under All Actions Mandatory (which
# action is carried out next).
MOST_TOUCHES = {"RevealEvent": 1, "Choose": 1, "EndTurn": 1, "Steal": 1, "Donate": 1, "Swap": 1, "Relocate": 1,
                "Secure": 1, "PlaceChip": 1, "AssignWilds": 3}
MOST_TAPS = {"RevealEvent": 1, "Choose": 1, "EndTurn": 1, "Steal": 1, "Donate": 1, "Swap": 2, "Relocate": 2,
             "Secure": 2, "PlaceChip": 2}


@pytest.mark.parametrize("n_players", [4, 7])
@pytest.mark.parametrize("with_drags", [True, False])
def test_every_move_of_random_games_can_be_entered_with_few_touches(n_players, with_drags):
    most = MOST_TOUCHES if with_drags else MOST_TAPS
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(setup_of(n_players, ("app", "physical")[seed % 2], seed, seed % n_players))
        vm, decided = TurnEntry(), state
        while state.phase in ("reveal", "turn"):
            wanted = random_action(decided, rng)
            before, first = decided, state.step == "rolled" and decided.step == "acting"
            other_picked = vm.kind not in (None, getattr(wanted, "TYPE", None))
            state, decided, _, n = enter(vm, state, decided, wanted, drags=with_drags)
            name = type(wanted).__name__
            if name == "Roll":
                assert n == len(set(wanted.faces)), (wanted, n)
            elif name in most:
                # Under All Actions Mandatory the action is picked first for a tap (the Pair row: Secure's own),
                # and for the first die of a roll with no Wild (the rows come with it; that touch also records the
                # empty Wild assignment), and when another action is picked (a drag is the action picked).
                extra = before.chosen == "all" and (not with_drags or name == "Secure" or first or other_picked)
                assert n <= most[name] + extra, (wanted, n, before)


# -- the promises, one by one ---------------------------------------------------------------------------------------

def rolled(faces, event="double_steal", n=4, deck="physical"):
    s = new_game(Setup(players=tuple(zip(NAMES, COLOURS))[:n], deck=deck)).apply(RevealEvent(event))
    return s.apply(Roll(tuple(faces)))


def test_the_roll_is_tapped_in_as_counts_one_tap_per_face_shown():
    state, vm = new_game(setup_of(4)).apply(RevealEvent(new_game(setup_of(4)).revealable()[0])), TurnEntry()
    assert vm.choose(state, FaceCount("steal", 3)) == ()
    assert vm.choose(state, FaceCount("wild", 1)) == ()
    with pytest.raises(Refusal, match="more than 5 dice: 1 still"):
        vm.choose(state, FaceCount("swap", 2))
    assert vm.choose(state, FaceCount("swap", 1)) == (Roll(("steal", "steal", "steal", "swap", "wild")),)


def test_the_choice_of_action_keeps_five_rows_in_the_same_places():
    for faces in (("steal",) * 5, ("swap", "swap", "wild", "relocate", "donate"), ("secure",) * 4 + ("wild",)):
        state, vm = rolled(faces), TurnEntry()
        grid = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "choose")
        cells = [o for o in grid["items"] if o["role"] != "label"]  # (a heading row names the Wild columns)
        first_column = [o["choice"].kind for o in cells[::grid["cols"]]]
        assert first_column == ["steal", "donate", "swap", "secure", "relocate"]
        disabled = [o["choice"] for o in grid["items"] if o["choice"] and not o["enabled"]]
        for choice in disabled:  # each one says why, in the engine's words
            assert isinstance(vm.explain(state, choice), IllegalAction)


def test_chip_missions_stay_in_place_once_used():
    state = new_game(setup_of(4)).apply(RevealEvent(new_game(setup_of(4)).revealable()[0]))
    vm = TurnEntry()
    vm.tap_player(state, 1)
    state = play(state, vm.choose(state, ChipMission("give")))
    vm.after_action(state)
    chips = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "chips")
    assert [o["choice"].mission for o in chips["items"]] == ["keep", "take", "collect", "give", "select", "lose"]
    vm.tap_player(state, 2)
    chips = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "chips")
    give = chips["items"][3]
    assert not give["enabled"] and give["drag"]  # dimmed; picked up and let go, the engine says why it stays
    assert "Anna has no give chip left to place" == str(vm.explain(state, give["choice"]))
    with pytest.raises(IllegalAction, match="Anna has no give chip left to place"):
        vm.drop(state, ChipMission("give"), PickSeat(3))
    vm.tap_player(state, 2)  # nobody picked now: the placed chip still gives its reason, not the hint to drag it
    assert vm.chip_on is None
    assert "Anna has no give chip left to place" == str(vm.explain(state, give["choice"]))


def test_a_chip_dragged_onto_a_player_is_placed_on_them():
    state, vm = new_game(setup_of(4)).apply(RevealEvent(new_game(setup_of(4)).revealable()[0])), TurnEntry()
    chips = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "chips")
    assert all(o["drag"] and o["enabled"] for o in chips["items"])  # every chip in hand can be carried
    assert vm.drop(state, ChipMission("take"), PickSeat(2)) == (PlaceChip("yellow", "take"),)
    with pytest.raises(IllegalAction, match="your own"):  # onto oneself: the engine's sentence, nothing placed
        vm.drop(state, ChipMission("take"), PickSeat(0))
    with pytest.raises(Refusal, match="Drag the chip onto the player you suspect, or tap that player first"):
        vm.choose(state, ChipMission("take"))  # a tap with nobody chosen says how


def test_all_actions_mandatory_never_picks_the_next_action_for_the_players():
    state = rolled(("steal", "secure", "donate", "swap", "relocate"), "all_actions_mandatory")
    vm = TurnEntry()
    # No Wild to assign: the five actions are there at once (nothing to tap to "start").
    v = vm.view(state, lambda m: m)
    kinds = next(s for s in v["sections"] if s["kind"] == "kinds")
    assert [o["choice"].kind for o in kinds["items"]] == ["steal", "donate", "swap", "secure", "relocate"]
    assert not any(o["selected"] for o in kinds["items"])
    assert vm.choose(state, PickKind("steal")) == ()
    moves = vm.choose(state, PickGood(1, "orange"))
    assert moves == (AssignWilds(()), Steal("orange", "orange"))  # the empty assignment goes with the first move
    state = play(state, moves)
    vm.after_action(state)
    v = vm.view(state, lambda m: m)
    kinds = next(s for s in v["sections"] if s["kind"] == "kinds")
    assert [o["enabled"] for o in kinds["items"]] == [False, True, True, True, True]  # Steal stays, used up
    assert not any(o["selected"] for o in kinds["items"])  # and nothing is picked instead
    with pytest.raises(IllegalAction, match="Anna has no Steal left to carry out"):
        vm.choose(state, PickKind("steal"))
    # A drag says its action by its ends: Ben's orange onto Chris's row is the Relocate, no action picked first.
    assert vm.drop(state, PickGood(1, "orange"), PickSeat(2)) == (Relocate("orange", "yellow", "orange"),)


def test_under_all_actions_mandatory_a_drag_is_the_action_picked_or_says_why():
    # Issue 14 §3: with "2 × Steal" picked, Anna's good onto Ben's good made a Swap; with Relocate picked, her good
    # onto Chris made a Donate. Now: the action picked, or its reason, and nothing recorded.
    state = rolled(("steal", "steal", "swap", "donate", "relocate"), "all_actions_mandatory")
    vm = TurnEntry()
    vm.choose(state, PickKind("steal"))
    kinds = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "kinds")
    assert [o["text"] for o in kinds["items"] if o["selected"]] == ["2 × Steal"]
    with pytest.raises(Refusal, match="Steal takes another player's good"):
        vm.drop(state, PickGood(0, "red"), PickGood(1, "orange"))
    assert "Steal takes another player's good" in str(vm.explain(state, PickGood(0, "red")))
    assert vm.drop(state, PickGood(1, "orange"), PickGood(0, "red")) == (AssignWilds(()), Steal("orange", "orange"))
    vm.choose(state, PickKind("relocate"))
    with pytest.raises(IllegalAction, match="Relocate moves a good between two other players, never from or to you"):
        vm.drop(state, PickGood(0, "red"), PickSeat(2))
    vm.choose(state, PickKind("swap"))
    assert vm.drop(state, PickGood(0, "red"), PickGood(1, "orange")) == (AssignWilds(()), Swap("orange", "red",
                                                                                                 "orange"))


def test_all_actions_mandatory_with_no_wild_still_offers_the_reroll():
    state = rolled(("steal", "secure", "donate", "swap", "relocate"), "all_actions_mandatory")
    vm = TurnEntry()
    v = vm.view(state, lambda m: m)
    # The actions first, the dice below them (the goods rows will take their place: the actions never move).
    assert [s["kind"] for s in v["sections"]] == ["kinds", "dice"]
    dice = v["sections"][1]["items"]
    assert [o["choice"] for o in dice] == [DieSlot(i) for i in range(5)] + [DieSlot(NEW_ROLL)]
    assert all(o["enabled"] for o in dice) and not v["dice_shown"]
    assert vm.choose(state, DieSlot(0)) == ()  # the same as a tap on the die: picked up
    assert vm.prefix(state) == ()  # a die picked up: this is a reroll, not yet the actions
    vm.choose(state, FaceCount("wild", 1))
    assert vm.choose(state, PayReroll(FACE_DOWN)) == (Reroll((0,), ("wild",), FACE_DOWN),)


def test_a_steal_is_one_tap_on_the_victims_good():
    state, vm = rolled(("steal", "steal", "wild", "donate", "donate")), TurnEntry()
    state = play(state, vm.choose(state, ChooseAction("steal", 1)))
    assert vm.choose(state, PickGood(1, "orange")) == (Steal("orange", "orange"),)
    # Dragged onto my row (or my panel) it is the same steal.
    assert vm.drop(state, PickGood(1, "orange"), PickSeat(0)) == (Steal("orange", "orange"),)
    assert vm.drop(state, PickGood(1, "orange"), PickGood(0, "red")) == (Steal("orange", "orange"),)
    with pytest.raises(Refusal, match="Steal takes another player's good"):  # never a Relocate under Steal
        vm.drop(state, PickGood(1, "orange"), PickSeat(2))
    with pytest.raises(Refusal, match="Steal takes another player's good"):  # never a Swap under Steal
        vm.drop(state, PickGood(0, "red"), PickGood(1, "orange"))
    assert "Steal takes another player's good" in str(vm.explain(state, PickGood(0, "red")))  # my own good, tapped


def test_a_swap_and_a_relocate_are_one_drag():
    state = rolled(("swap", "swap", "relocate", "relocate", "wild")).apply(Choose("swap", 1))
    vm = TurnEntry()
    cells = {o["choice"]: o for s in vm.view(state, lambda m: m)["sections"] for o in s["items"]}
    assert cells[PickGood(0, "red")]["drag"] and cells[PickGood(1, "orange")]["drag"]
    assert vm.drop(state, PickGood(0, "red"), PickGood(1, "orange")) == (Swap("orange", "red", "orange"),)
    assert vm.drop(state, PickGood(1, "orange"), PickGood(0, "lamp")) == (Swap("orange", "lamp", "orange"),)
    with pytest.raises(Refusal, match="another player's row"):
        vm.drop(state, PickGood(1, "orange"), PickSeat(1))  # let go on its own row: no move at all
    relocating = rolled(("swap", "swap", "relocate", "relocate", "wild")).apply(Choose("relocate", 0))
    assert vm.drop(relocating, PickGood(1, "orange"), PickSeat(3)) == (Relocate("orange", "green", "orange"),)
    with pytest.raises(IllegalAction, match="Relocate moves a good between two other players, never from or to"):
        vm.drop(relocating, PickGood(1, "orange"), PickSeat(0))  # onto oneself: no Steal under Relocate
    with pytest.raises(IllegalAction, match="Relocate moves a good between two other players, never from or to"):
        vm.drop(relocating, PickGood(0, "red"), PickSeat(2))  # my own good onto Chris: no Donate under Relocate
    cells = {o["choice"]: o for s in vm.view(relocating, lambda m: m)["sections"] for o in s["items"]}
    assert cells[PickGood(0, "red")]["drag"] and not cells[PickGood(0, "red")]["enabled"]  # dimmed, still carried


def test_secure_is_one_tap_for_two_of_a_colour_and_one_drag_for_two_colours():
    state, vm = rolled(("secure", "steal", "steal", "swap", "swap")), TurnEntry()
    state = state.apply(Choose("secure", 0))
    sections = vm.view(state, lambda m: m)["sections"]
    pair = [o for o in sections[-1]["items"] if isinstance(o["choice"], SecurePair)]
    assert [o["choice"].good for o in pair if o["enabled"]] == ["red"]  # Anna has ten red, no other colour twice
    assert vm.choose(state, SecurePair("red")) == (Secure(("red", "red")),)
    assert "Anna has no orange good" in str(vm.explain(state, SecurePair("orange")))
    assert vm.drop(state, PickGood(0, "red"), PickGood(0, "lamp")) == (Secure(("red", "lamp")),)
    assert vm.choose(state, PickGood(0, "red")) == ()  # the two taps still work
    assert vm.choose(state, PickGood(0, "lamp")) == (Secure(("red", "lamp")),)


def test_refusals_are_the_engines_sentences():
    state, vm = rolled(("secure", "secure", "relocate", "relocate", "steal")), TurnEntry()
    with pytest.raises(IllegalAction, match="Choose your action first"):  # a panel tapped before choosing
        vm.tap_player(state, 1)
    state = state.apply(Choose("relocate", 0))
    assert str(vm.explain(state, PickSeat(0))).startswith("Relocate moves a good between two other players")
    with pytest.raises(IllegalAction, match="never from or to you"):
        vm.tap_player(state, 0)
    # Ben's orange goods are in his vault: the cell is disabled, and says so.
    d = state.to_json()
    d["goods"][1], d["secured"][1] = {}, {"orange": 10}
    vaulted = State.from_json(d)
    why = vm.explain(vaulted, PickGood(1, "orange"))
    assert str(why) == "Ben's orange good is secured in the vault and cannot be relocated"
    cell = next(o for s in vm.view(vaulted, lambda m: m)["sections"] for o in s["items"]
                if o["choice"] == PickGood(1, "orange"))
    assert not cell["enabled"] and not cell["drag"] and cell["text"] == ""


def test_a_paid_reroll_discards_one_chip_face_down_and_never_asks_which():
    state, vm = rolled(("steal", "steal", "swap", "wild", "relocate"), "no_swap"), TurnEntry()
    vm.tap_die(state, 2)
    v = vm.view(state, lambda m: m)
    pay = [o["choice"] for s in v["sections"] for o in s["items"] if isinstance(o["choice"], PayReroll)]
    assert pay == [PayReroll(FACE_DOWN)]  # no mission names on the shared screen
    vm.choose(state, FaceCount("donate", 1))
    moves = vm.choose(state, PayReroll(FACE_DOWN))
    assert moves == (Reroll((2,), ("donate",), FACE_DOWN),)
    after = play(state, moves)
    assert after.chips_left(0) == 5 and len(after.chips_in_hand[0]) == 6 and after.hidden_discards[0] == 1


def test_new_roll_taps_in_all_five_dice_again_and_the_fifth_makes_the_reroll():
    state, vm = rolled(("steal", "steal", "swap", "wild", "relocate"), "no_swap"), TurnEntry()
    assert vm.tap_die(state, NEW_ROLL) == ()
    v = vm.view(state, lambda m: m)
    assert "one chip goes face down" in v["prompt"] and len(v["pad"]) == 6
    assert vm.choose(state, FaceCount("steal", 3)) == ()
    moves = vm.choose(state, FaceCount("wild", 2))
    # Whatever dice were picked up, what counts is what they show: the swap and the relocate changed.
    assert moves == (Reroll((2, 4), ("steal", "wild"), FACE_DOWN),)
    after = play(state, moves)
    assert sorted(after.dice) == sorted(("steal",) * 3 + ("wild",) * 2) and after.hidden_discards[0] == 1
    free, vm = rolled(("steal", "steal", "swap", "wild", "relocate"), "reroll_once"), TurnEntry()
    vm.tap_die(free, NEW_ROLL)
    assert "free" in vm.view(free, lambda m: m)["prompt"]
    for face, n in (("steal", 2), ("swap", 1), ("wild", 1)):
        assert vm.choose(free, FaceCount(face, n)) == ()
    assert vm.choose(free, FaceCount("relocate", 1)) == (Reroll((0, 1, 2, 3, 4), ("steal", "steal", "swap", "wild",
                                                                                   "relocate"), None),)
    broke = State.from_json({**free.to_json(), "hidden_discards": [6, 0, 0, 0], "free_reroll_used": True})
    with pytest.raises(IllegalAction, match="no suspicion chip left"):
        TurnEntry().tap_die(broke, NEW_ROLL)


def test_rerolled_names_the_dice_that_changed():
    assert rerolled(("steal", "steal", "swap", "wild", "wild"), ["steal", "donate", "swap", "wild", "wild"]) == \
        ((1,), ("donate",))
    assert rerolled(("steal",) * 5, ["steal"] * 5) == ((0, 1, 2, 3, 4), ("steal",) * 5)


def test_flip_the_die_turns_a_tapped_die_over_at_once_and_records_it_with_the_choice():
    state, vm = rolled(("steal", "steal", "swap", "wild", "relocate"), "flip_the_die"), TurnEntry()
    assert vm.tap_die(state, 2) == ()
    v = vm.view(state, lambda m: m)
    assert v["dice"][2]["face"] == "secure" and v["dice"][2]["selected"]  # shown turned over (gold)
    assert ChooseAction("secure", 0) in [o["choice"] for s in v["sections"] for o in s["items"] if o["enabled"]]
    vm.tap_die(state, 2)  # tapped again: back, nothing recorded
    assert vm.prefix(state) == () and vm.view(state, lambda m: m)["dice"][2]["face"] == "swap"
    vm.tap_die(state, 4)
    assert vm.choose(state, ChooseAction("steal", 1)) == (Flip((4,)), Choose("steal", 1))


def test_relocate_needs_a_good_and_a_receiver_and_keeps_the_receiver():
    state, vm = rolled(("relocate", "relocate", "steal", "steal", "swap")), TurnEntry()
    state = state.apply(Choose("relocate", 0))
    assert vm.tap_player(state, 3) == ()
    moves = vm.choose(state, PickGood(1, "orange"))
    assert moves == (Relocate("orange", "green", "orange"),)
    state = play(state, moves)
    vm.after_action(state)
    assert vm.choose(state, PickGood(2, "yellow")) == (Relocate("yellow", "green", "yellow"),)


def test_end_turn_before_the_executions_says_what_is_left():
    state = rolled(("steal", "steal", "swap", "swap", "secure")).apply(Choose("steal", 0))
    with pytest.raises(IllegalAction, match="still has 4 Steal to carry out"):
        TurnEntry().end_turn(state)


def test_with_the_apps_deck_a_round_before_the_sandstorm_deck_reveals_the_next_card_as_it_ends():
    rng = random.Random(3)
    state, seen = new_game(setup_of(4, "app", seed=3)), []
    while state.phase in ("reveal", "turn"):
        if state.phase == "turn" and "end" in state.legal_types() and state.apply(EndTurn()).phase == "reveal":
            moves = TurnEntry().end_turn(state)
            seen.append(state.round)
            if state.round < 4:  # rounds 2-4 begin with their card shown: it cannot be the sandstorm yet
                assert moves[0] == EndTurn() and isinstance(moves[1], RevealEvent)
                assert play(state, moves).phase == "turn"
            else:  # from round 5 the starting player reveals it (after the warning): it may end the game
                assert moves == (EndTurn(),)
        state = state.apply(random_action(state, rng))
    assert seen[:4] == [1, 2, 3, 4]


def test_wilds_under_all_actions_mandatory_are_assigned_one_tap_each():
    state, vm = rolled(("steal", "wild", "wild", "donate", "swap"), "all_actions_mandatory"), TurnEntry()
    assert vm.choose(state, AssignWild("steal")) == ()
    assert touch(vm, state, ("choice", AssignWild("secure"))) == (AssignWilds(("steal", "secure")),)


# -- any drag the screen can make: a legal move, or a reason and nothing changed (Hypothesis) -----------------------

def _position(seed: int, n_players: int, steps: int):
    rng = random.Random(seed)
    state = new_game(setup_of(n_players, "app", seed, seed % n_players))
    for _ in range(steps):
        if state.phase not in ("reveal", "turn"):
            break
        state = state.apply(random_action(state, rng))
    return state


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_players=st.sampled_from([4, 5, 7]), steps=st.integers(0, 160),
       data=st.data())
def test_any_drag_is_a_legal_move_or_says_why_and_changes_nothing(seed, n_players, steps, data):
    state = _position(seed, n_players, steps)
    vm = TurnEntry()
    seats = st.integers(0, state.n_players - 1)
    goods = st.sampled_from(goods_columns(state))
    source = data.draw(st.one_of(st.builds(PickGood, seats, goods),
                                 st.builds(ChipMission, st.sampled_from(state.setup.chip_missions))))
    target = data.draw(st.one_of(st.builds(PickGood, seats, goods), st.builds(PickSeat, seats)))
    before = vm.view(state, lambda m: m)
    try:
        moves = vm.drop(state, source, target)
    except (IllegalAction, Refusal) as why:
        assert str(why)
        assert vm.view(state, lambda m: m) == before
        return
    assert len(moves) >= 1
    play(state, moves)  # every move it proposes, the engine accepts
