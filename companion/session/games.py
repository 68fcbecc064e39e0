"""The game registry: game name → its `Game` (companion.games.contract), everything a shell needs from a game.

Games are named by module path and imported only when first asked for: listing tables or reading a log header
must not pay for (or break on) every engine in the house. Adding a game is one line here (docs/adding-a-game.md).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.errors import InvalidInput
from companion.games.text import shown

if TYPE_CHECKING:  # the contract's module is imported with the first game, not with the registry (Home's first frame)
    from companion.games.contract import Game


@dataclass(frozen=True)
class Card:
    """What Home's card and lists show of a game, known without importing its engine (the first frame shows Home
    alone: bench/bench_startup.py). tests/test_game_contract.py keeps each equal to its Game's attributes."""
    title: str                 # a msgid
    min_players: int
    max_players: int
    playable: bool             # the game has screens (Game.ui_plugin); else replay and score only


# name -> module holding `GAME`, in the order shells list them (Home's cards, `companion score`'s choices).
MODULES = {
    "obscurians": "companion.games.obscurians.game",
    "obscurio": "companion.games.obscurio.game",
    "obelisk": "companion.games.obelisk.game",
}
CARDS = {
    "obscurians": Card("Obscurians", 4, 7, playable=True),
    "obscurio": Card("Obscurio", 2, 8, playable=True),
    "obelisk": Card("Obelisk", 1, 4, playable=True),
}
# Games announced on Home but not in the house yet: name -> title (a msgid). A registered game without a UI plug-in
# (Game.ui_plugin None) is shown as coming soon too.
COMING: dict[str, str] = {}

_loaded: dict[str, Game] = {}


def names() -> list[str]:
    """Playable games, in the order shells show them."""
    return list(MODULES)


def get(name: str) -> Game:
    """The game called `name`; InvalidInput for a game this app does not know."""
    if not isinstance(name, str) or name not in MODULES:
        raise InvalidInput(f"unknown game {shown(name)}")
    if name not in _loaded:
        _loaded[name] = importlib.import_module(MODULES[name]).GAME
    return _loaded[name]


def card(name: str) -> Card:
    """What Home shows of the game called `name`, without importing it; InvalidInput for a game this app does not
    know."""
    if not isinstance(name, str) or name not in CARDS:
        raise InvalidInput(f"unknown game {shown(name)}")
    return CARDS[name]


def with_capability(capability: str) -> list[str]:
    """Games implementing an optional Game method ("score_file", "bgstats", …)."""
    return [n for n in names() if get(n).has(capability)]
