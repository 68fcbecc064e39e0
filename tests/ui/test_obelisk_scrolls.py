"""The Scrolls at an Obelisk table by touch (issue 18 §5 with the expansion): the deciphered Scrolls are listed beside
the map; tapping an Obelisk offers, after the Reinforce payments, each Scroll that can be charged on it; then how
(Burnout's boost, the Longbow's direction, the tiles Broken Earth swaps), then the payment — each offered only when
the engine accepts it. Three tables the engine's seeded random player brought to such a Day are resumed from Home.

This file is also the driver: `python tests/ui/test_obelisk_scrolls.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
SEEDS = {"longbow": 1, "broken_earth": 7, "burnout": 8}


@pytest.fixture(scope="module")
def scrolls(own_driver):
    return own_driver


@pytest.mark.parametrize("scroll", sorted(SEEDS))
def test_a_scroll_is_charged_by_touch(scrolls, scroll):
    r = scrolls[scroll]
    assert r["face_up"].startswith("Scrolls face up: ") and r["name"] in r["face_up"]
    assert f"Charge {r['name']}" in r["first_sheet"]
    assert len(r["ways"]) >= 2
    assert r["played"] == "charge" and r["scroll"] == scroll
    assert r["log"].endswith(f"charged {r['name']} on the Obelisk on corner {r['corner']}")
    assert r["name"] not in r["face_up_after"]
    assert r["rune_drawn"]


# -- the driver --------------------------------------------------------------------------------------------------

def prepare(store) -> dict:
    """Per Scroll, a 2-player table with Scrolls at a Day where it can be charged several ways: (table id, player,
    corner)."""
    from companion.games.obelisk.setup import Setup
    from companion.session.table import Table
    from companion.ui.obelisk import charges
    from tests.ui.obelisk_touch import choose

    out = {}
    for scroll, seed in SEEDS.items():
        setup = Setup.from_json({"players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "yellow"}],
                                 "scrolls": True, "seed": seed})
        table = Table.create(store, "obelisk", setup)
        rng = random.Random(seed)
        while True:
            s = table.state
            hit = next(((c, o.corner) for c in s.acting for o in s.obelisks
                        if len(charges.ways(s, c, o.corner).get(scroll, ())) > 1), None)
            if hit:
                out[scroll] = (table.id, *hit)
                break
            table.apply(choose(s, rng))
    return out


async def scenario(app, args) -> dict:
    from companion.games.obelisk.model import cell_name
    from companion.games.obelisk.vocabulary import SCROLL
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    tables = prepare(app.store)
    app.refresh_home()
    await d.wait_screen("home")
    out: dict = {}

    def sheet_buttons():
        return [w for w in app.sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"]

    for scroll, (table_id, player, corner) in tables.items():
        await d.home_list(finished=False)
        item = next(w for w in d.walk() if type(w).__name__ == "TableItem" and w.table_id == table_id
                    and w.parent is not None)
        await d.tap(next(c for c in item.walk(restrict=True) if type(c).__name__ == "BigButton"))
        await d.wait_screen("obelisk-table")
        model = d.model
        name = SCROLL[scroll]
        r = {"name": name, "face_up": model.scrolls, "corner": cell_name(corner)}
        await d.player(player)
        await d.tap_corner(corner)
        await d.frames(2)
        first = sheet_buttons()
        r["first_sheet"] = [w.text for w in first]
        await d.tap(next(w for w in first if w.text == f"Charge {name}"))
        await d.frames(2)
        ways = sheet_buttons()
        r["ways"] = [w.text for w in ways]
        await d.shot(shots, f"obelisk-charge-{scroll}")
        await d.tap(ways[0])
        await d.frames(2)
        n = len(app.table.actions)
        await d.tap(sheet_buttons()[0])
        await d.frames(3)
        last = app.table.actions[-1] if len(app.table.actions) > n else None
        r.update(played=getattr(last, "TYPE", None), scroll=getattr(last, "scroll", None),
                 log=model.moves[0]["text"], face_up_after=model.scrolls,
                 rune_drawn=any(o["corner"] == corner and o["rune"] for o in model.picture["obelisks"])
                 or scroll == "broken_earth")
        out[scroll] = r
        await d.close_moment()   # the charge may have been the Day's last action: the Night is announced
        app.go_home()
        await d.wait_screen("home")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
