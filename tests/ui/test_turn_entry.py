"""The round screen's turn entry without Kivy: whatever it shows as tappable leads to a legal action.

Random games are played through TurnEntry alone (the same taps the screen offers: enabled choices, the face pad,
highlighted panels, dice), for every player count and both event decks; each action a tap produces must be
accepted by the engine, and every game must reach its end.
"""
from __future__ import annotations

import random

import pytest

from companion.games.obscurians.setup import Setup, deal_missions
from companion.games.obscurians.state import new_game
from companion.ui.obscurians.turn import TurnEntry

COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "turquoise")
NAMES = ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay", "Gus")


def tap_once(vm: TurnEntry, state, rng: random.Random):
    """One random tap among those the view offers; returns the action it produced, or None."""
    v = vm.view(state, lambda m: m)
    assert v["prompt"], state
    offers = [("choose", c["choice"]) for c in v["choices"] if c["enabled"]]
    offers += [("face", f["face"]) for f in v["faces"] if f["enabled"]]
    offers += [("player", seat) for seat in v["panel_targets"]]
    offers += [("die", d["index"]) for d in v["dice"] if d["enabled"]]
    if v["end_turn"]:
        offers.append(("end", None))
    assert offers, f"nothing to tap in {state!r}"
    kind, arg = rng.choice(offers)
    if kind == "choose":
        return vm.choose(state, arg)
    if kind == "face":
        return vm.tap_face(state, arg)
    if kind == "player":
        return vm.tap_player(state, arg)
    if kind == "die":
        return vm.tap_die(state, arg)
    return vm.end_turn(state)


@pytest.mark.parametrize("n_players", [4, 5, 6, 7])
@pytest.mark.parametrize("deck", ["app", "physical"])
def test_every_offered_tap_is_legal_and_games_end(n_players, deck):
    for seed in range(3):
        rng = random.Random(seed * 10 + n_players)
        setup = Setup(players=tuple(zip(NAMES, COLOURS[:6] if n_players < 7 else COLOURS))[:n_players],
                      start=rng.randrange(n_players), deck=deck, seed=seed)
        state, vm = new_game(setup), TurnEntry()
        for _ in range(20000):
            if state.phase in ("missions", "over"):
                break
            action = tap_once(vm, state, rng)
            if action is not None:
                state = state.apply(action)  # raises IllegalAction if the view offered an illegal move
                vm.reset()
        assert state.phase == "missions", f"game did not end: {state!r}"
        state = state.apply(vm.reveal_missions(state, deal_missions(rng, n_players)))
        assert state.outcome() is not None
