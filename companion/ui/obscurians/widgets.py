"""The Obscurians screens' own widgets (rows the view-models publish as dicts: each field is a key of that dict).
Their looks are in the screens' .kv files; the shared widgets they build on are companion/ui/widgets.py."""
from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.ui.widgets import BigButton, Draggable, FitScrollView, Panel


class ChoiceButton(Draggable, BigButton):
    """An option of the turn (companion.ui.obscurians.choices); tapped while not `enabled`, it says why. With
    `drag`, it can also be dragged (a good, a chip in hand) onto a widget that `accepts_drop`."""

    __events__ = ("on_drop",)
    choice = ObjectProperty(None, allownone=True)
    enabled = BooleanProperty(True)
    good = StringProperty("")
    role = StringProperty("button")   # "button", "name" (a player's row), "good" (a cell), "kind" (All Actions
    #                                   Mandatory's row of actions), "die" (a die among the options), "spacer", "label"
    seat = ObjectProperty(None, allownone=True)
    accepts_drop = BooleanProperty(False)
    col = NumericProperty(-1)         # its column in the action choice (fixed widths), -1 elsewhere
    wild_cols = NumericProperty(3)    # the Wild columns the action choice makes room for (round.kv)

    @property
    def control_key(self) -> str:
        """The option it stands for (its identity in the stable-controls checks, tests/ui/fit.py)."""
        return repr(self.choice) if self.choice is not None else ""


class PadButton(BigButton):
    """One count of the roll pad: "this many dice show this face"."""

    choice = ObjectProperty(None, allownone=True)
    enabled = BooleanProperty(True)

    @property
    def control_key(self) -> str:
        return repr(self.choice)


class FaceRow(BoxLayout):
    """A face of the roll pad: its name, and the counts 1-5."""

    face = StringProperty("")
    text = StringProperty("")
    counts = ListProperty()


class SectionView(BoxLayout):
    """A group of options: an optional title, then a grid of ChoiceButtons."""

    title = StringProperty("")
    cols = NumericProperty(1)
    items = ListProperty()
    kind = StringProperty("grid")


class DieButton(BigButton):
    index = NumericProperty(0)
    face = StringProperty("")
    enabled = BooleanProperty(True)

    @property
    def control_key(self) -> str:
        return f"die {self.index}"


class LogLine(BoxLayout):
    key = NumericProperty(-1)
    text = StringProperty("")


class LogList(GridLayout):
    """The moves, newest on top. `data`: dicts with "key" (the move's place in the game) and "text". A line keeps
    its widget (and its text texture) from one refresh to the next: a new move adds one line, an undo removes one,
    and nothing else is drawn again (on a software-rendered tablet each text is a texture to make)."""

    data = ListProperty()

    def on_data(self, *_):
        from kivy.factory import Factory

        have = {w.key: w for w in self.children}
        wanted = {item["key"]: item for item in self.data}
        for key, w in list(have.items()):
            if key not in wanted:
                self.remove_widget(w)
                del have[key]
        for item in reversed(self.data):  # oldest first, so each newer line goes on top of the ones below it
            w = have.get(item["key"])
            if w is None:
                w = Factory.LogLine(text=item["text"])
                w.key = item["key"]
                self.add_widget(w)
            elif w.text != item["text"]:
                w.text = item["text"]
        order = {item["key"]: i for i, item in enumerate(self.data)}
        # GridLayout shows children[-1] first: keep the newest (lowest order) there.
        self.children.sort(key=lambda w: -order[w.key])
        self._trigger_layout()


class SetupRow(Panel):
    index = NumericProperty(0)
    name = StringProperty("")
    hint = StringProperty("")
    colour = StringProperty("")
    starter = BooleanProperty(False)
    swatches = ListProperty()
    dragging = BooleanProperty(False)

    def on_touch_down(self, touch):
        # A finger on the seat number starts a drag: the seat follows the finger up and down the list.
        handle = self.ids.get("handle")
        if handle is not None and handle.collide_point(*touch.pos):
            touch.grab(self)
            touch.ud["drag_seat"] = self.index
            self.dragging = True
            return True
        return super().on_touch_down(touch)

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        rows = [w for w in self.parent.children if isinstance(w, SetupRow)] if self.parent else []
        y = touch.pos[1]  # a grabbed touch comes in the parent's coordinates, like the rows' positions
        over = next((r.index for r in rows if r.y <= y <= r.top), None)
        seat = touch.ud["drag_seat"]
        if over is not None and over != seat:
            from kivy.app import App

            App.get_running_app().plugin.setup.move_player(seat, over)
            touch.ud["drag_seat"] = over
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is self:
            touch.ungrab(self)
            self.dragging = False
            return True
        return super().on_touch_up(touch)


class Swatch(BigButton):
    index = NumericProperty(0)
    colour = StringProperty("")
    taken_by = StringProperty("")   # the seat number holding this colour, "" when free
    enabled = BooleanProperty(True)


class PutBackButton(BigButton):
    mission = StringProperty("")
    enabled = BooleanProperty(True)


class PlayerPanel(ButtonBehavior, Panel):
    accepts_drop = True    # a good or a chip let go on a player's panel goes to that player
    hover = BooleanProperty(False)
    seat = NumericProperty(0)
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    active = BooleanProperty(False)
    starter = BooleanProperty(False)
    enabled = BooleanProperty(False)
    selected = BooleanProperty(False)
    dim = BooleanProperty(False)
    compact = BooleanProperty(False)
    goods = ListProperty()
    vault = ListProperty()
    vault_label = StringProperty("")
    ban = BooleanProperty(False)
    ban_text = StringProperty("")
    status = StringProperty("")
    lamp_card = StringProperty("")


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
    photo = StringProperty("")     # the goods a confirmed photo showed ("" when none was used)


class ScoreLine(BoxLayout):
    rule = StringProperty("")
    points = StringProperty("")


class TopScroll(FitScrollView):
    """The centre's dice, pad and options, scrolling when they cannot all be shown: when what it holds grows or
    shrinks (the pad comes with New roll, the options change), what is at the top of the view stays where it was
    (a ScrollView keeps its relative position, which would move the dice under a finger)."""

    _content_h = None

    def add_widget(self, widget, *args, **kwargs):
        super().add_widget(widget, *args, **kwargs)
        self._content_h = widget.height
        widget.fbind("height", self._keep_top)

    def _keep_top(self, content, height):
        old, self._content_h = self._content_h, height
        if old is None or old - self.height <= 0:
            return   # it was not scrolled: the content's top is at the view's top, and stays there
        scrolled = (1 - self.scroll_y) * (old - self.height)   # px below the content's top
        room = height - self.height
        self.scroll_y = 1 - min(scrolled, room) / room if room > 0 else 1
