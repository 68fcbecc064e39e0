"""Each player's row faces their seat (issue 18 §5, TABLE_UX: a tablet lying between the players), by touch on the
real app: with two players sitting across the table, Ben's row is turned half round for the far side and still takes
his tap (he acts: his Build is recorded as his), and his payment picker opens turned to him; Menu → Where everyone
sits → a player → a side moves them to any of the four sides: at an end of the table their row stands along that
edge turned a quarter, takes their tap, and their sheets open turned to them; a full end says why it refuses. Menu →
Turn the screen turns the shared parts for the far side while every row keeps facing its player. Who sits where is
kept with the table, not in its log: Home → Resume and a restart of the app find it as the group left it, and the
table's moves are the same.

This file is also the driver: `python tests/ui/test_obelisk_seats.py --data-dir D --out result.json [--shots DIR]`;
run a second time on the same data dir it is the restart (it resumes the table and reads where everyone sits).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    from tests.ui.conftest import run_script

    tmp = tmp_path_factory.mktemp("obelisk_seats")
    (tmp / "data").mkdir()
    first = run_script(Path(__file__), "--data-dir", str(tmp / "data"), out=tmp / "first.json")
    again = run_script(Path(__file__), "--data-dir", str(tmp / "data"), out=tmp / "again.json")
    return first, again


@pytest.fixture(scope="module")
def seats(runs):
    return runs[0]


def test_players_across_the_table_have_their_rows_turned_to_them(seats):
    assert seats["angles"] == {"Ana": 0, "Ben": 180}
    assert seats["drawn_turned"] == {"Ana": 0, "Ben": 180}       # what the rows draw, words and all


def test_a_turned_row_takes_its_players_tap(seats):
    assert seats["selected_after_tap"] == "Ben"
    assert seats["built"] == f"build {seats['ben_colour']} B2"


def test_the_far_players_payment_picker_faces_him_and_takes_his_tap(seats):
    assert seats["picker_angle"] == 180 and seats["picker_closed"]


def test_a_player_moved_to_the_other_side_has_their_row_turned_with_them(seats):
    assert seats["seat_options"] == ["Ana: the near side", "Ben: the far side"]
    assert seats["side_options"] == ["The near side", "The far side", "The left end", "The right end"]
    assert seats["moved_banner"] == "Ben's row now faces the near side"
    assert seats["angles_after_move"] == {"Ana": 0, "Ben": 0}


def test_players_at_the_ends_have_rows_along_their_edge_turned_to_them(seats):
    assert seats["ends_banner"] == "Ben's row now faces the right end"
    assert seats["angles_at_ends"] == {"Ana": 270, "Ben": 90}
    ana, ben, window = seats["boxes_at_ends"]["Ana"], seats["boxes_at_ends"]["Ben"], seats["window"]
    assert ana[0] < 20 and ben[0] + ben[2] > window[0] - 20       # at the left and the right edge
    assert ana[3] > ana[2] and ben[3] > ben[2]                   # standing along the edge
    assert seats["end_options"] == ["Ana: the left end", "Ben: the right end"]


def test_a_row_at_an_end_takes_its_players_tap_and_his_sheet_faces_him(seats):
    assert seats["selected_at_end"] == "Ana"
    assert seats["ben_picker_angle"] == 90 and seats["ben_picker_closed"]


def test_turning_the_screen_keeps_every_row_facing_its_player(seats):
    # The screen turned half round for the far side: every row is turned back within it, the ends' strips swap.
    assert seats["facing"] == 180 and seats["angles_turned"] == {"Ana": 90, "Ben": 270}
    ana, ben = seats["boxes_turned"]["Ana"], seats["boxes_turned"]["Ben"]
    assert ana[0] < 20 and ben[0] + ben[2] > seats["window"][0] - 20   # still at their own edges of the tablet


def test_where_everyone_sits_is_kept_with_the_table_not_in_its_log(runs):
    first, again = runs
    assert first["resumed_angles"] == {"Ana": 270, "Ben": 90}      # Home → Resume
    assert again["restarted_angles"] == {"Ana": 270, "Ben": 90}    # the app started again
    assert again["moves"] == first["moves"]                        # the log as it was: seats are no move
    assert first["actions_after_seats"] == first["actions_before_seats"]
    assert sorted(first["saved_sides"].values()) == ["left", "right"]   # kept beside the tables, by colour


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from tests.ui.obelisk_nights import new_table
    from tests.ui.obelisk_touch import ObeliskFinger
    from tests.ui.test_home_way_back import go_home_by_touch

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    if app.store.count():
        return await restart(app, d)
    await new_table(d, app)
    model = d.model
    names = {c: n for n, c in model.state.setup.players}

    def rows() -> dict:
        return {names[w.value]: w for w in d.by_class("ObeliskPlayer")}

    def angles() -> dict:
        # what each row draws: turned half round by itself, or a quarter by the Turned it stands in (an end)
        return {n: int(w.parent.angle if type(w.parent).__name__ == "Turned" else w.angle) % 360
                for n, w in rows().items()}

    def boxes() -> dict:
        from tests.ui.fit import window_box

        return {n: [round(v) for v in window_box(w)] for n, w in rows().items()}

    out["angles"] = angles()
    out["drawn_turned"] = {n: int(w._turn.angle) for n, w in rows().items()}
    ben = next(c for c, n in names.items() if n == "Ben")
    ana = next(c for c, n in names.items() if n == "Ana")
    out["ben_colour"] = ben
    await d.tap(rows()["Ben"])
    await d.frames(2)
    out["selected_after_tap"] = names.get(model.actor)
    n = len(app.table.actions)
    await d.tap_corner((1, 1))
    await d.frames(3)
    out["built"] = app.table.actions[-1].to_text() if len(app.table.actions) > n else None
    # Ben taps his Obelisk: the payment picker opens turned to him, and takes his tap (Cancel).
    await d.tap_corner((1, 1))
    await d.frames(3)
    out["picker_angle"] = int(app._sheet_holder.angle) if app.sheet is not None else None
    await d.shot(shots, "obelisk-seats-picker")
    await d.tap(app.sheet.ids.close)
    await d.frames(3)
    out["picker_closed"] = app.sheet is None

    def options() -> list:
        return [w.text for w in app.sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"]

    async def seat(name: str, side_text: str) -> None:
        await d.tap(d.by_id("menu"))
        await d.pick(app.t("Where everyone sits"))
        await d.pick(next(o for o in options() if o.startswith(name + ": ")))
        await d.pick(side_text)
        await d.frames(3)

    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Where everyone sits"))
    out["seat_options"] = options()
    await d.pick("Ben: the far side")
    out["side_options"] = options()
    await d.pick("The near side")
    out["moved_banner"] = app.banner
    out["angles_after_move"] = angles()

    # Ana at the left end, Ben at the right end: rows along those edges, turned to them.
    out["actions_before_seats"] = len(app.table.actions)
    await seat("Ana", "The left end")
    await seat("Ben", "The right end")
    out["ends_banner"] = app.banner
    out["actions_after_seats"] = len(app.table.actions)
    out["angles_at_ends"] = angles()
    out["boxes_at_ends"] = boxes()
    from kivy.core.window import Window

    out["window"] = [Window.width, Window.height]
    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Where everyone sits"))
    out["end_options"] = options()
    app.close_sheet()
    await d.frames(2)
    await d.tap(rows()["Ana"])
    await d.frames(2)
    out["selected_at_end"] = names.get(model.actor)
    await d.tap(rows()["Ben"])
    await d.frames(2)
    await d.shot(shots, "obelisk-seats")
    await d.tap_corner((1, 1))       # Ben's Obelisk: his picker opens turned to the right end
    await d.frames(3)
    out["ben_picker_angle"] = int(app._sheet_holder.angle) if app.sheet is not None else None
    await d.shot(shots, "obelisk-seats-end-picker")
    await d.tap(app.sheet.ids.close)
    await d.frames(3)
    out["ben_picker_closed"] = app.sheet is None

    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Turn the screen to the other side"))
    await d.frames(3)
    out["facing"] = int(model.facing)
    out["angles_turned"] = angles()
    out["boxes_turned"] = boxes()
    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Turn the screen to the other side"))
    await d.frames(2)

    # Home → Resume: where everyone sits is as the group left it.
    table_id = app.table.id
    await go_home_by_touch(d)
    item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                and w.parent is not None)
    await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
    await d.wait_screen("obelisk-table")
    await d.frames(3)
    out["resumed_angles"] = angles()
    out["moves"] = [a.to_text() for a in app.table.actions]
    from companion.session import preferences

    out["saved_sides"] = preferences.table_seats(app.store.data_dir, table_id)
    assert {ana, ben} == set(out["saved_sides"])
    return out


async def restart(app, d) -> dict:
    """The second run on the same data: the table resumed from Home after a restart, its rows where they were."""
    item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.parent is not None)
    await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
    await d.wait_screen("obelisk-table")
    await d.frames(3)
    names = {c: n for n, c in d.model.state.setup.players}
    return {"restarted_angles": {names[w.value]: int(w.parent.angle if type(w.parent).__name__ == "Turned"
                                                    else w.angle) % 360 for w in d.by_class("ObeliskPlayer")},
            "moves": [a.to_text() for a in app.table.actions]}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
