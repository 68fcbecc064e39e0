"""The sizes of the Obscurio screens, worked out from the window's size (in dp), from an 8" tablet or a small window
(960×600) to a 4:3 12.9" one (1366×1024), and followed when a desktop window is resized. The .kv files read these
instead of fixed numbers, so no part assumes a 1280×800 window.

Pure arithmetic in `sizes(width, height)` (tested without Kivy); `Layout` publishes them as Kivy properties.
"""
from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, NumericProperty

COMPACT_BELOW = 700   # dp of window height under which the bars are thinner


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def sizes(width: float, height: float) -> dict:
    """Every size the screens use, for a window of `width` × `height` dp."""
    compact = height < COMPACT_BELOW
    band = _clamp(height * 0.092, 62, 96)      # the numbers turned to the far long side
    return {
        "compact": compact,
        "narrow": width < 1100,
        "pad": 6 if compact else 10,
        "gap": 6 if compact else 8,
        "band_h": band,
        "band_font": band * 0.46,               # the numbers in the band: large, read across the table
        "band_caption": _clamp(band * 0.24, 19, 22),
        "bar_h": 60 if compact else 72,
        "log_h": 54 if compact else 64,
        "side_w": _clamp(width * 0.2, 180, 290),
        "right_w": _clamp(width * 0.255, 244, 360),
        "time_font": _clamp(height * 0.075, 42, 72),
        "big_font": _clamp(height * 0.05, 30, 48),
        "button_h": 56 if compact else 80,
        "name_w": _clamp(width * 0.12, 118, 170),    # a wizard's name in front of their row of doors or votes
        # the setup: the options on the right, the seats on the left (a name, the Grimoire, 7 chips)
        "option_w": _clamp(width * 0.4, 400, 520),
        "seat_name_w": _clamp(width * 0.14, 128, 210),
        "swatch_w": _clamp((width - 40 - _clamp(width * 0.4, 400, 520) - _clamp(width * 0.14, 128, 210) - 100
                            - 12 - 24) / 7, 34, 50),
    }


class Layout(EventDispatcher):
    compact = BooleanProperty(False)
    narrow = BooleanProperty(False)
    width = NumericProperty(1280)
    height = NumericProperty(800)
    pad = NumericProperty(10)
    gap = NumericProperty(8)
    band_h = NumericProperty(80)
    band_font = NumericProperty(36)
    band_caption = NumericProperty(20)
    bar_h = NumericProperty(72)
    log_h = NumericProperty(64)
    side_w = NumericProperty(260)
    right_w = NumericProperty(330)
    time_font = NumericProperty(60)
    big_font = NumericProperty(40)
    button_h = NumericProperty(80)
    name_w = NumericProperty(150)
    option_w = NumericProperty(500)
    seat_name_w = NumericProperty(210)
    swatch_w = NumericProperty(50)

    def follow_window(self) -> None:
        """Lay out from the window now and whenever it is resized."""
        from kivy.core.window import Window

        Window.bind(size=lambda *_: self.update(Window))
        self.update(Window)

    def centre_px(self) -> float:
        """The height inside the centre panel of a table screen, in pixels (the frame's bars and gaps taken)."""
        from kivy.metrics import dp

        return dp(self.height) - self.band_h - self.bar_h - self.log_h - 2 * self.pad - 3 * self.gap - dp(24)

    def height_px(self) -> float:
        from kivy.metrics import dp

        return dp(self.height)

    def update(self, window) -> None:
        from kivy.metrics import dp

        self.set_size(window.width / dp(1), window.height / dp(1))

    def set_size(self, width: float, height: float) -> None:
        """The window is `width` × `height` dp: every size follows (values in dp, turned into pixels here)."""
        from kivy.metrics import dp

        for name, value in sizes(width, height).items():
            setattr(self, name, value if isinstance(value, bool) else dp(value))
        # Last: the plug-in lays its screens out again when these change, with every size above already new.
        self.width, self.height = width, height
