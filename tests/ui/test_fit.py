"""tests/ui/fit.py on real Kivy widgets in a real window: each kind of label that does not fit is found (and named),
labels that fit, hidden or scrolled out of sight are left alone; a control that moves is found, one that stays or
is turned with its part of the screen (measured in that part's frame) is not.

This file is also the driver: run as a script it opens a bare Kivy window with the widgets and reports.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fit(own_driver):
    return own_driver


@pytest.mark.ui
def test_labels_that_fit_hidden_or_scrolled_away_are_not_reported(fit):
    joined = "\n".join(fit["unfit"])
    for text in ("Fits well", "Hidden", "Scrolled away", "Two lines that wrap in a box tall enough"):
        assert text not in joined


@pytest.mark.ui
def test_each_way_of_not_fitting_is_found_and_named(fit):
    lines = {line.split("'")[1]: line for line in fit["unfit"]}
    assert "#too_wide" in lines["Much too long for this box"] and "box of" in lines["Much too long for this box"]
    assert "cut short" in lines["Verdacht-Chip Sammel auf Gus"]
    assert "breaks a word in the middle" in lines["Startseite"]
    assert "loses text" in lines["One two three four five six seven"]
    assert "runs off the window" in lines["Off the edge"]
    assert all(line.startswith("fitscreen: ") for line in fit["unfit"]), fit["unfit"]
    assert len(fit["unfit"]) == 5, fit["unfit"]


@pytest.mark.ui
def test_a_control_that_moves_is_found_and_one_turned_with_its_frame_is_not(fit):
    assert fit["moved"] == ["#walker moved from (100, 100, 120x60) to (100, 160, 120x60)"]
    assert "#stayer" in fit["before"] and "#walker" in fit["before"]
    assert "Button:'Off'" in fit["before"]  # (a disabled control is a control too)
    assert fit["turned_window_moves"] and fit["turned_frame_moves"] == []


# -- the driver ------------------------------------------------------------------------------------------------------

KV = """
<FitScreen@Screen>:
    name: 'fitscreen'
    FloatLayout:
        Label:
            id: fits
            text: 'Fits well'
            size_hint: None, None
            size: 300, 60
            pos: 10, 500
        Label:
            id: too_wide
            text: 'Much too long for this box'
            font_size: 30
            size_hint: None, None
            size: 120, 40
            pos: 10, 440
        Label:
            text: 'Verdacht-Chip Sammel auf Gus'
            font_size: 30
            shorten: True
            text_size: self.size
            size_hint: None, None
            size: 200, 40
            pos: 10, 380
        Label:
            text: 'Startseite'
            font_size: 40
            text_size: self.width, None
            size_hint: None, None
            size: 80, self.texture_size[1]
            pos: 400, 300
        Label:
            text: 'One two three four five six seven'
            font_size: 30
            text_size: self.size
            valign: 'top'
            size_hint: None, None
            size: 200, 40
            pos: 10, 250
        Label:
            text: 'Two lines that wrap in a box tall enough'
            font_size: 24
            text_size: self.width, None
            size_hint: None, None
            size: 300, self.texture_size[1]
            pos: 10, 150
        Label:
            text: 'Off the edge'
            font_size: 30
            size_hint: None, None
            size: 200, 50
            pos: 1200, 20
        BoxLayout:
            opacity: 0
            size_hint: None, None
            size: 100, 20
            pos: 500, 500
            Label:
                text: 'Hidden'
                font_size: 40
        ScrollView:
            size_hint: None, None
            size: 200, 100
            pos: 500, 380
            do_scroll_x: False
            BoxLayout:
                orientation: 'vertical'
                size_hint_y: None
                height: 400
                Label:
                    text: 'Seen'
                Widget:
                Widget:
                Label:
                    text: 'Scrolled away'
                    font_size: 40
                    size_hint_x: None
                    width: 20
        Button:
            id: stayer
            text: 'Stay'
            size_hint: None, None
            size: 120, 60
            pos: 300, 100
        Button:
            id: walker
            text: 'Walk'
            size_hint: None, None
            size: 120, 60
            pos: 100, 100
        Button:
            text: 'Off'
            disabled: True
            size_hint: None, None
            size: 80, 40
            pos: 450, 100
"""


async def scenario(app, args) -> dict:
    import asyncio

    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout

    from companion.ui.widgets.turned import Turned
    from tests.ui.fit import control_places, moved, unfit_labels

    async def frames(n=3):
        for _ in range(n):
            await asyncio.sleep(0.05)

    await frames()
    screen = app.root.current_screen
    out = {"unfit": unfit_labels(screen)}
    out["before"] = before = control_places(screen)
    screen.ids.walker.y = 160
    await frames()
    after = control_places(screen)
    out["moved"] = moved(before, after)
    # A part turned to another side: every control in it moves in the window, none in its own frame.
    turned = Turned(area=[600, 100, 300, 200], angle=0)
    part = FloatLayout()
    part.add_widget(Button(text="Turned", size_hint=(None, None), size=(80, 50), pos=(0, 0)))
    turned.add_widget(part)
    screen.children[0].add_widget(turned)
    await frames()
    window_before, frame_before = control_places(turned), control_places(turned, frame=turned)
    turned.angle = 180
    await frames()
    out["turned_window_moves"] = moved(window_before, control_places(turned))
    out["turned_frame_moves"] = moved(frame_before, control_places(turned, frame=turned))
    return out


def main(argv=None) -> int:
    import argparse
    import os

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)

    from companion.ui import kivy_setup  # noqa: F401  (the app's window settings: 1280x800)
    from kivy.app import App
    from kivy.lang import Builder
    from kivy.uix.screenmanager import ScreenManager

    from tests.ui.drive import run_app

    Builder.load_string(KV)

    class FitApp(App):
        def build(self):
            from kivy.factory import Factory

            sm = ScreenManager()
            sm.add_widget(Factory.FitScreen())
            return sm

    app = FitApp()
    return run_app(app, lambda: scenario(app, args), args.out, dump={"indent": 1})


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
