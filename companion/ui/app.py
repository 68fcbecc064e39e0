"""The Kivy app shell: language, navigation, the banner, Home, and the services a game's screens use.

The shell knows no game: Home lists the games of the registry (companion/session/games.py), and opening a table
hands it to that game's UI plug-in (`Game.ui_plugin`, imported lazily; companion/ui/plugin.py). Screens are layout
only (one .kv each); they read a view-model's properties and call one of its methods per tap.
Run with `run_app()`: Kivy runs on the one asyncio loop (`async_run`, ARCHITECTURE convention 6).
"""
from __future__ import annotations

import asyncio
import importlib
import os

from companion.ui import kivy_setup  # noqa: F401  (window settings before Kivy opens a window)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.properties import ListProperty, ObjectProperty, StringProperty  # noqa: E402

from companion.games.errors import N_, InvalidInput  # noqa: E402
from companion.i18n import LANGUAGE_NAMES, LANGUAGES, normalise, translations  # noqa: E402
from companion.session import games  # noqa: E402
from companion.session.store import StoreError  # noqa: E402

BANNER_SECONDS = 8
HOME_ROWS = 6  # unfinished tables shown on Home, most recent first
HISTORY_ROWS = 8


class CompanionApp(App):
    lang = StringProperty("en")
    screen = StringProperty("home")
    banner = StringProperty("")          # a calm message (a refused move, a saved export); empty: hidden

    # -- home ----------------------------------------------------------------------------------------------------
    languages = ListProperty()
    games = ListProperty()
    unfinished = ListProperty()
    finished_tables = ListProperty()

    table = ObjectProperty(None, allownone=True)   # the open companion.session.Table
    devices_model = ObjectProperty(None, allownone=True)  # the devices screen's model, once it was opened
    plugin = ObjectProperty(None, allownone=True)  # its game's UI plug-in

    def __init__(self, store, lang: str | None = None, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self.store = store
        self.lang = normalise(lang or os.environ.get("LANG"))
        self.seed = seed            # a fixed seed for new tables (tests); None: a fresh random one
        self.export_dir = None      # where exports go; None: "Table Companion" in the documents folder
        # The clock every table's timers run on (companion/session/timers.py); UI tests put a FakeClock here.
        from companion.session.timers import SystemClock

        self.clock = SystemClock()
        self._banner_ev = None
        self.rulings_popup = None
        self._plugins: dict[str, object] = {}

    # -- building ------------------------------------------------------------------------------------------------
    # -- devices (companion/session/devices.py) ---------------------------------------------------------------------
    def on_start(self) -> None:
        # The devices live on the app's one asyncio loop (async_run), started once the window is up.
        from companion.session.devices import DeviceService

        self.devices = DeviceService(self.store.data_dir)
        asyncio.ensure_future(self.devices.start())

    async def close_devices(self) -> None:
        """Disconnect every device cleanly (after the window closed, still on the loop)."""
        if getattr(self, "devices", None) is not None:
            await self.devices.close()

    def show_devices(self) -> None:
        """The dice and boards: connect, bind, watch them roll (companion/ui/devices.py)."""
        from companion.ui.devices import DevicesModel, DevicesScreen

        self._close_table()
        if self.devices_model is None:
            self.devices_model = DevicesModel(self, self.devices)
        self.devices_model.refresh()
        self.show("devices", DevicesScreen, self.devices_model)

    def build(self):
        from kivy.uix.screenmanager import NoTransition, ScreenManager

        from companion.ui import home, widgets  # noqa: F401  (registers their kv rules)

        Window.clearcolor = (0.09, 0.10, 0.13, 1)
        self.sm = ScreenManager(transition=NoTransition())
        self.sm.transition.bind(on_complete=kivy_setup.forget_transition_screen)
        self.refresh_home()
        self.show("home", home.HomeScreen)
        return self.sm

    def show(self, name: str, screen_class, model=None) -> None:
        """Show screen `name`, built fresh from `screen_class` (with its view-model); the screen left is released.

        Only one screen is alive at a time: on a software-rendered tablet every hidden widget still holds its
        canvas and textures (docs/ui.md, "Memory"). Screens are layout only, so rebuilding one from its model
        shows exactly what it showed before.
        """
        self.screen = name
        current = self.sm.current_screen
        if self.sm.current == name and current is not None and getattr(current, "model", None) is model:
            return
        old = list(self.sm.screens)
        kwargs = {"name": name} if model is None else {"name": name, "model": model}
        self.sm.add_widget(screen_class(**kwargs))
        self.sm.current = name
        for screen in old:
            self.sm.remove_widget(screen)
            kivy_setup.release(screen)

    # -- i18n ----------------------------------------------------------------------------------------------------
    def t(self, msgid: str, *_bound) -> str:
        """Translate `msgid`. In .kv pass `app.lang` as a 2nd argument so the text follows a language switch."""
        return translations(self.lang).gettext(msgid)

    def set_language(self, lang: str) -> None:
        self.lang = normalise(lang)
        self.refresh_home()
        for plugin in self._plugins.values():
            plugin.refresh()

    # -- banner --------------------------------------------------------------------------------------------------
    def say(self, message: str) -> None:
        self.banner = message
        if self._banner_ev is not None:
            self._banner_ev.cancel()
        self._banner_ev = Clock.schedule_once(lambda dt: self.dismiss_banner(), BANNER_SECONDS)

    def dismiss_banner(self) -> None:
        self.banner = ""

    # -- home ----------------------------------------------------------------------------------------------------
    def refresh_home(self) -> None:
        t = self.t
        self.languages = [{"code": c, "text": LANGUAGE_NAMES[c], "selected": c == self.lang} for c in LANGUAGES]
        cards = []
        soon = t(N_("coming soon"))
        for name in games.names():
            game = games.get(name)
            playable = game.ui_plugin is not None  # an engine without screens yet: replay and score only
            cards.append({"game": name, "text": t(game.title), "enabled": playable,
                          "button": t(N_("New table")) if playable else soon,
                          "detail": t(N_("{low} to {high} players")).format(low=game.min_players,
                                                                           high=game.max_players)})
        cards += [{"game": name, "text": t(title), "detail": soon, "enabled": False, "button": soon}
                  for name, title in games.COMING.items() if name not in games.names()]
        self.games = cards
        self.unfinished = [self._table_item(r, resume=True) for r in self.store.unfinished(limit=HOME_ROWS)]
        self.finished_tables = [self._table_item(r, resume=False) for r in self.store.finished(limit=HISTORY_ROWS)]

    def _table_item(self, row, resume: bool) -> dict:
        try:
            game = games.get(row.game)
            title, names = self.t(game.title), ", ".join(game.players(game.setup_from_json(row.setup)))
        except (InvalidInput, ValueError):  # a table of a game this app no longer reads: still listed
            title, names = row.game, "?"
        when = (row.updated if resume else (row.finished or row.updated))[:16].replace("T", " ")
        return {"table_id": row.id, "title": f"{title} — {names}", "detail": when,
                "button": self.t(N_("Resume")) if resume else self.t(N_("Scores")), "resume": resume}

    def go_home(self) -> None:
        from companion.ui.home import HomeScreen

        self._close_table()
        self.refresh_home()
        self.show("home", HomeScreen)

    def plugin_for(self, game: str):
        """The UI plug-in of `game`, imported the first time it is needed."""
        if game not in self._plugins:
            module = importlib.import_module(games.get(game).ui_plugin)
            self._plugins[game] = module.Plugin(self)
        return self._plugins[game]

    def new_table(self, game: str) -> None:
        if game not in games.names() or games.get(game).ui_plugin is None:
            return
        self._close_table()
        self.plugin = self.plugin_for(game)
        self.plugin.new_table()

    def open_table(self, table_id: int) -> None:
        """Resume an unfinished table (or show a finished one's scores) from the store."""
        from companion.session.table import Table

        try:
            table = Table.open(self.store, table_id, clock=self.clock)
        except (InvalidInput, ValueError, StoreError) as err:
            self.say(str(err))
            return
        self.attach(table)

    def attach(self, table) -> None:
        """Make `table` the open table and let its game's plug-in show it."""
        if games.get(table.game).ui_plugin is None:
            self.say(self.t(N_("This app cannot show {game} tables yet; `companion replay` reads them")).format(
                game=self.t(games.get(table.game).title)))
            return
        self._close_table()
        self.table = table
        self.plugin = self.plugin_for(table.game)
        self.plugin.attach(table)

    def _close_table(self) -> None:
        if self.plugin is not None:
            self.plugin.detach()
        self.table = None

    # -- rulings (every game's rules profile, in a popup) ----------------------------------------------------------
    def ruling_rows(self, game: str, rules) -> list[dict]:
        """Every ruling of `game`'s rules profile, translated: a title (with the table's value for an editable one)
        and the summary."""
        t = self.t
        plugin = self.plugin_for(game)
        rows = []
        for r in games.get(game).profile(rules):
            title = t(r["title"])
            if r["editable"]:
                value = plugin.ruling_value(r["id"], rules) or r["value"] or ""
                title = t(N_("{title} — this table: {value}")).format(title=title, value=value)
            rows.append({"title": title, "summary": t(r["summary"])})
        return rows

    def show_rulings(self, game: str, rules) -> None:
        """Open the scrollable list of every ruling (where the rulebook is silent, what this app does)."""
        from kivy.uix.popup import Popup

        from companion.ui.rulings import RulingsView

        view = RulingsView(rows=self.ruling_rows(game, rules))
        popup = Popup(title=self.t(N_("House rules: how this app plays where the rulebook is silent")),
                      title_size="22sp", content=view, size_hint=(0.86, 0.92), auto_dismiss=True,
                      separator_color=[0.98, 0.82, 0.35, 1])
        view.popup = popup
        self.rulings_popup = popup
        popup.bind(on_dismiss=self._forget_rulings)
        popup.open(animation=False)

    def _forget_rulings(self, *_):
        self.rulings_popup = None


def run_app(data_dir=None, lang: str | None = None) -> int:
    """Open the tables in `data_dir` (default: the platform's user-data folder) and run the app until it closes."""
    from companion.session.store import TableStore

    store = TableStore(data_dir)
    app = CompanionApp(store=store, lang=lang)

    async def main() -> None:
        try:
            await app.async_run(async_lib="asyncio")
        finally:
            await app.close_devices()

    try:
        asyncio.run(main())
    finally:
        store.close()
    return 0
