"""Shared by the session tests: random legal games from the engine's randplay, and replaying them independently."""
from companion.games.obscurians.randplay import random_game
from companion.games.obscurians.state import new_game


def game(seed: int):
    """(setup, actions) of a complete random legal game."""
    return random_game(seed)


def replay(setup, actions):
    """The engine's own replay, without the session layer: what a stored log must rebuild to."""
    state = new_game(setup)
    for action in actions:
        state = state.apply(action)
    return state
