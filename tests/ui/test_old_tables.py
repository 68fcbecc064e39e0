"""Tables an earlier version of the app wrote open in today's app, by touch, as they were played.

The database is tests/data/e778442-then-6cec2b4: made by the first app with tables (its Secures could take one
good), then updated by a later one (schema 2, Obscurio). Home lists every table; Resume and Scores open them, the
score screen shows the totals the group saw then, and Home comes back (tests/test_old_databases.py checks the same
through the store and the command line).

This file is also the driver: `python tests/ui/test_old_tables.py --data-dir D --out result.json [--shots DIR]`
(D holding a copy of that database).
"""
from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "tests" / "data" / "e778442-then-6cec2b4"


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    from tests.ui.conftest import run_script

    tmp = tmp_path_factory.mktemp("old_tables")
    (tmp / "data").mkdir()
    shutil.copyfile(OLD / "tables.sqlite3", tmp / "data" / "tables.sqlite3")
    return run_script(Path(__file__), "--data-dir", str(tmp / "data"), out=tmp / "old.json")


def expected() -> dict:
    return json.loads((OLD / "expected.json").read_text())


@pytest.mark.ui
def test_home_lists_every_old_table_with_its_button(opened):
    want = expected()
    rows = opened["home"]
    assert [r["id"] for r in rows["unfinished"]] == want["unfinished"]
    assert [r["id"] for r in rows["finished"]] == want["finished"]
    for row in rows["unfinished"] + rows["finished"]:
        assert row["title"].endswith(want["tables"][str(row["id"])]["title"])  # "Obscurians — Friday, finished"
        assert row["button"] in ("Resume", "Scores") and "unreadable" not in row["detail"]


@pytest.mark.ui
def test_resume_and_scores_open_the_old_tables_as_they_were_played(opened):
    want = expected()
    visits = {v["table"]: v for v in opened["opened"]}
    assert set(visits) == {v["row"] for v in opened["opened"]}  # each button opened its own table
    for tid, visit in visits.items():
        table = want["tables"][str(tid)]
        assert visit["screen"] not in ("home", None), visit
        assert visit["rules_version"] == (1 if table["secure_one_good"] else 2 if table["game"] == "obscurians"
                                          else 1)
        assert visit["state"] == {**table["state"], "setup": None}
        if table["outcome"] and table["game"] == "obscurians":
            # The totals the group saw at the end, on today's score screen.
            for player in table["outcome"]["players"]:
                assert str(player["total"]) in visit["texts"], (player, visit["texts"])
    assert opened["home_again"] == opened["home"]


NOTE = "Recorded under an earlier ruling: Secure took one good"


@pytest.mark.ui
def test_an_old_table_says_the_ruling_it_was_recorded_under_in_its_header_and_log(opened):
    visits = {v["table"]: v for v in opened["opened"]}
    # Table 2 (half way, recorded when Secure took one good): resumed, the event card's panel and the bottom of
    # the move log say so; the finished table 1 says it beside the winners; today's tables say nothing of it.
    half_way = visits[2]
    assert half_way["screen"] == "round"
    assert half_way["rules_note"] == NOTE and half_way["log_bottom"] == NOTE
    assert NOTE in half_way["shown"] and half_way["note_fits"]
    assert any(NOTE in text for text in visits[1]["shown"])
    assert not any("earlier ruling" in t for tid in (9, 10) for t in visits[tid]["texts"])
    assert opened["de_note"] == "Nach einer früheren Regelentscheidung gespielt: Sichern nahm eine Ware"


# -- the driver --------------------------------------------------------------------------------------------------

LISTS = {"unfinished": "unfinished_list", "finished": "finished_list"}  # Home's two lists: key -> their ids


def list_view(d, key: str):
    """The RecycleView of one of Home's lists."""
    return d.by_id("rv", root=d.by_id(LISTS[key]))


async def every_row(d) -> dict:
    """Every row of Home's two lists as the screen shows it, scrolling each list from top to bottom as a player
    would (a RecycleView builds only the rows in sight; a narrow window shows one list at a time)."""
    from tests.ui.test_home_way_back import home_rows

    rows = {key: [] for key in LISTS}
    for key in LISTS:  # each list once in sight, as a player's tap on its tab: a list never shown is not built yet
        await d.home_list(finished=key == "finished")
    await d.home_list(finished=False)
    for scroll_y in (1, 0.5, 0):
        for key in LISTS:
            list_view(d, key).scroll_y = scroll_y
        await d.frames(3)
        for key, seen in (await home_rows(d)).items():
            rows[key] += [r for r in seen if r["id"] not in {x["id"] for x in rows[key]}]
    for key in LISTS:
        list_view(d, key).scroll_y = 1
    await d.frames(2)
    return rows


async def row_button(d, key: str, tid: int):
    """The Resume/Scores button of table `tid`'s row, its list brought into sight and scrolled until the row is
    built."""
    await d.home_list(finished=key == "finished")
    for scroll_y in (1, 0.5, 0):
        list_view(d, key).scroll_y = scroll_y
        await d.frames(3)
        item = next((w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == tid
                     and w.parent is not None), None)
        if item is not None:
            return next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton")
    raise AssertionError(f"Home shows no row for table {tid}")


async def scenario(app, args) -> dict:
    from tests.ui.test_home_way_back import go_home_by_touch
    from tests.ui.touch import Touch

    d = Touch(app, random.Random(0))
    await d.wait_screen("home")
    await d.frames(3)
    shots = Path(args.shots) if args.shots else None
    out: dict = {"home": await every_row(d), "opened": []}
    # A version-1 table of each list, and the Obscurio tables the later app played into the same file.
    plan = [("unfinished", 2), ("finished", 1), ("unfinished", 10), ("finished", 9)]
    for key, tid in plan:
        button = await row_button(d, key, tid)
        await d.tap(button)
        await d.frames(5)
        if app.sheet is not None:  # a moment over the table (an announcement): tap it away first
            await d.tap(app.sheet)
            await d.frames(3)
        table = app.table
        visit = {
            "row": tid, "table": table.id if table is not None else None, "screen": app.sm.current,
            "rules_version": table.rules_version if table is not None else None,
            "state": {**table.state.to_json(), "setup": None} if table is not None else None,
            "texts": [t for t in d.texts() if t],
            "shown": [w.text for w in d.walk() if isinstance(getattr(w, "text", None), str) and w.text
                      and d.visible(w) and w.opacity > 0 and w.height > 0],
        }
        if app.sm.current == "round":  # the header's note, and the oldest line of the move log
            note = d.by_id("rules_note")
            visit["rules_note"] = note.text
            visit["note_fits"] = note.texture_size[1] <= note.height and note.texture_size[0] <= note.width + 1
            visit["log_bottom"] = app.plugin.round.log[-1]["text"]
            app.set_language("de")
            await d.frames(3)
            out["de_note"] = d.by_id("rules_note").text
            app.set_language("en")
            await d.frames(3)
        out["opened"].append(visit)
        if shots:
            await d.shot(shots, f"old-table-{tid}")
        await go_home_by_touch(d)
    out["home_again"] = await every_row(d)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
