"""Obelisk as the game contract sees it (companion.games.contract.Game): what the session, the CLI and the UI
shell ask of this game, answered by the engine. Registered in companion/session/games.py; its screens are the UI
plug-in companion/ui/obelisk (Home offers a new Obelisk table).

Two tools only this game has are reached through here too, so that the CLI needs nothing but the registry:
`path_of(map_text)` (the route a new demon walks from the Portal) and `advise(night_json, rules)` (the Night's best
capture plan for a table described in the exchange form, companion/games/obelisk/exchange.py).
"""
from __future__ import annotations

from companion.games.contract import Game
from companion.games.obelisk import dice, vocabulary
from companion.games.obelisk.actions import Timeout, action_from_json, action_from_text
from companion.games.obelisk.box import MAX_PLAYERS, MIN_PLAYERS
from companion.games.obelisk.describe import describe, status
from companion.games.obelisk.rules import RULES_VERSION, Rules
from companion.games.obelisk.rulings import RULINGS, values
from companion.games.obelisk.setup import Setup
from companion.games.obelisk.state import State, new_game

class ObeliskGame(Game):
    name = "obelisk"
    title = "Obelisk"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    ui_plugin = "companion.ui.obelisk"
    rulings = RULINGS
    terms = vocabulary.TERMS
    msgids = vocabulary.MSGIDS
    line_templates = vocabulary.LINE_TEMPLATES

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
        leader = state.setup.players[state.leader][0] if state.setup.leadership and state.phase == "day" else None
        won = state.result == "won"
        return {"status": status(state), "turn": state.day, "active": leader,
                "winners": [name for name, _ in state.setup.players] if won else [], "totals": {}}

    def describe(self, state: State) -> str:
        return describe(state)

    # the rules profile: the game's own Rules and rulings.values
    default_rules = staticmethod(Rules)
    # docs/persistence.md "Rules versions": every new Obelisk table records RULES_VERSION; a table stored before
    # versions were recorded is version 1 (the only one there was).
    rules_version = RULES_VERSION
    records_rules_version = True
    unrecorded_rules_versions = (1,)
    rules_from_json = staticmethod(Rules.from_json)
    rule_values = staticmethod(values)

    def timer(self, state: State):
        return state.timer

    def timer_action(self, state: State, name: str):
        return Timeout()

    # The smart dice: a die standing on a corner is that Obelisk (companion/games/obelisk/dice.py).
    dice_roles = dice.ROLES

    def dice_placed_at_table(self, state: State, role: str, faces, intent):
        found = dice.proposals(state, faces) if role == dice.ROLE else ()
        return (dice.question(state, faces), found) if found else None

    def dice_action(self, state: State, role: str, faces, intent):
        return None   # an Obelisk's die is set by hand: dice_placed_at_table reads it, thrown or not

    def dice_words(self, state: State, action):
        return dice.proposal_words(state, action)

    def random_game(self, seed: int, n_players: int):
        from companion.games.obelisk.randplay import random_game

        return random_game(seed, n_players)

    # -- the tools of `companion obelisk` --------------------------------------------------------------------------
    def path_of(self, text) -> tuple[dict, str]:
        """(the route JSON, a sentence) of a new demon walking from the Portal of the map `text` until it loses."""
        from companion.games.obelisk.tools import path_of

        return path_of(text)

    def advise(self, data, rules: Rules) -> tuple[dict, list[str]]:
        """(the advice JSON, its reasons as English sentences) for a NIGHT.json; InvalidInput naming the field."""
        from companion.games.obelisk.exchange import advise, night_from_json

        answer, reasons = advise(night_from_json(data), rules)
        return answer, [str(r) for r in reasons]


GAME = ObeliskGame()
