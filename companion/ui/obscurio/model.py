"""What every Obscurio screen's view-model shares: its plug-in, the app, and the open table (the plug-in sets and
clears `table` for all of them, companion/ui/obscurio/__init__.py)."""
from __future__ import annotations

from kivy.event import EventDispatcher


class TableModel(EventDispatcher):
    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.table = None
