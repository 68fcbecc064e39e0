"""The demons glide at Night (issue 18 §5: "step through the movement with animation"), on the real app: on *Watch
them walk* and after *Demons move* each demon goes from tile to tile on a Kivy Animation of GLIDE (0.45 s) — caught
between two tiles, then resting on the next — instead of jumping; after Demons move the walk starts where they stood
and ends where the table now has them. Deterministic: the checks wait for what the map draws (the glide's progress,
the disc positions), never for a time.

This file is also the driver: `python tests/ui/test_obelisk_glide.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def glide(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "obelisk_glide")


def test_a_step_is_a_glide_then_a_rest(glide):
    assert glide["glide_s"] == 0.45 and 0 < glide["rest_s"] < glide["glide_s"]


def test_watching_the_walk_the_demons_glide_between_tiles(glide):
    w = glide["watch"]
    assert w["start_at_centres"]                    # step 0: where they stand
    assert 0.2 < w["mid"]["progress"] < 0.8 and w["mid"]["step"] == 1
    assert w["mid"]["gliding"] >= 1 and w["mid"]["off_centre"] == w["mid"]["gliding"]   # between two tiles
    assert w["rest"]["gliding"] == 0 and w["rest"]["at_centres"]
    assert w["rest"]["title"].endswith(f"Step {w['rest']['step']}")
    assert w["stopped_title"] == "Night 2" and w["actions"] == 0


def test_after_demons_move_they_walk_there_from_where_they_stood(glide):
    m = glide["march"]
    assert m["recorded"] == "march"
    assert m["step_at_once"] == 0 and m["first_drawn"] == m["stood"]           # the walk starts where they stood, not where they end
    assert m["mid"]["gliding"] >= 1 and m["mid"]["off_centre"] == m["mid"]["gliding"]
    assert m["end_drawn"] == m["now"]               # and ends where the table has them
    assert m["end_title"] == "Night 2"


# -- the driver --------------------------------------------------------------------------------------------------

def centres(m) -> dict:
    from companion.games.obelisk.model import all_cells

    return {cell: m.cell_centre(cell) for cell in all_cells()}


def where(m) -> dict:
    """What the map draws now: each disc's colour and place (a cell, or None between cells), and how many glide."""
    cs = centres(m)
    tol = m.tile * 0.05
    out = {"gliding": 0, "off_centre": 0, "cells": []}
    for colour, x, y, gliding in m.drawn_demons:
        cell = next((c for c, (cx, cy) in cs.items() if abs(cx - x) < tol and abs(cy - y) < tol), None)
        out["gliding"] += gliding
        out["off_centre"] += cell is None
        out["cells"].append([colour, list(cell) if cell else None])
    out["cells"].sort(key=str)
    out["at_centres"] = out["off_centre"] == 0
    return out


def demons_of(state) -> list:
    """Each colour on each tile once (the map draws one disc for demons alike, with their count)."""
    return sorted({(d.colour, d.at) for d in state.demons}, key=str)


def drawn_cells(m) -> list:
    """The drawn discs as (colour, cell), each once."""
    return sorted({(colour, tuple(cell)) for colour, cell in where(m)["cells"] if cell is not None}, key=str)


async def scenario(app, args) -> dict:
    from companion.ui.obelisk import mapview, table as table_module
    from tests.ui.obelisk_nights import to_second_night
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    out: dict = {"glide_s": mapview.GLIDE, "rest_s": table_module.WALK_REST}
    await d.wait_screen("home")
    await to_second_night(d, app)
    model, table, m = d.model, app.table, d.map()
    assert model.state.phase == "march" and model.state.demons, model.state.phase

    # Every glide's end, as the map draws it (followed on the map's own event: no frame of the test can miss it).
    rests: list = []
    m.fbind("glides", lambda *_: rests.append({**where(m), "title": model.title, "step": model.walk_step}))
    # … and the demons between two tiles, each frame of a glide as it is drawn.
    between: list = []

    def on_glide(*_):
        if 0 < m.glide < 1:
            m._draw_gliders()        # (what the map's own on_glide draws; observers may be told first)
            between.append({**where(m), "progress": m.glide, "step": model.walk_step})

    def midway(samples) -> dict:
        return min(samples, key=lambda x: abs(x["progress"] - 0.5))
    m.fbind("glide", on_glide)

    # Watch them walk: step 0 where they stand, then a glide to step 1, resting there.
    n = len(table.actions)
    await d.button("watch")
    await d.until(lambda: model.walk_step == 0, "the walk's start")
    watch = {"start_at_centres": where(m)["at_centres"]}
    await d.until(lambda: rests and between, "a glide to the next tile")
    await d.until(lambda: rests, "the glide's end")
    watch["mid"] = midway([b for b in between if b["step"] == 1])
    watch["rest"] = rests[0]
    out["frames_between"] = len(between)
    if model.walk_step is not None:
        await d.button("watch")     # Stop (a short walk may have ended by itself)
    await d.until(lambda: model.walk_step is None, "the walk stopped")
    watch["stopped_title"] = model.title
    watch["actions"] = len(table.actions) - n
    out["watch"] = watch

    # Demons move: recorded at once; the map walks them there from where they stood.
    stood = demons_of(model.state)
    await d.button("march")
    await d.until(lambda: len(table.actions) > n, "Demons move", 5)
    march = {"recorded": table.actions[-1].to_text(), "stood": stood, "step_at_once": model.walk_step,
             "first_drawn": drawn_cells(m)}
    between.clear()
    await d.until(lambda: model.walk_step != 1 and between, "a demon on its way")
    march["mid"] = midway([b for b in between if b["step"] == 1])
    await d.until(lambda: model.walk_step is None, "the walk's end", 30)
    await d.frames(3)
    march["end_drawn"] = drawn_cells(m)
    march["now"] = demons_of(model.state)
    march["end_title"] = model.title
    out["march"] = march
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main
    from tests.ui.obelisk_nights import SEED

    sys.exit(script_main(scenario, seed=SEED))
