"""A smart die standing on a corner is that Obelisk (issue 18 §4): its face set by hand proposes the Build or the
Reinforce it means, the players pick who did it and what they paid, or ignore it; at Night, or showing a face no move
makes, it is refused in words. Engine first (companion/games/obelisk/dice.py), then through the session's
observation door into a real table on a real SQLite file: nothing is ever applied without a pick."""
from __future__ import annotations

import pytest

from companion.games.errors import IllegalAction
from companion.games.obelisk import Build, Pay, Reinforce, Setup, map_from_text
from companion.games.obelisk.dice import ROLE, corner_of, index_of, proposal_words, proposals
from companion.games.obelisk.game import GAME
from companion.games.obelisk.model import Stones
from companion.session import Table, TableStore
from companion.session.observe import IGNORE, TYPE_IN, ObservationDoor
from firmware_bridge.observations import DieRolled, DieRolling, DieSetDown

from tests.obelisk_helpers import PLAYERS, make_setup, ob, position

MAP = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS -- / FN FE GE CE GS / GW -- FN -- --"
DIE = "F0:00:00:00:00:0A"


def test_a_corner_is_one_die_place_on_the_six_by_six_grid():
    assert GAME.dice_roles == {ROLE: 36}
    assert [corner_of(index_of(c)) for c in [(0, 0), (2, 3), (5, 5)]] == [(0, 0), (2, 3), (5, 5)]
    assert index_of((2, 3)) == 15


def test_a_one_on_a_free_corner_proposes_each_acting_players_build():
    s = position(make_setup(MAP, 2))
    assert proposals(s, {index_of((2, 3)): 1}) == (Build("green", (2, 3)), Build("blue", (2, 3)))
    assert str(proposal_words(s, Build("blue", (2, 3)))) == "Ben builds an Obelisk on corner D3"
    with pytest.raises(IllegalAction, match="A new Obelisk stands on 1: the die on corner D3 shows 4"):
        proposals(s, {index_of((2, 3)): 4})


def test_one_more_than_the_strength_proposes_every_payment_the_picker_offers():
    s = position(make_setup(MAP, 2), obelisks=[ob((1, 1), "blue", 2)], quarry=Stones(green=3, yellow=2, blue=1))
    found = proposals(s, {index_of((1, 1)): 3})
    assert [(a.player, a.pay.to_text()) for a in found] == [
        ("green", "3G1B"), ("green", "2Y1B"), ("green", "die"), ("blue", "3G1B"), ("blue", "2Y1B"), ("blue", "die")]
    assert all(isinstance(a, Reinforce) and a.obelisk == (1, 1) for a in found)
    assert str(proposal_words(s, found[1])) == "Ana reinforces the Obelisk on corner B2 to 3, paying yellow, yellow, blue"
    assert str(proposal_words(s, found[2])) == ("Ana reinforces the Obelisk on corner B2 to 3, sacrificing an "
                                                "unplaced Obelisk")
    assert proposals(s, {index_of((1, 1)): 2}) == ()          # put back as it stood: nothing to ask
    with pytest.raises(IllegalAction, match="shows 5, the Obelisk stands at 2: a Reinforce raises it by one"):
        proposals(s, {index_of((1, 1)): 5})


def test_at_night_a_turned_obelisk_die_is_refused_and_turned_back_it_is_nothing():
    s = position(make_setup(MAP, 2), phase="march", obelisks=[ob((1, 1), "blue", 2)])
    with pytest.raises(IllegalAction, match="Nobody may touch the Obelisks at Night: turn the die on corner B2 back"
                                            " to 2"):
        proposals(s, {index_of((1, 1)): 3})
    assert proposals(s, {index_of((1, 1)): 2}) == ()


def test_a_player_with_no_action_left_is_not_proposed():
    s = position(make_setup(MAP, 2), used=(("build", "build"), ()), passed=(False, False))
    assert proposals(s, {index_of((0, 1)): 1}) == (Build("blue", (0, 1)),)


# -- through the observation door into a real table -----------------------------------------------------------------

@pytest.fixture
def table(tmp_path):
    store = TableStore(tmp_path)
    t = Table.create(store, "obelisk", Setup(players=PLAYERS[2], map=map_from_text(MAP), seed=1))
    yield t
    store.close()


def test_a_die_set_down_on_a_corner_asks_who_built_and_the_pick_is_played(table):
    asked = []
    door = ObservationDoor(table, {DIE: (ROLE, index_of((2, 3)))}, on_question=asked.append)
    door.observe(DieSetDown(DIE, 1, source="script"))
    assert door.settle() is None and table.actions == ()         # proposed, never played by the die alone
    q = door.question
    assert q.text == "The die on corner D3 shows 1: who did it?"
    assert q.choices == (Build("green", (2, 3)), Build("blue", (2, 3))) and q.options == (IGNORE,)
    assert q.by_hand                                               # set down, not thrown: "No, leave it" on screen
    door.answer(TYPE_IN, q.choices[1])                             # the players pick Ben
    assert list(table.actions) == [Build("blue", (2, 3))] and door.question is None
    assert table.state.obelisk_at((2, 3)).strength == 1


def test_a_die_turned_up_by_one_offers_the_payments_and_ignore_changes_nothing(table):
    table.apply(Build("blue", (2, 3)))
    door = ObservationDoor(table, {DIE: (ROLE, index_of((2, 3)))})
    door.observe(DieRolling(DIE, source="script"))                 # thrown instead of turned: the face still counts
    door.observe(DieRolled(DIE, 2, 0.97, source="script"))
    door.settle()
    pays = [a.pay for a in door.question.choices]
    assert pays and all(isinstance(a, Reinforce) for a in door.question.choices)
    assert Pay(die=True) in pays
    assert not door.question.by_hand                               # a real throw: "No, ignore this throw" stays
    before = table.state
    door.answer(IGNORE)
    assert table.state == before and door.question is None


def test_a_face_no_move_makes_is_a_question_withdrawn_when_the_die_is_put_back(table):
    table.apply(Build("blue", (2, 3)))
    door = ObservationDoor(table, {DIE: (ROLE, index_of((2, 3)))})
    door.observe(DieSetDown(DIE, 4, source="script"))
    door.settle()
    assert door.question.choices == () and "a Reinforce raises it by one" in str(door.question.error)
    door.observe(DieSetDown(DIE, 1, source="script"))              # put back on its strength
    door.settle()
    assert door.question is None and len(table.actions) == 1
