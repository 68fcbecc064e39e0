"""Obelisk's own widgets (names no other game uses: Kivy's Factory and kv rules are global)."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import widgets as _shared  # noqa: F401  (the shared widget rules first)
from companion.ui.sheets import Sheet
from companion.ui.widgets import BigButton


class ObeliskButton(BigButton):
    """A big button never disabled for Kivy: dimmed when `enabled` is False, it still takes the tap so that the
    view-model says why nothing happens (table rule 3: never a silent no)."""

    enabled = BooleanProperty(True)
    value = ObjectProperty(None, allownone=True)   # the typed option this button hands back on a tap

    def on_enabled(self, *_):
        self.dimmed = not self.enabled


class ObeliskPlayer(ObeliskButton):
    """A player's row, turned to face the player's seat: `angle` 0 reads from the screen's bottom edge, 180 from
    its top (the far long side of the table). Turned half round its own centre, the row covers the same box, so a
    tap lands on it wherever it shows; everything it draws (its background, its words) is turned."""

    angle = NumericProperty(0)

    def __init__(self, **kwargs):
        from kivy.graphics import PopMatrix, PushMatrix, Rotate

        super().__init__(**kwargs)
        # First of all its instructions (the button's own background is drawn in canvas.before too), popped last.
        self._turn = Rotate(angle=0, origin=self.center)
        self.canvas.before.insert(0, self._turn)
        self.canvas.before.insert(0, PushMatrix())
        self.canvas.after.add(PopMatrix())
        self.fbind("center", self._turned)
        self.fbind("angle", self._turned)
        self._turned()

    def _turned(self, *_):
        self._turn.origin = self.center
        self._turn.angle = self.angle



class ObeliskPickSheet(Sheet):
    """A question and its options (`extras`: {"text", "action"}), and Cancel — like the shell's ChoiceSheet, but its
    options scroll when there are more than the window holds (a payment, a Scroll's ways, a charged Obelisk's
    actions can add up to more than fit a small tablet)."""

    extras = ListProperty()
    question = StringProperty("")

    def run_extra(self, index: int) -> None:
        action = self.extras[index]["action"]
        self.app.close_sheet()
        action()


class ObeliskSeat(BoxLayout):
    """A seat of the setup: its number, the name typed in, the player guide's colour (tap: the next one free)."""
    index = NumericProperty(0)
    name = StringProperty("")
    hint = StringProperty("")
    colour = StringProperty("blue")
    colour_text = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
