"""Obscurio (Libellud): the pure rules engine. See docs/obscurio-engine.md for the contract."""
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurio.actions import (
    Action, Chip, Decoys, Done, Draw, EndTurn, Exit, Look, Loyalty, Open, Riddle, Sand, Unmask, Votes,
    action_from_json, action_from_text,
)
from companion.games.obscurio.describe import describe, status
from companion.games.obscurio.rules import Rules
from companion.games.obscurio.setup import Setup
from companion.games.obscurio.model import Resolution
from companion.games.obscurio.state import State, new_game

__all__ = [
    "IllegalAction", "InvalidInput",
    "Action", "Chip", "Decoys", "Done", "Draw", "EndTurn", "Exit", "Look", "Loyalty", "Open", "Riddle", "Sand",
    "Unmask", "Votes", "action_from_json", "action_from_text",
    "describe", "status", "Rules", "Setup", "Resolution", "State", "new_game", "players", "random_game",
]


def players(setup: Setup) -> list[str]:
    """Player names in seat order, the Grimoire included (for the session's table list)."""
    return [name for name, _ in setup.players]


def random_game(*args, **kwargs):
    """See randplay.random_game (imported lazily: the app itself never plays random games)."""
    from companion.games.obscurio.randplay import random_game as _random_game
    return _random_game(*args, **kwargs)
