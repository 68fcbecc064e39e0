"""Nothing but Home before Home's first frame (issue 14, start-up: at most 1.25x a bare Kivy window's first frame;
bench/bench_startup.py measures it).

The real `companion` command starts on a store with unfinished and finished tables of every game, in English and in
German (the group's saved language: the German catalogue is read before the first frame). At the first frame on
screen, the modules Python has imported are read: none of the heavy ones (the camera's OpenCV and numpy, the radio's
bleak and bumble, pyserial, babel), no game's engine or screens, no device or camera screen, none of the shared
widgets a game's screen needs and Home does not (drag and drop, goods pills, Turned). Whoever slides one of them back
into the start finds this test failing, with the module's name.

This file is also the probe: run as a script it starts the app and writes what it saw at the first frame.

    python tests/ui/test_startup_imports.py --data-dir D --out result.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import pytest

from companion.i18n import translations

ROOT = Path(__file__).resolve().parents[2]

HEAVY = ("cv2", "numpy", "bleak", "bumble", "serial", "babel", "vision", "firmware_bridge")
# firmware_bridge's one JSON reader is every JSON reader's (companion/session/jsontext.py: the store reads with it);
# nothing else of the devices' package.
ALLOWED = ("firmware_bridge", "firmware_bridge.strictjson")
NOT_FOR_HOME = (
    "companion.games.obscurians", "companion.games.obscurio", "companion.games.obelisk",  # the engines
    "companion.ui.obscurians", "companion.ui.obscurio", "companion.ui.obelisk",           # their screens
    "companion.session.table", "companion.session.devices", "companion.session.timers",
    "companion.ui.devices", "companion.ui.camera", "companion.ui.dice_at_table", "companion.ui.sheets",
    "companion.ui.widgets.dragdrop", "companion.ui.widgets.pills", "companion.ui.widgets.turned",
)


def unwanted(modules: list[str]) -> list[str]:
    """The modules of `modules` that have no business before Home's first frame."""
    return sorted(m for m in modules if m not in ALLOWED and (
        m.split(".")[0] in HEAVY or any(m == p or m.startswith(p + ".") for p in NOT_FOR_HOME)))


@pytest.fixture(scope="module", params=["en", "de"])
def first_frame(request, tmp_path_factory):
    from companion.session import preferences
    from companion.session.store import TableStore
    from tests.ui.conftest import run_script
    from tests.ui.test_home_way_back import fill_store

    tmp = tmp_path_factory.mktemp(f"startup_{request.param}")
    data = tmp / "data"
    store = TableStore(data)
    try:
        fill_store(store)  # unfinished and finished tables of two games: Home draws rows before its first frame
    finally:
        store.close()
    preferences.changed(data, lang=request.param)
    return request.param, run_script(Path(__file__), "--data-dir", str(data), out=tmp / "first_frame.json")


@pytest.mark.ui
def test_home_is_what_the_first_frame_shows(first_frame):
    lang, seen = first_frame
    assert seen["screen"] == "home"
    assert seen["rows"] >= 1, "Home's list shows no table at its first frame"
    assert seen["lang"] == lang
    if lang == "en":
        assert seen["title"] == "Finished games"
    else:  # the group's language from the first frame on, read from its catalogue
        assert seen["title"] == translations(lang).gettext("Finished games") != "Finished games"
    assert "companion.ui.home" in seen["modules"]


@pytest.mark.ui
def test_the_list_under_the_other_tab_is_not_built_for_the_first_frame(first_frame):
    # 1280x800: one list at a time, under two tabs. The finished games are known (their tab could show them at
    # once) but none of their widgets is made until the tab is opened (test_home_way_back: then they show).
    _, seen = first_frame
    assert seen["narrow"] and seen["hidden_listed"] >= 1
    assert seen["hidden_built"] == []


@pytest.mark.ui
def test_nothing_heavy_or_of_a_game_is_imported_before_home_is_seen(first_frame):
    _, seen = first_frame
    assert unwanted(seen["modules"]) == []


def test_the_guard_names_what_it_guards():
    # The check itself: each kind of module it must refuse is refused, and Home's own are let through.
    assert unwanted(["cv2.dnn", "numpy", "babel.messages.pofile", "companion.games.obscurio.engine",
                     "companion.ui.widgets.dragdrop", "bleak.backends", "firmware_bridge.ble"]) == sorted(
        ["cv2.dnn", "numpy", "babel.messages.pofile", "companion.games.obscurio.engine",
         "companion.ui.widgets.dragdrop", "bleak.backends", "firmware_bridge.ble"])
    assert unwanted(["companion.ui.home", "companion.ui.widgets.buttons", "companion.games.errors",
                     "companion.session.listing", "kivy.uix.recycleview", "firmware_bridge.strictjson"]) == []


# -- the probe ---------------------------------------------------------------------------------------------------

def probe(data_dir: str, out: Path) -> int:
    """Start the app as `companion --data-dir DIR` does and write, at its first frame on screen, what was imported."""
    from companion.ui import kivy_setup  # noqa: F401  (the app's window settings, as the app makes them)
    from kivy.base import EventLoop

    def started(*_):
        from kivy.app import App
        from kivy.core.window import Window

        def first_flip(*_):
            Window.unbind(on_flip=first_flip)
            modules = sorted(sys.modules)
            app = App.get_running_app()
            screen = app.sm.current_screen
            rows = [w for w in screen.walk(restrict=True) if type(w).__name__ == "TableItem" and w.parent is not None]
            hidden = screen.ids.finished_list
            out.write_text(json.dumps({"modules": modules, "screen": app.sm.current, "rows": len(rows),
                                       "lang": app.lang, "title": screen.ids.tab_finished.text,
                                       "narrow": screen.narrow, "hidden_listed": len(hidden.rows),
                                       "hidden_built": [type(w).__name__ for c in hidden.children
                                                        for w in c.walk(restrict=True)]}))
            app.stop()

        Window.bind(on_flip=first_flip)

    EventLoop.bind(on_start=started)
    from companion import cli

    return cli.main(["--data-dir", data_dir])


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sys.exit(probe(args.data_dir, Path(args.out)))
