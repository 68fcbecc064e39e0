"""Obelisk's own widgets (names no other game uses: Kivy's Factory and kv rules are global)."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

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


class HalfTurn:
    """Draws the widget turned by `angle` (0 or 180) round its own centre: it covers the same box, so a tap lands on it
    wherever it shows; everything it draws (its background, its words) is turned. Quarter turns need `Turned`."""

    def _half_turn(self):
        from kivy.graphics import PopMatrix, PushMatrix, Rotate

        # First of all its instructions (a button's own background is drawn in canvas.before too), popped last.
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


class ObeliskPlayer(HalfTurn, ObeliskButton):
    """A player's row, turned to face the player's seat: `angle` 0 reads from the screen's bottom edge, 180 from
    its top (the far long side of the table). A row at an end of the table lies in an ObeliskEndRows strip, upright
    inside a `Turned` that makes the quarter turn."""

    angle = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._half_turn()


class ObeliskPrompt(HalfTurn, Label):
    """What to do now, once, large: turned half round when the acting player sits at the far long side."""

    angle = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._half_turn()


class ObeliskEndRows(Widget):
    """The rows of the players at one end of the table: a strip at the screen's edge, each row a `Turned` quarter
    turn (`rows[i]["angle"]`: 90 or 270) filling its share of the strip's height. The rows are kept and updated
    (built again only when their number changes), so a tap never meets a row being rebuilt."""

    rows = ListProperty()
    spacing = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        from kivy.clock import Clock

        self._held: list = []        # (Turned, ObeliskPlayer)
        # placed again on the next frame too: a BoxLayout moving the strip before sizing it left rows off the window
        self._again = Clock.create_trigger(self._place, -1)
        self.fbind("rows", self._sync)
        self.fbind("pos", self._moved)
        self.fbind("size", self._moved)

    def _moved(self, *_):
        self._place()
        self._again()

    def _sync(self, *_):
        from companion.ui.widgets import Turned

        while len(self._held) > len(self.rows):
            holder, _row = self._held.pop()
            self.remove_widget(holder)
        while len(self._held) < len(self.rows):
            holder, row = Turned(), ObeliskPlayer()
            holder.add_widget(row)
            self.add_widget(holder)
            self._held.append((holder, row))
        for (holder, row), data in zip(self._held, self.rows):
            for key, value in data.items():
                if key != "angle":
                    setattr(row, key, value)
            holder.angle = data["angle"]
        self._place()

    def _place(self, *_):
        n = len(self._held)
        if not n:
            return
        from kivy.metrics import dp

        # a row no longer than a long side's (a lone player is not a bar along the whole edge), the rows centred
        share = min((self.height - self.spacing * (n - 1)) / n, dp(360))
        top = self.center_y + (n * share + (n - 1) * self.spacing) / 2
        for i, (holder, _row) in enumerate(self._held):
            # the first row at the top: read from the left end, seat order runs top to bottom
            y = top - (i + 1) * share - i * self.spacing
            holder.area = [self.x, y, self.width, share]


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
