"""Dice and boards on every tablet (issue "Back at the table" §7): the devices screen, with the simulated dice, the
stand and the boards listed, is laid out from the window's size, from 960x600 to 1366x1024 dp, 16:10 and 4:3, and a
desktop window resized while it is open. At each size and in each language every label fits its box
(tests/ui/fit.py), every control in sight lies inside the window, no two controls overlap, and a control is at least
a finger wide (TABLE_UX: touch targets).

This file is also the driver: run as a script it opens the app, adds the simulated dice by touch, and resizes:

    python tests/ui/test_devices_sizes.py --data-dir D --out result.json [--shots DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "de", "es")
FINGER = 44  # px at density 1: the smallest control a finger hits without looking (TABLE_UX)


@pytest.fixture(scope="module")
def sizes(own_driver):
    return own_driver


@pytest.mark.ui
def test_the_devices_screen_was_seen_at_every_size_in_every_language_with_its_devices(sizes):
    from tests.ui.fit import WINDOW_SIZES

    checked = {(r["size"], r["lang"]) for r in sizes["checks"]}
    assert checked == {(f"{w}x{h}", lang) for w, h in WINDOW_SIZES.values() for lang in LANGS}
    for r in sizes["checks"]:
        assert r["device_rows"] >= 2 and r["die_rows"] >= 5, r  # the simulated dice and the stand are listed


@pytest.mark.ui
def test_every_label_on_the_devices_screen_fits_at_every_size(sizes):
    problems = [f"{r['size']} {r['lang']}: {p}" for r in sizes["checks"] for p in r["unfit"]]
    assert problems == []


@pytest.mark.ui
def test_the_controls_in_sight_stay_inside_the_window_apart_and_finger_sized(sizes):
    from tests.ui.fit import _overlap

    problems = []
    for r in sizes["checks"]:
        _, _, w, h = r["window"]
        boxes = r["controls"]
        for name, (cx, cy, cw, ch) in r["scroll_views"].items():  # a scrolled list may cut its rows, never the window
            if not (cx >= -0.5 and cy >= -0.5 and cx + cw <= w + 0.5 and cy + ch <= h + 0.5):
                problems.append(f"{r['size']} {r['lang']}: the list {name} runs off the window")
        for name, (cx, cy, cw, ch) in boxes.items():
            if name not in r["scrolled"] and not (cx >= -0.5 and cy >= -0.5 and cx + cw <= w + 0.5 and cy + ch <= h + 0.5):
                problems.append(f"{r['size']} {r['lang']}: {name} runs off the window")
            if min(cw, ch) < FINGER * r["density"] - 0.5:
                problems.append(f"{r['size']} {r['lang']}: {name} is {cw:.0f}x{ch:.0f} px")
        names = sorted(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if _overlap(shrunk(boxes[a]), shrunk(boxes[b])):
                    problems.append(f"{r['size']} {r['lang']}: {a} overlaps {b}")
    assert problems == []


def shrunk(box, by: float = 1.0):
    """A box one pixel smaller on every side: controls that only touch do not overlap."""
    x, y, w, h = box
    return x + by, y + by, w - 2 * by, h - 2 * by


def scrolled_controls(screen) -> list[str]:
    """The keys (as control_places names them) of the controls inside a scrolled list."""
    from tests.ui.fit import control_places

    everywhere = control_places(screen)
    scrolled = [box for view in screen.walk(restrict=True) if type(view).__name__ == "ScrollView"
                for box in control_places(view).values()]
    return sorted(key for key, box in everywhere.items() if box in scrolled)


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from kivy.core.window import Window
    from kivy.metrics import dp

    from tests.ui.devices_driver import add_simulated
    from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels, window_box
    from tests.ui.touch import Touch

    d = Touch(app)
    await d.wait_screen("home")
    await add_simulated(d, app)
    shots = Path(args.shots) if args.shots else None
    out: dict = {"checks": []}
    for lang in LANGS:
        app.set_language(lang)
        for w, h in WINDOW_SIZES.values():
            Window.size = (w, h)  # a desktop window resized while open, as a player would drag it
            await d.frames(6)
            screen = d.screen()
            out["checks"].append({
                "size": f"{w}x{h}", "lang": lang, "unfit": unfit_labels(screen),
                "device_rows": len([r for r in d.by_class("DeviceRow") if d.visible(r)]),
                "die_rows": len(d.by_class("DieRow")),
                "window": [0, 0, Window.width, Window.height], "controls": control_places(screen),
                "scrolled": scrolled_controls(screen), "density": dp(1),
                "scroll_views": {f"{n}": list(window_box(v)) for n, v in enumerate(d.by_class("ScrollView"))}})
            if shots and lang == "en":
                await d.shot(shots, f"devices-{w}x{h}")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
