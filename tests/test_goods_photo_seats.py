"""Whose goods a photo's zone holds at the end of an Obscurians game (companion/ui/obscurians/goods_photo.py): a zone
named after a player (name or colour, any case) is theirs; the other zones fill the other seats in order."""
from companion.ui.obscurians.goods_photo import seat_counts, words, zone_seats

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))


def test_zones_named_after_players_or_colours_are_theirs():
    assert zone_seats(["dana", "BLUE", "Anna", "Chris"], PLAYERS) == {"dana": 3, "BLUE": 1, "Anna": 0, "Chris": 2}


def test_unnamed_zones_fill_the_free_seats_in_order():
    assert zone_seats(["north", "Ben", "south", "west", "east"], PLAYERS) == \
        {"Ben": 1, "north": 0, "south": 2, "west": 3}   # a fifth zone has no seat left


def test_a_seat_without_a_zone_has_no_count_and_other_kinds_are_left_out():
    zones = {"Anna": {"red": 2, "lamp": 1, "blue": 0, "coin": 3}, "Ben": {"blue": 1}}
    assert seat_counts(zones, PLAYERS) == [{"red": 2, "lamp": 1}, {"blue": 1}, None, None]


def test_goods_in_words_in_the_players_language():
    assert words({"lamp": 1, "red": 2}, str) == "2 red, magic lamp"
    assert words({}, str) == "nothing"
