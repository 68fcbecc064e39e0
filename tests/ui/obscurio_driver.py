"""Drive the real Table Companion app through Obscurio by touches, in its own process, on a fake clock.

    python tests/ui/obscurio_driver.py SCENARIO --data-dir D --out result.json [--seed 7] [--lang en]
                                       [--wall SECONDS] [--shots DIR] [--prefix obscurio-]

Scenarios (tests/ui/test_obscurio_*.py run them):
  play     a whole 5-player game: the sand running out onto the next space, "Stop!", the night, an accusation
           (a tie, then the Traitor found) and the escape; a refused tap, undo/redo; export
  deal     a 5-player table whose loyalty cards the app deals: every wizard looks at their card in private; the
           texts of every screen state are reported
  hang     step 4: the glass waits for the first card, runs, runs out; Undo of a chip; then wait to be killed
  resume   reopen the unfinished table (the clock's wall time from --wall) and report the hourglass and Redo
  night_hang / night_resume / night_choice / night_over
           the night killed on its 3rd line, at the Traitor's choice, after it: each time reopened where it stood
  night_options
           a countdown set at setup, pause and go on, the masking sound with the sound switch
  accuse   resume a prepared table in the accusation (the test wrote it): votes by touch until the game ends
  small    a 2-player setup (companion chip, rulings, hourglass and time track edited) and a turn
  tour     every screen at every window size (tests/ui/obscurio_tour.py): labels that do not fit, controls
           outside the window; screenshots at 1280×800, 1024×768 and 960×600 with --shots

The app's clock is a FakeClock that only this driver moves (`advance`): no test ever sleeps for game time. The
driver decides what to tap by reading the screen and the table's state (as the group reads the real table), and
only ever acts by touches.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.drive import run_app  # noqa: E402
from tests.ui.touch import Touch  # noqa: E402  (the shared touch driver)

NAMES = ("Gala", "Bea", "Cruz", "Dani", "Eli", "Fran", "Gus", "Hugo")


class RecordingSpeaker:
    """Stands in for espeak-ng: remembers what it was asked to say (and says nothing)."""

    def __init__(self, available: bool = True):
        self.available = available
        self.said: list[str] = []

    def say(self, text: str, lang: str = "en") -> None:
        self.said.append(text)

    def stop(self) -> None:
        pass


class Finger(Touch):
    """The shared touch driver (tests/ui/touch.py) on the Obscurio screens, and the game clock it alone moves."""

    frames_after_tap = 2
    frames_before_shot = 4
    always_scroll = True

    def __init__(self, app, clock):
        super().__init__(app)
        self.clock = clock

    async def advance(self, seconds: float) -> None:
        """Game time passes: the fake clock moves, then the app's frame tick polls its clocks (twice, so that
        whatever the first poll changed is on screen)."""
        self.clock.advance(seconds)
        await self.ticks(2)

    async def ticks(self, n: int) -> None:
        plugin = self.app.plugin_for("obscurio")
        start, deadline = plugin.ticks, time.monotonic() + 5
        while plugin.ticks < start + n and time.monotonic() < deadline:
            await asyncio.sleep(0.004)
        await self.frames(1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=("play", "deal", "hang", "resume", "accuse", "small", "tour", "night_hang",
                                        "night_resume", "night_choice", "night_over", "night_options"))
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--lang", default="en")
    p.add_argument("--wall", type=float, default=1_800_000_000.0)
    p.add_argument("--shots", default="")
    p.add_argument("--prefix", default="obscurio-")
    p.add_argument("--sizes", default="", help="tour: the window sizes to check (keys of fit.WINDOW_SIZES); all")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.session.timers import FakeClock
    from companion.ui.app import CompanionApp
    from tests.ui import obscurio_scenarios as scenarios
    from tests.ui import obscurio_time, obscurio_tour

    store = TableStore(args.data_dir)
    if args.scenario == "tour":  # the tables the tour opens from Home, written before the app starts
        import json

        from tests.ui.obscurio_tour import prepare

        Path(args.data_dir, "tour.json").write_text(json.dumps(prepare(store, args.seed)))
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    clock = FakeClock(wall=args.wall)
    app.clock = clock                      # every table's timers run on the driver's clock
    app.export_dir = Path(args.data_dir) / "exports"
    from companion.ui.sound import RecordingSounds  # the shell's own: a name it has no sound for raises

    sounds = RecordingSounds()
    app.sounds = sounds
    speaker = RecordingSpeaker()

    async def play() -> dict:
        finger = Finger(app, clock)
        await finger.frames(3)
        app.plugin_for("obscurio").speaker = speaker
        module = {"tour": obscurio_tour}.get(args.scenario, scenarios)
        if hasattr(obscurio_time, args.scenario):
            module = obscurio_time
        result = await getattr(module, args.scenario)(finger, args)
        result.update(sounds=[name for name, audible in sounds.requested if audible], said=speaker.said,
                      taps=finger.taps)
        return result

    return run_app(app, play, args.out, dump={"indent": 1, "ensure_ascii": False},
                   hang=lambda result: bool(result.get("hang")), close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
