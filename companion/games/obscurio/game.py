"""Obscurio as the game contract sees it (companion.games.contract.Game): what the session, the CLI and the UI
shell ask of this game, answered by the engine. Registering the game is one line in companion/session/games.py:
``"obscurio": "companion.games.obscurio.game"``."""
from __future__ import annotations

from companion.games.contract import Game
from companion.games.obscurio import vocabulary
from companion.games.obscurio.actions import Look, Sand, action_from_json, action_from_text
from companion.games.obscurio.constants import MAX_PLAYERS, MIN_PLAYERS
from companion.games.obscurio.describe import describe, status
from companion.games.obscurio.rules import RULES_VERSION, Rules
from companion.games.obscurio.rulings import RULINGS, values
from companion.games.obscurio.setup import Setup
from companion.games.obscurio.state import State, new_game


class Obscurio(Game):
    name = "obscurio"
    title = "Obscurio"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS  # the Grimoire included
    ui_plugin = "companion.ui.obscurio"
    rulings = RULINGS
    terms = vocabulary.TERMS
    msgids = vocabulary.MSGIDS
    rules_version = RULES_VERSION
    records_rules_version = True
    unrecorded_rules_versions = (1,)

    # parsing: the game's own module functions
    setup_from_json = staticmethod(Setup.from_json)
    new_game = staticmethod(new_game)
    state_from_json = staticmethod(State.from_json)
    action_from_json = staticmethod(action_from_json)
    action_from_text = staticmethod(action_from_text)

    def players(self, setup: Setup) -> list[str]:
        return [name for name, _ in setup.players]

    def is_over(self, state: State) -> bool:
        return state.is_over

    def status(self, state: State) -> str:
        return status(state)

    def summary(self, state: State) -> dict:
        outcome = state.outcome()
        return {
            "status": status(state),
            "turn": state.turn,
            "active": None,  # the wizards play together; nobody holds "the turn"
            "winners": [state.setup.name_of(w) for w in outcome.winners] if outcome else [],
            "totals": {},    # Obscurio has no points
        }

    def describe(self, state: State) -> str:
        return describe(state)

    # the rules profile: the game's own Rules and rulings.values
    default_rules = staticmethod(Rules)
    rules_from_json = staticmethod(Rules.from_json)
    rule_values = staticmethod(values)

    # -- timers: the hourglass and the accusation minute (RULING obscurio-hourglass, obscurio-time-track) ----------
    def timer(self, state: State):
        return state.timer

    def timer_action(self, state: State, name: str):
        return Sand()

    def is_note(self, action) -> bool:
        return isinstance(action, Look)

    def random_game(self, seed: int, n_players: int):
        from companion.games.obscurio.randplay import random_game

        return random_game(seed, n_players)


GAME = Obscurio()
