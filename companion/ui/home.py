"""The home screen: layout in home.kv (its rows in home_rows.kv), behaviour in the App (view-model).

Home is laid out from the window's size (960x600 to 1366x1024 dp and a desktop window resized): on a wide desktop window the
unfinished and the finished tables stand side by side; narrower, one list at a time, full width, under two tabs, so
that a table's name is not cut to its first word. Short windows get compact game cards.
"""
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui import widgets  # noqa: F401  (shared widget rules first)

WIDE = 1500   # dp: from this width the two lists stand side by side (narrower, a name would be cut short)
ROOMY = 1200  # dp: from this width the languages are named in full in the heading bar (narrower: EN, DE, ES)
TALL = 700    # dp: from this height the game cards are full size


class HomeScreen(Screen):
    narrow = BooleanProperty(False)        # one list at a time (the tabs)
    tight = BooleanProperty(False)         # the heading bar: a smaller title, the languages by their codes
    short = BooleanProperty(False)         # compact game cards and spacing
    tab = StringProperty("unfinished")     # the list shown when narrow: "unfinished" or "finished"

    def on_size(self, *_):
        self.narrow = self.width < dp(WIDE)
        self.tight = self.width < dp(ROOMY)
        self.short = self.height < dp(TALL)

    def show_tab(self, tab: str) -> None:
        self.tab = tab


Builder.load_file(str(Path(__file__).with_name("home_rows.kv")))  # the pieces first, then the screen
Builder.load_file(str(Path(__file__).with_suffix(".kv")))
