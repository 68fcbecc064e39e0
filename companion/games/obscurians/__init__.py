"""Obscurians (Funtails): the pure rules engine. See docs/obscurians-engine.md for the contract."""
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import (
    Action, AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll,
    Roll, Secure, Steal, Swap, action_from_json, action_from_text,
)
from companion.games.obscurians.model import Chip, EndOfGame, EndPlayer
from companion.games.obscurians.rules import Rules
from companion.games.obscurians.setup import Setup, deal_missions, shuffle_events
from companion.games.obscurians.state import State, new_game

__all__ = [
    "IllegalAction", "InvalidInput",
    "Action", "AssignWilds", "Choose", "Donate", "EndTurn", "Flip", "PlaceChip", "Relocate", "RevealEvent",
    "RevealMissions", "Reroll", "Roll", "Secure", "Steal", "Swap", "action_from_json", "action_from_text",
    "Chip", "EndOfGame", "EndPlayer", "Rules", "Setup", "deal_missions", "shuffle_events", "State", "new_game",
    "random_game",
]


def random_game(*args, **kwargs):
    """See randplay.random_game (imported lazily: the app itself never plays random games)."""
    from companion.games.obscurians.randplay import random_game as _random_game
    return _random_game(*args, **kwargs)
