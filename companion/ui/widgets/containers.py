"""Containers the screens fill from their view-models: grids and stacks of rows from a list of dicts, parts that
hide, a scroll view that scrolls only when it must. Their looks are in containers.kv."""
from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout

from companion.ui.widgets.panels import covers


class _Repeater:
    """Mixin: shows one `viewclass` widget per dict in `data`, reusing the widgets already there.

    The view-model publishes plain dicts; the layout (.kv) decides what a row looks like. Reusing widgets keeps a
    refresh after each tap cheap (no widget churn on a slow tablet).
    """

    def on_data(self, *_):
        self._sync()

    def on_viewclass(self, *_):
        self.clear_widgets()
        self.__dict__["_pool"] = []
        self._sync()

    def _sync(self):
        if not self.viewclass:
            return
        cls = Factory.get(self.viewclass)
        kids = list(reversed(self.children))  # in display order
        # Rows no longer needed wait in a pool for the next time the list grows: building a kv-styled widget
        # costs far more than filling one (a list that shrinks and grows at every tap would rebuild each time).
        pool = self.__dict__.setdefault("_pool", [])
        for extra in kids[len(self.data):]:
            self.remove_widget(extra)
            pool.append(extra)
        for i, item in enumerate(self.data):
            if i < len(kids):
                for key, value in item.items():
                    setattr(kids[i], key, value)
            elif pool and type(pool[-1]) is cls:
                widget = pool.pop()
                for key, value in item.items():
                    setattr(widget, key, value)
                self.add_widget(widget)
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


class FitScrollView(ScrollView):
    """A ScrollView that scrolls only when its content is taller than it is; otherwise taps go straight through.

    A Kivy ScrollView holds every touch back to tell a tap from a drag and hands a short tap's release to the
    button ~0.2 s later. For options that fit on screen that delay is a trap: the next tap (End turn, which turns
    the centre to the next player) can come first, and the late release then lands on whatever is there now.
    """

    def _fits(self) -> bool:
        content = self.children[0] if self.children else None
        return content is None or content.height <= self.height + 1

    def _on_draggable(self, touch) -> bool:
        """Does the touch land on a piece that can be dragged? Then the piece takes it (a drag moves it, not the
        view): scrolling is done from anywhere else."""
        pos = self.to_window(*touch.pos)
        return any(getattr(w, "drag", False) and not w.disabled and covers(w, pos)
                   for w in self.walk(restrict=True) if w is not self)

    def on_touch_down(self, touch):
        if self._fits() or (self.collide_point(*touch.pos) and self._on_draggable(touch)):
            if not self.collide_point(*touch.pos):
                return False
            touch.push()
            touch.apply_transform_2d(self.to_local)
            try:
                return any(child.dispatch("on_touch_down", touch) for child in self.children[:])
            finally:
                touch.pop()
        return super().on_touch_down(touch)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
