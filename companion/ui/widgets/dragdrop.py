"""Drag and drop between widgets, wherever each is turned: a piece picked up (`Draggable`), the ghost that follows the
finger, and finding the target under it in window coordinates."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion.ui.widgets.panels import Framed, covers

DRAG_START = 14                  # dp a finger moves before a press becomes a drag (less is a tap)
GHOST_LIFT = 52                  # dp between the fingertip and the piece it carries


class DragGhost(Framed, Label):
    """What follows the finger during a drag: the piece picked up (its colour and text), over everything."""

    rgba = ListProperty([1, 1, 1, 1])
    _radius = 12

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._init_frame()

    def _fill_rgba(self):
        return self.rgba

    def _line_rgba(self):
        return (1, 1, 1, 1)


class Draggable:
    """Mixin for a ButtonBehavior widget: with `drag` set, a press that moves away carries the piece (a ghost
    follows the finger) and, let go, dispatches `on_drop(target)` with the widget under the finger that accepts
    drops (`accepts_drop`), or None. A press that stays put is a tap as before. Targets are found in window
    coordinates, so a drag may go from the turned centre onto a player's panel turned another way."""

    drag = BooleanProperty(False)

    def on_drop(self, target):
        pass

    def _window_pos(self, touch):
        # A touch reaches a widget in the coordinates of its parent (Kivy turns it back through every Turned).
        return self.to_window(*touch.pos)

    def on_touch_down(self, touch):
        taken = super().on_touch_down(touch)
        if taken and self.drag and self.collide_point(*touch.pos):
            touch.ud[("drag", id(self))] = {"start": self._window_pos(touch), "ghost": None, "over": None}
        return taken

    def on_touch_move(self, touch):
        state = touch.ud.get(("drag", id(self)))
        if state is None or touch.grab_current is not self:
            return super().on_touch_move(touch)
        pos = self._window_pos(touch)
        if state["ghost"] is None:
            sx, sy = state["start"]
            if (pos[0] - sx) ** 2 + (pos[1] - sy) ** 2 < dp(DRAG_START) ** 2:
                return True
            state["ghost"] = self._make_ghost()
            state["targets"] = drop_targets(self)
            # The piece rides just beyond the fingertip (away from the player, in their own frame), so that the
            # place it would land on, framed, stays in sight.
            (x0, y0), (x1, y1) = self.to_window(0, 0), self.to_window(0, dp(GHOST_LIFT))
            state["lift"] = (x1 - x0, y1 - y0)
        ghost = state["ghost"]
        ghost.center = (pos[0] + state["lift"][0], pos[1] + state["lift"][1])
        over = drop_target_at(state["targets"], pos)
        if over is not state["over"]:
            if state["over"] is not None:
                state["over"].hover = False
            if over is not None:
                over.hover = True
            state["over"] = over
        return True

    def on_touch_up(self, touch):
        state = touch.ud.get(("drag", id(self)))
        if state is None or touch.grab_current is not self or state["ghost"] is None:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self.state = "normal"
        from kivy.core.window import Window

        Window.remove_widget(state["ghost"])
        if state["over"] is not None:
            state["over"].hover = False
        if self.get_root_window() is None:  # the screen changed under the finger (a die thrown, say): no drop
            return True
        self.dispatch("on_drop", drop_target_at([w for w in state["targets"] if w.get_root_window() is not None],
                                                self._window_pos(touch)))
        return True

    def _make_ghost(self):
        from kivy.core.window import Window

        ghost = DragGhost(text=self.text, rgba=list(self.rgba[:3]) + [0.85], color=self.color, bold=True,
                          font_size=self.font_size, size_hint=(None, None), size=(max(dp(64), self.width), dp(50)))
        Window.add_widget(ghost)
        return ghost


def drop_targets(source) -> list:
    """Every widget on screen that takes a drop (`accepts_drop`), other than `source`, and shown."""
    root = source.get_root_window()
    out = []
    for top in (root.children if root is not None else []):
        for w in top.walk(restrict=True):
            if w is not source and getattr(w, "accepts_drop", False) and _shown(w):
                out.append(w)
    return out


def drop_target_at(targets, pos):
    """The target under the window point `pos` (the smallest, when one holds another), or None."""
    hits = [w for w in targets if covers(w, pos) and in_sight(w, pos)]
    return min(hits, key=lambda w: w.width * w.height) if hits else None


def _shown(w) -> bool:
    while w is not None and w.parent is not w:
        if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
            return False
        w = w.parent
    return True


def in_sight(w, pos) -> bool:
    """Not scrolled out of sight: the window point `pos` is inside every ScrollView around `w`."""
    p = w.parent
    while p is not None and p is not p.parent:
        if isinstance(p, ScrollView) and p.parent is not None and not covers(p, pos):
            return False
        p = p.parent
    return True
