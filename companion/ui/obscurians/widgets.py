"""The Obscurians screens' own widgets (rows the view-models publish as dicts: each field is a key of that dict).
Their looks are in the screens' .kv files; the shared widgets they build on are companion/ui/widgets.py."""
from __future__ import annotations

from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets import BigButton, Panel


class ChoiceButton(BigButton):
    choice = ObjectProperty(None, allownone=True)   # a companion.ui.obscurians.turn Choice, handed back on a tap
    enabled = BooleanProperty(True)


class FaceButton(BigButton):
    face = StringProperty("")
    enabled = BooleanProperty(True)


class DieButton(BigButton):
    index = NumericProperty(0)
    face = StringProperty("")
    enabled = BooleanProperty(True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.on_text()  # after the kv rules, which set the common button font

    def on_text(self, *_):
        # A die is narrow: long face names (Verschieben, Intercambiar) get a smaller font instead of breaking.
        longest = max((len(line) for line in self.text.split("\n")), default=0)
        self.font_size = sp(13) if longest > 10 else sp(15) if longest > 8 else sp(17)


class SetupRow(Panel):
    index = NumericProperty(0)
    name = StringProperty("")
    hint = StringProperty("")
    colour = StringProperty("")
    starter = BooleanProperty(False)
    swatches = ListProperty()


class Swatch(BigButton):
    index = NumericProperty(0)
    colour = StringProperty("")
    enabled = BooleanProperty(True)


class PlayerPanel(ButtonBehavior, Panel):
    seat = NumericProperty(0)
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    active = BooleanProperty(False)
    starter = BooleanProperty(False)
    enabled = BooleanProperty(False)
    selected = BooleanProperty(False)
    goods = ListProperty()
    vault = ListProperty()
    vault_label = StringProperty("")
    ban = BooleanProperty(False)
    ban_text = StringProperty("")
    chips_text = StringProperty("")
    stack_text = StringProperty("")


class MissionRow(Panel):
    seat = NumericProperty(0)
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    options = ListProperty()


class MissionButton(BigButton):
    seat = NumericProperty(0)
    mission = StringProperty("")
    enabled = BooleanProperty(True)


class ScoreCard(Panel):
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    mission = StringProperty("")
    total = StringProperty("")
    winner = BooleanProperty(False)
    goods = ListProperty()
    lines = ListProperty()


class ScoreLine(BoxLayout):
    rule = StringProperty("")
    points = StringProperty("")
