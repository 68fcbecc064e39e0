"""The rulings popup of any game (app.show_rulings): where the rulebook is silent, what this app does."""
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import widgets  # noqa: F401  (shared widget rules first)


class RulingRow(BoxLayout):
    title = StringProperty("")
    summary = StringProperty("")


class RulingsView(BoxLayout):
    """Content of the rulings popup: `rows` are dicts with `title` and `summary` (app.ruling_rows())."""

    rows = ListProperty()
    popup = ObjectProperty(None, allownone=True)

    def dismiss(self):
        if self.popup is not None:
            self.popup.dismiss()


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
