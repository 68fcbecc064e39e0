"""Running the real app with a driver's scenario on the app's own asyncio loop, and writing what it found as JSON.

The drivers (tests/ui/obscurians_driver.py, tests/ui/obscurio_driver.py, tests/ui/devices_driver.py) each run in a
process of their own (one Kivy window per process); the tests read the JSON file they write (tests/ui/conftest.py
run_script).
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Awaitable, Callable


def write_error(out: Path, err: BaseException) -> None:
    import traceback

    out.write_text(json.dumps({"error": f"{type(err).__name__}: {err}", "trace": traceback.format_exc()}))


def run_app(app, play: Callable[[], Awaitable[dict]], out, *, dump: dict | None = None,
            hang: Callable[[dict], bool] = lambda result: False, before: Callable[[], None] | None = None,
            after: Callable[[], Awaitable[None]] | None = None, close: Callable[[], None] | None = None) -> int:
    """Runs `app` (async_run on asyncio) with the driver `play()` started once the app has its root widget, then stops
    the app. What `play` returns is written to `out` as `json.dumps(result, **dump)`; if it raises, or the app fails
    before it is done (e.g. a .kv error while building), {"error", "trace"} is written instead, and the app's own
    failure is raised again. With `hang(result)` true the driver waits to be killed once the result is written (for
    the kill tests). `before()` runs on the loop just before the app starts; `after()` is awaited once it stopped;
    `close()` (the table store's) is called last, whatever happened. Returns the driver's exit code: 0."""
    out = Path(out)

    async def drive():
        while app.root is None:
            await asyncio.sleep(0.01)
        try:
            result = await play()
            out.write_text(json.dumps(result, **(dump or {})))
            if hang(result):
                await asyncio.sleep(3600)  # wait to be killed
        except BaseException as err:
            write_error(out, err)
        finally:
            app.stop()

    async def run():
        if before is not None:
            before()
        try:
            await asyncio.gather(app.async_run(async_lib="asyncio"), drive())
        finally:
            if after is not None:
                await after()

    try:
        asyncio.run(run())
    except BaseException as err:
        if not out.exists():
            write_error(out, err)
        raise
    finally:
        if close is not None:
            close()
    return 0


def script_main(scenario, argv=None, **defaults) -> int:
    """The command line of a test file that is its own touch driver (tests/ui/test_turn_donate_screen.py,
    tests/ui/test_gestures_screen.py): `--data-dir D --out result.json [--seed N] [--players N] [--lang L]
    [--shots DIR]`; opens the app on a fresh store and runs `await scenario(app, args)`, then disconnects the
    devices the scenario added."""
    import argparse
    import os

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=defaults.get("seed", 7))
    p.add_argument("--players", type=int, default=defaults.get("players", 4))
    p.add_argument("--lang", default="en")
    p.add_argument("--shots", default="")
    args = p.parse_args(argv)

    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=args.seed)
    return run_app(app, lambda: scenario(app, args), args.out, dump={"indent": 1, "ensure_ascii": False},
                   after=app.close_devices, close=store.close)
