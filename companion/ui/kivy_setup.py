"""Kivy settings that must be made before the first window exists, the memory habits of a software-GL tablet, and
laying a screen out at once (its first frame).

Imported first by companion/ui/app.py. docs/ui.md, "Memory" and "Start-up", explains the numbers.
"""
from __future__ import annotations

import gc
import os

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.config import Config  # noqa: E402  (window settings before the window exists)

Config.set("graphics", "width", "1280")
Config.set("graphics", "height", "800")
Config.set("graphics", "resizable", "0")
# No multisample anti-aliasing: flat rectangles and text gain nothing from it, and on a software renderer the
# multisampled framebuffer costs ~30 MB of the 250 MB budget.
Config.set("graphics", "multisamples", "0")
Config.set("input", "mouse", "mouse,disable_multitouch")
Config.set("kivy", "exit_on_escape", "0")


def built_at_size(widget) -> None:
    """Ask every layout in `widget` to lay itself out, for a widget made at its final size (`size=` when made).

    Kivy lays out a layout's children when its size changes; the children a .kv rule gives a widget are added
    while it is made, before its layout listens to them, and a widget made at its final size never changes size:
    without this its parts would keep Kivy's default 100x100."""
    from kivy.uix.layout import Layout

    for w in widget.walk(restrict=True):
        if isinstance(w, Layout):
            w._trigger_layout()


def lay_out_now(widget) -> None:
    """Lay `widget` (made at the window's size) out now, with its labels' textures, rather than in the next frame.

    Kivy would do the same work at the first frame's start (its before-the-frame events: layouts, texture updates,
    RecycleView refreshes, repeated until nothing is left). Done once the first screen is built, before the
    window's first frame is asked for, the first frame only draws."""
    from kivy.clock import Clock
    from kivy.uix.layout import Layout
    from kivy.uix.recyclelayout import RecycleLayout
    from kivy.uix.scrollview import ScrollView

    built_at_size(widget)
    # The sizes first, from the top down (a parent sizes its children, then they lay out theirs), so that each
    # label then draws its text once, at its final width, where the clock would draw it again at every width
    # the cascade of layouts gives it on the way. (A RecycleView's layout is laid out by its view, when it
    # refreshes: it refuses a direct call.)
    for _ in range(2):
        for w in widget.walk(restrict=True):
            if isinstance(w, Layout) and not isinstance(w, RecycleLayout):
                w.do_layout()
            elif isinstance(w, ScrollView):
                w.update_from_scroll()  # its content's width (a RecycleView's rows are made at that width)
    process = getattr(Clock, "_process_events_before_frame", None)  # Kivy 2.x's own step of tick_draw
    if process is not None:
        process()


def release(screen, collect: bool = True) -> None:
    """Drop the kv bindings of a screen that is gone (so the models no longer update it) and collect it at once,
    so its GL textures and buffers are freed now rather than at some later collection. (`collect=False` for a
    small sheet: a full collection costs ~0.4 s on a slow tablet, too much for closing an announcement.)"""
    from kivy.cache import Cache
    from kivy.lang import Builder

    _return_rows(screen)
    widgets = list(screen.walk(restrict=True))
    for w in widgets:
        if getattr(w, "focus", False):
            w.focus = False  # a focused TextInput is held by the window's keyboard
        Builder.unbind_widget(w.uid)
    # Take the tree apart: something Kivy keeps (e.g. the last TextInput in a trigger's arguments) then holds one
    # widget, not the whole screen through its parents.
    for w in reversed(widgets):
        w.clear_widgets()
    Cache.remove("textinput.label")  # the TextInputs' line textures (kept 60 s otherwise)
    Cache.remove("textinput.width")
    if collect:
        gc.collect()


def _return_rows(screen) -> None:
    """Every RecycleView of `screen` gives its rows back, whole, to the cache all RecycleViews draw from.

    The screen is about to be taken apart (release): rows still in it would be emptied there, and a RecycleView
    hands its rows to that shared cache when it lays itself out again (even once it is gone, on a pending refresh).
    The next list of the same rows would then show empty boxes (Home's tables, after coming back from a table).
    Emptied of data now, each view puts its rows in the cache intact and out of the screen, and lays out no more.
    (Found by what they do: the RecycleView that .kv files build is a class of its own, from the module
    kivy.uix.recycleview.__init__ that Kivy's Factory names, so it is no instance of kivy.uix.recycleview's.)"""
    for rv in [w for w in screen.walk(restrict=True) if hasattr(w, "view_adapter") and hasattr(w, "refresh_views")]:
        rv.data = []
        rv.refresh_from_data()
        rv.refresh_views()
        rv._refresh_trigger.cancel()


def forget_transition_screen(transition) -> None:
    """The transition keeps the screen it switched away from: once it is done with it, let go of it so that it
    can be freed (called after the transition's on_complete)."""
    from kivy.clock import Clock

    def forget(_dt):
        if not transition.is_active and transition.screen_out is not transition.screen_in:
            transition.screen_out = transition.screen_in  # (None is not allowed)
            gc.collect()
    Clock.schedule_once(forget, 0)
