"""Small widgets shared by the screens. Their looks live in widgets.kv; here only behaviour."""
from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout


class _Repeater:
    """Mixin: shows one `viewclass` widget per dict in `data`, reusing the widgets already there.

    The view-model publishes plain dicts; the layout (.kv) decides what a row looks like. Reusing widgets keeps a
    refresh after each tap cheap (no widget churn on a slow tablet).
    """

    def on_data(self, *_):
        self._sync()

    def on_viewclass(self, *_):
        self.clear_widgets()
        self._sync()

    def _sync(self):
        if not self.viewclass:
            return
        cls = Factory.get(self.viewclass)
        kids = list(reversed(self.children))  # in display order
        for extra in kids[len(self.data):]:
            self.remove_widget(extra)
        for i, item in enumerate(self.data):
            if i < len(kids):
                for key, value in item.items():
                    setattr(kids[i], key, value)
            else:
                self.add_widget(cls(**item))


class _Hideable:
    """Mixin: `shown: False` hides a part of a screen (opacity 0) and lets every touch through it.

    Needed because a hidden, zero-size container still has children laid out somewhere, and Kivy lets a disabled
    widget swallow the touches that land on it.
    """

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.shown else False

    def on_touch_move(self, touch):
        return super().on_touch_move(touch) if self.shown else False

    def on_touch_up(self, touch):
        return super().on_touch_up(touch) if self.shown else False


class RepeatGrid(_Repeater, GridLayout):
    data = ListProperty()
    viewclass = StringProperty("")


class TopAlignedGrid(RepeatGrid):
    """A RepeatGrid whose cells of different heights line up at the top of their row (score cards)."""

    def do_layout(self, *args):
        super().do_layout(*args)
        kids = list(reversed(self.children))
        cols = max(1, self.cols or 1)
        for r in range(0, len(kids), cols):
            row = kids[r:r + cols]
            top = max(k.top for k in row)
            for k in row:
                k.top = top


class RepeatStack(_Repeater, StackLayout):
    data = ListProperty()
    viewclass = StringProperty("")


class HideBox(_Hideable, BoxLayout):
    shown = BooleanProperty(True)


class HideGrid(_Hideable, RepeatGrid):
    shown = BooleanProperty(True)


class Panel(BoxLayout):
    rgba = ListProperty([0.16, 0.17, 0.21, 1])
    line = ListProperty([0, 0, 0, 0])
    colour_rgba = ListProperty([1, 1, 1, 1])  # the player's colour, where the panel belongs to a player


class Banner(ButtonBehavior, Label):
    """The calm message strip: a refused move, a saved export. Tap to dismiss."""

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.text else False


class BigButton(Button):
    rgba = ListProperty([0.24, 0.42, 0.62, 1])
    ink = ListProperty([1, 1, 1, 1])
    selected = BooleanProperty(False)


class GoodChip(Label):
    rgba = ListProperty([1, 1, 1, 1])
    ink = ListProperty([0, 0, 0, 1])


# Rows the view-model publishes as dicts: each field below is a key of that dict.
class ChoiceButton(BigButton):
    key = StringProperty("")
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


class GameCard(Panel):
    game = StringProperty("")
    text = StringProperty("")
    detail = StringProperty("")
    button = StringProperty("")
    enabled = BooleanProperty(True)


class TableRow(Panel):
    table_id = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    button = StringProperty("")
    resume = BooleanProperty(True)


class LangButton(BigButton):
    code = StringProperty("")


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


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
