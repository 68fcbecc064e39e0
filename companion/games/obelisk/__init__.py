"""Obelisk (Tessellation Games): the pure rules engine and its advisor. See docs/obelisk-engine.md."""
from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obelisk.actions import (
    Action, Aim, Build, Capture, Charge, Dawn, Decipher, March, Mine, Nightfall, Pass, Pay, Reinforce, Reroll, Roll,
    Rotate, Spawn, Timeout, action_from_json, action_from_text,
)
from companion.games.obelisk.describe import describe, status
from companion.games.obelisk.model import GameMap, Stones, Tile
from companion.games.obelisk.notation import map_from_text, map_to_text
from companion.games.obelisk.rules import Rules
from companion.games.obelisk.setup import Setup
from companion.games.obelisk.state import State, new_game

__all__ = [
    "IllegalAction", "InvalidInput", "Action", "Aim", "Build", "Capture", "Charge", "Dawn", "Decipher", "March",
    "Mine", "Nightfall", "Pass", "Pay", "Reinforce", "Reroll", "Roll", "Rotate", "Spawn", "Timeout",
    "action_from_json", "action_from_text", "describe", "status", "GameMap", "Stones", "Tile", "map_from_text",
    "map_to_text", "Rules", "Setup", "State", "new_game",
]
