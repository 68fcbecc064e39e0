"""The round screen's turn entry without Kivy: whatever it shows as tappable leads to a legal action, whatever it
shows disabled says why, options keep their places, and every kind of move can be tapped in.

Random games are played through TurnEntry alone (the same taps the screen offers: options, the roll pad, the
panels, the dice), for every player count and both event decks.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.errors import IllegalAction
from companion.games.obscurians.actions import (
    Choose, Donate, EndTurn, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal,
)
from companion.games.obscurians.constants import FACE_DOWN
from companion.games.obscurians.randplay import random_action
from companion.games.obscurians.setup import Setup, deal_missions
from companion.games.obscurians.state import new_game
from companion.ui.obscurians.turn import (
    AssignWild, ChipMission, ChooseAction, FaceCount, PayReroll, PickGood, PickKind, PickSeat, Refusal, TurnEntry,
)
from tests.ui.intents import next_tap, same_move

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


def tap(vm, state, kind, arg):
    if kind == "choose":
        return vm.choose(state, arg)
    if kind == "die":
        return vm.tap_die(state, arg)
    if kind == "player":
        return vm.tap_player(state, arg)
    return vm.end_turn(state)


@pytest.mark.parametrize("n_players", [4, 5, 6, 7])
@pytest.mark.parametrize("deck", ["app", "physical"])
def test_every_offered_tap_is_legal_every_disabled_one_says_why_and_games_end(n_players, deck):
    for seed in range(2):
        rng = random.Random(seed * 10 + n_players)
        state, vm = new_game(setup_of(n_players, deck, seed, rng.randrange(n_players))), TurnEntry()
        for _ in range(20000):
            if state.phase in ("missions", "over"):
                break
            v = vm.view(state, lambda m: m)
            assert v["prompt"], state
            options = [o for o in offers(v) if o[0] != "player" or o[1] < state.n_players]
            kind, arg, enabled = rng.choice(options)
            if kind == "end" and not enabled:  # the engine's refusal is the reason shown
                with pytest.raises(IllegalAction):
                    state.apply(vm.end_turn(state))
                continue
            if kind == "choose" and not enabled:
                why = vm.explain(state, arg)
                assert isinstance(why, (IllegalAction, Refusal)) and str(why), (arg, state)
                continue
            try:
                action = tap(vm, state, kind, arg)
            except (IllegalAction, Refusal) as why:  # a tap that does nothing says why, and changes nothing
                assert str(why)
                assert kind != "choose" or not enabled or isinstance(why, Refusal), (arg, why)
                continue
            if action is not None:
                state = state.apply(action)  # raises IllegalAction if the view offered an illegal move
                vm.after_action(state)
        assert state.phase == "missions", f"game did not end: {state!r}"
        state = state.apply(vm.reveal_missions(state, deal_missions(rng, n_players)))
        assert state.outcome() is not None


def play_intended(state, rng, vm, taps: Counter):
    """Tap in one random legal move the way a player who knows it would; (new state, the move, taps it took)."""
    wanted = random_action(state, rng)
    for n in range(1, 41):
        v = vm.view(state, lambda m: m)
        kind, *arg = next_tap(state, v, wanted)
        taps[type(wanted).__name__] += 1
        done = tap(vm, state, {"choice": "choose"}.get(kind, kind), arg[0] if arg else None)
        if done is not None:
            assert same_move(done, wanted), (done, wanted)
            after = state.apply(done)
            vm.after_action(after)
            return after, wanted, n
    raise AssertionError(f"could not tap in {wanted!r} in {state!r}")


# The taps a move takes at most: one per face shown for a roll; one for a steal or a donate (the good on the row of
# the player it leaves or goes to), two for a move that names a second player or a second good; one more under All
# Actions Mandatory (which action is carried out next).
MOST_TAPS = {"RevealEvent": 1, "Choose": 1, "EndTurn": 1, "Steal": 1, "Donate": 1, "Swap": 2, "Relocate": 2,
             "Secure": 2, "PlaceChip": 2}


@pytest.mark.parametrize("n_players", [4, 7])
def test_every_move_of_random_games_can_be_tapped_in_with_few_taps(n_players):
    taps = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        state, vm = new_game(setup_of(n_players, ("app", "physical")[seed % 2], seed, seed % n_players)), TurnEntry()
        while state.phase in ("reveal", "turn"):
            before = state
            state, move, n = play_intended(state, rng, vm, taps)
            name = type(move).__name__
            if name == "Roll":
                assert n == len(set(move.faces)), (move, n)
            elif name in MOST_TAPS:
                assert n <= MOST_TAPS[name] + (before.chosen == "all"), (move, n, before)


# -- the promises, one by one ---------------------------------------------------------------------------------------

def rolled(faces, event="double_steal", n=4):
    s = new_game(Setup(players=tuple(zip(NAMES, COLOURS))[:n], deck="physical")).apply(RevealEvent(event))
    return s.apply(Roll(tuple(faces)))


def test_the_roll_is_tapped_in_as_counts_one_tap_per_face_shown():
    state, vm = new_game(setup_of(4)).apply(RevealEvent(new_game(setup_of(4))._revealable()[0])), TurnEntry()
    assert vm.choose(state, FaceCount("steal", 3)) is None
    assert vm.choose(state, FaceCount("wild", 1)) is None
    with pytest.raises(Refusal, match="more than 5 dice: 1 still"):
        vm.choose(state, FaceCount("swap", 2))
    assert vm.choose(state, FaceCount("swap", 1)) == Roll(("steal", "steal", "steal", "swap", "wild"))


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
    state = new_game(setup_of(4)).apply(RevealEvent(new_game(setup_of(4))._revealable()[0]))
    vm = TurnEntry()
    vm.tap_player(state, 1)
    state = state.apply(vm.choose(state, ChipMission("give")))
    vm.after_action(state)
    chips = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "chips")
    assert [o["choice"].mission for o in chips["items"]] == ["keep", "take", "collect", "give", "select", "lose"]
    vm.tap_player(state, 2)
    chips = next(s for s in vm.view(state, lambda m: m)["sections"] if s["kind"] == "chips")
    give = chips["items"][3]
    assert not give["enabled"]
    assert "Anna has no give chip left to place" == str(vm.explain(state, give["choice"]))


def test_all_actions_mandatory_never_picks_the_next_action_for_the_players():
    state = rolled(("steal", "secure", "donate", "swap", "relocate"), "all_actions_mandatory")
    vm = TurnEntry()
    state = state.apply(vm.choose(state, AssignWild(None)))
    vm.after_action(state)
    v = vm.view(state, lambda m: m)
    kinds = next(s for s in v["sections"] if s["kind"] == "kinds")
    assert [o["choice"].kind for o in kinds["items"]] == ["steal", "donate", "swap", "secure", "relocate"]
    assert not any(o["selected"] for o in kinds["items"])
    vm.choose(state, PickKind("steal"))
    state = state.apply(vm.choose(state, PickGood(1, "orange")))
    vm.after_action(state)
    v = vm.view(state, lambda m: m)
    kinds = next(s for s in v["sections"] if s["kind"] == "kinds")
    assert [o["enabled"] for o in kinds["items"]] == [False, True, True, True, True]  # Steal stays, used up
    assert not any(o["selected"] for o in kinds["items"])  # and nothing is picked instead
    with pytest.raises(IllegalAction, match="Anna has no Steal left to carry out"):
        vm.choose(state, PickKind("steal"))


def test_a_steal_is_one_tap_on_the_victims_good():
    state, vm = rolled(("steal", "steal", "wild", "donate", "donate")), TurnEntry()
    state = state.apply(vm.choose(state, ChooseAction("steal", 1)))
    assert vm.choose(state, PickGood(1, "orange")) == Steal("orange", "orange")


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
    d["goods"][1], d["secured"][1] = {"orange": 8}, {"orange": 2}
    from companion.games.obscurians.state import State
    state = State.from_json(d)
    d["goods"][1], d["secured"][1] = {}, {"orange": 10}
    vaulted = State.from_json(d)
    why = vm.explain(vaulted, PickGood(1, "orange"))
    assert str(why) == "Ben's orange good is secured in the vault and cannot be relocated"
    cell = next(o for s in vm.view(vaulted, lambda m: m)["sections"] for o in s["items"]
                if o["choice"] == PickGood(1, "orange"))
    assert not cell["enabled"] and cell["text"] == ""


def test_a_paid_reroll_discards_one_chip_face_down_and_never_asks_which():
    state, vm = rolled(("steal", "steal", "swap", "wild", "relocate"), "no_swap"), TurnEntry()
    vm.tap_die(state, 2)
    v = vm.view(state, lambda m: m)
    pay = [o["choice"] for s in v["sections"] for o in s["items"] if isinstance(o["choice"], PayReroll)]
    assert pay == [PayReroll(FACE_DOWN)]  # no mission names on the shared screen
    vm.choose(state, FaceCount("donate", 1))
    action = vm.choose(state, PayReroll(FACE_DOWN))
    assert action == Reroll((2,), ("donate",), FACE_DOWN)
    after = state.apply(action)
    assert after.chips_left(0) == 5 and len(after.chips_in_hand[0]) == 6 and after.hidden_discards[0] == 1


def test_relocate_needs_a_good_and_a_receiver_and_keeps_the_receiver():
    state, vm = rolled(("relocate", "relocate", "steal", "steal", "swap")), TurnEntry()
    state = state.apply(Choose("relocate", 0))
    assert vm.tap_player(state, 3) is None
    action = vm.choose(state, PickGood(1, "orange"))
    assert action == Relocate("orange", "green", "orange")
    state = state.apply(action)
    vm.after_action(state)
    assert vm.choose(state, PickGood(2, "yellow")) == Relocate("yellow", "green", "yellow")


def test_secure_is_two_taps_on_your_own_row():
    state, vm = rolled(("secure", "steal", "steal", "swap", "swap")), TurnEntry()
    state = state.apply(Choose("secure", 0))
    assert vm.choose(state, PickGood(0, "red")) is None
    assert vm.choose(state, PickGood(0, "lamp")) == Secure(("red", "lamp"))


def test_end_turn_before_the_executions_says_what_is_left():
    state = rolled(("steal", "steal", "swap", "swap", "secure")).apply(Choose("steal", 0))
    with pytest.raises(IllegalAction, match="still has 4 Steal to carry out"):
        state.apply(TurnEntry().end_turn(state))
    assert isinstance(TurnEntry().end_turn(state), EndTurn)
    assert PlaceChip  # (imported for readers: chips are tested above)
