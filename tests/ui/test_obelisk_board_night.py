"""A Night with the simulated tile-grid board on the table (issue 18 §4, §6), by touch on the real app: the map laid on
the board proposes nothing; the Day's Obelisks are built around the Portal; at Night a tile turned on the board is a
question in words (nobody may touch the map now), never a Rotate — nothing is proposed, recorded or drawn — and put
back it is silent; a tile lifted off the board is said too. The Night itself is played by touch as the rules want it:
the advisor's captures (in gold, first) taken one tap each, Demons move, the app's Dark Realm, Dawn; demons are
conserved throughout. At the next Day a tile turned on the board is a proposed Rotate again.

This file is also the driver: `python tests/ui/test_obelisk_board_night.py --data-dir D --out result.json`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
# The table's seed: its map and Dark Realm give a Night 2 the advisor saves (2 demons left after Night 1).
SEED = 23
NIGHT_SAYS = "The board: {cell} was turned at Night. Nobody may touch the map now: turn it back"


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "obelisk_board_night")


def test_the_days_obelisks_stand_around_the_portal(night):
    assert night["laid_proposes_nothing"]
    assert len(night["built"]) == 4 and all(a.startswith("build ") for a in night["built"])


def test_a_tile_turned_at_night_is_a_question_and_changes_nothing(night):
    assert night["turns_at_night"] >= 5           # Night 1: at nightfall, before Dawn; Night 2: after moving, …
    for turn in night["night_turns"]:
        assert turn["banner"] == NIGHT_SAYS.format(cell=turn["cell"])
        assert turn["pending"] == [] and turn["actions"] == 0 and turn["state_same"]
        assert turn["back_banner"] == turn["banner"]            # put back: nothing more is said
        assert turn["pending_after_back"] == []


def test_a_tile_lifted_at_night_is_said(night):
    assert night["lifted_banner"] == ("The board: {cell} changed in a way no Rotate makes. Put the tile back as the "
                                      "map shows").format(cell=night["lifted_cell"])
    assert night["lifted_state_same"]


def test_the_nights_follow_the_rules_by_touch(night):
    # Night 1 falls with the Day's last Build; no demon is on the map yet, so they come out of the Dark Realm at once
    # (the app draws); the advisor's captures of them on the Portal, one tap each, then Dawn.
    first = night["night_moves"]
    assert first[0] == "build" and night["night_fell"] == "swarm" and first[-1] == "dawn"
    assert set(first[1:-1]) == {"capture"} and night["demons_after_night1"] >= 1 and night["night1_after"] == "day"
    # Night 2 falls with the last Pass: the demons Night 1 left move by touch (Demons move), new ones come out,
    # the advisor's capture, Dawn.
    second = night["night2_moves"]
    assert night["night2_starts"] == "march" and second[:2] == ["pass", "march"] and second[-1] == "dawn"
    assert "capture" in second and night["drawn_night2"] == 6
    assert night["captures"] >= 2 and all(c["suggested"] for c in night["capture_taps"])
    assert all(c["recorded"].startswith("capture ") and c["captured_after"] == c["captured_before"] + 1
               for c in night["capture_taps"])
    assert night["conserved"] and not night["lost"]
    assert night["phase_after"] == "day" and night["day_after"] == 3


def test_at_the_next_day_a_turned_tile_is_a_proposed_rotate_again(night):
    assert night["day_turn_pending"] == 1 and night["day_turn_actions"] == 0


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from companion.games.obelisk.actions import Build, Nightfall, Pass
    from companion.games.obelisk.model import DIRECTIONS, cell_name
    from companion.games.obelisk.notation import map_to_text
    from tests.ui.obelisk_touch import ObeliskFinger
    from tests.ui.test_obelisk_board import URL, board_ids

    d = ObeliskFinger(app)
    out: dict = {"night_turns": [], "capture_taps": [], "night_moves": [], "built": []}
    await d.wait_screen("home")
    await d.add_device(URL, "Obelisk tile grid")
    sim = app.devices.manager.device(URL).board
    await d.new_game("obelisk", "obelisk-setup")
    for seat, name in zip(sorted(d.by_class("ObeliskSeat"), key=lambda w: w.index), ("Ana", "Ben")):
        await d.type_text(seat.ids.name, name)
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model, table = d.model, app.table
    laid = {cell: (tile_id, arrow) for cell, tile_id, arrow in board_ids(map_to_text(model.state.map))}
    for cell, (tile_id, arrow) in laid.items():
        sim.script(f"tile {cell} {tile_id} {arrow}")
    await d.frames(10)
    out["laid_proposes_nothing"] = not model.pending and not table.actions

    # Day 1: every action a Build on a corner of the Portal, by touch.
    pr, pc = model.state.map.portal
    corners = [(pr, pc), (pr, pc + 1), (pr + 1, pc), (pr + 1, pc + 1)]
    for corner in corners:
        s = model.state
        who = next((c for c in s.acting if s.is_legal(Build(c, corner))), None)
        if who is not None:
            await d.enter(Build(who, corner))
            out["built"].append(table.actions[-1].to_text())

    def census() -> tuple:
        s = model.state
        return (s.to_json(), len(table.actions))

    async def turn_at_night() -> None:
        """Turn a tile that is not the Portal on the board, then put it back."""
        others = [i for i in sorted(laid) if divmod(i, 5) != (pr, pc)]
        index = others[len(out["night_turns"]) % len(others)]
        tile_id, arrow = laid[index]
        before = census()
        other = next(f for f in DIRECTIONS if f != model.state.map[divmod(index, 5)].facing)
        sim.script(f"tile {index} {tile_id} {other}")
        name = cell_name(divmod(index, 5))
        await d.until(lambda: app.banner == NIGHT_SAYS.format(cell=name), "the Night's question", 10)
        turn = {"cell": name, "banner": app.banner, "pending": [list(c) for c in model.pending],
                "actions": census()[1] - before[1], "state_same": census()[0] == before[0]}
        sim.script(f"tile {index} {tile_id} {model.state.map[divmod(index, 5)].facing}")
        await d.frames(10)
        turn.update(back_banner=app.banner, pending_after_back=[list(c) for c in model.pending])
        out["night_turns"].append(turn)

    # Night falls.
    if model.state.phase == "day":           # actions left: the group ends the Day
        await d.enter(Nightfall())
        out["night_moves"].append(table.actions[-1].TYPE)
    out["night_fell"] = model.state.phase
    await d.close_moment()
    await turn_at_night()
    # A tile lifted off the board at Night: said, nothing changes; laid again as it lies.
    index = sorted(laid)[-1]
    before = census()
    sim.script(f"tile {index} 0 N")
    out["lifted_cell"] = cell_name(divmod(index, 5))
    await d.until(lambda: "changed in a way no Rotate makes" in (app.banner or ""), "the lifted tile", 10)
    out["lifted_banner"] = app.banner
    out["lifted_state_same"] = census() == before
    sim.script(f"tile {index} {laid[index][0]} {model.state.map[divmod(index, 5)].facing}")
    await d.frames(5)

    async def play_night(moves: list) -> None:
        """The Night by touch: the advisor's capture first whenever there is one, else the step the Night is at;
        a tile turned on the board after the demons moved and before Dawn."""
        start = len(table.actions) - 1          # the Night's automatic steps (no demons yet: they only come out)
        turned_after_march = False
        steps = 0
        while model.state.is_night and steps < 60:
            steps += 1
            await d.close_moment()
            s = model.state
            n = len(table.actions)
            rows = sorted(d.by_class("ObeliskCapture"), key=lambda w: w.value)
            if rows and rows[0].selected:
                o_before = {o.corner: len(o.captured) for o in s.obelisks}
                c = model._captures[rows[0].value]
                await d.tap(rows[0])
                await d.until(lambda: len(table.actions) > n, "the capture", 5)
                out["capture_taps"].append({"suggested": True, "recorded": table.actions[-1].to_text(),
                                            "captured_before": o_before[c.obelisk],
                                            "captured_after": len(model.state.obelisk_at(c.obelisk).captured)})
            else:
                code = {"march": "march", "swarm": "dawn"}.get(s.phase)
                if code is None:
                    break
                if code == "dawn":
                    await turn_at_night()      # the last moment of the Night: still nobody may touch the map
                await d.button(code)
                await d.until(lambda: len(table.actions) > n, f"the {code}", 5)
            if model.state.is_night and model.state.phase == "swarm" and not turned_after_march:
                turned_after_march = True
                await turn_at_night()
        moves += [a.TYPE for a in table.actions[start:]]

    await play_night(out["night_moves"])
    s = model.state
    out.update(night1_after=s.phase, demons_after_night1=len(s.demons))

    # Day 2: a marked tile turned on the board is a proposed Rotate again (not played); turned back, it goes.
    await d.close_moment()
    marked = next(i for i in sorted(laid) if divmod(i, 5) in s.markers)
    await d.player(s.acting[0])
    n = len(table.actions)
    other = next(f for f in DIRECTIONS if f != s.map[divmod(marked, 5)].facing)
    sim.script(f"tile {marked} {laid[marked][0]} {other}")
    await d.until(lambda: model.pending, "the Day's proposal", 10)
    out["day_turn_pending"] = len(model.pending)
    out["day_turn_actions"] = len(table.actions) - n
    sim.script(f"tile {marked} {laid[marked][0]} {s.map[divmod(marked, 5)].facing}")
    await d.until(lambda: not model.pending, "the proposal withdrawn", 10)

    # Night 2, with the demons Night 1 left on the map: they move by touch (Demons move), captured as advised.
    for colour in model.state.acting:
        await d.enter(Pass(colour))
    await d.close_moment()
    out["night2_starts"] = model.state.phase
    drawn = model.state.drawn
    out["night2_moves"] = []
    await play_night(out["night2_moves"])
    s = model.state
    out["drawn_night2"] = s.drawn - drawn
    out["captures"] = sum(1 for k in out["night_moves"] + out["night2_moves"] if k == "capture")
    out["turns_at_night"] = len(out["night_turns"])
    out.update(conserved=s.conserved(), lost=s.result == "lost", phase_after=s.phase, day_after=s.day)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario, seed=SEED))
