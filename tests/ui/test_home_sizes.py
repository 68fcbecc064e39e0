"""Home on every tablet (issue "Back at the table" §7): laid out from the window's size, from 960x600 to 1366x1024 dp,
16:10 and 4:3, and a desktop window resized while it is open. At each size and in each language every label on Home
fits its box (tests/ui/fit.py), both lists included (a narrow window shows them one at a time, under two tabs), the
title is one line, and nothing runs off the window.

This file is also the driver: run as a script it opens the app on a store it fills, and resizes the window:

    python tests/ui/test_home_sizes.py --data-dir D --out result.json [--shots DIR]
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "de", "es")


@pytest.fixture(scope="module")
def sizes(own_driver):
    return own_driver


@pytest.mark.ui
def test_every_label_on_home_fits_at_every_size_in_every_language(sizes):
    from tests.ui.fit import WINDOW_SIZES

    checked = {(r["size"], r["lang"]) for r in sizes["checks"]}
    assert checked == {(f"{w}x{h}", lang) for w, h in WINDOW_SIZES.values() for lang in LANGS}
    problems = [f"{r['size']} {r['lang']} {r['list']}: {p}" for r in sizes["checks"] for p in r["unfit"]]
    assert problems == []


@pytest.mark.ui
def test_both_lists_can_be_read_at_every_size(sizes):
    for r in sizes["checks"]:
        assert r["listed"] == (3 if r["list"] == "unfinished" else 2), r
        assert r["rows"] >= 2, r  # at least two rows in sight at once, the rest a scroll away
        assert r["title_lines"] == 1, r


@pytest.mark.ui
def test_the_title_never_breaks_and_the_controls_stay_inside_the_window(sizes):
    for r in sizes["checks"]:
        x, y, w, h = r["window"]
        boxes = {**r["controls"], "the list": r["list_box"]}  # (a row in the list may be half scrolled away)
        for name, (cx, cy, cw, ch) in boxes.items():
            if name.startswith(("#more", "#open")):
                continue
            assert cx >= -0.5 and cy >= -0.5 and cx + cw <= w + 0.5 and cy + ch <= h + 0.5, (r["size"], name)


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from kivy.core.window import Window

    from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels, window_box
    from tests.ui.test_home_way_back import fill_store
    from tests.ui.touch import Touch

    d = Touch(app, random.Random(0))
    fill_store(app.store)
    app.refresh_home()
    await d.wait_screen("home")
    shots = Path(args.shots) if args.shots else None
    out: dict = {"checks": []}
    for lang in LANGS:
        app.set_language(lang)
        for w, h in WINDOW_SIZES.values():
            Window.size = (w, h)  # a desktop window resized while open, as a player would drag it
            await d.frames(4)
            for finished in (False, True):
                await d.home_list(finished=finished)
                await d.frames(2)
                screen = d.screen()
                key = "finished_list" if finished else "unfinished_list"
                rows = [r for r in d.by_id(key).walk(restrict=True) if type(r).__name__ == "TableItem"
                        and r.parent is not None and d.visible(r)]
                title = d.by_id("title")
                out["checks"].append({
                    "size": f"{w}x{h}", "lang": lang, "list": "finished" if finished else "unfinished",
                    "unfit": unfit_labels(screen), "rows": len(rows),
                    "listed": len(d.by_id(key).rows), "list_box": list(window_box(d.by_id(key))),
                    "title_lines": len(title._label._cached_lines or []) if title._label else 0,
                    "window": [0, 0, Window.width, Window.height], "controls": control_places(screen)})
                if shots and lang != "en" or shots and not finished:
                    await d.shot(shots, f"home-{lang}-{w}x{h}-{'finished' if finished else 'unfinished'}")
            await d.home_list(finished=False)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
