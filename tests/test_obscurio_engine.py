"""The Obscurio engine against the rulebook's examples and the RULINGS (what a player at the table would notice)."""
from collections import Counter
from dataclasses import replace

import pytest

from companion.games.contract import GameTimer
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurio import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Rules, Sand, Setup, State, Unmask, Votes,
    action_from_text, describe, new_game, status,
)
from companion.games.obscurio.constants import PURPLE, TRAP_NAME, TRAP_STEP, TRAP_TEXT, TRAPS
from companion.games.obscurio.rulings import RULINGS, profile

# Gala is the Grimoire; the wizards sit Blue, Green, Red, Yellow (the rulebook's door example).
FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))
THREE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"))
TWO = (("Gala", "grimoire"), ("Bea", "blue"))


def game(players=FIVE, **kw) -> State:
    kw.setdefault("bag", "physical")
    return new_game(Setup(players=players, **kw))


def play(state: State, *moves: str) -> State:
    """Apply moves written in the text notation, as a table's log reads."""
    for move in moves:
        state = state.apply(action_from_text(move))
    return state


def doors(state: State, traps="dark_night", decoys=0) -> State:
    """From step 1 to step 4 of the current turn: draw `traps`, the riddle, the Traitor's cards."""
    state = play(state, f"draw {traps}", "riddle")
    return play(state, f"decoys {decoys}") if state.phase == "traitor" else state


def gauge(state: State, normal: int, dark: int | None = None) -> State:
    """A position later in the game: tokens moved from the gauge to the box (the total stays the same)."""
    dark = state.dark if dark is None else dark
    return replace(state, normal=normal, dark=dark, box=state.box + state.normal + state.dark - normal - dark)


def illegal(state: State, action, *words) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action_from_text(action) if isinstance(action, str) else action)
    message = str(err.value)
    for w in words:
        assert w in message, message
    assert message[0].isupper() and err.value.rule and err.value.template  # a sentence, its rule, translatable
    assert state.to_json() == before  # an illegal action never changes the state
    return message


# ----------------------------------------------------------------- setup

def test_cohesion_defaults_follow_the_ruling_and_the_rulebooks_dark_area():
    # RULING obscurio-cohesion (totals) and the rulebook (dark area 5 with 4-5 players, 7 with 6-8).
    assert (Setup(players=FIVE).cohesion, Setup(players=FIVE).dark) == (18, 5)
    six = FIVE + (("Olga", "orange"),)
    assert (Setup(players=six).cohesion, Setup(players=six).dark) == (22, 7)
    assert (Setup(players=TWO, companion="green").cohesion, Setup(players=TWO, companion="green").dark) == (12, 5)
    s = game()
    assert (s.normal, s.dark, s.box, s.cards) == (13, 5, 0, (0, 0, 0, 0))


def test_the_group_types_the_numbers_printed_in_its_box():
    s = game(cohesion=16, dark=4, difficulty="Expert")
    assert (s.normal, s.dark) == (12, 4)
    own = Rules(cohesion=((2, 10), (3, 10), (4, 12), (5, 15), (6, 20), (7, 24), (8, 28)), dark_2_3=4)
    assert Setup(players=FIVE, rules=own).cohesion == 15
    assert Setup(players=THREE, rules=own).dark == 4
    with pytest.raises(InvalidInput, match="^dark"):
        Setup(players=FIVE, cohesion=10, dark=10)  # the normal area would start empty
    with pytest.raises(InvalidInput, match="^cohesion"):
        Setup(players=FIVE, cohesion=31)  # the box has 30 tokens


def test_one_grimoire_distinct_characters_and_the_2_player_companion():
    with pytest.raises(InvalidInput, match="Grimoire"):
        Setup(players=(("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow")))
    with pytest.raises(InvalidInput, match=r"^players\[2\].character"):
        Setup(players=(("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "blue"), ("Rita", "red")))
    with pytest.raises(InvalidInput, match="^companion"):
        Setup(players=TWO)  # the single wizard needs a companion chip
    with pytest.raises(InvalidInput, match="^companion"):
        Setup(players=TWO, companion="blue")  # not their own chip
    with pytest.raises(InvalidInput, match="^companion"):
        Setup(players=THREE, companion="red")
    with pytest.raises(InvalidInput, match="^loyalty"):
        Setup(players=THREE, loyalty="app")  # no loyalty cards with 2-3 players
    assert Setup(players=TWO, companion="red").chips == ("blue", "red")


# ----------------------------------------------------------------- step 1: traps

def test_plus2_on_the_time_track_draws_three_traps_next_turn():
    """Rulebook step 1: 'the Wizards finished after the timer reached the +2 space: they draw 3 traps (1 + 2)'."""
    s = doors(game())
    assert s.timer == glass(60, "turn 1 space 1")
    s = play(s, "sand", "sand")  # the hourglass ran out twice: it stands on the third space, +2
    assert s.track == (0, 1, 2) and s.space == 2
    s = play(s, "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1", "done", "exit 1", "end")
    assert s.turn == 2 and s.draws_due == 3
    illegal(s, "draw dark_night great_room", "3 trap tokens")
    s = play(s, "draw dark_night great_room espionage")
    assert s.traps == ("dark_night", "espionage", "great_room") and s.phase == "riddle"


def test_the_space_where_the_step_ends_is_next_turns_bonus():
    s = play(doors(game()), "sand", "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1", "done")
    assert s.next_bonus == 1
    assert play(s, "exit 2", "end").draws_due == 2
    # Done before the hourglass ever ran out: the first space, no extra trap.
    s = play(doors(game()), "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1", "done", "exit 1", "end")
    assert s.draws_due == 1


def test_every_turn_draws_at_least_one_trap_and_a_plus2_draws_two_more_now():
    s = game()
    assert s.draws_due == 1 and s.legal_types() == {"draw"}
    illegal(s, "draw plus2", "3 trap tokens")
    illegal(s, "draw plus2 dark_night", "3 trap tokens")
    assert play(s, "draw plus2 dark_night great_room").traps == ("plus2", "dark_night", "great_room")
    # Both +2 tokens: 1 + 2 + 2 = 5 tokens in all.
    illegal(s, "draw plus2 plus2 dark_night", "5 trap tokens")
    assert len(play(s, "draw plus2 plus2 dark_night great_room espionage").traps) == 5
    illegal(s, "draw dark_night great_room", "one trap token")
    with pytest.raises(InvalidInput, match="^draw.traps"):
        action_from_text("draw")


def test_a_draw_names_tokens_that_can_be_in_the_bag():
    s = game()
    illegal(s, "draw plus2 dark_night dark_night", "only one Dark Night token")
    illegal(s, "draw plus2 plus2 plus2 dark_night great_room", "only 2 +2 tokens")
    no_mist = Rules(traps=tuple((t, 0 if t == "magical_mist" else n) for t, n in Rules().traps))
    illegal(game(rules=no_mist), "draw magical_mist", "no Magical Mist token")


def test_traps_go_back_into_the_bag_at_the_end_of_the_turn():
    s = play(doors(game(), traps="great_room"), "chip blue 7", "chip green 1", "chip red 1", "chip yellow 1",
             "done", "exit 7")
    assert s.traps == ("great_room",) and s.n_doors == 7
    s = play(s, "end")
    assert s.traps == () and s.bag["great_room"] == 1
    assert play(s, "draw great_room").n_doors == 7  # the same token can come out again


def test_the_apps_bag_draws_with_the_seed_and_refuses_other_tokens():
    s = game(bag="app", seed=11)
    (draw,) = s.legal_actions()
    assert isinstance(draw, Draw) and len(draw.traps) >= 1
    assert new_game(Setup(players=FIVE, bag="app", seed=11)).legal_actions() == [draw]  # deterministic
    other = next(t for t in TRAPS if t not in draw.traps and t != "plus2")
    if "plus2" not in draw.traps:
        illegal(s, Draw((other,)), "The app's bag gives", TRAP_NAME[draw.traps[0]])
    assert s.apply(draw).traps == draw.traps
    draws = {new_game(Setup(players=FIVE, bag="app", seed=seed)).legal_actions()[0].traps for seed in range(40)}
    assert len(draws) > 8  # different seeds, different tokens


def test_no_purple_traps_with_2_or_3_players():
    s = game(THREE)
    assert not set(PURPLE) & set(s.bag)
    illegal(s, "draw dark_magic", "no Dark Magic token")
    for seed in range(60):
        state = new_game(Setup(players=THREE, bag="app", seed=seed))
        assert not set(PURPLE) & set(state.legal_actions()[0].traps)


# ----------------------------------------------------------------- steps 2 and 3, and each trap's effect

def test_every_trap_has_a_step_and_an_effect_text():
    assert set(TRAP_STEP) == set(TRAP_TEXT) == set(TRAP_NAME) == set(TRAPS)
    assert sum(n for _, n in Rules().traps) == 14  # RULING obscurio-traps: 14 tokens, a second +2
    assert dict(Rules().traps)["plus2"] == 2


@pytest.mark.parametrize("trap", ["dark_night", "dusk_hallway", "united_butterflies", "magical_mist",
                                  "bottom_butterfly"])
def test_brown_traps_act_on_the_riddle_and_change_no_count(trap):
    s = play(game(), f"draw {trap}")
    assert s.step == 2 and trap in s.effects
    s = play(s, "riddle", "decoys 2")
    assert (s.n_doors, s.track, s.locked, s.hidden_doors) == (6, (0, 1, 2), False, ())


def test_dark_magic_lets_the_traitor_pick_up_to_4_cards():
    s = play(game(), "draw dark_night", "riddle")
    assert s.step == 3 and s.max_decoys == 2
    illegal(s, "decoys 3", "at most 2 cards (4 only under Dark Magic)")
    s = play(game(), "draw dark_magic", "riddle")
    assert s.max_decoys == 4 and s.legal_actions() == [Decoys(n) for n in range(5)]
    assert play(s, "decoys 4").decoys == 4
    illegal(s, "decoys 5", "at most 4 cards")


def test_espionage_shows_the_traitor_the_exit_card():
    assert not play(game(), "draw dark_night", "riddle").traitor_sees_exit
    assert play(game(), "draw espionage", "riddle").traitor_sees_exit


def test_concealed_door_hides_door_4_until_the_end_of_the_step():
    s = doors(game(), traps="concealed_door")
    assert s.hidden_doors == (4,)
    s = play(s, "chip blue 4", "chip green 4", "chip red 1", "chip yellow 2")  # a hidden door can be chosen
    s = play(s, "done")
    assert s.hidden_doors == ()
    assert play(s, "exit 4").progress == 1


def test_evanescent_room_replaces_the_time_track_with_a_single_hourglass():
    s = doors(game(), traps="evanescent_room")
    assert s.track == (0,)  # RULING obscurio-evanescent
    s = play(s, "chip blue 1", "chip green 2", "sand")  # one hourglass: "Stop!"
    assert s.phase == "exit" and s.stopped and s.next_bonus == 0
    s = play(s, "exit 1")
    # Red and Yellow never placed their chips: a token each, like a wrong door (RULING obscurio-unplaced).
    assert s.last.unplaced == ("red", "yellow")
    assert dict(s.last.charged) == {"green": 1, "red": 1, "yellow": 1}
    assert s.progress == 1
    evanescent = Rules(evanescent_track=(1, 3))
    assert doors(game(rules=evanescent), traps="evanescent_room").track == (1, 3)


def test_great_room_adds_a_7th_door():
    s = doors(game())
    illegal(s, "chip blue 7", "only 6 doors")
    s = doors(game(), traps="great_room")
    assert s.n_doors == 7
    s = play(s, "chip blue 7", "chip green 7", "chip red 7", "chip yellow 7", "done")
    assert [a.door for a in s.legal_actions()] == [1, 2, 3, 4, 5, 6, 7]
    assert play(s, "exit 7").progress == 1


def test_dangerous_room_costs_one_more_token_per_wrong_door():
    moves = ("chip blue 1", "chip green 1", "chip red 2", "chip yellow 3", "done", "exit 3")
    s = play(doors(game(), traps="dangerous_room"), *moves)
    # Blue, Green, Red wrong: 3 tokens on their cards; doors 1 and 2 wrong: 2 more to the box.
    assert dict(s.last.charged) == {"blue": 1, "green": 1, "red": 1} and s.last.dangerous == 2
    assert (s.normal, s.box, sum(s.cards)) == (13 - 5, 2, 3)
    per_chip = play(doors(game(rules=Rules(dangerous_room="chip")), traps="dangerous_room"), *moves)
    assert per_chip.last.dangerous == 3 and per_chip.box == 3
    without = play(doors(game()), *moves)
    assert without.box == 0 and without.last.dangerous == 0


def test_dangerous_room_ignores_chips_in_front_of_no_door():
    s = doors(game(), traps="dangerous_room")
    s = play(s, "chip blue 1", "sand", "sand", "sand", "exit 1")  # Stop!: three chips never placed
    assert s.last.unplaced == ("green", "red", "yellow") and s.last.dangerous == 0 and s.box == 0


def test_locked_doors_reveals_the_doors_one_at_a_time():
    s = doors(game(), traps="locked_doors")
    assert s.opened == 1 and s.legal_types() == {"chip", "open", "sand"}
    illegal(s, "chip blue 2", "only the door just revealed (#1)")
    s = play(s, "chip blue 1")
    illegal(s, "chip blue off", "stays where it was put")
    s = play(s, "open", "open")
    illegal(s, "chip blue 3", "stays where it was put")
    s = play(s, "chip green 3")
    illegal(s, "done", "Reveal the remaining doors first")
    s = play(s, "open", "open", "open")
    assert s.opened == 6
    illegal(s, "open", "Every door has been revealed")
    # RULING obscurio-unplaced: Red and Yellow declined every door; the step can end and their chips cost tokens.
    s = play(s, "done", "exit 3")
    assert s.progress == 1 and dict(s.last.charged) == {"blue": 1, "red": 1, "yellow": 1}
    assert s.last.unplaced == ("red", "yellow")
    illegal(doors(game()), "open", "only under Locked Doors")


def test_the_watcher_is_announced_on_the_last_space_and_by_default_changes_nothing():
    s = replace(doors(game()), progress=4)
    s = play(s, "chip blue 1", "chip green 2", "chip red 2", "chip yellow 2", "done", "exit 1")
    assert s.progress == 5 and s.watcher and "Watcher is active" in describe(s)
    s = play(s, "end")
    assert s.draws_due == 1
    assert play(s, "draw dark_night", "riddle", "decoys 0").n_doors == 6


def test_the_watcher_can_act_as_a_trap_every_turn():
    great = replace(play(game(rules=Rules(watcher="great_room")), "draw dark_night"), progress=5)
    assert "great_room" in great.effects and great.n_doors == 7
    plus2 = replace(game(rules=Rules(watcher="plus2")), progress=5)
    assert plus2.draws_due == 3
    # Before the marker reaches the last space the Watcher does nothing.
    assert replace(game(rules=Rules(watcher="plus2")), progress=4).draws_due == 1


# ----------------------------------------------------------------- step 4: doors

def test_door_example_exit_4():
    """Rulebook step 4 example with RULING obscurio-door-example: Blue #1, Green #4, Red and Yellow #6; the Exit
    is #4. The group advances; Blue, Red and Yellow each take a token onto their character card."""
    s = play(doors(game()), "chip blue 1", "chip green 4", "chip red 6", "chip yellow 6", "done", "exit 4")
    assert s.progress == 1 and s.last.advanced
    assert {c: s.tokens_on(c) for c in ("blue", "green", "red", "yellow")} == \
        {"blue": 1, "green": 0, "red": 1, "yellow": 1}
    assert (s.normal, s.dark) == (13 - 3, 5)  # 3 tokens lost, taken from the normal area
    assert s.phase == "end" and s.step == 5


def test_nobody_on_the_exit_means_no_progress():
    s = play(doors(game()), "chip blue 1", "chip green 1", "chip red 2", "chip yellow 3", "done", "exit 5")
    assert s.progress == 0 and not s.last.advanced and sum(s.cards) == 4


def test_wizards_may_change_their_mind_until_the_step_is_over():
    s = play(doors(game()), "chip blue 1", "chip blue 5", "chip green 2", "chip green off")
    assert s.door_of("blue") == 5 and s.door_of("green") is None
    illegal(s, "chip blue 5", "already in front of door 5")
    illegal(s, "chip green off", "not in front of a door")
    illegal(s, "done", "green, red, yellow still in the centre")
    s = play(s, "chip green 5", "chip red 5", "chip yellow 5", "done")
    illegal(s, "chip blue 1", "Step 4 is over")


def test_stop_on_the_last_space_ends_the_step_and_unplaced_chips_cost_tokens():
    s = play(doors(game()), "chip blue 2", "chip green 2", "sand", "sand")
    assert s.phase == "doors" and s.space == 2
    s = play(s, "sand")  # "¡Alto!"
    assert s.phase == "exit" and s.stopped and s.timer is None and s.next_bonus == 2
    s = play(s, "exit 2")
    assert s.progress == 1 and dict(s.last.charged) == {"red": 1, "yellow": 1}


def glass(seconds: int, where: str, space: int = 0) -> GameTimer:
    """Step 4's hourglass on the time track, `where` its token's place: a run of glasses, set down to wait."""
    return GameTimer("hourglass", seconds, f"hourglass: {where}", run="turn 1 step 4", glass=space, wait=True)


def test_the_timer_the_session_runs():
    s = game(rules=Rules(hourglass=90))
    assert s.timer is None  # no clock in steps 1-3
    s = doors(s)
    assert s.timer == glass(90, "turn 1 space 1")
    assert play(s, "chip blue 1").timer == s.timer  # a chip moved: the same hourglass keeps running
    assert play(s, "sand").timer == glass(90, "turn 1 space 2", space=1)  # flipped: start again
    s = play(s, "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1", "done")
    assert s.timer is None
    illegal(s, "sand", "No hourglass is running")


def test_resolution_order_an_escape_ends_the_game_before_any_token_is_taken():
    # RULING obscurio-resolution-order: the marker on the last space, one chip on the Exit, one normal token left.
    s = gauge(replace(doors(game(loyalty="app", seed=2)), progress=5), normal=1)
    s = play(s, "chip blue 3", "chip green 1", "chip red 1", "chip yellow 1", "done", "exit 3")
    assert s.is_over and s.side == "wizards" and s.progress == 6
    assert (s.normal, sum(s.cards)) == (1, 0)  # nobody was charged, no Accusation Phase


def test_tokens_are_taken_in_seat_order_normal_area_first_then_the_dark_area():
    s = gauge(doors(game()), normal=2, dark=5)
    s = play(s, "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1", "done", "exit 2")
    assert (s.normal, s.dark) == (0, 3) and s.cards == (1, 1, 1, 1)
    assert s.phase == "discussion"  # the normal area emptied in step 4: the Accusation Phase


def test_an_accusation_starts_only_when_the_normal_area_empties():
    s = gauge(doors(game()), normal=5)
    s = play(s, "chip blue 1", "chip green 1", "chip red 2", "chip yellow 2", "done", "exit 1")
    assert s.normal == 3 and s.phase == "end"


# ----------------------------------------------------------------- the Accusation Phase

def accusation(state: State | None = None) -> State:
    """Turn 1, Blue and Green on the wrong door with one normal token left: the Accusation Phase begins."""
    s = gauge(doors(state or game()), normal=2)
    return play(s, "chip blue 1", "chip green 1", "chip red 2", "chip yellow 2", "done", "exit 2")


def test_the_accusation_opens_with_a_minute_of_talk_then_everyone_votes():
    s = accusation()
    assert s.phase == "discussion" and s.timer == GameTimer(
        "hourglass", 60, "accusation: turn 1 accusation 1", run="turn 1 accusation 1", wait=True)
    assert status(s) == "turn 1, accusation"
    illegal(s, "votes blue:red green:red red:blue yellow:red", "when the hourglass has run out")
    s = play(s, "sand")
    assert s.phase == "vote" and s.legal_types() == {"votes"} and s.timer is None
    illegal(s, "votes blue:red green:red red:blue", "yellow missing")
    with pytest.raises(InvalidInput, match=r"^votes\.votes\.blue"):
        action_from_text("votes blue:grimoire")  # nobody votes for the Grimoire


def test_ties_accuse_all_tied_and_each_loyal_one_costs_two_tokens_to_the_box():
    s = play(accusation(), "sand", "votes blue:red green:blue red:blue yellow:red")
    assert s.accused == ("blue", "red") and s.phase == "loyalty"
    illegal(s, "loyalty green", "Only the accused", "blue, red")
    s = play(s, "loyalty none")  # both showed a Loyal card
    assert s.cleared == ("blue", "red") and s.box == 4 + 13 - 2 and s.dark == 1
    # The Traitor was not found and tokens remain: the phase starts again.
    assert s.phase == "discussion" and s.accusation == 2
    assert s.timer.token == "accusation: turn 1 accusation 2"


def test_a_loyal_wizard_accused_again_costs_again_and_an_exposed_traitor_ends_the_phase():
    s = play(accusation(), "sand", "votes blue:red green:red red:yellow yellow:blue", "loyalty none")
    assert s.cleared == ("red",) and s.dark == 3
    s = play(s, "sand", "votes blue:red green:red red:yellow yellow:red")
    illegal(s, "loyalty red", "already showed a Loyal card")
    s = play(s, "loyalty none")
    assert s.dark == 1 and s.accusation == 3
    s = play(s, "sand", "votes blue:yellow green:yellow red:yellow yellow:blue", "loyalty yellow")
    assert s.exposed and s.traitor == "yellow" and s.phase == "end" and s.dark == 1
    assert "Yago (yellow: 0 token(s)) — the Traitor, exposed" in describe(s)


def test_everyone_abstaining_accuses_nobody_and_costs_nothing():
    s = play(accusation(), "sand", "votes blue:- green:- red:- yellow:-")
    assert s.accused == () and s.phase == "discussion" and s.accusation == 2 and s.dark == 5


def test_an_exposed_traitor_leaves_the_doors_but_still_plays_step_3():
    s = play(accusation(), "sand", "votes blue:green green:red red:green yellow:green", "loyalty green", "end")
    assert s.chips == ("blue", "red", "yellow")
    assert "dark_magic" in s.bag  # purple traps stay in the bag (RULING obscurio-accusation)
    s = play(s, "draw dark_magic", "riddle")
    assert s.phase == "traitor"
    s = play(s, "decoys 4")
    illegal(s, "chip green 1", "exposed Traitor")
    s = play(s, "chip blue 1", "chip red 2", "chip yellow 2", "done", "exit 1")
    assert s.tokens_on("green") == 1  # the one from before the exposure; never charged again
    assert dict(s.last.charged) == {"red": 1, "yellow": 1}
    assert s.phase == "end"  # no second Accusation Phase


def test_false_accusations_can_hand_the_traitor_the_game():
    s = gauge(accusation(), normal=0, dark=3)
    s = play(s, "sand", "votes blue:red green:blue red:blue yellow:red", "loyalty none")
    assert s.dark == 0 and s.side == "traitor" and s.phase == "unmask"


def test_when_the_app_dealt_loyalty_the_vote_resolves_at_once():
    s = accusation(game(loyalty="app", seed=5))
    traitor = s.traitor
    loyal = next(w for w in s.setup.wizards if w != traitor)
    votes = " ".join(f"{w}:{loyal}" for w in s.setup.wizards)
    s2 = play(s, "sand", f"votes {votes}")
    assert s2.cleared == (loyal,) and s2.phase == "discussion" and not s2.exposed
    votes = " ".join(f"{w}:{traitor}" for w in s.setup.wizards)
    s3 = play(s, "sand", f"votes {votes}")
    assert s3.exposed and s3.phase == "end" and s3.box == s.box


def test_the_app_dealt_traitor_is_never_on_the_shared_screen():
    for seed in range(12):
        s = accusation(game(loyalty="app", seed=seed))
        others = [w for w in s.setup.wizards if w != s.traitor]
        masked = replace(s, traitor=others[seed % len(others)])
        assert describe(s) == describe(masked) and status(s) == status(masked) and repr(s) == repr(masked)
        assert State.from_json(s.to_json()).traitor == s.traitor  # the save keeps it (docs/obscurio-engine.md)
    assert len({new_game(Setup(players=FIVE, loyalty="app", seed=seed)).traitor for seed in range(30)}) == 4


# ----------------------------------------------------------------- the end of the game

def escape(state: State) -> State:
    s = replace(doors(state), progress=5)
    return play(s, "chip blue 1", "chip green 2", "chip red 3", "chip yellow 4", "done", "exit 1")


def test_the_wizards_escape_and_the_traitor_reveals_their_card():
    s = escape(game())
    assert s.phase == "unmask" and s.side == "wizards" and s.outcome() is None and status(s) == "Traitor to reveal"
    illegal(s, "end", "The game is over")
    s = play(s, "traitor red")
    out = s.outcome()
    assert s.is_over and out.winners == ("grimoire", "blue", "green", "yellow")
    assert out.detail["side"] == "wizards" and "escape the Library" in out.detail["why"]
    by_id = {p.extra["id"]: p for p in out.players}
    assert by_id["red"].extra["role"] == "traitor" and by_id["red"].total is None
    assert by_id["grimoire"].name == "Gala" and by_id["grimoire"].lines[0].rule == "The Grimoire wins"
    assert out.to_json()["side"] == "wizards"
    illegal(s, "traitor blue", "already known")


def test_the_last_token_from_the_dark_area_makes_the_traitor_win_alone():
    s = gauge(doors(game(loyalty="app", seed=1)), normal=0, dark=2)
    s = play(s, "chip blue 1", "chip green 2", "chip red 3", "chip yellow 4", "done", "exit 6")
    assert s.is_over and s.side == "traitor" and (s.normal, s.dark) == (0, 0)
    # Seat order: Blue and Green took the last two tokens; the game ended before Red and Yellow were charged.
    assert dict(s.last.charged) == {"blue": 1, "green": 1}
    out = s.outcome()
    assert out.winners == (s.traitor,) and out.detail["side"] == "traitor"
    assert "Traitor wins alone" in out.detail["why"]


def test_the_traitor_revealed_at_the_end_cannot_be_a_wizard_who_showed_a_loyal_card():
    s = play(accusation(), "sand", "votes blue:red green:red red:blue yellow:red", "loyalty none")
    s = gauge(s, normal=0, dark=1)
    s = play(s, "sand", "votes blue:green green:blue red:green yellow:green", "loyalty none")
    assert s.phase == "unmask"
    illegal(s, "traitor red", "showed a Loyal card")
    assert [a.traitor for a in s.legal_actions()] == ["blue", "yellow"]
    assert play(s, "traitor yellow").outcome().winners == ("yellow",)


def test_every_action_is_refused_once_the_game_is_over():
    s = play(escape(game()), "traitor red")
    for move in ("draw dark_night", "riddle", "decoys 0", "chip blue 1", "sand", "done", "exit 1", "end"):
        illegal(s, move, "The game is over")
    assert s.legal_actions() == [] and s.legal_types() == set()


# ----------------------------------------------------------------- 2 and 3 players

def test_three_players_skip_step_3_and_have_no_accusation():
    s = play(game(THREE), "draw dark_night", "riddle")
    assert s.phase == "doors"  # RULING obscurio-2-3-players: no step 3
    illegal(s, "decoys 0", "no Traitor with 2 or 3 players")
    s = gauge(s, normal=1)
    s = play(s, "chip blue 1", "chip green 2", "done", "exit 2")
    assert s.normal == 0 and s.phase == "end"  # the normal area emptied, but nobody accuses


def test_two_players_own_chip_wrong_costs_two_companion_wrong_costs_one():
    s = doors(game(TWO, companion="red"))
    assert s.chips == ("blue", "red")
    illegal(s, "done", "red still in the centre")  # both chips must be used
    own_wrong = play(s, "chip blue 1", "chip red 2", "done", "exit 2")
    assert own_wrong.progress == 1 and dict(own_wrong.last.charged) == {"blue": 2}
    companion_wrong = play(s, "chip blue 2", "chip red 1", "done", "exit 2")
    assert dict(companion_wrong.last.charged) == {"red": 1}
    both = play(s, "chip blue 3", "chip red 3", "done", "exit 2")
    assert both.cards == (2, 1) and both.normal == 7 - 3


def test_with_2_or_3_players_running_out_of_cohesion_means_nobody_wins():
    s = gauge(doors(game(TWO, companion="red")), normal=0, dark=2)
    s = play(s, "chip blue 1", "chip red 1", "done", "exit 2")
    assert s.is_over and s.side == "nobody"  # RULING obscurio-2-3-loss: no unmask, no Traitor
    out = s.outcome()
    assert out.winners == () and out.detail["side"] == "nobody" and "nobody wins" in out.detail["why"]
    won = play(replace(doors(game(THREE)), progress=5), "chip blue 1", "chip green 2", "done", "exit 1")
    assert won.outcome().winners == ("grimoire", "blue", "green")
    assert {p.extra["role"] for p in won.outcome().players} == {"grimoire", "wizard"}


# ----------------------------------------------------------------- what is legal

def test_legal_actions_follow_the_steps():
    s = game()
    assert s.legal_actions() == [] and s.legal_types() == {"draw"}  # physical bag: the group names the tokens
    s = play(s, "draw dark_night")
    assert s.legal_actions() == [Riddle()]
    s = play(s, "riddle")
    assert s.legal_actions() == [Decoys(0), Decoys(1), Decoys(2)]
    s = play(s, "decoys 1")
    assert s.legal_types() == {"chip", "sand"}
    assert Chip("blue", 6) in s.legal_actions() and Chip("blue", None) not in s.legal_actions()
    s = play(s, "chip blue 1", "chip green 1", "chip red 1", "chip yellow 1")
    assert s.legal_types() == {"chip", "sand", "done"} and Done() in s.legal_actions()
    s = play(s, "done")
    assert s.legal_actions() == [Exit(d) for d in range(1, 7)]
    assert play(s, "exit 1").legal_actions() == [EndTurn()]


def test_refusals_name_the_step():
    s = game()
    assert illegal(s, "riddle", "step 2")
    assert illegal(s, "chip blue 1", "step 4")
    assert illegal(s, "exit 1", "end of step 4")
    assert illegal(s, "end", "step 5")
    assert illegal(s, "votes blue:red green:red red:blue yellow:red", "Accusation Phase")
    assert illegal(s, "loyalty none", "after an accusation vote")
    assert illegal(s, "traitor red", "when the game is over")
    assert illegal(play(s, "draw dark_night"), "draw dark_night", "step 1")
    assert illegal(play(s, "draw dark_night", "riddle"), "chip blue 1", "step 4")
    assert illegal(doors(s), Chip("orange", 1), "Nobody at this table plays the orange chip")


# ----------------------------------------------------------------- the rules profile

def test_the_profile_covers_every_obscurio_ruling_and_edits_the_editable_ones():
    from companion.games.rulings import EDITABLE, ids_of
    assert [r.id for r in RULINGS] == ids_of("obscurio")
    assert {r.id for r in RULINGS if r.editable} == {rid for rid in ids_of("obscurio") if rid in EDITABLE}
    for r in RULINGS:
        if r.editable:
            assert hasattr(Rules(), r.field), r


def test_the_profile_shows_the_groups_choices():
    default = {e["id"]: e["value"] for e in profile()}
    assert default["obscurio-time-track"] == "+0, +1, +2" and default["obscurio-hourglass"] == "60 s"
    assert default["obscurio-watcher"] == "no effect" and default["obscurio-dangerous-room"] == "per wrong door"
    own = {e["id"]: e["value"] for e in profile(Rules(time_track=(0, 0, 1, 3), watcher="great_room",
                                                      dangerous_room="chip", hourglass=45))}
    assert own["obscurio-time-track"] == "+0, +0, +1, +3" and own["obscurio-watcher"] == "acts as Great Room"
    assert own["obscurio-dangerous-room"] == "per wrong chip" and own["obscurio-hourglass"] == "45 s"
    assert "+2 x2" in default["obscurio-traps"]


def test_an_edited_time_track_changes_the_bonus_and_the_stop():
    s = doors(game(rules=Rules(time_track=(0, 0, 3, 3))))
    s = play(s, "sand", "sand", "sand")
    assert s.phase == "doors" and s.space == 3
    s = play(s, "sand")
    assert s.stopped and s.next_bonus == 3
    assert play(s, "exit 1", "end").draws_due == 4


def test_the_refusals_met_in_random_games_are_sentences_with_a_rule():
    """A battery of actions at every state of random games: each refusal is IllegalAction with an extractable
    English template (for the rules catalogue), a rule reference and the params that rebuild the message."""
    import inspect
    from companion.games import obscurio
    from companion.games.obscurio.randplay import random_game
    from companion.i18n.extract import plain_illegal_actions_in, rules_templates_in
    from pathlib import Path

    folder = Path(inspect.getfile(obscurio)).parent
    templates = set()
    for path in folder.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert plain_illegal_actions_in(source, str(path)) == []
        templates |= rules_templates_in(source)
    battery = [Draw(("dark_night",)), Draw(("plus2", "plus2", "plus2")), Riddle(), Decoys(3), Decoys(0),
               Chip("blue", 7), Chip("red", None), Chip("turquoise", 1), Open(), Sand(), Done(), Exit(7), Exit(1),
               Votes((("blue", "red"),)), Loyalty("blue"), Loyalty(None), EndTurn(), Unmask("blue")]
    met = Counter()
    for seed in range(8):
        setup, actions = random_game(seed, 2 + seed % 7)
        state = new_game(setup)
        for action in actions:
            for probe in battery:
                try:
                    state.apply(probe)
                except IllegalAction as err:
                    assert err.template in templates and err.rule
                    assert str(err) == err.template.format(**err.params)
                    met[err.template] += 1
            state = state.apply(action)
    assert len(met) > 25
