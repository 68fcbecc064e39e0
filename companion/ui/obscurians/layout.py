"""The sizes of the Obscurians screens, worked out from the window's size (in dp), from an 8" tablet or a small
window (960×600) to a 4:3 12.9" one (1366×1024), and followed when a desktop window is resized (issue 14 §7). The
.kv files and the seating read these instead of fixed numbers, so no part assumes a 1280×800 window.

Text the table reads is 24 sp from a window 700 dp high; below that (an 8" tablet) it is 20 sp, where a 24 sp
round screen would not fit (docs/ui.md, "Sizes"). Pure arithmetic in `sizes(width, height)` (no Kivy needed);
`Layout` publishes them as Kivy properties, in pixels.
"""
from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, NumericProperty

COMPACT_BELOW = 700   # dp of window height under which text and buttons are smaller
PROMPT_LINES = 3      # the prompt's box holds three lines (German needs them at the narrowest centre)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def sizes(width: float, height: float) -> dict:
    """Every size the Obscurians screens use, for a window of `width` × `height` dp (all in dp)."""
    compact = height < COMPACT_BELOW
    font = 20 if compact else 24
    prompt_font = 20 if compact else 26
    depth_long = _clamp(height * 0.17, 100, 128)     # the panels along the long edges (bottom, top)
    depth_short = _clamp(width * 0.13, 124, 160)     # the panels along the short edges (left, right)
    centre_w = width - 2 * depth_short
    return {
        "compact": compact,
        "font": font,
        "prompt_font": prompt_font,
        # Three lines of the prompt: the box keeps its size whatever the prompt says (nothing below it jumps).
        "prompt_h": PROMPT_LINES * prompt_font * 1.2 + 6,
        "button_h": 38 if compact else 46,
        "bar_h": 44 if compact else 60,             # Cancel and End turn
        "face_h": font * 1.2 + 2,                    # a face's name over its counts on the roll pad
        "depth_long": depth_long,
        "depth_short": depth_short,
        # The event card, Undo and Redo, the log: a column beside the options, two buttons wide.
        "side_w": _clamp(centre_w * 0.34, 280 if compact else 300, 330),
        "side_tall_h": _clamp(height * 0.33, 200, 400),   # the same below the options, the centre read tall
        "panel_bar_h": 30 if compact else 34,       # a panel's name bar
        "chip_h": 34 if compact else 44,            # a good in a panel
        # The setup: the seats on the left (number, name, 7 colours, Starts, ▲), the options on the right.
        "row_h": 56 if compact else 74,
        "option_w": _clamp(width * 0.29, 280, 360),
        "lang_w": _clamp(width * 0.33, 330, 420),
        "seat_name_w": _clamp(width * 0.14, 130, 200),
        "swatch_w": _clamp((width - 32 - 16 - _clamp(width * 0.29, 280, 360) - _clamp(width * 0.14, 130, 200)
                            - 36 - font * 5 - 46 - 12 - 5 * 6 - 6 * 4) / 7, 34, 56),
        # The end: a player's name in front of their row of mission cards.
        "mission_name_w": _clamp(width * 0.14, 130, 200),
    }


class Layout(EventDispatcher):
    compact = BooleanProperty(False)
    width = NumericProperty(1280)
    height = NumericProperty(800)
    font = NumericProperty(24)
    prompt_font = NumericProperty(26)
    prompt_h = NumericProperty(100)
    button_h = NumericProperty(46)
    bar_h = NumericProperty(60)
    face_h = NumericProperty(30)
    depth_long = NumericProperty(128)
    depth_short = NumericProperty(160)
    side_w = NumericProperty(300)
    side_tall_h = NumericProperty(260)
    panel_bar_h = NumericProperty(34)
    chip_h = NumericProperty(44)
    row_h = NumericProperty(74)
    option_w = NumericProperty(330)
    lang_w = NumericProperty(420)
    seat_name_w = NumericProperty(200)
    swatch_w = NumericProperty(56)
    mission_name_w = NumericProperty(200)
    _following = False

    def follow_window(self) -> None:
        """Lay out from the window now and whenever it is resized."""
        from kivy.core.window import Window

        if not self._following:
            self._following = True
            Window.bind(size=lambda *_: self.update(Window))
        self.update(Window)

    def update(self, window) -> None:
        from kivy.metrics import dp

        self.set_size(window.width / dp(1), window.height / dp(1))

    def set_size(self, width: float, height: float) -> None:
        """The window is `width` × `height` dp: every size follows (dp turned into pixels here; fonts in sp)."""
        from kivy.metrics import dp, sp

        for name, value in sizes(width, height).items():
            if isinstance(value, bool):
                setattr(self, name, value)
            else:
                setattr(self, name, sp(value) if name.endswith("font") else dp(value))
        # Last: the round screen places its panels again when these change, with every size above already new.
        self.width, self.height = width, height


LAYOUT = Layout()   # the one the .kv files read (`#:import L companion.ui.obscurians.layout.LAYOUT`)
