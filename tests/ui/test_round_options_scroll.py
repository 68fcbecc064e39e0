"""The round screen's scrolled options hold still (issue 14 §2), on the real widgets in the app's window: the centre's
ObsnTopScroll and its ObsnTopBox (companion/ui/obscurians/widgets.py, round.kv), and what a Wild counts as laid out so
that every name is whole.

- Options that shrink under a scrolled view (the Pair row goes after the last Secure) move none of the buttons in
  sight; a plain ScrollView beside it, shrunk the same way, moves them (what the group saw: 43-47 px).
- The room kept for that goes once the view is back at its top, when other options come (the goods rows after the
  action choice), and a new turn starts at the top. Unscrolled, the box is as tall as what it holds.
- The four Wild names stand four across where the longest fits a quarter of the narrowest centre (English), else
  2 × 2 (German "Schenken", "Tauschen"), and none is cut either way.

This file is also the driver: run as a script it opens the app and reports (tests/ui/drive.py script_main).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROWS, ROW_H = 10, 50


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "options_scroll")


@pytest.mark.ui
def test_options_that_shrink_under_a_scrolled_view_move_nothing_in_sight(found):
    for where in ("end", "middle"):
        r = found[where]
        assert r["in_sight"] >= 3, r      # buttons were in sight, and stayed
        assert r["moved"] == [], r["moved"]
        # The plain ScrollView, shrunk the same way, moved them: the check can see a move.
        assert r["plain_moved"], r
    assert min(found["end"]["plain_shift"]) >= ROW_H - 1


@pytest.mark.ui
def test_the_room_kept_goes_at_the_top_with_other_options_and_a_new_turn_starts_at_the_top(found):
    assert found["unscrolled"]["box_h"] == found["unscrolled"]["min_h"]          # nothing kept, never scrolled
    assert found["kept"]["box_h"] > found["kept"]["min_h"]                       # kept while scrolled
    assert found["back_at_top"]["box_h"] == found["back_at_top"]["min_h"]
    assert found["other_options"]["box_h"] == found["other_options"]["min_h"]
    assert found["new_turn"]["scroll_y"] == 1 and found["new_turn"]["box_h"] == found["new_turn"]["min_h"]
    # Unscrolled, the first button is at the view's top whatever the box held before.
    assert abs(found["back_at_top"]["first_top"] - found["back_at_top"]["view_top"]) < 1


@pytest.mark.ui
@pytest.mark.parametrize("lang,cols", [("en", 4), ("de", 2)])
def test_wild_names_stand_four_across_where_they_fit_else_two_by_two_and_none_is_cut(found, lang, cols):
    for width, r in found["wilds"][lang].items():
        assert r["cols"] == cols, (width, r)
        assert r["unfit"] == [], (width, r)
        assert r["texts"] and all(r["texts"]), r


# -- the driver ------------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    import asyncio

    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout

    from companion.games.obscurians.constants import WILD_KINDS
    from companion.games.obscurians.vocabulary import FACE
    from companion.i18n import translations
    from companion.ui.obscurians import round as _round  # noqa: F401  (loads round.kv: ObsnTopBox's rule)
    from companion.ui.obscurians.choices import AssignWild
    from companion.ui.obscurians.layout import LAYOUT
    from companion.ui.obscurians.round import RoundModel
    from companion.ui.obscurians.turn import _option, _section
    from companion.ui.obscurians.widgets import ObsnSectionView, ObsnTopBox, ObsnTopScroll
    from companion.ui.widgets import FitScrollView
    from tests.ui.fit import control_places, moved, unfit_labels, window_box

    async def frames(n=4):
        for _ in range(n):
            await asyncio.sleep(0.05)

    Window.size = (dp(960), dp(600))   # the smallest window (20 px text, the narrowest centre)
    LAYOUT.follow_window()             # (as the Obscurians screens do)
    await frames()
    layer = FloatLayout()
    Window.add_widget(layer)

    def options(kind):
        """A view of ROWS buttons: the centre's own (ObsnTopScroll + ObsnTopBox), or a plain ScrollView and
        BoxLayout."""
        view = (ObsnTopScroll if kind == "top" else FitScrollView)(size_hint=(None, None), size=(300, 200),
                                                              do_scroll_x=False, always_overscroll=False)
        view.pos = (40, 100) if kind == "top" else (400, 100)
        if kind == "top":
            box = ObsnTopBox(view=view)
        else:
            box = BoxLayout(orientation="vertical", size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
        for i in range(ROWS):
            box.add_widget(Button(text=f"{kind} {i}", size_hint_y=None, height=ROW_H))
        view.add_widget(box)
        layer.add_widget(view)
        return view, box

    def state(view, box):
        first = box.children[-1]
        return {"box_h": round(box.height, 1), "min_h": round(box.minimum_height, 1),
                "scroll_y": round(view.scroll_y, 3), "first_top": round(window_box(first)[1] + first.height, 1),
                "view_top": round(window_box(view)[1] + view.height, 1)}

    out: dict = {}
    top, top_box = options("top")
    plain, plain_box = options("plain")
    await frames()
    out["unscrolled"] = state(top, top_box)
    for where, scroll_y in (("end", 0.0), ("middle", 0.5)):
        for view in (top, plain):
            view.scroll_y = scroll_y
        await frames()
        before = control_places(top)
        plain_before = control_places(plain)
        # The last row goes (as the Pair row does after the last Secure).
        for box in (top_box, plain_box):
            box.remove_widget(box.children[0])
        await frames()
        if where == "end":
            out["kept"] = state(top, top_box)
        after, plain_after = control_places(top), control_places(plain)
        out[where] = {"in_sight": len(set(before) & set(after)), "moved": moved(before, after),
                      "plain_moved": moved(plain_before, plain_after),
                      "plain_shift": [abs(plain_after[k][1] - plain_before[k][1])
                                      for k in set(plain_before) & set(plain_after)]}
    # Scrolled back to the top: no room kept, the first row at the view's top.
    top.scroll_y = 1
    await frames()
    out["back_at_top"] = state(top, top_box)
    # Scrolled, a row gone (room kept), then other options come.
    top.scroll_y = 0
    await frames()
    top_box.remove_widget(top_box.children[0])
    await frames()
    out["held_again"] = state(top, top_box)
    top.step = "goods"
    await frames()
    out["other_options"] = state(top, top_box)
    # Scrolled, then the turn passes.
    top.scroll_y = 0
    await frames()
    top_box.remove_widget(top_box.children[0])
    await frames()
    top.turn = "1:2"
    await frames()
    out["new_turn"] = state(top, top_box)
    Window.remove_widget(layer)

    # What a Wild counts as, in the centre's options at its narrowest (cells of 84 and 90 px four across).
    out["wilds"] = {}
    for lang in ("en", "de"):
        t = translations(lang).gettext
        section = _section("", len(WILD_KINDS), [_option(AssignWild(k), t(FACE[k])) for k in WILD_KINDS],
                           kind="wilds")
        data = RoundModel._section(section)
        out["wilds"][lang] = {}
        for width in (4 * 84 + 9, 4 * 90 + 9):
            holder = FloatLayout()
            view = ObsnSectionView(size_hint=(None, None), width=width, pos=(40, 100), title=data["title"],
                               cols=data["cols"], items=data["items"], kind=data["kind"])
            holder.add_widget(view)
            Window.add_widget(holder)
            await frames()
            grid = view.children[0]
            out["wilds"][lang][width] = {"cols": grid.cols, "unfit": unfit_labels(view),
                                         "texts": [b.text for b in grid.children]}
            Window.remove_widget(holder)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    raise SystemExit(script_main(scenario))
