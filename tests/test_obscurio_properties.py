"""Hypothesis properties over seeded random legal Obscurio games (the JSON and notation round trips of every game
are held by tests/test_game_contract_properties.py)."""
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from companion.games.obscurio import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Rules, Sand, State, Unmask, Votes,
    describe, new_game, status,
)
from companion.games.obscurio.constants import CHARACTERS, ROOMS, TRAPS
from companion.games.obscurio.randplay import random_game

RULES = [Rules(), Rules(time_track=(0, 0, 1, 1, 3), watcher="plus2", dangerous_room="chip"),
         Rules(evanescent_track=(0, 2), watcher="locked_doors", hourglass=30),
         Rules(traps=tuple((t, 3) for t in TRAPS[:6]) + tuple((t, 1) for t in TRAPS[6:]), watcher="great_room")]

games = st.builds(
    lambda seed, n, bag, loyalty, rules: (seed, n, bag, loyalty, rules),
    st.integers(0, 2**32 - 1), st.integers(2, 8), st.sampled_from(["app", "physical"]),
    st.sampled_from(["table", "app"]), st.sampled_from(range(len(RULES))),
)


def play(seed, n, bag, loyalty, rules):
    setup, actions = random_game(seed, n, bag=bag, loyalty=loyalty, rules=RULES[rules])
    states = [new_game(setup)]
    for a in actions:
        states.append(states[-1].apply(a))
    return setup, actions, states


@settings(max_examples=80, deadline=None)
@given(games)
def test_cohesion_tokens_are_conserved_and_taken_normal_area_first(game):
    setup, _, states = play(*game)
    normal_start = setup.cohesion - setup.dark
    for s in states:
        assert s.normal + s.dark + sum(s.cards) + s.box == setup.cohesion
        assert 0 <= s.normal <= normal_start and 0 <= s.dark <= setup.dark
        assert s.dark == setup.dark or s.normal == 0  # the dark area only once the normal area is empty
    for before, after in zip(states, states[1:]):
        assert after.box >= before.box and all(a >= b for a, b in zip(after.cards, before.cards))


@settings(max_examples=80, deadline=None)
@given(games)
def test_progress_never_goes_back_and_the_game_always_ends(game):
    setup, actions, states = play(*game)
    for before, after in zip(states, states[1:]):
        assert after.progress >= before.progress
        assert after.progress - before.progress <= 1
    last = states[-1]
    assert last.is_over and last.outcome() is not None and status(last) == "over"
    # Every turn crosses a room or costs a token: the game cannot outlast rooms + tokens turns.
    assert last.turn <= ROOMS + setup.cohesion
    assert last.side == "wizards" if last.progress == ROOMS else last.cohesion_left == 0
    if last.side != "wizards":
        assert last.cohesion_left == 0 and last.side == ("traitor" if setup.has_traitor else "nobody")


@settings(max_examples=60, deadline=None)
@given(games)
def test_winners_are_one_side(game):
    setup, _, states = play(*game)
    last = states[-1]
    out = last.outcome()
    ids = [role for _, role in setup.players]
    assert set(out.winners) <= set(ids) and len(out.players) == setup.n_players
    assert [p.extra["id"] for p in out.players] == ids and all(p.total is None for p in out.players)
    if out.detail["side"] == "wizards":
        assert "grimoire" in out.winners and last.traitor not in out.winners
        assert len(out.winners) == setup.n_players - (1 if setup.has_traitor else 0)
    elif out.detail["side"] == "traitor":
        assert out.winners == (last.traitor,)
    else:
        assert out.winners == () and not setup.has_traitor
    assert out.detail["why"].endswith(".")


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_timer_follows_the_phase(game):
    _, actions, states = play(*game)
    for before, action, after in zip(states, actions, states[1:]):
        if after.phase == "doors":
            assert after.timer.token.startswith("hourglass: ") and after.timer.seconds == after.setup.rules.hourglass
            # The token changes exactly when the hourglass was turned: step 4 began, or it ran out.
            restarted = before.phase != "doors" or isinstance(action, Sand)
            assert (before.timer != after.timer) == restarted
        elif after.phase == "discussion":
            assert after.timer.token.startswith("accusation: ")
        else:
            assert after.timer is None


def random_candidate(rng: random.Random, chars) -> object:
    """Any vocabulary-valid action, legal or not."""
    char = lambda: rng.choice(chars if rng.random() < 0.9 else CHARACTERS)  # noqa: E731
    t = rng.randrange(12)
    if t == 0:
        return Draw(tuple(rng.choice(TRAPS) for _ in range(rng.randint(1, 5))))
    if t == 1:
        return Riddle()
    if t == 2:
        return Decoys(rng.randint(0, 5))
    if t == 3:
        return Chip(char(), rng.choice([None, *range(1, 8)]))
    if t == 4:
        return Open()
    if t == 5:
        return Sand()
    if t == 6:
        return Done()
    if t == 7:
        return Exit(rng.randint(1, 7))
    if t == 8:
        return Votes(tuple((c, rng.choice([None, *chars])) for c in rng.sample(chars, rng.randint(1, len(chars)))))
    if t == 9:
        return Loyalty(rng.choice([None, *chars]))
    if t == 10:
        return EndTurn()
    return Unmask(char())


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_legal_actions_agree_exactly_with_apply(game, probe_seed):
    setup, _, states = play(*game)
    rng = random.Random(probe_seed)
    chars = list(setup.chips)
    for s in rng.sample(states, min(len(states), 25)):
        listed = s.legal_actions()
        types = s.legal_types()
        unlisted = {"votes"} | ({"draw"} if setup.bag == "physical" else set())
        assert {a.TYPE for a in listed} | (types & unlisted) == types
        assert len(set(listed)) == len(listed)
        for a in listed:
            assert s.is_legal(a), a
        listed = set(listed)
        before = s.to_json()
        for _ in range(60):
            a = random_candidate(rng, chars)
            ok = s.is_legal(a)
            if a.TYPE in unlisted:
                assert ok <= (a.TYPE in types)
            else:
                assert ok == (a in listed), (a, s)
        assert s.to_json() == before  # refused or not, nothing changed the state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8))
def test_an_app_dealt_traitor_stays_off_the_shared_screen_until_exposed(seed, n):
    setup, actions, states = play(seed, n, "app", "app", 0)
    for s in states:
        if s.exposed or s.is_over:
            continue
        for other in setup.wizards:
            if other != s.traitor and other not in s.cleared:
                masked = State.from_json({**s.to_json(), "traitor": other})
                assert describe(masked) == describe(s) and repr(masked) == repr(s)
                break


def test_random_games_use_every_kind_of_action_and_reach_every_ending():
    seen, sides = Counter(), Counter()
    for seed in range(40):
        n = 2 + seed % 7
        _, actions, states = play(seed, n, ("app", "physical")[seed % 2], ("table", "app")[seed // 2 % 2], seed % 4)
        seen.update(a.TYPE for a in actions)
        sides[states[-1].side] += 1
    assert set(seen) == {"draw", "riddle", "decoys", "chip", "open", "sand", "done", "exit", "votes", "loyalty",
                         "end", "traitor"}
    assert set(sides) == {"wizards", "traitor", "nobody"}
