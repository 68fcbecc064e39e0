"""Sheets: what the shell lays over any screen for a moment — a question to confirm, the menu (language, sound,
and what the open game adds), a text to type, an announcement. Layout in sheets.kv.

A sheet covers the whole window and takes every touch (nothing under it can be hit by accident); it is turned to
face the player who opened it (`angle`, as for the panels around a table). `CompanionApp.open_sheet` shows one,
`close_sheet` removes it.
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from companion.ui import widgets  # noqa: F401  (shared widget rules first)


class Sheet(FloatLayout):
    """The base: a dimmed full-window layer. A tap on the dimmed part closes it when `closable`."""

    closable = BooleanProperty(True)
    app = ObjectProperty(None)

    def on_touch_down(self, touch):
        if super().on_touch_down(touch):
            return True
        if self.closable and not self._on_card(touch):
            self.app.close_sheet()
        return True  # modal: nothing under the sheet ever gets this touch

    def on_touch_move(self, touch):
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch):
        super().on_touch_up(touch)
        return True

    def _on_card(self, touch) -> bool:
        card = self.ids.get("card")
        return card is not None and card.collide_point(*touch.pos)


class ConfirmSheet(Sheet):
    question = StringProperty("")
    detail = StringProperty("")
    yes_text = StringProperty("")
    no_text = StringProperty("")
    yes_action = ObjectProperty(None, allownone=True)

    def yes(self):
        action = self.yes_action
        self.app.close_sheet()
        if action is not None:
            action()

    def no(self):
        self.app.close_sheet()


class TextSheet(Sheet):
    """Type a line (a table's name): `done_action(text)` with Save."""

    question = StringProperty("")
    text = StringProperty("")
    done_action = ObjectProperty(None, allownone=True)

    def save(self, text: str):
        action = self.done_action
        self.app.close_sheet()
        if action is not None:
            action(text)


class _Extras:
    """Mixin: a list of things to do (`extras`: dicts with "text" and "action"), one MenuExtra button each."""

    def run_extra(self, index: int):
        action = self.extras[index]["action"]
        self.app.close_sheet()
        action()


class MenuSheet(_Extras, Sheet):
    """Language and sound for every screen, then what the open screen adds (`extras`, made by `make_extras()`, and
    made again in the new language when the language is switched in the menu)."""

    extras = ListProperty()

    def __init__(self, make_extras=list, **kwargs):
        super().__init__(**kwargs)
        self.make_extras = make_extras
        self.extras = make_extras()

    def retranslate(self) -> None:
        self.extras = self.make_extras()


class ChoiceSheet(_Extras, Sheet):
    """A question and a few things to do (`extras`), and Cancel. (Not a MenuSheet: kv rules are inherited.)"""

    extras = ListProperty()
    question = StringProperty("")


class MenuExtra(widgets.BigButton):
    index = NumericProperty(0)


class MomentSheet(Sheet):
    """An announcement for the whole table, twice: upright for one long side, turned for the other. A tap closes
    it (the tap does nothing else: the screen under it stays as it was)."""

    title = StringProperty("")
    text = StringProperty("")
    hint = StringProperty("")
    tint = ListProperty([0.95, 0.80, 0.35, 1])

    def on_touch_down(self, touch):
        self.app.close_sheet()
        return True


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
