"""Obscurio's moments laid over the table screen (table rule 7): the traps just drawn from the app's bag, shown to the
whole table until the Grimoire taps (as Mansions of Madness shows an event), and the box's checklist before the
first turn. Sheets of the shell (companion/ui/sheets.py): they take every touch while they are up.
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.sheets import Sheet
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)


class ObsoTrapCard(BoxLayout):
    """One trap drawn: its name on its colour, what it does."""
    name = StringProperty("")
    effect = StringProperty("")
    trap_rgba = ListProperty([0.5, 0.5, 0.5, 1])


class ObsoTrapsHalf(BoxLayout):
    title = StringProperty("")
    traps = ListProperty()
    hint = StringProperty("")


class ObsoTrapsSheet(Sheet):
    """The traps drawn this turn, twice: upright for one long side, turned for the other. A tap acknowledges it."""

    title = StringProperty("")
    traps = ListProperty()     # {"name", "effect", "trap_rgba"}
    hint = StringProperty("")

    def on_touch_down(self, touch):
        self.app.close_sheet()
        return True


class ObsoChecklistSheet(Sheet):
    """What the box must hold for this table before turn 1 (the real cards, the gauge, the bag)."""

    title = StringProperty("")
    lines = ListProperty()     # ObsoLine rows
    done_text = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
