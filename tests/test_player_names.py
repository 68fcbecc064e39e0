"""One rule for player names, in every game (docs/game-contract.md, "Player names").

A group types the same names whatever box it opens: " Anna " is Anna at every table, and a name with a zero-width
joiner (which looks like another player's) or a line break (which could forge a line of the score table) is refused
by every game alike, with the same sentence.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import example, given, settings, strategies as st

from companion.games.errors import InvalidInput
from companion.session import games

GAMES = games.names()
SEATS = {}  # game -> a valid setup JSON of a small table, the first seat's name to be replaced


def _table(name: str) -> dict:
    game = games.get(name)
    if name not in SEATS:
        setup, _ = game.random_game(1, max(game.min_players, 2))
        SEATS[name] = setup.to_json()
    return copy.deepcopy(SEATS[name])


def verdict(game_name: str, typed) -> tuple[str, str]:
    """("seated", the name the table shows) or ("refused", the sentence)."""
    game = games.get(game_name)
    d = _table(game_name)
    d["players"][0]["name"] = typed
    try:
        return "seated", game.players(game.setup_from_json(d))[0]
    except InvalidInput as e:
        return "refused", str(e)


def others(game_name: str) -> set[str]:
    return {p["name"].casefold() for p in _table(game_name)["players"][1:]}


# Letters, spaces of every kind, and the characters the rule is about: controls, format characters (zero-width
# joiner and space, bidi overrides, soft hyphen), line and paragraph separators, lone surrogates.
TRICKY = "\u200d\u200b\u202e\u2066\u00ad\ufeff\n\r\t\x07\x85\u2028\u2029\u00a0\u3000 \ud800"
names = st.one_of(
    st.text(max_size=45),
    st.text(alphabet=st.sampled_from("Anna Ben é王" + TRICKY), max_size=44),
    st.integers(), st.none(), st.lists(st.text(max_size=3), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(names)
@example(" Anna ")
@example("An\u200dna")
@example("Anna\n")
@example("B" * 40)
@example(" " + "B" * 40 + " ")
@example("B" * 41)
@example("   ")
@example("\u00a0Anna\u3000")
def test_every_game_seats_or_refuses_a_name_alike(typed):
    if isinstance(typed, str) and any(typed.strip().casefold() in others(g) for g in GAMES):
        return  # the same name as another seat: refused as a duplicate, a separate promise (below)
    verdicts = {g: verdict(g, typed) for g in GAMES}
    assert len(set(verdicts.values())) == 1, verdicts
    outcome, said = verdicts[GAMES[0]]
    if outcome == "seated":
        assert said == typed.strip()  # the spaces around a name are never part of it
    else:
        assert said.startswith("players[0].name: ")


@pytest.mark.parametrize("game_name", GAMES)
def test_spaces_around_a_name_are_trimmed_and_a_zero_width_joiner_is_refused(game_name):
    assert verdict(game_name, " Anna ") == ("seated", "Anna")
    assert verdict(game_name, "An\u200dna") == (
        "refused", "players[0].name: a name cannot contain the invisible character U+200D")


@pytest.mark.parametrize("game_name", GAMES)
def test_two_seats_never_bear_one_name_whatever_its_case(game_name):
    second = _table(game_name)["players"][1]["name"]
    outcome, said = verdict(game_name, f" {second.upper()} ")
    assert outcome == "refused" and said.startswith("players[1].name: ") and "already at the table" in said
