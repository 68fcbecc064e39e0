"""Time Trials at an Obelisk table (issue 18 §5; the rulebook's alternative rule, on the session's GameClock): the
Day's minute shows and runs on the app's clock; when it runs out the Night begins by itself ("The minute ran out"
in the moves); Undo of a move whose minute ran out says why it stands: going back would start that minute again,
and time is real (table rule 9).

This file is also the driver: `python tests/ui/test_obelisk_time.py --data-dir D --out result.json`. The app's clock
is a FakeClock only this driver moves: no test waits for game time.
"""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def timed(own_driver):
    return own_driver


def test_the_days_minute_shows_and_runs(timed):
    assert timed["at_start"] == "1:00" and timed["after_20s"] == "0:40"
    assert timed["hurry_at_5s_left"] is True


def test_the_minute_running_out_begins_the_night(timed):
    assert timed["after_minute"]["phase"] in ("march", "swarm") and timed["after_minute"]["last"] == "timeout"
    assert timed["after_minute"]["log"] == "The minute ran out"
    assert timed["night_clock"] == "1:00" and timed["moment"] == "Night 1"


def test_undo_never_gives_back_a_minute_that_ran_out(timed):
    u = timed["undo"]
    assert u["text"] == "Undo: Ana mined a green stone"    # it names the move, dimmed, and says why it stands
    assert u["banner"] == "Time Trials: the minute of that move has run out, so the move stands"
    assert u["mine_left"] is True and u["phase_after"] in ("march", "swarm")


# -- the driver --------------------------------------------------------------------------------------------------

async def scenario(app, args) -> dict:
    from companion.session.timers import FakeClock
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    clock = FakeClock()
    app.clock = clock
    out: dict = {}
    await d.wait_screen("home")
    await d.new_game("obelisk", "obelisk-setup")
    seat = next(w for w in d.by_class("ObeliskSeat") if w.index == 0)
    await d.type_text(seat.ids.name, "Ana")
    await d.tap(d.by_id("time_trials"))
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model = d.model

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await asyncio.sleep(0.6)   # the plug-in looks at the clock four times a second
        await d.frames(2)

    await advance(0)
    out["at_start"] = model.clock
    await advance(20)
    out["after_20s"] = model.clock
    await d.button("mine")
    await advance(35)
    out["hurry_at_5s_left"] = model.hurry
    await advance(6)
    deadline = time.monotonic() + 5
    while not model.night and time.monotonic() < deadline:
        await d.frames(2)
    s = model.state
    out["after_minute"] = {"phase": s.phase, "last": app.table.actions[-1].TYPE,
                           "log": model.moves[0]["text"] if model.moves else ""}
    out["night_clock"] = model.clock
    out["moment"] = await d.close_moment()
    undo = d.by_id("undo")
    out["undo"] = {"text": undo.text}
    await d.tap(undo)
    await d.frames(3)
    out["undo"].update(mine_left=any(a.TYPE == "mine" for a in app.table.actions), phase_after=model.state.phase,
                       banner=app.banner)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
