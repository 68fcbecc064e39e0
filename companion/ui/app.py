"""The Kivy app shell: language, navigation, the banner, Home, and the services a game's screens use.

The shell knows no game: Home lists the games of the registry (companion/session/games.py), and opening a table
hands it to that game's UI plug-in (`Game.ui_plugin`, imported lazily; companion/ui/plugin.py). Screens are layout
only (one .kv each); they read a view-model's properties and call one of its methods per tap.
Run with `run_app()`: Kivy runs on the one asyncio loop (`async_run`, docs/architecture.md, convention 6).
"""
from __future__ import annotations

import asyncio
import gc
import importlib
import os

from companion.ui import kivy_setup  # noqa: F401  (window settings before Kivy opens a window)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty  # noqa: E402

from companion.games.errors import N_, IllegalAction, InvalidInput  # noqa: E402
from companion.i18n import LANGUAGE_NAMES, LANGUAGES, normalise, translations  # noqa: E402
from companion.session import games  # noqa: E402
from companion.session.store import StoreError  # noqa: E402

BANNER_SECONDS = 8


class CompanionApp(App):
    lang = StringProperty("en")
    screen = StringProperty("home")
    banner = StringProperty("")          # a calm message (a refused move, a saved export); empty: hidden
    sound_on = BooleanProperty(True)     # the players' sound switch (menu on every screen)
    sheet = ObjectProperty(None, allownone=True)  # the sheet laid over the screen (companion/ui/sheets.py)

    languages = ListProperty()                     # the language buttons of every screen's heading bar
    home = ObjectProperty(None)                    # Home's view-model (companion/ui/home.py)

    table = ObjectProperty(None, allownone=True)   # the open companion.session.Table
    devices_model = ObjectProperty(None, allownone=True)  # the devices screen's model, once it was opened
    plugin = ObjectProperty(None, allownone=True)  # its game's UI plug-in

    def __init__(self, store, lang: str | None = None, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self.store = store
        # The language: the one asked for (the command line, tests), else the group's own from last time
        # (companion/session/preferences.py), else the system's.
        from companion.session import preferences

        saved = preferences.load(store.data_dir)
        self.lang = normalise(lang or saved.lang or os.environ.get("LANG"))
        self.sound_on = saved.sound_on
        self.seed = seed            # a fixed seed for new tables (tests); None: a fresh random one
        self.export_dir = None      # where exports go; None: "Table Companion" in the documents folder
        self._clock = None          # see `clock`
        self._banner_ev = None
        self._banner_tap = None     # what a tap on the banner does (e.g. bring a deleted table back)
        self.rulings_popup = None
        self._plugins: dict[str, object] = {}
        from companion.ui.sound import Sounds

        self.sounds = Sounds()      # tests put a RecordingSounds here
        self.sounds.muted = not self.sound_on
        self._dice_at_table = None  # made when a table opens (its imports are not needed for the first frame)
        self._sheet_holder = None
        from companion.ui.home import HomeModel

        self.home = HomeModel(self)

    @property
    def clock(self):
        """The clock every table's timers run on (companion/session/timers.py); UI tests put a FakeClock here. Made
        when first asked for: the timers module is not needed for Home's first frame."""
        if self._clock is None:
            from companion.session.timers import SystemClock

            self._clock = SystemClock()
        return self._clock

    @clock.setter
    def clock(self, clock) -> None:
        self._clock = clock

    # -- devices (companion/session/devices.py) ---------------------------------------------------------------------
    def on_start(self) -> None:
        # The devices live on the app's one asyncio loop (async_run), started once the first frame is on screen:
        # the group sees Home first, the radio and the boards come up a moment later. (on_flip's handlers run
        # before the window's own flip puts the frame on screen: the next tick comes after it.)
        def first_frame(*_):
            Window.unbind(on_flip=first_frame)
            gc.enable()  # disabled for the start (companion/cli.py)
            Clock.schedule_once(lambda _dt: self.start_devices(), 0)

        Window.bind(on_flip=first_frame)

    def start_devices(self) -> None:
        from companion.session.devices import DeviceService

        if getattr(self, "devices", None) is None:
            self.devices = DeviceService(self.store.data_dir)
            asyncio.ensure_future(self.devices.start())
            if self.table is not None and self.plugin is not None and not self.plugin.opened_from_history:
                self.dice_at_table.attach(self.table)  # a table opened before the devices came up

    @property
    def dice_at_table(self):
        """The bound dice and boards at the open table (companion/ui/dice_at_table.py)."""
        if self._dice_at_table is None:
            from companion.ui.dice_at_table import DiceAtTable

            self._dice_at_table = DiceAtTable(self)
        return self._dice_at_table

    async def close_devices(self) -> None:
        """Disconnect every device cleanly (after the window closed, still on the loop)."""
        if getattr(self, "devices", None) is not None:
            await self.devices.close()

    def show_devices(self) -> None:
        """The dice and boards: connect, bind, watch them roll (companion/ui/devices.py)."""
        from companion.ui.devices import DevicesModel, DevicesScreen

        self._close_table()
        self.start_devices()  # at once, if the first frame has not come yet
        if self.devices_model is None:
            self.devices_model = DevicesModel(self, self.devices)
        self.devices_model.refresh()
        self.show("devices", DevicesScreen, self.devices_model)

    def show_camera(self, url: str, keep_table: bool = False) -> None:
        """A camera's live picture, and the dice, the map or the goods read from it (companion/ui/camera.py).
        `keep_table`: opened from a table's menu — the table stays open (its dice come from the camera, its
        questions show over the camera's picture) and Back returns to it."""
        from companion.ui.camera import CameraModel, CameraScreen

        if not keep_table:
            self._close_table()
        elif self.plugin is not None:
            # The table's screen is released while the camera shows: its plug-in stops following the table (a
            # released screen's models must not be refreshed) and follows it again, freshly, when the group goes
            # back (plugin.show). The table itself, its dice and its questions stay.
            self.plugin.detach()
        self.start_devices()
        self.show("camera", CameraScreen, CameraModel(self, url))

    # -- building ------------------------------------------------------------------------------------------------
    def build(self):
        from kivy.uix.screenmanager import NoTransition, ScreenManager

        from companion.ui import home, widgets  # noqa: F401  (registers their kv rules)

        # What exists now (the modules, their classes, the kv rules, the store) lives as long as the app: set aside,
        # no collection walks it again (every screen change collects, kivy_setup.release). Home, built next, is
        # not: it is collected when the group leaves it.
        gc.freeze()
        Window.clearcolor = (0.09, 0.10, 0.13, 1)
        # Made at the window's size (not Kivy's default 100x100, which the window would change at once): Home is
        # built for the size it is shown at, so nothing of it is built twice (a narrow 100x100 Home has other
        # game cards, fonts and language buttons), and laid out before the first frame (bench/bench_startup.py).
        self.sm = ScreenManager(transition=NoTransition(), size=Window.size)
        self.sm.transition.bind(on_complete=kivy_setup.forget_transition_screen)
        self.refresh_home()
        self.show("home", home.HomeScreen)
        kivy_setup.lay_out_now(self.sm)
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
        kwargs = {"name": name, "size": self.sm.size}  # built at the size it is shown at (see build)
        if model is not None:
            kwargs["model"] = model
        screen = screen_class(**kwargs)
        kivy_setup.built_at_size(screen)
        self.sm.add_widget(screen)
        self.sm.current = name
        for gone in old:
            self.sm.remove_widget(gone)
            kivy_setup.release(gone)

    # -- i18n ----------------------------------------------------------------------------------------------------
    def t(self, msgid: str, *_bound) -> str:
        """Translate `msgid`. In .kv pass `app.lang` as a 2nd argument so the text follows a language switch."""
        return translations(self.lang).gettext(msgid)

    def set_language(self, lang: str) -> None:
        """Switch every screen, the open sheet included, to `lang`, and remember it for the next start."""
        from companion.session import preferences

        self.lang = normalise(lang)
        preferences.changed(self.store.data_dir, lang=self.lang)
        self.refresh_home()
        for plugin in self._plugins.values():
            plugin.refresh()
        if self.devices_model is not None:  # its rows are words made in the language they were made in
            self.devices_model.refresh()
        if self.sheet is not None and hasattr(self.sheet, "retranslate"):
            self.sheet.retranslate()

    # -- banner --------------------------------------------------------------------------------------------------
    def say(self, message: str, on_tap=None) -> None:
        """Show `message` in the banner for a while. `on_tap`: what a tap on the banner does (the message says
        so, e.g. "tap here to undo"); without it a tap just closes the banner."""
        self.banner = message
        self._banner_tap = on_tap
        if self._banner_ev is not None:
            self._banner_ev.cancel()
        self._banner_ev = Clock.schedule_once(lambda dt: self.dismiss_banner(), BANNER_SECONDS)

    def dismiss_banner(self) -> None:
        self._banner_tap = None
        self.banner = ""

    def try_move(self, step) -> bool:
        """Make a move on the open table (`step()`: an apply, undo or redo); the engine's refusal (in the players'
        language) or a store error (not saved: nothing happened) is said in the banner. True when it was made."""
        from companion.i18n.messages import translate_message

        try:
            step()
            return True
        except (IllegalAction, InvalidInput) as err:
            self.say(translate_message(err, self.lang))
        except StoreError as err:
            self.say(str(err))
        return False

    def banner_tapped(self) -> None:
        """A tap on the banner: its action, if it has one (once), and the banner closes."""
        action = self._banner_tap
        self.dismiss_banner()
        if action is not None:
            action()

    # -- sheets: confirm, type a line, the menu, an announcement (companion/ui/sheets.py) -------------------------
    def open_sheet(self, sheet, angle: int = 0) -> None:
        """Lay `sheet` over the whole window, turned by `angle` to face whoever opened it."""
        from companion.ui.widgets import Turned

        self.close_sheet()
        sheet.app = self
        holder = Turned(area=[0, 0, Window.width, Window.height], angle=angle)
        holder.add_widget(sheet)
        Window.add_widget(holder)
        Window.bind(size=self._sheet_follows_window)  # a resized desktop window: the sheet keeps covering it
        self._sheet_holder, self.sheet = holder, sheet

    def _sheet_follows_window(self, _window, size) -> None:
        if self._sheet_holder is not None:
            self._sheet_holder.area = [0, 0, size[0], size[1]]

    def close_sheet(self) -> None:
        holder, self._sheet_holder, self.sheet = self._sheet_holder, None, None
        Window.unbind(size=self._sheet_follows_window)
        if holder is not None:
            Window.remove_widget(holder)
            kivy_setup.release(holder, collect=False)

    def confirm(self, question: str, yes_text: str, yes_action, detail: str = "", no_text: str = "",
                angle: int = 0) -> None:
        """Ask before something that cannot simply be undone; `yes_action()` only if the players say yes."""
        from companion.ui.sheets import ConfirmSheet

        self.open_sheet(ConfirmSheet(question=question, detail=detail, yes_text=yes_text,
                                     no_text=no_text or self.t(N_("Cancel")), yes_action=yes_action), angle)

    def choose_sheet(self, question: str, options: list, angle: int = 0) -> None:
        """A short list of things to do with something (`options`: {"text", "action"}), and Cancel."""
        from companion.ui.sheets import ChoiceSheet

        self.open_sheet(ChoiceSheet(question=question, extras=list(options)), angle)

    def ask_text(self, question: str, text: str, done_action, angle: int = 0) -> None:
        from companion.ui.sheets import TextSheet

        self.open_sheet(TextSheet(question=question, text=text, done_action=done_action), angle)

    def open_menu(self, angle: int = 0, extras=None) -> None:
        """Language and sound, reachable from every screen; `extras` ({"text", "action"}) from the screen: a list,
        or a function that makes it, called again when the language is switched in the menu (so that its texts
        follow the switch)."""
        from companion.ui.sheets import MenuSheet

        made = extras if callable(extras) else (lambda: list(extras or []))

        def make():
            more = list(made())
            if self.table is not None and self._dice_at_table is not None:
                more += self._dice_at_table.menu_extras()  # simulated dice bound to the table: thrown when asked
            return more

        self.open_sheet(MenuSheet(make_extras=make), angle)

    def run_menu_extra(self, index: int) -> None:
        sheet = self.sheet
        if sheet is not None and index < len(getattr(sheet, "extras", ())):
            sheet.run_extra(index)

    def toggle_sound(self) -> None:
        from companion.session import preferences

        self.sound_on = not self.sound_on
        self.sounds.muted = not self.sound_on
        preferences.changed(self.store.data_dir, sound_on=self.sound_on)

    def announce(self, title: str, text: str, sound: str | None = None, tint=(0.98, 0.82, 0.35, 1)) -> None:
        """A moment for the whole table: full screen, readable from both long sides, with its chime (muted with
        the sound switch). A tap closes it."""
        from companion.ui.sheets import MomentSheet

        self.open_sheet(MomentSheet(title=title, text=text, hint=self.t(N_("Tap to continue")), tint=list(tint)))
        if sound:
            self.sounds.play(sound)

    def export(self, table) -> tuple[str, list] | None:
        """Write `table`'s files (companion.session.export) into the export folder: (the folder in words, the paths
        written), or None when the disk refused, which the banner then says."""
        from companion.session.export import default_export_dir, export_table

        folder = self.export_dir or default_export_dir()
        try:
            paths = export_table(table, folder)
        except OSError as err:
            self.say(self.t(N_("Could not save the export: {reason}")).format(reason=err.strerror or err))
            return None
        return self.folder_in_words(folder), paths

    def folder_in_words(self, folder) -> str:
        """Where files went, as a person finds them: "Documents › Table Companion", else the folder itself."""
        from pathlib import Path

        import platformdirs

        folder = Path(folder)
        docs = Path(platformdirs.user_documents_dir())
        try:
            parts = folder.resolve().relative_to(docs.resolve()).parts
        except ValueError:
            return str(folder)
        return " › ".join([self.t(N_("Documents")), *parts])

    # -- home (its view-model: companion/ui/home.py) -------------------------------------------------------------
    def refresh_home(self) -> None:
        self.languages = [{"code": c, "text": LANGUAGE_NAMES[c], "selected": c == self.lang} for c in LANGUAGES]
        self.home.refresh()

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

    def open_table(self, table_id: int, history: bool = False) -> None:
        """Resume an unfinished table, or (`history`) show a finished one's scores, read-only, from the store."""
        from companion.session.table import Table

        try:
            table = Table.open(self.store, table_id, clock=self.clock)
        except (InvalidInput, ValueError, StoreError) as err:
            self.say(str(err))
            return
        self.attach(table, history=history)

    def attach(self, table, history: bool = False) -> None:
        """Make `table` the open table and let its game's plug-in show it."""
        if games.get(table.game).ui_plugin is None:
            self.say(self.t(N_("This app cannot show {game} tables yet; `companion replay` reads them")).format(
                game=self.t(games.get(table.game).title)))
            return
        self._close_table()
        self.table = table
        self.plugin = self.plugin_for(table.game)
        self.plugin.opened_from_history = history
        self.plugin.attach(table)
        if not history:
            self.dice_at_table.attach(table)  # the bound dice roll into it, the stand turns its hourglass

    def _close_table(self) -> None:
        if self._dice_at_table is not None:
            self._dice_at_table.detach()
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


def run_app(data_dir=None, lang: str | None = None, store=None) -> int:
    """Open the tables in `data_dir` (default: the platform's user-data folder), or use the open `store`, and run
    the app until it closes; the store is closed then."""
    if store is None:
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
