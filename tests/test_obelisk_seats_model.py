"""Where everyone sits at an Obelisk table (companion/ui/obelisk/seats.py), without Kivy: the four sides and their
angles, an end seating two at most (a third is refused in words, nothing changes), the screen turned half round
swapping the ends' strips, and the choice kept per table beside the tables (a new model, as after a restart, finds
it; a damaged entry falls back to the defaults)."""
from __future__ import annotations

from types import SimpleNamespace

from companion.session import preferences
from companion.ui.obelisk.seats import ObeliskSeats

PLAYERS = (("Ana", "blue"), ("Ben", "yellow"), ("Cora", "green"))


class FakeApp:
    def __init__(self, data_dir):
        self.store = SimpleNamespace(data_dir=data_dir)
        self.said: list[str] = []

    def t(self, msgid):
        return msgid

    def say(self, text):
        self.said.append(text)


def seats_for(tmp_path, table_id=7):
    setup = SimpleNamespace(colours=tuple(c for _, c in PLAYERS), players=PLAYERS,
                            name_of=lambda colour: dict((c, n) for n, c in PLAYERS)[colour])
    table = SimpleNamespace(id=table_id, state=SimpleNamespace(setup=setup))
    model = SimpleNamespace(app=FakeApp(tmp_path), table=table, changed=0)
    model.seats_changed = lambda: setattr(model, "changed", model.changed + 1)
    return ObeliskSeats(model), model


def test_players_sit_across_the_table_by_default(tmp_path):
    seats, _ = seats_for(tmp_path)
    assert seats.sides() == {"blue": "near", "yellow": "far", "green": "near"}
    assert [seats.angle(c) for _, c in PLAYERS] == [0, 180, 0]


def test_each_side_has_its_angle_and_the_ends_their_strips(tmp_path):
    seats, model = seats_for(tmp_path)
    seats.move("blue", "left")
    seats.move("yellow", "right")
    assert model.app.said[-1] == "{name}'s row now faces the right end".format(name="Ben")
    assert (seats.angle("blue"), seats.angle("yellow"), seats.angle("green")) == (270, 90, 0)
    assert (seats.strip("blue", 0), seats.strip("yellow", 0), seats.strip("green", 0)) == ("left", "right", "")
    # the screen turned half round: the rows turn back within it, and each end's strip is on the screen's other side
    assert (seats.row_angle("blue", 180), seats.strip("blue", 180)) == (90, "right")
    assert model.changed == 2


def test_a_third_player_at_an_end_is_refused_in_words_and_nothing_moves(tmp_path):
    seats, model = seats_for(tmp_path)
    seats.move("blue", "left")
    seats.move("yellow", "left")
    seats.move("green", "left")
    assert model.app.said[-1] == "Two players already sit at the left end: move one of them first"
    assert seats.side("green") == "near" and model.changed == 2
    assert preferences.table_seats(tmp_path, 7)["green"] == "near"


def test_the_choice_is_kept_per_table_and_found_after_a_restart(tmp_path):
    seats, _ = seats_for(tmp_path, table_id=7)
    seats.move("green", "right")
    again, _ = seats_for(tmp_path, table_id=7)          # a new model, as the app started again
    assert again.side("green") == "right"
    other, _ = seats_for(tmp_path, table_id=8)          # another table: its own seats
    assert other.side("green") == "near"


def test_a_damaged_entry_falls_back_to_the_defaults(tmp_path):
    preferences.keep_seats(tmp_path, 7, {"blue": "under the table", "purple": "left", "yellow": "left",
                                         "green": "left"})
    seats, _ = seats_for(tmp_path)
    # an unknown side and colour are ignored; three at one end: the last one sits at the near side
    assert seats.sides() == {"blue": "near", "yellow": "left", "green": "left"}
    preferences.keep_seats(tmp_path, 7, {"blue": "left", "yellow": "left", "green": "left"})
    seats, _ = seats_for(tmp_path)
    assert seats.sides() == {"blue": "left", "yellow": "left", "green": "near"}
