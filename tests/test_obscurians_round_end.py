"""What the table is left with when a round ends, when the sandstorm ends the game, and when the end is typed in
by hand (END.json): positions read whole, as a resumed table or the end screen would show them."""
import pytest

from companion.games.errors import InvalidInput
from companion.games.obscurians.actions import (
    Choose, EndTurn, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll, Secure,
)
from companion.games.obscurians.setup import mission_refusals
from companion.games.obscurians.state import new_game
from companion.i18n.messages import translate_message
from companion.session import games
from test_obscurians_engine import edit, finish_turn, illegal, setup

OBSCURIANS = games.get("obscurians")


def dana_ends_round_1() -> tuple:
    """Round 1 (Reroll Once), the fourth turn: Dana places a chip, rolls, rerolls for free, relocates five goods.
    Returns (the position before her End turn, the position after it)."""
    s = new_game(setup()).apply(RevealEvent("reroll_once"))
    for _ in range(3):
        s = finish_turn(s)  # Anna, Ben, Chris
    assert s.active == 3 and s.round == 1
    s = s.apply(PlaceChip("red", "keep")).apply(Roll(("relocate",) * 4 + ("steal",)))
    s = s.apply(Reroll((4,), ("relocate",), None)).apply(Choose("relocate", 0))
    for _ in range(5):
        s = s.apply(Relocate("blue", "green", next(g for g in s.goods[1] if g != "lamp")))
    assert s.free_reroll_used and s.turn_chips == 1 and s.dice is not None and s.pending == {}
    return s, s.apply(EndTurn())


def test_after_the_rounds_last_turn_the_lamp_holder_is_to_reveal_and_no_dice_or_choice_is_left_over():
    before, s = dana_ends_round_1()
    holder = before.lamp_holder()
    assert (s.phase, s.round, s.event, s.active, s.start_player) == ("reveal", 2, None, holder, holder)
    # Nothing of Dana's turn carries into the next round: no dice on the table, no action chosen or pending, the
    # free reroll and the chips-this-turn count start again.
    assert (s.dice, s.chosen, s.pending, s.free_reroll_used, s.turn_chips) == (None, None, {}, False, 0)
    assert s.step is None and s.allowed_counts() == {} and s.wilds_available() == 0
    assert s.legal_types() == {"reveal"} and all(isinstance(a, RevealEvent) for a in s.legal_actions())
    # What was done stays done: the goods Dana moved, the chip she placed, the cards revealed.
    assert s.goods == before.goods and s.placed == before.placed and s.revealed == ("reroll_once",)
    assert s.chips_in_hand == before.chips_in_hand
    assert OBSCURIANS.status(s) == "round 2" and OBSCURIANS.summary(s)["active"] is None
    # A resumed table reads back exactly this position.
    assert OBSCURIANS.state_from_json(s.to_json()) == s
    name = s.name(holder)
    illegal(s, Roll(("steal",) * 5), f"{name} must reveal an event card first")
    illegal(s, EndTurn(), f"{name} must reveal an event card first")


def test_the_next_round_starts_with_a_fresh_turn_for_the_lamp_holder():
    _, s = dana_ends_round_1()
    s = s.apply(RevealEvent("chips_or_dice"))
    assert s.phase == "turn" and s.active == s.start_player != 3 and s.step == "chips"
    # Dana's chip in her turn does not count as the next player's: under Chips or Dice, they may still roll.
    assert "roll" in s.legal_types() and s.apply(Roll(("steal",) * 5)).dice == ("steal",) * 5


def round_5_reveal(**fields):
    """Round 5 with the real cards: four events seen, the starting player about to reveal."""
    s = new_game(setup(**fields.pop("setup", {})))
    return edit(s, round=5, revealed=["no_steal", "no_swap", "bonus_wild", "reroll_once"], **fields)


def test_the_sandstorm_ends_the_game_where_it_stands_and_secured_goods_still_count():
    # Ben holds the lamp and two blue goods in his vault, under a trade ban, when Anna reveals the sandstorm.
    s = round_5_reveal(goods=[{"red": 10}, {"blue": 8}, {"green": 10}, {"yellow": 10}],
                       secured=[{}, {"lamp": 1, "blue": 2}, {}, {}], trade_ban=[False, True, False, False])
    over = s.apply(RevealEvent("sandstorm"))
    assert (over.phase, over.event, over.round, over.active) == ("over", "sandstorm", 5, 0)
    assert over.revealed[-1] == "sandstorm" and over.dice is None and over.step is None
    # Nobody's vault opens: the game ended before anyone's turn (rulebook "End of Game").
    assert over.goods == s.goods and over.secured == s.secured and over.trade_ban == s.trade_ban
    end = over.end_of_game()
    ben = end.players[1]
    assert ben.lamp and dict(ben.goods) == {"blue": 10} and ben.n_goods() == 11
    out = over.outcome()
    ben_lines = [line.rule for line in out.players[1].lines]
    assert "Magic lamp" in ben_lines  # the lamp in the vault scores
    assert OBSCURIANS.status(over) == "over" and OBSCURIANS.summary(over)["winners"]
    assert over.legal_types() == set() and over.legal_actions() == []
    illegal(over, RevealEvent("double_steal"), "Event cards are revealed only at the start of a round")


def test_the_sandstorm_with_missions_unknown_asks_for_them_and_only_then_scores():
    s = round_5_reveal(setup={"missions": None}).apply(RevealEvent("sandstorm"))
    assert (s.phase, s.event, s.dice) == ("missions", "sandstorm", None)
    assert s.outcome() is None and OBSCURIANS.status(s) == "missions to reveal"
    assert OBSCURIANS.summary(s)["winners"] == [] and OBSCURIANS.summary(s)["totals"] == {}
    illegal(s, RevealEvent("sandstorm"), "Event cards are revealed only at the start of a round")
    illegal(s, Roll(("steal",) * 5), "The game is over")
    over = s.apply(RevealMissions(("keep", "take", "give", "lose")))
    assert over.phase == "over" and over.outcome() is not None
    illegal(over, RevealMissions(("keep", "take", "give", "lose")), "The missions are already known")


def test_a_trade_ban_made_in_the_last_turn_before_the_sandstorm_keeps_the_goods_in_the_vault_for_scoring():
    s = round_5_reveal(setup={"deck": "physical"}).apply(RevealEvent("double_secure"))
    s = s.apply(Roll(("secure", "secure", "steal", "steal", "relocate"))).apply(Choose("secure", 0))
    s = s.apply(Secure(("red",) * 10 + ("lamp",)))
    for _ in range(4):
        s = finish_turn(s) if s.active else s.apply(EndTurn())
    assert s.round == 6 and s.phase == "reveal" and s.trade_ban[0] and s.secured[0] == {"red": 10, "lamp": 1}
    over = s.apply(RevealEvent("sandstorm"))
    anna = over.end_of_game().players[0]
    assert anna.lamp and dict(anna.goods) == {"red": 10}


# ----------------------------------------------------------------- END.json typed in by hand

def end_json(**goods_of):
    """The 4-player example table, with some players' goods replaced."""
    players = [
        {"name": "Ana", "color": "green", "mission": "keep", "goods": {"green": 6, "red": 1}, "lamp": True},
        {"name": "Ben", "color": "blue", "mission": "take", "goods": {"red": 4, "green": 2, "yellow": 1}},
        {"name": "Cleo", "color": "yellow", "mission": "give", "goods": {"yellow": 3}, "artifact": True},
        {"name": "Dan", "color": "red", "mission": "lose", "goods": {"red": 5, "yellow": 1}},
    ]
    for p in players:
        p["goods"] = goods_of.get(p["name"], p["goods"])
    return {"game": "obscurians", "players": players}


def lines(outcome, i):
    return [(line.rule, line.points) for line in outcome.players[i].lines]


def test_a_colour_entered_with_zero_goods_is_a_colour_not_held():
    rules = OBSCURIANS.default_rules()
    zeros = OBSCURIANS.score_file(end_json(Ben={"red": 4, "green": 0, "yellow": 1}, Dan={"red": 5, "yellow": 0},
                                           Cleo={"yellow": 3, "blue": 0}), rules)
    left_out = OBSCURIANS.score_file(end_json(Ben={"red": 4, "yellow": 1}, Dan={"red": 5}), rules)
    assert zeros == left_out
    # Take scores no "0 green" term; Lose counts only the colours really held.
    assert lines(zeros, 1)[0] == ("Take: 16 (4 red) + 1 (1 yellow)", 17)
    assert lines(zeros, 3)[0] == ("Lose: 75 − 20 (exactly 5 goods) − 20 (goods of only 1 colour)", 35)
    assert lines(zeros, 2)[0] == ("Give: 70 − 4 goods × 5", 50)
    text = OBSCURIANS.score_text(end_json(Ben={"red": 4, "green": 0, "yellow": 1}), rules)
    assert "0 green" not in text and "(0 " not in text


def test_a_lose_player_who_entered_only_zeros_holds_no_coloured_goods():
    out = OBSCURIANS.score_file(end_json(Dan={"red": 0, "yellow": 0}), OBSCURIANS.default_rules())
    assert lines(out, 3)[0] == ("Lose: 75 − 20 (no coloured goods)", 55)
    keep = OBSCURIANS.score_file(end_json(Ana={"green": 0}), OBSCURIANS.default_rules())
    assert lines(keep, 0)[0] == ("Keep: 0 green goods × 7", 0)


def test_a_field_written_colour_is_refused_with_the_spelling_the_file_wants():
    data = end_json()
    data["players"][0]["colour"] = data["players"][0].pop("color")
    with pytest.raises(InvalidInput) as err:
        OBSCURIANS.score_file(data, OBSCURIANS.default_rules())
    assert str(err.value).startswith('players[0].colour: unknown field (write "color"); expected one of ')
    data["players"][0]["color"] = data["players"][0].pop("colour")
    data["players"][0]["colr"] = "green"
    with pytest.raises(InvalidInput) as err:
        OBSCURIANS.score_file(data, OBSCURIANS.default_rules())
    assert str(err.value).startswith("players[0].colr: unknown field; expected one of ")  # no hint for other typos


def test_the_score_table_leaves_a_blank_line_after_each_players_total():
    text = OBSCURIANS.score_text(end_json(), OBSCURIANS.default_rules()).splitlines()
    totals = [i for i, line in enumerate(text) if line.split()[:1] == ["Total"]]
    assert len(totals) == 4
    assert all(text[i + 1] == "" for i in totals)
    assert text[totals[-1] + 2].startswith("Winner: ")


# ----------------------------------------------------------------- the missions tapped in at the end

def test_a_mission_that_cannot_be_a_players_says_why_while_the_missions_are_tapped_in():
    # Ana tapped Keep and Ben Take: with 4 players only two of Keep/Take/Collect are in play, so Collect is out.
    why = mission_refusals(["keep", "take", None, None], 4)
    assert why[2]["collect"] is not None and str(why[2]["collect"]) == (
        "With 4 players only two of Keep, Take and Collect are in play, and two are taken")
    assert str(why[2]["keep"]) == "Each mission card exists only once: another player has Keep"
    assert why[2]["give"] is None and why[2]["select"] is None and why[2]["lose"] is None
    # Ana's own card is no reason against Ana's seat.
    assert why[0]["keep"] is None and str(why[0]["take"]).endswith("another player has Take")
    assert translate_message(why[2]["collect"], "de") != str(why[2]["collect"])
