"""Home, a table, Home again, another table, Home again (docs/architecture.md, table rule 10: coming back works).

Every time Home is shown, each row of "Continue a table" and "Finished games" shows its table's name, where it stands
and its button (Resume or Scores), exactly as the first time; and the button still opens that table. Both games,
unfinished and finished tables, by touch on the real app.

This file is also the driver: run as a script it opens the app on a store it fills and walks the way back:

    python tests/ui/test_home_way_back.py --data-dir D --out result.json [--lang L] [--shots DIR]
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def way_back(own_driver):
    return own_driver


def by_table(rows: list[dict]) -> dict:
    """Rows by table id, each without its last-played time (a table visited on the way, its clock running, may
    have been played a minute later, and then also moves to the top: the lists are most recent first)."""
    return {r["id"]: {**r, "detail": r["detail"].rsplit(" · ", 1)[0]} for r in rows}


@pytest.mark.ui
def test_home_shows_the_same_rows_every_time_it_comes_back(way_back):
    first = way_back["visits"][0]
    assert len(first["unfinished"]) == 3 and len(first["finished"]) == 2
    for row in first["unfinished"] + first["finished"]:
        assert row["title"] and row["detail"] and row["button"] in ("Resume", "Scores") and row["more"] == "More"
    for visit in way_back["visits"][1:]:
        for key in ("unfinished", "finished"):
            assert by_table(visit[key]) == by_table(first[key]), \
                f"after {visit['after']}, Home's {key} list shows other rows than at first"


@pytest.mark.ui
def test_each_row_still_opens_its_own_table_after_coming_back(way_back):
    opened = way_back["opened"]
    assert [o["via"] for o in opened] == ["Resume", "Scores", "Resume", "Scores", "Resume"]
    for o in opened:
        assert o["table"] == o["row"], o
        assert o["screen"] != "home"


@pytest.mark.ui
def test_a_new_table_of_each_game_after_another_games_opens_its_setup(way_back):
    new = way_back["new_tables"]
    assert [n["game"] for n in new] == ["obelisk", "obscurians", "obscurio", "obelisk"], new
    for n in new:
        assert n["screen"] not in ("home", ""), n


@pytest.mark.ui
def test_a_language_switch_on_the_way_back_reaches_every_row(way_back):
    german = way_back["german"]
    assert german["buttons"] and set(german["buttons"]) <= {"Fortsetzen", "Wertung"}
    assert all(row["title"] for row in german["rows"])


# -- the driver --------------------------------------------------------------------------------------------------

def fill_store(store) -> None:
    """Three unfinished tables (two Obscurians, one Obscurio) and two finished ones (one of each game)."""
    from companion.session import games
    from companion.session.table import Table

    rng = random.Random(11)
    for seed, game, n, moves in ((1, "obscurians", 4, 30), (2, "obscurio", 4, 12), (3, "obscurians", 5, 60)):
        setup, actions = games.get(game).random_game(seed, n)
        table = Table.create(store, game, setup, title="")
        for action in actions[:moves]:
            table.apply(action)
    for seed, game, n in ((4, "obscurians", 4), (5, "obscurio", 5)):
        setup, actions = games.get(game).random_game(seed, n)
        table = Table.create(store, game, setup, title="")
        for action in actions:
            table.apply(action)
        assert table.finished
    del rng


async def home_rows(d) -> dict:
    """What Home's two lists show, row by row, read from the widgets on screen (not from the model); each list
    brought into sight first as a player does (a narrow window shows one at a time, under its tab)."""
    rows = {"unfinished": [], "finished": []}
    for key, view_id in (("unfinished", "unfinished_list"), ("finished", "finished_list")):
        await d.home_list(finished=key == "finished")
        view = d.by_id(view_id)
        items = [w for w in view.walk(restrict=True) if type(w).__name__ == "TableItem" and w.parent is not None
                 and d.visible(w)]
        items.sort(key=lambda w: -w.to_window(*w.pos)[1])  # top to bottom
        for w in items:
            # Read what the row holds now (its children), not its ids: an emptied row has none.
            labels = [c.text for c in w.walk(restrict=True) if type(c).__name__ == "Txt"]
            buttons = {c.__class__.__name__: c.text for c in w.walk(restrict=True) if c is not w and hasattr(c, "on_release")}
            rows[key].append({"id": w.table_id, "title": labels[0] if labels else "",
                              "detail": labels[1] if len(labels) > 1 else "",
                              "button": buttons.get("BigButton", ""), "more": buttons.get("QuietButton", "")})
    await d.home_list(finished=False)
    return rows


async def go_home_by_touch(d) -> None:
    """Tap the Home button the table's screen shows (whichever game or screen it is)."""
    home = d.app.t("Home")
    for w in d.walk():
        if getattr(w, "text", None) == home and hasattr(w, "on_release") and d.visible(w):
            await d.tap(w)
            await d.wait_screen("home")
            await d.frames(3)
            return
    raise AssertionError(f"no Home button on {d.app.sm.current}")


async def scenario(app, args) -> dict:
    from tests.ui.touch import Touch

    d = Touch(app, random.Random(0))
    fill_store(app.store)
    app.refresh_home()
    await d.wait_screen("home")
    await d.frames(3)
    shots = Path(args.shots) if args.shots else None
    out: dict = {"visits": [], "opened": []}
    first = await home_rows(d)
    out["visits"].append({"after": "start", **first})
    if shots:
        await d.shot(shots, "home-tables")
    # Home → a table → Home, five times: each row's own button, alternating the lists and the games.
    plan = [("unfinished", 0), ("finished", 0), ("unfinished", 1), ("finished", 1), ("unfinished", 2)]
    for key, index in plan:
        row = first[key][index]
        await d.home_list(finished=key == "finished")
        item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == row["id"]
                    and w.parent is not None)
        button = next((c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"), None)
        if button is None:  # an emptied row: nothing to tap (the bug this file guards against)
            out["opened"].append({"via": "", "row": row["id"], "table": None, "screen": app.sm.current})
            continue
        await d.tap(button)
        await d.frames(3)
        out["opened"].append({"via": row["button"], "row": row["id"],
                              "table": app.table.id if app.table is not None else None, "screen": app.sm.current})
        if app.sheet is not None:  # a moment (an announcement) over the table: tap it away first
            await d.tap(app.sheet)
        await go_home_by_touch(d)
        out["visits"].append({"after": f"{row['button']} {row['id']}", **(await home_rows(d))})
    # A new table of each game in turn, from Home's cards, and Home between them: each game's screens still draw
    # after another game's were loaded (Kivy's `#:import` names are global: two games' `look` once overwrote each
    # other, and a new Obscurians table after an Obelisk one crashed the app).
    out["new_tables"] = []
    for game in ("obelisk", "obscurians", "obscurio", "obelisk"):
        await d.tap(d.by_class("GameCard", game=game)[0].ids.new_button)
        await d.frames(3)
        out["new_tables"].append({"game": game, "screen": app.sm.current})
        back = next((w for w in d.walk() if type(w).__name__ in ("BackButton", "HomeButton") and d.visible(w)), None)
        if back is None:
            break
        await d.tap(back)
        await d.wait_screen("home")
        await d.frames(3)
    out["visits"].append({"after": "new tables", **(await home_rows(d))})
    # The language switched on Home after the way back: the rows follow.
    german = next(w for w in d.walk() if type(w).__name__ == "LangButton" and w.code == "de")
    await d.tap(german)
    await d.frames(3)
    rows = await home_rows(d)
    out["german"] = {"rows": rows["unfinished"] + rows["finished"],
                     "buttons": [r["button"] for r in rows["unfinished"] + rows["finished"]]}
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
