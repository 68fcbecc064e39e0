"""The home screen: layout in home.kv (its rows in home_rows.kv); its view-model, `HomeModel` (the games, the two
lists of tables, a table's rename and delete), which the App holds as `app.home`.

Home is laid out from the window's size (960x600 to 1366x1024 dp and a desktop window resized): on a wide desktop window the
unfinished and the finished tables stand side by side; narrower, one list at a time, full width, under two tabs, so
that a table's name is not cut to its first word. Short windows get compact game cards.
"""
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, InvalidInput
from companion.session import games
from companion.session.store import StoreError

from companion.ui import widgets  # noqa: F401  (shared widget rules first)

WIDE = 1500   # dp: from this width the two lists stand side by side (narrower, a name would be cut short)
ROOMY = 1200  # dp: from this width the languages are named in full in the heading bar (narrower: EN, DE, ES)
TALL = 700    # dp: from this height the game cards are full size
HOME_ROWS = 6      # unfinished tables shown on Home, most recent first
HISTORY_ROWS = 8   # finished ones


class HomeScreen(Screen):
    narrow = BooleanProperty(False)        # one list at a time (the tabs)
    tight = BooleanProperty(False)         # the heading bar: a smaller title, the languages by their codes
    short = BooleanProperty(False)         # compact game cards and spacing
    tab = StringProperty("unfinished")     # the list shown when narrow: "unfinished" or "finished"

    def on_size(self, *_):
        self.narrow = self.width < dp(WIDE)
        self.tight = self.width < dp(ROOMY)
        self.short = self.height < dp(TALL)

    def show_tab(self, tab: str) -> None:
        self.tab = tab


class HomeList(BoxLayout):
    """One of Home's two lists (home_rows.kv): `rows` (HomeModel.unfinished or .finished), shown or not.

    Its pieces (a HomeListBody: heading, "none", the RecycleView of its rows) are made the first time it is shown,
    never before: on a narrow window Home's first frame builds the list of one tab, not both
    (bench/bench_startup.py). The pieces read everything from the list, so rows that change later, shown or not,
    are what they show once made."""

    title = StringProperty("")
    empty = StringProperty("")
    rows = ListProperty()
    shown = BooleanProperty(False)   # set by home.kv; False until then: nothing is made for a list never shown
    body = ObjectProperty(None, allownone=True)

    def on_shown(self, _list, shown: bool) -> None:
        if shown and self.body is None:
            self.body = HomeListBody(owner=self)
            self.add_widget(self.body)


class HomeListBody(BoxLayout):
    owner = ObjectProperty(None)     # the HomeList it shows; given when made, never changed


class HomeModel(EventDispatcher):
    """What Home shows and what its taps do: the game cards, the unfinished and the finished tables (a row each:
    the game and the table's name, where it stands, when it was last played), and a table's More (rename, delete,
    and the banner that brings a deleted one back). The sheets and the banner are the App's."""

    games = ListProperty()
    unfinished = ListProperty()
    finished = ListProperty()

    def __init__(self, app, **kwargs):
        super().__init__(**kwargs)
        self.app = app

    def refresh(self) -> None:
        t = self.app.t
        cards = []
        soon = t(N_("coming soon"))
        for name in games.names():
            game = games.card(name)  # not the engine: Home's first frame needs no game imported
            playable = game.playable  # an engine without screens yet: replay and score only
            players = t(N_("{low} to {high} players")).format(low=game.min_players, high=game.max_players)
            cards.append({"game": name, "text": t(game.title), "enabled": playable,
                          "button": t(N_("New table")) if playable else soon,
                          "detail": players if playable else soon})
        cards += [{"game": name, "text": t(title), "detail": soon, "enabled": False, "button": soon}
                  for name, title in games.COMING.items() if name not in games.names()]
        self.games = cards
        store = self.app.store
        self.unfinished = [self.row(r, resume=True) for r in store.unfinished(limit=HOME_ROWS)]
        self.finished = [self.row(r, resume=False) for r in store.finished(limit=HISTORY_ROWS)]

    def row(self, record, resume: bool) -> dict:
        """A row of Home's lists: the game and the table's name, then where it stands (round and whose turn, or
        the winners) and when it was last played."""
        from companion.session.listing import summary_of

        t = self.app.t
        try:
            game_title = t(games.card(record.game).title)
        except (InvalidInput, ValueError, KeyError):  # a table of a game this app no longer reads: still listed
            game_title = record.game
        summary = summary_of(self.app.store, record)
        name = record.title or ", ".join(summary.get("players") or []) or "?"
        when = (record.updated if resume else (record.finished or record.updated))[:16].replace("T", " ")
        where = []
        if str(summary.get("status", "")).startswith("unreadable"):
            where.append(t(N_("cannot be opened")))
        elif resume:
            if summary.get("turn"):
                where.append(t(N_("Round {n}")).format(n=summary["turn"]))
            if summary.get("active"):
                where.append(t(N_("{name}'s turn")).format(name=summary["active"]))
            elif summary.get("turn"):
                where.append(t(N_("missions to reveal")) if "missions" in str(summary.get("status")) else "")
        elif summary.get("winners"):
            totals = summary.get("totals") or {}
            where.append(t(N_("Winner: {names}")).format(names=", ".join(
                f"{w} ({totals[w]})" if w in totals else w for w in summary["winners"])))
        return {"table_id": record.id, "title": f"{game_title} — {name}",
                "detail": " · ".join([w for w in where if w] + [when]),
                "button": t(N_("Resume")) if resume else t(N_("Scores")), "resume": resume,
                "rename_text": t(N_("More")), "delete_text": ""}

    # -- a table's name and its place in the lists ------------------------------------------------------------------
    def options(self, table_id: int) -> None:
        """Rename or delete a table (a row's "More")."""
        app = self.app
        app.choose_sheet(self.listed_title(table_id), [
            {"text": app.t(N_("Rename")), "action": lambda: self.rename(table_id)},
            {"text": app.t(N_("Delete")), "action": lambda: self.delete(table_id)},
        ])

    def listed_title(self, table_id: int) -> str:
        for item in list(self.unfinished) + list(self.finished):
            if item["table_id"] == table_id:
                return item["title"]
        return ""

    def rename(self, table_id: int) -> None:
        app = self.app
        try:
            current = app.store.get(table_id).title
        except StoreError as err:
            app.say(str(err))
            return

        def done(text: str) -> None:
            try:
                app.store.rename(table_id, text.strip() or current)
            except (StoreError, InvalidInput, ValueError) as err:
                app.say(str(err))
            app.refresh_home()
        app.ask_text(app.t(N_("A name for this table")), current, done)

    def delete(self, table_id: int) -> None:
        """Ask first; then the table leaves the lists, and the banner offers it back (the store keeps it)."""
        app = self.app
        title = self.listed_title(table_id)

        def delete() -> None:
            try:
                app.store.delete(table_id)
            except StoreError as err:
                app.say(str(err))
                return
            app.refresh_home()
            app.say(app.t(N_("Deleted: {title}. Tap here to bring it back.")).format(title=title),
                    on_tap=lambda: self.restore(table_id))
        app.confirm(app.t(N_("Delete this table?")), app.t(N_("Delete")), delete,
                    detail=title + "\n" + app.t(N_("It leaves the lists. Right after, the banner can bring it "
                                                    "back.")))

    def restore(self, table_id: int) -> None:
        app = self.app
        try:
            app.store.restore(table_id)
        except StoreError as err:
            app.say(str(err))
            return
        app.refresh_home()
        app.say(app.t(N_("The table is back.")))


Builder.load_file(str(Path(__file__).with_name("home_rows.kv")))  # the pieces first, then the screen
Builder.load_file(str(Path(__file__).with_suffix(".kv")))
