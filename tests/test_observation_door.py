"""Sensor readings into an Obscurians turn through the session's one door: sure and legal → applied and logged;
doubtful, crooked, unreadable or illegal → a question on screen, the table unchanged until the players answer.

A scripted observation source plays the five henchmen dice as smart D6s would report them (DieRolling, then
DieRolled with a confidence), into a real table on a real SQLite file.
"""
from __future__ import annotations

import json

import pytest

from companion.games.errors import IllegalAction
from companion.games.obscurians.actions import Flip, PlaceChip, Reroll, RevealEvent, Roll
from companion.games.obscurians.constants import FACE_DOWN
from companion.games.obscurians.setup import Setup
from companion.session import Table, TableStore
from companion.session.observe import CONFIRM, IGNORE, READ_AGAIN, TYPE_IN, ObservationDoor
from firmware_bridge.observations import DiceSettled, DieCrooked, DieRolled, DieRolling, DieSetDown

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))
DICE = [f"F0:00:00:00:00:0{i + 1}" for i in range(5)]
BINDINGS = {die: ("henchmen", i) for i, die in enumerate(DICE)}
# RULING obscurians-dice default pips: 1 steal, 6 donate, 2 swap, 5 secure, 3 relocate, 4 wild
PIPS = {"steal": 1, "donate": 6, "swap": 2, "secure": 5, "relocate": 3, "wild": 4}


class ScriptedDice:
    """What five bound smart dice send when the table throws some of them."""

    def __init__(self, door: ObservationDoor):
        self.door = door

    def throw(self, faces: dict[int, int | None], confidence: dict[int, float] | None = None, settle=True):
        for i in faces:
            self.door.observe(DieRolling(DICE[i], source="script"))
        for i, pips in faces.items():
            if pips is None:
                self.door.observe(DieCrooked(DICE[i], source="script"))
            else:
                self.door.observe(DieRolled(DICE[i], pips, (confidence or {}).get(i, 1.0), source="script"))
        return self.door.settle() if settle else None


@pytest.fixture
def table(tmp_path, request):
    """Anna's turn, before rolling, in a round of the event card named by the test (`indirect`), else No Swap."""
    store = TableStore(tmp_path)
    t = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1))
    t.apply(RevealEvent(getattr(request, "param", "no_swap")))
    yield t
    store.close()


@pytest.fixture
def seen():
    return {"questions": [], "applied": [], "flash": []}


@pytest.fixture
def door(table, seen):
    return ObservationDoor(table, BINDINGS, on_question=seen["questions"].append, on_applied=seen["applied"].append,
                           on_feedback=seen["flash"].append)


def faces(*names):
    return {i: PIPS[n] for i, n in enumerate(names)}


def test_a_sure_legal_throw_becomes_the_roll_and_is_logged(table, door, seen):
    dice = ScriptedDice(door)
    applied = dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    assert applied == Roll(("steal", "steal", "swap", "wild", "relocate"))
    assert table.state.dice == ("steal", "steal", "swap", "wild", "relocate")
    assert table.actions[-1] == applied and seen["applied"] == [applied] and door.question is None
    assert table.store.events(table.id)[-1].payload == applied.to_json()  # on disk like a tap


def test_the_throw_waits_while_a_die_still_rolls(table, door):
    dice = ScriptedDice(door)
    for i in range(5):
        door.observe(DieRolling(DICE[i]))
    for i in range(4):
        door.observe(DieRolled(DICE[i], 1))
    assert door.busy() and door.settle() is None and table.state.dice is None
    door.observe(DieRolled(DICE[4], 3))
    assert not door.busy()
    assert door.settle() == Roll(("steal",) * 4 + ("relocate",))
    del dice


def test_a_doubtful_die_is_asked_about_and_nothing_changes_until_confirmed(table, door, seen):
    before = table.log_length
    ScriptedDice(door).throw(faces("steal", "secure", "swap", "wild", "relocate"), confidence={1: 0.55})
    q = door.question
    assert q is not None and seen["questions"][-1] is q
    assert q.text == "Is this right? Die 2 may have been misread: Anna rolled Steal, Swap, Secure, Relocate, Wild"
    assert q.options == (CONFIRM, READ_AGAIN, TYPE_IN) and q.action == Roll(("steal", "secure", "swap", "wild",
                                                                             "relocate"))
    assert table.state.dice is None and table.log_length == before  # never a silent change
    door.answer(CONFIRM)
    assert table.state.dice[1] == "secure" and door.question is None and seen["questions"][-1] is None


def test_typing_in_the_right_face_replaces_a_misread_die(table, door):
    ScriptedDice(door).throw(faces("steal", "secure", "swap", "wild", "relocate"), confidence={1: 0.4})
    corrected = Roll(("steal", "donate", "swap", "wild", "relocate"))
    door.answer(TYPE_IN, corrected)
    assert table.state.dice == corrected.faces


def test_dice_thrown_again_unannounced_are_asked_about_in_words_and_never_booked(table, door, seen):
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    chips, log = table.state.chips_left(0), table.log_length
    # Dice 1 and 4 thrown again, nothing said, in a round without Reroll Once: it would cost a chip, so it is a
    # question in the players' words, and nothing is booked until they answer.
    assert dice.throw({0: PIPS["secure"], 3: PIPS["donate"]}) is None
    q = door.question
    assert q.text == "Anna rolled dice 1, 4 again (Secure, Donate): discard a chip face down?"
    assert q.options == (CONFIRM, IGNORE) and q.action == Reroll((0, 3), ("secure", "donate"), FACE_DOWN)
    assert (table.state.chips_left(0), table.log_length) == (chips, log)
    # "No": nothing happened to the table, and the readings are gone (the next settle proposes nothing).
    door.answer(IGNORE)
    assert door.question is None and table.log_length == log and door.settle() is None
    # Thrown again and confirmed: one chip goes face down, unnamed.
    dice.throw({0: PIPS["secure"], 3: PIPS["donate"]})
    applied = door.answer(CONFIRM)
    assert applied == Reroll((0, 3), ("secure", "donate"), FACE_DOWN)
    assert table.state.dice == ("secure", "steal", "swap", "donate", "relocate")
    assert table.state.chips_left(0) == chips - 1 and table.state.hidden_discards[0] == 1
    assert "face_down" in json.dumps(table.store.events(table.id)[-1].payload)


@pytest.mark.parametrize("table", ["reroll_once"], indirect=True)
def test_an_unannounced_throw_in_a_reroll_once_round_asks_about_the_free_reroll(table, door):
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    dice.throw({4: PIPS["donate"]})
    assert door.question.text == "Anna rolled dice 5 again (Donate): use this round's free reroll?"
    assert door.answer(CONFIRM) == Reroll((4,), ("donate",), None)


@pytest.mark.parametrize("table", ["flip_the_die"], indirect=True)
def test_in_a_flip_the_die_round_dice_turned_to_their_opposite_faces_are_a_flip_not_a_reroll(table, door):
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    chips = table.state.chips_in_hand
    # Dice 3 and 4 turned over: Swap → Secure, Wild → Relocate. Free, no chip — and asked, as nobody announced it.
    dice.throw({2: PIPS["secure"], 3: PIPS["relocate"]})
    assert door.question.text == "Anna turned dice 3, 4 over (Secure, Relocate): flip them?"
    assert door.answer(CONFIRM) == Flip((2, 3))
    assert table.state.dice == ("steal", "steal", "secure", "relocate", "relocate")
    assert table.state.chips_in_hand == chips
    # A die that lands on anything but its opposite face was thrown: a reroll, one chip face down (asked, too).
    dice.throw({0: PIPS["swap"]})
    assert door.answer(CONFIRM) == Reroll((0,), ("swap",), FACE_DOWN)


def test_a_die_picked_up_and_put_back_ends_the_wait_for_it(table, door):
    """Picking a die up says it rolls; putting it back unthrown (DieSetDown) must not leave the throw waiting."""
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    door.expect({"reroll": [0, 1]})
    for i in (0, 1, 3):
        door.observe(DieRolling(DICE[i]))
    door.observe(DieRolled(DICE[0], PIPS["secure"]))
    door.observe(DieRolled(DICE[1], PIPS["donate"]))
    assert door.busy()                        # die 4 was picked up ...
    door.observe(DieSetDown(DICE[3], PIPS["wild"]))
    assert not door.busy()                    # ... and put back: no reading, the throw is dice 1 and 2
    assert door.settle() == Reroll((0, 1), ("secure", "donate"), FACE_DOWN)
    assert table.state.dice == ("secure", "donate", "swap", "wild", "relocate")


def test_a_die_that_goes_silent_mid_throw_is_given_up_on(table, door):
    for i in range(5):
        door.observe(DieRolling(DICE[i]))
    for i in range(4):
        door.observe(DieRolled(DICE[i], 1))
    assert door.busy()
    door.stop_waiting()
    assert not door.busy()
    assert door.settle() is None
    assert "Only dice 1, 2, 3, 4 were read" in door.question.text

def test_clearing_a_question_to_enter_the_move_on_the_screen_drops_the_readings(table, door, seen):
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"), confidence={1: 0.5})
    assert door.question is not None
    assert door.answer(TYPE_IN) is None  # no action: the players tap the roll in themselves
    assert door.question is None and seen["questions"][-1] is None and table.state.dice is None
    assert door.settle() is None  # nothing of that throw is left to propose


def test_an_illegal_reading_is_a_question_with_the_engines_reason(table, door):
    dice = ScriptedDice(door)
    table.apply(PlaceChip("blue", "keep"))  # Anna's keep chip is on Ben's board now
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    before = table.state
    door.expect({"reroll": [0, 3], "discard": "keep"})  # ... yet the players say she paid with it
    assert dice.throw({0: PIPS["secure"], 3: PIPS["donate"]}) is None
    q = door.question
    assert q.text.startswith("The dice say: Anna discarded the Keep chip and rerolled: Donate, Secure. "
                             "The rules do not allow it now")
    assert "Anna has no keep chip left to discard" in q.text
    assert q.action is None and CONFIRM not in q.options
    assert table.state is before
    with pytest.raises(IllegalAction):
        door.answer(CONFIRM)
    # The players put it right: the reroll was paid with a chip face down. Typed in, judged, applied.
    door.answer(TYPE_IN, Reroll((0, 3), ("secure", "donate"), FACE_DOWN))
    assert table.state.dice == ("secure", "steal", "swap", "donate", "relocate")


def test_an_announced_reroll_is_applied_from_the_dice_and_a_wrong_die_is_asked_about(table, door):
    dice = ScriptedDice(door)
    dice.throw(faces("steal", "steal", "swap", "wild", "relocate"))
    door.expect({"reroll": [2, 4], "discard": "take"})
    dice.throw({2: PIPS["steal"], 3: PIPS["steal"]})  # die 4 thrown instead of die 5
    assert "Dice 3, 4 were thrown, but dice 3, 5 were to be rerolled" in door.question.text
    door.answer(READ_AGAIN)
    applied = dice.throw({2: PIPS["steal"], 4: PIPS["steal"]})
    assert applied == Reroll((2, 4), ("steal", "steal"), "take")
    assert table.state.dice == ("steal", "steal", "steal", "wild", "steal") and door.intent is None


def test_a_crooked_die_is_flashed_and_only_it_is_rolled_again(table, door, seen):
    dice = ScriptedDice(door)
    dice.throw({0: 1, 1: 1, 2: None, 3: 4, 4: 3})
    q = door.question
    assert q.text == "Die 3 landed crooked: roll it again" and q.reroll == (DICE[2],)
    assert seen["flash"] == [(DICE[2],)] and table.state.dice is None
    door.answer(READ_AGAIN)
    assert dice.throw({2: 2}) == Roll(("steal", "steal", "swap", "wild", "relocate"))


def test_a_die_that_cannot_be_a_d6_and_missing_dice_are_questions(table, door):
    dice = ScriptedDice(door)
    dice.throw({0: 1, 1: 7, 2: 2, 3: 4, 4: 3})
    assert door.question.text == "The dice cannot be used now: A henchmen die shows 1 to 6 pips, not 7"
    door.answer(READ_AGAIN)
    dice.throw({0: 1, 1: 1, 2: 2, 3: 4})
    assert door.question.text == "The dice cannot be used now: Only dice 1, 2, 3, 4 were read: roll all 5 henchmen dice"
    assert table.state.dice is None


def test_a_dice_tower_reports_all_five_at_once_and_spare_dice_are_ignored(table, door):
    door.observe(DieRolled("a spare die on the table", 6))
    tray = DiceSettled(tuple(DieRolled(DICE[i], p, 0.97, "tower") for i, p in enumerate((6, 6, 2, 5, 1))))
    door.observe(tray)
    assert table.state.dice == ("donate", "donate", "swap", "secure", "steal")


def test_a_broken_observation_never_takes_the_table_down(table, door):
    door.observe(DieRolled(DICE[0], "six"))  # garbage from a bad device
    door.observe(object())
    assert door.settle() is None or door.question is not None
    assert table.state.dice is None
