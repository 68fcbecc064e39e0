"""The game registry: game name → its `Game` (companion.games.contract), everything a shell needs from a game.

Games are named by module path and imported only when first asked for: listing tables or reading a log header
must not pay for (or break on) every engine in the house. Adding a game is one line here (docs/adding-a-game.md).
"""
from __future__ import annotations

import importlib

from companion.games.contract import Game
from companion.games.errors import InvalidInput
from companion.games.text import shown

# name -> module holding `GAME`, in the order shells list them (Home's cards, `companion score`'s choices).
MODULES = {
    "obscurians": "companion.games.obscurians.game",
    "obscurio": "companion.games.obscurio.game",
    "obelisk": "companion.games.obelisk.game",
}
# Games announced on Home but not in the house yet: name -> title (a msgid). A registered game without a UI plug-in
# (Game.ui_plugin None, Obelisk for now) is shown as coming soon too.
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


def with_capability(capability: str) -> list[str]:
    """Games implementing an optional Game method ("score_file", "bgstats", …)."""
    return [n for n in names() if get(n).has(capability)]
