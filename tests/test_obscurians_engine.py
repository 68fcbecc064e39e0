"""The Obscurians engine against the rulebook's examples and the RULINGS (what a player at the table would notice)."""
import random
from collections import Counter

import pytest

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.model import Chip
from companion.games.obscurians.setup import Setup, deal_missions, shuffle_events
from companion.games.obscurians.state import State, new_game

# Anna red, Ben blue, Chris green, Dana yellow; Anna starts with the lamp.
PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))
MISSIONS4 = ("keep", "take", "give", "lose")


def setup(deck="physical", missions=MISSIONS4, players=PLAYERS, start=0):
    return Setup(players=players, start=start, deck=deck, seed=3, missions=missions)


def turn(event="reroll_once", **kw) -> State:
    """Anna's first turn in a round whose event card is `event`."""
    return new_game(setup(**kw)).apply(RevealEvent(event))


def rolled(faces, event="reroll_once") -> State:
    return turn(event).apply(Roll(tuple(faces)))


def edit(state: State, **fields) -> State:
    """A position the random dice would take long to reach, built through the save format."""
    d = state.to_json()
    d.update(fields)
    return State.from_json(d)


def finish_turn(state: State) -> State:
    """Roll all Relocate and relocate between the two seats after the active player (keeps the test focused)."""
    state = state.apply(Roll(("relocate",) * 5)).apply(Choose("relocate", 0))
    while state.pending:
        me = state.active
        src = next(i for i in range(4) if i != me and state.goods[i] and not state.trade_ban[i])
        dst = next(i for i in range(4) if i not in (me, src) and not state.trade_ban[i])
        state = state.apply(Relocate(state.colour(src), state.colour(dst), next(iter(state.goods[src]))))
    return state.apply(EndTurn())


def illegal(state: State, action, *words):
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    for w in words:
        assert w in str(err.value), str(err.value)
    assert state.to_json() == before  # an illegal action never changes the state
    return str(err.value)


# ----------------------------------------------------------------- the rulebook's dice examples

def test_annas_roll_offers_steal_2_or_3_relocate_2_and_one_of_the_rest():
    s = rolled(["steal", "steal", "relocate", "relocate", "wild"])
    assert s.allowed_counts() == {"steal": [2, 3], "relocate": [2], "donate": [1], "swap": [1], "secure": [1]}
    illegal(s, Choose("relocate", 1), "Relocate cannot use Wilds")
    illegal(s, Choose("steal", 2), "only 1 Wild")
    assert s.apply(Choose("steal", 0)).pending == {"steal": 2}
    assert s.apply(Choose("donate", 1)).pending == {"donate": 1}
    assert s.apply(Choose("relocate", 0)).pending == {"relocate": 2}


def test_anna_steals_one_good_from_ben_and_two_from_chris():
    s = rolled(["steal", "steal", "relocate", "relocate", "wild"]).apply(Choose("steal", 1))
    s = s.apply(Steal("blue", "blue"))
    illegal(s, EndTurn(), "Anna still has 2 Steal")
    s = s.apply(Steal("green", "green")).apply(Steal("green", "green"))
    assert s.goods[0] == {"red": 10, "lamp": 1, "blue": 1, "green": 2}
    assert s.goods[1] == {"blue": 9} and s.goods[2] == {"green": 8}
    illegal(s, Steal("blue", "blue"), "no Steal left")
    after = s.apply(EndTurn())
    assert after.active == 1 and after.dice is None


def test_double_steal_two_steal_and_a_wild_give_4_or_6():
    s = rolled(["steal", "steal", "wild", "swap", "secure"], event="double_steal")
    assert s.allowed_counts()["steal"] == [4, 6]
    assert s.apply(Choose("steal", 1)).pending == {"steal": 6}


def test_double_swap_one_swap_and_two_wilds_give_2_4_or_6():
    s = rolled(["swap", "wild", "wild", "steal", "relocate"], event="double_swap")
    assert s.allowed_counts()["swap"] == [2, 4, 6]
    assert s.allowed_counts()["steal"] == [1, 2, 3]  # only the Swap is doubled


def test_double_donate_two_donate_and_a_wild_give_4_or_6():
    s = rolled(["donate", "donate", "wild", "relocate", "relocate"], event="double_donate")
    assert s.allowed_counts()["donate"] == [4, 6]


def test_double_secure_two_secure_is_a_trade_ban():
    s = rolled(["secure", "secure", "steal", "steal", "relocate"], event="double_secure").apply(Choose("secure", 0))
    assert s.pending == {"secure": 4}
    illegal(s, Secure(("red", "red")), "trade ban", "Anna secures all their goods")
    s = s.apply(Secure(("red",) * 10 + ("lamp",)))
    assert s.trade_ban[0] and s.goods[0] == {} and s.secured[0] == {"red": 10, "lamp": 1}
    assert s.pending == {}
    assert s.legal_actions() == [EndTurn()]


def test_bonus_wild_adds_two_wilds_but_never_to_relocate():
    s = rolled(["steal", "relocate", "swap", "swap", "secure"], event="bonus_wild")
    assert s.wilds_available() == 2
    assert s.allowed_counts() == {"steal": [1, 2, 3], "donate": [1, 2], "swap": [2, 3, 4], "secure": [1, 2, 3],
                                  "relocate": [1]}
    illegal(s, Choose("relocate", 1), "Relocate cannot use Wilds")
    assert s.apply(Choose("donate", 2)).pending == {"donate": 2}


def test_a_wild_alone_still_counts_but_an_unrolled_action_without_wilds_does_not():
    s = rolled(["steal", "steal", "steal", "wild", "relocate"])
    assert s.allowed_counts()["swap"] == [1] and s.apply(Choose("swap", 1)).pending == {"swap": 1}
    illegal(s, Choose("swap", 0), "Anna rolled no Swap; add a Wild")
    illegal(s, Choose("steal", -1))
    no_wild = rolled(["steal", "steal", "steal", "steal", "relocate"])
    assert "swap" not in no_wild.allowed_counts()
    illegal(no_wild, Choose("swap", 0), "Anna rolled no Swap")
    illegal(no_wild, Choose("swap", 1), "Anna has only 0 Wilds")
    illegal(no_wild, Choose("steal", -1))


# ----------------------------------------------------------------- Secure, vault and trade ban

def test_four_secures_make_a_trade_ban_that_blocks_stealing_and_receiving_until_annas_next_turn():
    s = rolled(["secure", "secure", "secure", "secure", "relocate"]).apply(Choose("secure", 0))
    s = s.apply(Secure(("red",) * 10 + ("lamp",))).apply(EndTurn())
    assert s.active == 1 and s.trade_ban == (True, False, False, False)
    s = s.apply(Roll(("steal", "donate", "relocate", "relocate", "wild")))
    illegal(s.apply(Choose("steal", 1)), Steal("red", "red"), "Anna's goods are secured until their next turn")
    illegal(s.apply(Choose("donate", 1)), Donate("red", "blue"), "Anna is under a trade ban")
    illegal(s.apply(Choose("swap", 1)), Swap("red", "blue", "red"), "Anna's goods are secured")
    reloc = s.apply(Choose("relocate", 0))
    illegal(reloc, Relocate("green", "red", "green"), "Anna is under a trade ban")
    illegal(reloc, Relocate("red", "green", "red"), "Anna's goods are secured")
    # Ben, Chris and Dana play; the round ends; Anna (still holding the lamp) starts round 2 and gets her goods back.
    s = s.apply(Choose("steal", 0)).apply(Steal("green", "green")).apply(EndTurn())
    s = finish_turn(s)  # Chris
    assert s.active == 3 and s.trade_ban[0]
    s = finish_turn(s)
    assert s.phase == "reveal" and s.start_player == 0
    s = s.apply(RevealEvent("no_swap"))
    assert s.trade_ban[0] is False and s.secured[0] == {} and s.goods[0] == {"red": 10, "lamp": 1}


def test_secured_goods_cannot_be_stolen_and_return_at_the_owners_next_turn():
    s = rolled(["secure", "relocate", "relocate", "relocate", "relocate"]).apply(Choose("secure", 0))
    illegal(s, Secure(("red", "red", "red")), "2 goods")
    illegal(s, Secure(("blue",)), "pick 2 of Anna's 11 free goods")
    illegal(s, Secure(("blue", "red")), "Anna has no blue good")
    s = s.apply(Secure(("lamp", "red"))).apply(EndTurn())
    assert s.secured[0] == {"lamp": 1, "red": 1} and s.goods[0] == {"red": 9}
    s = s.apply(Roll(("steal",) * 5)).apply(Choose("steal", 0))
    illegal(s, Steal("red", "lamp"), "Anna's magic lamp is secured in the vault")
    s = s.apply(Steal("red", "red"))  # her free goods are fair game
    assert s.goods[0] == {"red": 8}
    # Secured goods do not move even when the round ends: the lamp card stays with Anna, she starts round 2.
    for _ in range(4):
        s = s.apply(Steal("green", "green"))
    s = finish_turn(finish_turn(s.apply(EndTurn())))
    assert s.phase == "reveal" and s.secured[0] == {"lamp": 1, "red": 1} and s.lamp_holder() == 0
    free_reds = s.goods[0].get("red", 0)
    s = s.apply(RevealEvent("no_steal"))
    assert s.secured[0] == {} and s.goods[0] == {"red": free_reds + 1, "lamp": 1}


def test_each_secure_puts_exactly_two_goods_in_the_vault_one_only_when_one_is_left():
    """RULING obscurians-actions: a Secure with 11 free goods cannot keep a good exposed by securing just one."""
    s = rolled(["secure", "secure", "relocate", "relocate", "relocate"]).apply(Choose("secure", 0))
    assert s.pending == {"secure": 2}
    illegal(s, Secure(("red",)), "Each Secure puts 2 goods into the vault: pick 2 of Anna's 11 free goods")
    assert {len(a.goods) for a in s.legal_actions() if isinstance(a, Secure)} == {2}
    # Down to one free good: the last Secure takes just that one.
    lonely = edit(s, goods=[{"red": 2, "lamp": 1}, {"blue": 10}, {"green": 10}, {"yellow": 10}],
                  secured=[{"red": 8}, {}, {}, {}])
    lonely = lonely.apply(Secure(("red", "lamp")))
    assert lonely.goods[0] == {"red": 1} and lonely.pending == {"secure": 1}
    illegal(lonely, Secure(("red", "red")), "1 when only one free good is left")
    assert [a for a in lonely.legal_actions() if isinstance(a, Secure)] == [Secure(("red",))]
    done = lonely.apply(Secure(("red",)))
    assert done.goods[0] == {} and done.secured[0] == {"red": 10, "lamp": 1} and "end" in done.legal_types()


# ----------------------------------------------------------------- rounds, the lamp and the end

def test_round_ends_before_the_lamp_card_holder_and_the_lamp_good_holder_starts_next():
    s = turn("no_secure")
    s = finish_turn(s)  # Anna
    s = s.apply(Roll(("steal",) * 5)).apply(Choose("steal", 0)).apply(Steal("red", "lamp"))
    for _ in range(4):
        s = s.apply(Steal("green", "green"))
    s = s.apply(EndTurn())  # Ben now holds the lamp good, Anna still the lamp card
    assert s.lamp_holder() == 1 and s.start_player == 0 and s.round == 1
    s = finish_turn(finish_turn(s))  # Chris, Dana: the dice would pass to Anna -> the round ends
    assert (s.phase, s.round, s.start_player, s.active, s.event) == ("reveal", 2, 1, 1, None)
    illegal(s, Roll(("steal",) * 5), "Ben must reveal an event card first")
    s = s.apply(RevealEvent("double_swap"))
    assert s.active == 1 and s.event == "double_swap"


def test_sandstorm_ends_the_game_at_once_and_the_revealer_takes_no_turn():
    s = new_game(setup())
    for card in ("no_steal", "no_swap", "bonus_wild", "reroll_once"):
        s = s.apply(RevealEvent(card))
        for _ in range(4):
            s = finish_turn(s)
    assert s.round == 5
    s = s.apply(RevealEvent("sandstorm"))
    assert s.phase == "over" and s.legal_actions() == [] and s.legal_types() == set()
    illegal(s, Roll(("steal",) * 5), "The game is over")
    end = s.end_of_game()
    assert [p.name for p in end.players] == ["Anna", "Ben", "Chris", "Dana"]
    assert sum(p.lamp for p in end.players) == 1 and not any(p.artifact for p in end.players)
    assert sum(p.n_goods() for p in end.players) == 41


def test_unknown_missions_are_asked_for_after_the_sandstorm():
    s = new_game(setup(missions=None))
    d = s.to_json()
    d.update(round=5, revealed=["no_steal", "no_swap", "bonus_wild", "reroll_once"])
    s = State.from_json(d).apply(RevealEvent("sandstorm"))
    assert s.phase == "missions" and s.outcome() is None
    assert s.legal_types() == {"missions"}
    illegal(s, RevealMissions(("keep", "take", "collect", "give")), "two of Keep/Take/Collect")
    illegal(s, RevealMissions(("keep", "take", "give")), "4 missions")
    s = s.apply(RevealMissions(("select", "take", "give", "collect")))
    assert s.phase == "over" and s.end_of_game().players[0].mission == "select"


def test_physical_deck_accepts_only_cards_that_could_be_on_top():
    s = new_game(setup())
    illegal(s, RevealEvent("sandstorm"), "only used from round 5")
    assert len(s.legal_actions()) == 13 and RevealEvent("sandstorm") not in s.legal_actions()
    s = s.apply(RevealEvent("no_steal"))
    for _ in range(4):
        s = finish_turn(s)
    illegal(s, RevealEvent("no_steal"), "already been revealed")
    for card in ("no_swap", "bonus_wild", "reroll_once"):
        s = s.apply(RevealEvent(card))
        for _ in range(4):
            s = finish_turn(s)
    assert RevealEvent("sandstorm") in s.legal_actions() and len(s.legal_actions()) == 10  # 9 unseen + sandstorm
    for card in ("double_swap", "double_donate"):  # the sandstorm deck's two events
        s = s.apply(RevealEvent(card))
        for _ in range(4):
            s = finish_turn(s)
    assert s.round == 7 and s.legal_actions() == [RevealEvent("sandstorm")]
    illegal(s, RevealEvent("double_steal"), "Only the sandstorm card is left")


def test_app_deck_reveals_the_seeded_order_only():
    deck, sandstorm_deck = shuffle_events(random.Random(3))
    s = new_game(setup(deck="app"))
    assert s.legal_actions() == [RevealEvent(deck[0])]
    wrong = next(c for c in deck[1:])
    illegal(s, RevealEvent(wrong), f"shows {deck[0]} next")


def test_shuffled_decks_have_four_events_then_two_events_and_the_sandstorm():
    for seed in range(50):
        deck, storm = shuffle_events(random.Random(seed))
        assert len(deck) == 4 and "sandstorm" not in deck
        assert len(storm) == 3 and storm.count("sandstorm") == 1
        assert len(set(deck + storm)) == 7


def test_cursed_artifact_goes_to_the_revealer():
    s = new_game(setup(start=2)).apply(RevealEvent("cursed_artifact"))
    assert s.active == 2 and s.artifact_holder() == 2 and s.goods[2] == {"green": 10, "artifact": 1, "lamp": 1}


# ----------------------------------------------------------------- suspicion chips and rerolls

def test_chips_go_on_other_boards_before_rolling_and_stack_in_order():
    s = turn()
    illegal(s, PlaceChip("red", "keep"), "You cannot place a suspicion chip on your own board")
    s = s.apply(PlaceChip("blue", "keep")).apply(PlaceChip("blue", "lose"))
    illegal(s, PlaceChip("green", "keep"), "Anna has no keep chip left")
    assert s.placed == (Chip("red", "blue", "keep"), Chip("red", "blue", "lose"))
    assert "keep" not in s.chips_in_hand[0] and len(s.chips_in_hand[0]) == 4
    s = s.apply(Roll(("steal",) * 5))
    illegal(s, PlaceChip("green", "take"), "before rolling")


def test_discarding_a_chip_rerolls_any_dice_and_can_be_repeated():
    s = rolled(["steal", "steal", "donate", "donate", "swap"], event="no_steal")
    s = s.apply(Reroll((0, 1), ("relocate", "wild"), "keep"))
    assert s.dice == ("relocate", "wild", "donate", "donate", "swap")
    s = s.apply(Reroll((4,), ("secure",), "take"))
    assert s.dice[4] == "secure" and s.discarded[0] == ("keep", "take")
    assert "keep" not in s.chips_in_hand[0] and "take" not in s.chips_in_hand[0]
    illegal(s, Reroll((0,), ("steal",), "keep"), "no keep chip left")
    illegal(s, Reroll((0,), ("steal",), None), "costs one of your unplaced suspicion chips")
    s = s.apply(Choose("donate", 1))
    illegal(s, Reroll((0,), ("steal",), "give"), "after choosing")


def test_reroll_once_is_free_once_per_turn():
    s = rolled(["steal", "relocate", "relocate", "relocate", "relocate"], event="reroll_once")
    s = s.apply(Reroll((1, 2), ("swap", "swap"), None))
    assert s.dice[:3] == ("steal", "swap", "swap") and len(s.chips_in_hand[0]) == 6
    illegal(s, Reroll((3,), ("swap",), None), "Anna has already used this round's free reroll")
    assert s.apply(Reroll((3,), ("swap",), "give")).dice[3] == "swap"


def test_flip_the_die_turns_dice_to_the_opposite_face():
    s = rolled(["steal", "swap", "relocate", "donate", "wild"], event="flip_the_die")
    s = s.apply(Flip((0, 1, 2, 3, 4)))
    assert s.dice == ("donate", "secure", "wild", "steal", "relocate")
    illegal(rolled(["steal"] * 5), Flip((0,)), "Flip the Die")


def test_no_steal_forbids_steal_and_a_player_with_nothing_to_do_may_pass():
    s = rolled(["steal"] * 5, event="no_steal")
    illegal(s, Choose("steal", 0), "No Steal this round (event card)")
    assert s.allowed_counts() == {}
    assert EndTurn() in s.legal_actions()
    assert s.apply(EndTurn()).active == 1
    illegal(rolled(["steal", "wild", "steal", "steal", "steal"], event="no_steal"), EndTurn(), "Choose")


def test_chips_or_dice_either_chips_or_the_dice():
    s = turn("chips_or_dice").apply(PlaceChip("green", "give"))
    illegal(s, Roll(("steal",) * 5), "Chips or Dice")
    s = s.apply(EndTurn())
    assert s.active == 1
    s = s.apply(Roll(("steal",) * 5))
    illegal(s, PlaceChip("red", "give"))
    illegal(turn("no_steal"), EndTurn(), "Roll the dice first")  # in any other round, rolling is not optional


def test_chips_or_dice_a_player_may_choose_chips_and_place_none():
    s = turn("chips_or_dice")
    assert {"chip", "roll", "end"} <= s.legal_types() and EndTurn() in s.legal_actions()
    assert s.apply(EndTurn()).active == 1  # passed: no chip, no roll, nothing moved
    assert s.apply(EndTurn()).goods == s.goods
    after_chip = s.apply(PlaceChip("green", "give"))
    assert "roll" not in after_chip.legal_types() and "end" in after_chip.legal_types()


def test_all_actions_mandatory_carries_out_every_die():
    s = rolled(["steal", "steal", "donate", "relocate", "wild"], event="all_actions_mandatory")
    illegal(s, Choose("steal", 0), "assign your Wilds")
    illegal(s, AssignWilds(("relocate",)), "Relocate cannot use Wilds")
    illegal(s, AssignWilds(()), "each of your 1 Wild")
    s = s.apply(AssignWilds(("swap",)))
    assert s.pending == {"steal": 2, "donate": 1, "relocate": 1, "swap": 1}
    s = s.apply(Donate("blue", "red")).apply(Steal("green", "green"))
    illegal(s, EndTurn(), "Anna still has")
    s = s.apply(Relocate("blue", "yellow", "red")).apply(Swap("yellow", "red", "red")).apply(Steal("blue", "blue"))
    assert s.pending == {} and s.apply(EndTurn()).active == 1
    assert s.goods[0] == {"red": 9, "lamp": 1, "green": 1, "blue": 1}


def test_all_actions_mandatory_four_secures_including_a_wild_make_a_trade_ban():
    s = rolled(["secure", "secure", "secure", "steal", "wild"], event="all_actions_mandatory")
    s = s.apply(AssignWilds(("secure",)))
    assert s.pending == {"secure": 4, "steal": 1}
    s = s.apply(Steal("blue", "blue")).apply(Secure(("red",) * 10 + ("blue", "lamp")))
    assert s.trade_ban[0] and s.pending == {}


# ----------------------------------------------------------------- executions and targets

def test_relocate_moves_between_two_opponents_only():
    s = rolled(["relocate"] * 5).apply(Choose("relocate", 0))
    illegal(s, Relocate("red", "blue", "red"), "never from or to you")
    illegal(s, Relocate("blue", "blue", "blue"), "from one opponent to another")
    illegal(s, Relocate("blue", "green", "lamp"), "Ben has no magic lamp")
    s = s.apply(Relocate("blue", "green", "blue"))
    assert s.goods[1] == {"blue": 9} and s.goods[2] == {"green": 10, "blue": 1}


def test_executions_stop_only_when_no_legal_target_remains():
    s = rolled(["donate", "donate", "donate", "steal", "steal"]).apply(Choose("donate", 0))
    s = edit(s, goods=[{"red": 1}, {"blue": 10, "lamp": 1}, {"green": 10}, {"yellow": 10}])
    illegal(s, EndTurn(), "Anna still has 3 Donate")
    s = s.apply(Donate("blue", "red"))
    assert s.goods[0] == {} and s.pending == {"donate": 2}
    assert s.legal_actions() == [EndTurn()]  # nothing left to give
    assert s.apply(EndTurn()).active == 1


def test_steal_swap_and_donate_need_real_goods_and_other_players():
    s = rolled(["steal", "swap", "donate", "relocate", "secure"])
    st = s.apply(Choose("steal", 0))
    illegal(st, Steal("red", "red"), "cannot steal from yourself")
    illegal(st, Steal("blue", "green"), "Ben has no green good")
    illegal(st, Steal("purple", "green"))
    illegal(st, Donate("blue", "red"), "Anna chose Steal")
    sw = s.apply(Choose("swap", 0))
    illegal(sw, Swap("blue", "green", "blue"), "Anna has no green good")
    sw = sw.apply(Swap("blue", "lamp", "blue"))
    assert sw.lamp_holder() == 1 and sw.goods[0] == {"red": 10, "blue": 1}
    do = s.apply(Choose("donate", 0))
    illegal(do, Donate("red", "red"), "cannot donate to yourself")


def test_a_chosen_action_without_targets_can_be_given_up():
    s = rolled(["steal", "steal", "relocate", "relocate", "relocate"]).apply(Choose("steal", 0))
    s = edit(s, trade_ban=[False, True, True, True], goods=[{"red": 10, "lamp": 1}, {}, {}, {}],
             secured=[{}, {"blue": 10}, {"green": 10}, {"yellow": 10}])
    assert s.legal_actions() == [EndTurn()]


# ----------------------------------------------------------------- setup

def test_four_player_draw_keeps_two_of_each_trio_and_every_combination_happens():
    seen = set()
    for seed in range(300):
        m = deal_missions(random.Random(seed), 4)
        assert len(set(m)) == 4
        assert sum(x in ("keep", "take", "collect") for x in m) == 2
        assert sum(x in ("give", "select", "lose") for x in m) == 2
        seen.add(frozenset(m))
    assert len(seen) == 9
    assert sorted(deal_missions(random.Random(1), 7)) == sorted(
        ("keep", "take", "collect", "give", "select", "lose", "control"))
    assert "control" not in deal_missions(random.Random(1), 6)


def test_setup_checks_players_colours_and_missions():
    with pytest.raises(InvalidInput, match="players"):
        Setup(players=PLAYERS[:3])
    with pytest.raises(InvalidInput, match=r"players\[1\].colour"):
        Setup(players=(("A", "red"), ("B", "red"), ("C", "blue"), ("D", "green")))
    with pytest.raises(InvalidInput, match="turquoise"):
        Setup(players=PLAYERS[:3] + (("Tia", "turquoise"),))
    with pytest.raises(InvalidInput, match=r"players\[1\].name"):
        Setup(players=(("A", "red"), ("A", "blue"), ("C", "green"), ("D", "yellow")))
    with pytest.raises(InvalidInput, match="missions"):
        Setup(players=PLAYERS, missions=("keep", "take", "collect", "lose"))
    with pytest.raises(InvalidInput, match="deck"):
        Setup(players=PLAYERS, deck="cards")
    s = setup(missions=None)
    assert Setup.from_json(s.to_json()) == s
    with pytest.raises(InvalidInput, match="start"):
        Setup.from_json({**s.to_json(), "start": 9})


def test_seven_players_need_control_and_everyone_has_seven_chips():
    seven = tuple(zip("ABCDEFG", ("red", "orange", "yellow", "green", "blue", "pink", "turquoise")))
    s = new_game(Setup(players=seven))
    assert all(len(c) == 7 and "control" in c for c in s.chips_in_hand)
    assert all(len(c) == 6 and "control" not in c for c in new_game(setup()).chips_in_hand)
    assert Counter(g for goods in new_game(setup()).goods for g in goods) == Counter(
        {"red": 1, "blue": 1, "green": 1, "yellow": 1, "lamp": 1})


def test_state_json_round_trip_and_named_errors():
    s = rolled(["steal", "steal", "relocate", "relocate", "wild"]).apply(Choose("steal", 1))
    assert State.from_json(s.to_json()) == s
    with pytest.raises(InvalidInput, match=r"goods\[1\].purple"):
        edit(s, goods=[{"red": 10}, {"purple": 1}, {}, {}])
    with pytest.raises(InvalidInput, match="phase"):
        edit(s, phase="lunch")


def test_outcome_is_none_until_the_game_is_over():
    s = turn()
    assert s.outcome() is None
    with pytest.raises(IllegalAction, match="not over"):
        s.end_of_game()


def test_outcome_scores_the_final_position_once_the_missions_are_known():
    s = new_game(setup(missions=None))
    s = edit(s, round=5, revealed=["no_steal", "no_swap", "bonus_wild", "reroll_once"],
             placed=[["blue", "red", "keep"], ["green", "red", "take"]],
             chips_in_hand=[list(c) for c in ([("keep", "take", "collect", "give", "select", "lose")]
                                              + [("take", "collect", "give", "select", "lose")]
                                              + [("keep", "collect", "give", "select", "lose")]
                                              + [("keep", "take", "collect", "give", "select", "lose")])])
    s = s.apply(RevealEvent("sandstorm"))
    assert s.outcome() is None
    s = s.apply(RevealMissions(("keep", "take", "give", "lose")))
    result = s.outcome().to_json()
    anna = result["players"][0]
    assert anna["name"] == "Anna" and anna["mission"] == "keep"
    # Keep: 10 own goods x 7 = 70, +5 lamp; Ben's chip was the first correct one on her board.
    assert anna["total"] == 75
    assert result["players"][1]["total"] >= 10
