"""The group's language, by touch on the real app.

- Switched in the menu at a table, the menu itself follows at once: the screen's own entries ("Turn the seats…",
  "Home…", Obscurio's "Rulings") are in the new language, not left in the old one.
- The app remembers it: started again on the same tables (no language asked for), it opens in the group's language,
  and a muted app stays muted.

This file is also the driver: run as a script it opens the app on the tables in --data-dir:

    python tests/ui/test_language_memory.py --data-dir D --out result.json --phase switch|restart
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    from tests.ui.conftest import run_script

    tmp = tmp_path_factory.mktemp("language")
    (tmp / "data").mkdir()
    first = run_script(Path(__file__), "--data-dir", str(tmp / "data"), "--phase", "switch", out=tmp / "first.json")
    again = run_script(Path(__file__), "--data-dir", str(tmp / "data"), "--phase", "restart",
                       out=tmp / "again.json")
    return first, again


@pytest.mark.ui
def test_the_menu_follows_a_language_switch_made_in_it(runs):
    first, _ = runs
    assert first["before"] == ["Everything upright (tablet in the hand)", "Turn the seats one place clockwise",
                               "Home (the table stays saved)"]
    german = first["after"]
    assert german == [first["expected"][msgid] for msgid in first["before"]]
    assert all(text != english for text, english in zip(german, first["before"]))
    assert first["obscurio_after"][0] == first["expected"]["Rulings"] and first["expected"]["Rulings"] != "Rulings"
    assert first["sound_after_mute"] is False


@pytest.mark.ui
def test_the_app_comes_back_in_the_groups_language_and_stays_muted(runs):
    first, again = runs
    assert again["lang"] == "de"
    assert again["home_continue"] == first["expected"]["Continue a table"]
    assert again["sound_on"] is False and again["muted"] is True


# -- the driver --------------------------------------------------------------------------------------------------

MENU_TEXTS = ("Everything upright (tablet in the hand)", "Turn the seats one place clockwise",
              "Home (the table stays saved)", "Rulings", "Table Companion", "Continue a table")


def extras_shown(d) -> list[str]:
    return [w.text for w in sorted(d.app.sheet.walk(restrict=True), key=lambda w: getattr(w, "index", 0))
            if type(w).__name__ == "MenuExtra"]


async def open_menu_by_touch(d) -> None:
    menu = d.app.t("Menu")
    button = next(w for w in d.walk() if getattr(w, "text", None) == menu and hasattr(w, "on_release")
                  and d.visible(w))
    await d.tap(button)
    await d.frames(2)
    assert d.app.sheet is not None and type(d.app.sheet).__name__ == "MenuSheet"


async def switch(app, d) -> dict:
    from companion.i18n import translations
    from companion.session import games
    from companion.session.table import Table

    out: dict = {"expected": {m: translations("de").gettext(m) for m in MENU_TEXTS}}
    await d.wait_screen("home")
    setup, actions = games.get("obscurians").random_game(3, 4)
    table = Table.create(app.store, "obscurians", setup, title="")
    for action in actions[:20]:
        table.apply(action)
    app.open_table(table.id)
    await d.frames(3)
    await open_menu_by_touch(d)
    out["before"] = extras_shown(d)
    german = next(w for w in app.sheet.walk(restrict=True) if type(w).__name__ == "SheetLang" and w.code == "de")
    await d.tap(german)
    await d.frames(2)
    out["after"] = extras_shown(d)
    await d.tap(app.sheet.ids.sound)   # mute, from the same menu
    out["sound_after_mute"] = app.sound_on
    await d.tap(app.sheet.ids.close)
    # Obscurio's menu at a table: its own entry, switched back and forth.
    setup, actions = games.get("obscurio").random_game(3, 4)
    table = Table.create(app.store, "obscurio", setup, title="")
    for action in actions[:6]:
        table.apply(action)
    app.open_table(table.id)
    await d.frames(3)
    while app.sheet is not None and type(app.sheet).__name__ == "MomentSheet":
        await d.tap(app.sheet)
    await open_menu_by_touch(d)
    english = next(w for w in app.sheet.walk(restrict=True) if type(w).__name__ == "SheetLang" and w.code == "en")
    await d.tap(english)
    german = next(w for w in app.sheet.walk(restrict=True) if type(w).__name__ == "SheetLang" and w.code == "de")
    await d.tap(german)
    await d.frames(2)
    out["obscurio_after"] = extras_shown(d)
    return out


async def restart(app, d) -> dict:
    await d.wait_screen("home")
    await d.frames(2)
    headings = [w.text for w in d.walk() if type(w).__name__ == "Heading"]
    # What names the unfinished tables, as shown: their tab (a narrow window), else the heading over the list.
    tab = d.by_id("tab_unfinished")
    heading = tab.text if d.visible(tab) else next(
        w.text for w in d.by_id("unfinished_list").children if type(w).__name__ == "Heading")
    return {"lang": app.lang, "headings": headings, "home_continue": heading,
            "sound_on": app.sound_on, "muted": app.sounds.muted}


def main(argv=None) -> int:
    import argparse

    sys.path.insert(0, str(ROOT))
    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp
    from tests.ui.drive import run_app
    from tests.ui.touch import Touch

    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--phase", choices=("switch", "restart"), required=True)
    args = p.parse_args(argv)
    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, seed=7)  # no language asked for: the group's own, else the system's
    phase = switch if args.phase == "switch" else restart

    async def play() -> dict:
        return await phase(app, Touch(app, random.Random(0)))
    return run_app(app, play, args.out, dump={"indent": 1, "ensure_ascii": False}, close=store.close)


if __name__ == "__main__":
    sys.exit(main())
