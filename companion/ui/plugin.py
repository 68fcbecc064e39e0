"""What a game's UI package gives the shell (companion/ui/<game>/__init__.py defines `Plugin`, a subclass).

The shell knows games only through the registry (`Game.ui_plugin` names the package) and this class: it asks the
plug-in to start a new table, to show an open table, and to follow a language switch. The plug-in owns its screens
(.py + .kv each) and their view-models (Kivy EventDispatchers), and calls back into the shell for services:
`app.show(name, ScreenClass, model)`, `app.say(message)`, `app.t(msgid)`, `app.store`, `app.go_home()`.
"""
from __future__ import annotations


class GamePlugin:
    game = ""   # the registry name
    # Set by the shell before attach(): the table was opened from Home's finished games, to be looked at. A
    # finished game's scores are then read-only (nothing in them can be undone by a stray tap).
    opened_from_history = False

    def __init__(self, app):
        self.app = app

    def new_table(self) -> None:
        """Show this game's setup screen for a new table."""
        raise NotImplementedError

    def attach(self, table) -> None:
        """Show an open table (a `companion.session.Table` of this game) where it stands."""
        raise NotImplementedError

    def show(self) -> None:
        """Show the open table again where it stands (back from a screen opened over it: the camera)."""
        self.attach(self.app.table)

    def detach(self) -> None:
        """The table is closed (Home): stop following it."""

    def map_read(self, reading) -> str | None:
        """The camera screen, opened over this game's open table, read a map (vision.tiles.MapReading): what the
        table makes of it, in words (None: this game has no map; the camera screen shows the reading only)."""
        return None

    def refresh(self) -> None:
        """The language changed: recompute every text the plug-in's models publish."""

    def ruling_value(self, ruling_id: str, rules) -> str | None:
        """The table's value of an editable ruling, in the players' language (None: the English default words)."""
        return None
