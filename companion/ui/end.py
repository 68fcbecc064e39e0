"""The end screen: layout in end.kv, behaviour in the App (view-model)."""
from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion.ui import widgets  # noqa: F401  (shared widget rules first)


class EndScreen(Screen):
    pass


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
