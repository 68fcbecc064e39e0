"""The Obscurians screens' own widgets (rows the view-models publish as dicts: each field is a key of that dict).
Their looks are in the screens' .kv files; the shared widgets they build on are companion/ui/widgets.py."""
from __future__ import annotations

from functools import lru_cache

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.ui.widgets import BigButton, Draggable, FitScrollView, Panel


@lru_cache(maxsize=256)
def text_width(text: str, font_size: float, bold: bool = False) -> float:
    """The width in px a Label draws `text` in, in Kivy's default font (the options' font) at `font_size`."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=text, font_size=font_size, bold=bold)
    core.refresh()
    return core.texture.size[0] if core.texture else 0


class ObsnChoiceButton(Draggable, BigButton):
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


class ObsnPadButton(BigButton):
    """One count of the roll pad: "this many dice show this face"."""

    choice = ObjectProperty(None, allownone=True)
    enabled = BooleanProperty(True)

    @property
    def control_key(self) -> str:
        return repr(self.choice)


class ObsnFaceRow(BoxLayout):
    """A face of the roll pad: its name, and the counts 1-5."""

    face = StringProperty("")
    text = StringProperty("")
    counts = ListProperty()


class ObsnSectionView(BoxLayout):
    """A group of options: an optional title, then a grid of ChoiceButtons."""

    title = StringProperty("")
    cols = NumericProperty(1)
    items = ListProperty()
    kind = StringProperty("grid")

    def fitting_cols(self, width: float, font_size: float, items) -> int:
        """`cols` to a row if the longest text of `items` fits whole in a cell that wide (measured in the font the
        ChoiceButtons draw it with), else half as many ("Schenken" in a quarter of a 7-player centre is cut)."""
        from kivy.metrics import dp

        cols = max(1, int(self.cols))
        if cols < 2 or width <= 0:
            return cols
        spacing = dp(3)   # the grid's spacing (round.kv)
        room = (width - spacing * (cols - 1)) / cols - dp(10)   # an ObsnChoiceButton's text_margin (round.kv)
        widest = max((text_width(item["text"], font_size) for item in items), default=0)
        return cols if widest <= room else max(1, cols // 2)


class ObsnDieButton(BigButton):
    index = NumericProperty(0)
    face = StringProperty("")
    enabled = BooleanProperty(True)

    @property
    def control_key(self) -> str:
        return f"die {self.index}"


class ObsnLogLine(BoxLayout):
    key = NumericProperty(-1)
    text = StringProperty("")


class ObsnLogList(GridLayout):
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
                w = Factory.ObsnLogLine(text=item["text"])
                w.key = item["key"]
                self.add_widget(w)
            elif w.text != item["text"]:
                w.text = item["text"]
        order = {item["key"]: i for i, item in enumerate(self.data)}
        # GridLayout shows children[-1] first: keep the newest (lowest order) there.
        self.children.sort(key=lambda w: -order[w.key])
        self._trigger_layout()


class ObsnSetupRow(Panel):
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
        rows = [w for w in self.parent.children if isinstance(w, ObsnSetupRow)] if self.parent else []
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


class ObsnSwatch(BigButton):
    index = NumericProperty(0)
    colour = StringProperty("")
    taken_by = StringProperty("")   # the seat number holding this colour, "" when free
    enabled = BooleanProperty(True)


class ObsnPutBackButton(BigButton):
    mission = StringProperty("")
    enabled = BooleanProperty(True)


class ObsnPlayerPanel(ButtonBehavior, Panel):
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


class ObsnMissionRow(Panel):
    seat = NumericProperty(0)
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    options = ListProperty()


class ObsnMissionButton(BigButton):
    seat = NumericProperty(0)
    mission = StringProperty("")
    enabled = BooleanProperty(True)


class ObsnScoreCard(Panel):
    name = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    mission = StringProperty("")
    total = StringProperty("")
    winner = BooleanProperty(False)
    goods = ListProperty()
    lines = ListProperty()
    photo = StringProperty("")     # the goods a confirmed photo showed ("" when none was used)


class ObsnScoreLine(BoxLayout):
    rule = StringProperty("")
    points = StringProperty("")


class ObsnTopScroll(FitScrollView):
    """The centre's dice, pad and options, scrolling when they cannot all be shown: when what it holds grows or
    shrinks (the pad comes with New roll, the options change), what is at the top of the view stays where it was
    (a ScrollView keeps its relative position, which would move the dice under a finger). Its content is an ObsnTopBox,
    which keeps the room the view is scrolled into (issue 14 §2) while the options stay of one kind (`step`). A new
    turn (`turn`) starts at the top."""

    turn = StringProperty("")   # whose turn it is (RoundModel.turn): a new one starts with the view at the top
    step = StringProperty("")   # the kinds of options shown (RoundModel.options_step)
    _content_h = None

    def add_widget(self, widget, *args, **kwargs):
        super().add_widget(widget, *args, **kwargs)
        self._content_h = widget.height
        widget.fbind("height", self._keep_top)

    def on_turn(self, *_):
        content = self.children[0] if self.children else None
        self.scroll_y = 1
        if isinstance(content, ObsnTopBox):
            content.hold = 0

    def on_step(self, *_):
        # Other options (the goods rows after the action choice): none of the controls in sight stays, so no room
        # is kept for them; the view ends where the new options end, as any ScrollView's would.
        content = self.children[0] if self.children else None
        if isinstance(content, ObsnTopBox):
            content.hold = 0

    def _keep_top(self, content, height):
        old, self._content_h = self._content_h, height
        if old is None or old - self.height <= 0:
            return   # it was not scrolled: the content's top is at the view's top, and stays there
        scrolled = (1 - self.scroll_y) * (old - self.height)   # px below the content's top
        room = height - self.height
        self.scroll_y = 1 - min(scrolled, room) / room if room > 0 else 1


class ObsnTopBox(BoxLayout):
    """ObsnTopScroll's content (the dice, the pad, the options). While the view is scrolled the box is never shorter
    than the distance scrolled plus the view's height (`hold`): when the options shrink under a scrolled view (the
    Pair row goes after the last Secure), the view would otherwise clamp to the new end and everything in sight
    would move down under a finger (issue 14 §2: 43-47 px with 7 players at 960×600). The room it keeps lies below
    the options; it goes once the view is back at its top. Unscrolled, the box is exactly as tall as what it holds
    and laid out as any BoxLayout (nothing moves where nothing scrolls)."""

    view = ObjectProperty(None, allownone=True)   # the ObsnTopScroll that shows it
    hold = NumericProperty(0)                     # px the box keeps while scrolled (0: none)

    def on_view(self, _, view):
        if view is not None:
            view.fbind("scroll_y", self._follow)
            view.fbind("height", self._resized)

    def _resized(self, view, height):
        # A window resized lays everything out anew: where all of it fits now, no room is kept.
        if self.minimum_height <= height:
            self.hold = 0
            view.scroll_y = 1
        else:
            self._follow()

    def _follow(self, *_):
        view = self.view
        scrolled = (1 - view.scroll_y) * (self.height - view.height)   # px of the box above the view's top
        if scrolled < 1:
            self.hold = 0   # at the top: the box is as tall as what it holds
        else:
            # Only ever more while scrolled: scrolling back up does not shrink the box under the finger.
            self.hold = max(self.hold, scrolled + view.height)

    def do_layout(self, *args):
        super().do_layout(*args)
        # A vertical BoxLayout stacks from its bottom: the room it keeps would come above the options and push
        # them down. The children go to the top instead, the room below them (only while the box holds room).
        extra = self.height - self.minimum_height
        if extra > 0.5:
            for child in self.children:
                child.y += extra
