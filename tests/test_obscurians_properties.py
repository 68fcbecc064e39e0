"""Hypothesis properties over seeded random legal Obscurians games (the JSON and notation round trips of every game
are held by tests/test_game_contract_properties.py)."""
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from companion.games.errors import IllegalAction
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, EVENTS, FACES, GOODS_PER_COLOUR, MISSIONS, SANDSTORM, UNCOLOURED,
)
from companion.games.obscurians.randplay import random_game
from companion.games.obscurians.state import State, new_game

games = st.builds(
    lambda seed, n, deck, known: (seed, n, deck, known),
    st.integers(0, 2**32 - 1), st.sampled_from([4, 5, 6, 7]), st.sampled_from(["app", "physical"]), st.booleans(),
)


def play(seed, n, deck, known):
    setup, actions = random_game(seed, n, deck=deck, missions_known=known)
    states = [new_game(setup)]
    for a in actions:
        states.append(states[-1].apply(a))
    return setup, actions, states


def held(state: State, seat: int) -> Counter:
    return Counter(state.goods[seat]) + Counter(state.secured[seat])


@settings(max_examples=60, deadline=None)
@given(games)
def test_goods_and_chips_are_conserved(game):
    setup, actions, states = play(*game)
    colours = [c for _, c in setup.players]
    chips = len(setup.chip_missions)
    for s in states:
        total = sum((held(s, i) for i in range(s.n_players)), Counter())
        assert total == Counter({**{c: GOODS_PER_COLOUR for c in colours}, "lamp": 1,
                                 **({"artifact": 1} if "cursed_artifact" in s.revealed else {})})
        for i, colour in enumerate(colours):
            placed = sum(1 for c in s.placed if c.by == colour)
            assert len(s.chips_in_hand[i]) + placed + len(s.discarded[i]) == chips
            # A chip discarded face down is counted, never named: the hand is what can still be in it, minus those.
            assert 0 <= s.chips_left(i) <= len(s.chips_in_hand[i])
            assert all(c.on != c.by for c in s.placed)
    assert states[-1].phase == "over"
    # RULING obscurians-rounds: 4, 5 or 6 complete rounds, the sandstorm revealed in round 5, 6 or 7.
    assert states[-1].event == SANDSTORM and 5 <= states[-1].round <= 7


@settings(max_examples=60, deadline=None)
@given(games)
def test_secured_goods_never_move_until_their_owner_is_released(game):
    _, _, states = play(*game)
    for before, after in zip(states, states[1:]):
        for i in range(before.n_players):
            if not before.secured[i]:
                continue
            grew = Counter(after.secured[i]) >= Counter(before.secured[i])
            # Released into the owner's own goods at the start of their turn (plus the artifact they may reveal).
            released = after.secured[i] == {} and after.active == i and after.step == "chips" \
                and held(after, i) - held(before, i) <= Counter({"artifact": 1}) \
                and not held(before, i) - held(after, i)
            assert grew or released, (before, after)


def random_candidate(rng: random.Random, colours) -> object:
    """Any vocabulary-valid action, legal or not."""
    colour = lambda: rng.choice(colours + ["purple"] if rng.random() < 0.05 else colours)  # noqa: E731
    good = lambda: rng.choice(colours + list(UNCOLOURED))  # noqa: E731
    dice = lambda: tuple(rng.sample(range(5), rng.randint(1, 5)))  # noqa: E731
    t = rng.randrange(14)
    if t == 0:
        return RevealEvent(rng.choice(EVENTS + (SANDSTORM,)))
    if t == 1:
        return PlaceChip(colour(), rng.choice(MISSIONS))
    if t == 2:
        return Roll(tuple(rng.choice(FACES) for _ in range(5)))
    if t == 3:
        d = dice()
        return Reroll(d, tuple(rng.choice(FACES) for _ in d), rng.choice([None, *MISSIONS]))
    if t == 4:
        return Flip(dice())
    if t == 5:
        return Choose(rng.choice(ACTION_KINDS), rng.randint(0, 4))
    if t == 6:
        return AssignWilds(tuple(rng.choice(ACTION_KINDS) for _ in range(rng.randint(0, 3))))
    if t == 7:
        return Steal(colour(), good())
    if t == 8:
        return Donate(colour(), good())
    if t == 9:
        return Swap(colour(), good(), good())
    if t == 10:
        return Secure(tuple(good() for _ in range(rng.randint(0, 3))))
    if t == 11:
        return Relocate(colour(), colour(), good())
    if t == 12:
        return EndTurn()
    return RevealMissions(tuple(rng.sample(MISSIONS, len(colours))))


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_legal_actions_agree_exactly_with_apply(game, probe_seed):
    setup, actions, states = play(*game)
    rng = random.Random(probe_seed)
    colours = [c for _, c in setup.players]
    for s in rng.sample(states, min(len(states), 25)):
        listed = s.legal_actions()
        types = s.legal_types()
        assert {a.TYPE for a in listed} | (types & {"roll", "reroll"}) == types
        assert len(set(listed)) == len(listed)
        for a in (listed if s.phase != "missions" else rng.sample(listed, 20)):
            assert s.is_legal(a), a
        listed = set(listed)
        for _ in range(60):
            a = random_candidate(rng, colours)
            if isinstance(a, (Roll, Reroll)):
                assert s.is_legal(a) <= (a.TYPE in types)
                if isinstance(a, Roll):  # any five faces can be rolled when rolling is due
                    assert s.is_legal(a) == (a.TYPE in types)
                continue
            before = s.to_json()
            try:
                s.apply(a)
                ok = True
            except IllegalAction:
                ok = False
            assert ok == (a in listed), (a, s)
            assert s.to_json() == before


def test_random_games_use_every_kind_of_action():
    seen = Counter()
    for seed in range(30):
        _, actions = random_game(seed, 4 + seed % 4, deck=("app", "physical")[seed % 2], missions_known=seed % 3 > 0)
        seen.update(a.TYPE for a in actions)
    assert set(seen) == {"reveal", "chip", "roll", "reroll", "flip", "choose", "assign", "steal", "donate", "swap",
                         "secure", "relocate", "end", "missions"}

