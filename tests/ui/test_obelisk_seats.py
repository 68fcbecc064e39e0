"""Each player's row faces their seat (issue 18 §5, TABLE_UX: a tablet lying between the players), by touch on the
real app: with two players sitting across the table, Ben's row is turned half round for the far side and still takes
his tap (he acts: his Build is recorded as his), and his payment picker opens turned to him; Menu → Where everyone sits moves a player to the other long side and
their row turns with them; Menu → Turn the screen turns the shared parts for the far side while every row keeps facing
its player.

This file is also the driver: `python tests/ui/test_obelisk_seats.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def seats(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "obelisk_seats")


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
    assert seats["moved_banner"] == "Ben's row now faces the near side"
    assert seats["angles_after_move"] == {"Ana": 0, "Ben": 0}


def test_turning_the_screen_keeps_every_row_facing_its_player(seats):
    # The screen turned half round for the far side: the near side's rows are turned back within it.
    assert seats["facing"] == 180 and seats["angles_turned"] == {"Ana": 180, "Ben": 180}


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from tests.ui.obelisk_nights import new_table
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    out: dict = {}
    await d.wait_screen("home")
    await new_table(d, app)
    model = d.model
    names = {c: n for n, c in model.state.setup.players}

    def rows() -> dict:
        return {names[w.value]: w for w in d.by_class("ObeliskPlayer")}

    def angles() -> dict:
        return {n: int(w.angle) for n, w in rows().items()}

    out["angles"] = angles()
    out["drawn_turned"] = {n: int(w._turn.angle) for n, w in rows().items()}
    await d.shot(shots, "obelisk-seats")
    ben = next(c for c, n in names.items() if n == "Ben")
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

    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Where everyone sits"))
    out["seat_options"] = [w.text for w in app.sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"]
    await d.pick("Ben: the far side")
    out["moved_banner"] = app.banner
    out["angles_after_move"] = angles()

    await d.tap(d.by_id("menu"))
    await d.pick(app.t("Turn the screen to the other side"))
    await d.frames(2)
    out["facing"] = int(model.facing)
    out["angles_turned"] = angles()
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
