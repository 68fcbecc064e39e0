"""Obelisk's screens on every tablet (docs/ui.md, "Sizes"): the setup, a 4-player Day, a Night with captures to choose
and a finished game, at the smallest and the largest window (tests/ui/fit.py WINDOW_SIZES), in English, German and
Spanish: every label fits its box and every control lies inside the window (the Day with Rotating Leadership and
Time Trials on, the setup with the typed map's line open), and the same Day with a player at each of the table's four
sides (near, right end, far, left end): each row faces its side, and no row overlaps the map or another control.

This file is also the driver: `python tests/ui/test_obelisk_sizes.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "de", "es")
SIZES = ("small", "large")
VIEWS = ("setup", "day", "seats", "night", "over")
# The four-sided table: Annemarie near, Bartholomäus at the right end, Concepción far, Dagobert at the left end.
FOUR_SIDES = {"blue": "near", "yellow": "right", "green": "far", "black": "left"}
ANGLES = {"near": 0, "right": 90, "far": 180, "left": 270}
pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def sizes(own_driver):
    return own_driver


def test_every_view_was_seen_at_both_sizes_in_every_language(sizes):
    from tests.ui.fit import WINDOW_SIZES

    seen = {(r["view"], r["size"], r["lang"]) for r in sizes["checks"]}
    assert seen == {(v, "{}x{}".format(*WINDOW_SIZES[s]), lang) for v in VIEWS for s in SIZES for lang in LANGS}


def test_every_label_fits(sizes):
    problems = [f"{r['view']} {r['size']} {r['lang']}: {p}" for r in sizes["checks"] for p in r["unfit"]]
    assert problems == []


def test_every_character_shown_has_a_glyph_in_its_font(sizes):
    assert [m for r in sizes["checks"] for m in r["missing_glyphs"]] == []


def test_every_control_is_inside_the_window(sizes):
    for r in sizes["checks"]:
        _, _, w, h = r["window"]
        for name, (cx, cy, cw, ch) in r["controls"].items():
            if name.startswith("ObeliskCapture"):
                continue   # a row of the scrolled list may be half scrolled away (the list itself is checked)
            assert cx >= -0.5 and cy >= -0.5 and cx + cw <= w + 0.5 and cy + ch <= h + 0.5, (r["view"], r["size"],
                                                                                            name)


def test_the_advisors_sheet_fits_and_keeps_cancel_in_the_window(sizes):
    # Dagobert acts: his sheet opens half round at the far side (by default the fourth seat sits there), and a
    # quarter turn when he sits at the left end
    assert len(sizes["sheets"]) == 2 * len(LANGS) * len(SIZES)
    assert sorted({r["angle"] for r in sizes["sheets"]}) == [180, 270]
    for r in sizes["sheets"]:
        w, h = r["window"]
        assert r["unfit"] == [] and r["options"] >= 1, r
        for x, y, bw, bh in (r["cancel"], r["scroll"]):
            assert x >= -0.5 and y >= -0.5 and x + bw <= w + 0.5 and y + bh <= h + 0.5, r


def test_the_night_shows_captures_and_the_day_four_players(sizes):
    night = [r for r in sizes["checks"] if r["view"] == "night"]
    assert night and all(r["captures"] >= 1 for r in night)
    day = [r for r in sizes["checks"] if r["view"] == "day"]
    assert day and all(r["players"] == 4 for r in day)


def test_a_player_at_each_side_has_a_row_turned_to_that_side(sizes):
    seats = [r for r in sizes["checks"] if r["view"] == "seats"]
    assert len(seats) == len(LANGS) * len(SIZES)
    for r in seats:
        assert r["angles"] == {c: ANGLES[side] for c, side in FOUR_SIDES.items()}, r["size"]
        # the end rows stand upright along their edge: taller than wide, at the window's left and right
        (lx, _, lw, lh), (rx, _, rw, rh) = r["rows"]["black"], r["rows"]["yellow"]
        assert lh > lw and rh > rw and lx < 20 and rx + rw > r["window"][2] - 20, r


def test_with_four_sides_nothing_overlaps(sizes):
    overlaps = [(r["size"], r["lang"], o) for r in sizes["checks"] if r["view"] == "seats" for o in r["overlaps"]]
    assert overlaps == []


# -- the driver --------------------------------------------------------------------------------------------------

def prepare(store) -> dict:
    """Three tables played by the engine's seeded random player: a 4-player Day, a Night with captures to choose
    and a finished game."""
    from companion.games.obelisk.legal import captures
    from companion.games.obelisk.setup import Setup
    from companion.session.table import Table
    from tests.ui.obelisk_touch import choose

    names = (("Annemarie", "blue"), ("Bartholomäus", "yellow"), ("Concepción", "green"), ("Dagobert", "black"))

    def table(n, seed, until, **options):
        setup = Setup.from_json({"players": [{"name": a, "colour": c} for a, c in names[:n]], "seed": seed,
                                 **options})
        t = Table.create(store, "obelisk", setup)
        rng = random.Random(seed)
        while not until(t.state):
            t.apply(choose(t.state, rng))
        return t.id

    def day():
        return table(4, 5, lambda s: s.phase == "day" and sum(map(len, s.used)) >= 3 or s.is_over,
                     leadership=True, time_trials=True)

    from companion.session import preferences

    seats = day()
    preferences.keep_seats(store.data_dir, seats, FOUR_SIDES)   # as Menu → Where everyone sits keeps them
    return {"day": day(), "seats": seats,
            "night": table(2, 23, lambda s: s.phase in ("march", "swarm") and captures(s) and s.day >= 2
                           or s.is_over),
            "over": table(2, 23, lambda s: s.is_over)}


def seat_boxes(d) -> tuple[dict, dict]:
    """{colour: angle} of every player's row as it draws, and {colour: its box in the window}."""
    from tests.ui.fit import window_box

    angles, boxes = {}, {}
    for row in d.by_class("ObeliskPlayer"):
        holder = row.parent
        turned = type(holder).__name__ == "Turned"
        angles[row.value] = int(holder.angle if turned else row.angle) % 360
        boxes[row.value] = list(window_box(row))
    return angles, boxes


def overlaps(d, boxes: dict) -> list[str]:
    """Rows that overlap the map, another row, or any control of the right column."""
    from tests.ui.fit import _overlap, window_box

    others = {"the map": window_box(d.by_id("map")), "the prompt": window_box(d.by_id("prompt")),
              "Undo": window_box(d.by_id("undo")), "Menu": window_box(d.by_id("menu")),
              **{f"button {b.value}": window_box(b) for b in d.by_class("ObeliskAction") if b.value != "undo"}}
    out = []
    names = sorted(boxes)
    for i, a in enumerate(names):
        for name, box in [*((f"row {b}", boxes[b]) for b in names[i + 1:]), *others.items()]:
            if _overlap(boxes[a], box):
                out.append(f"row {a} overlaps {name}")
    return out


def missing_glyphs(widgets) -> list[str]:
    """Characters on screen (the move log's arrows, the setup's minus) that the label's font cannot draw."""
    from kivy.uix.label import Label

    from tests.ui.glyphs import has_glyph

    out = []
    for w in widgets:
        if isinstance(w, Label) and w.text:
            bad = sorted({ch for ch in w.text if not ch.isspace() and not has_glyph(w.font_name, ch)})
            if bad:
                out.append(f"{w.text[:50]!r}: {''.join(bad)} not in {w.font_name}")
    return out


async def scenario(app, args) -> dict:
    from kivy.core.window import Window

    from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels, window_box
    from tests.ui.touch import Touch

    from companion.session.timers import FakeClock

    # The 4-player Day plays Time Trials: on a clock nobody moves, its minute cannot run out while the sizes are
    # looked at (on the wall clock a loaded machine took more than a minute over them, and the Day became a Night).
    app.clock = FakeClock()
    d = Touch(app)
    tables = prepare(app.store)
    app.refresh_home()
    await d.wait_screen("home")
    shots = Path(args.shots) if args.shots else None
    out: dict = {"checks": [], "sheets": []}
    for lang in LANGS:
        app.set_language(lang)
        for size in SIZES:
            w, h = WINDOW_SIZES[size]
            Window.size = (w, h)
            await d.frames(4)
            for view in VIEWS:
                if view == "setup":
                    app.new_table("obelisk")
                    await d.wait_screen("obelisk-setup")
                    seats = d.by_class("ObeliskCount", n=4)
                    await d.tap(seats[0])
                    await d.tap(d.by_id("map_table"))   # the typed map's line shown too
                else:
                    app.open_table(tables[view], history=view == "over")
                    await d.wait_screen("obelisk-table")
                await d.frames(4)
                screen = d.screen()
                model = app.plugin_for("obelisk").table_model
                out["checks"].append({
                    "view": view, "size": f"{w}x{h}", "lang": lang, "unfit": unfit_labels(screen),
                    "controls": {**control_places(screen), **({"the list": list(window_box(d.by_id("scroll")))}
                                                               if view != "setup" else {})},
                    "window": [0, 0, Window.width, Window.height],
                    "missing_glyphs": missing_glyphs(d.walk()),
                    "captures": len(model.captures) if view != "setup" else 0,
                    "players": len(model.players) if view != "setup" else 0})
                if view == "seats":
                    angles, boxes = seat_boxes(d)
                    out["checks"][-1].update(angles=angles, rows=boxes, overlaps=overlaps(d, boxes))
                if shots and (lang == "en" or size == "small"):
                    await d.shot(shots, f"obelisk-{view}-{lang}-{w}x{h}")
                if view in ("day", "seats"):
                    # The advisor's turns in their sheet: its words fit, Cancel and every option within reach.
                    await d.tap(next(b for b in d.by_class("ObeliskAction") if b.value == "best"))
                    await d.frames(3)
                    sheet = app.sheet
                    out["sheets"].append({"size": f"{w}x{h}", "lang": lang, "unfit": unfit_labels(sheet),
                                          "cancel": list(window_box(sheet.ids.close)),
                                          "scroll": list(window_box(sheet.ids.scroll)),
                                          "options": len(sheet.extras), "window": [Window.width, Window.height],
                                          "angle": int(app._sheet_holder.angle)})
                    app.close_sheet()
                app.go_home()
                await d.wait_screen("home")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
