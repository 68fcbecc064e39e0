"""The Kivy app: a view-model (properties the .kv files bind to, one method per user intent) over injected services.

Services: the `TableStore` (SQLite tables) is passed in; a `Table` (engine state + log) is opened from it per game.
Screens are layout only (one .kv each, loaded by their .py); they read `app.<property>` and call `app.<intent>()`.
Run with `run_app()`: Kivy runs on the one asyncio loop (`async_run`, ARCHITECTURE convention 6).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
from datetime import datetime
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.config import Config  # noqa: E402  (window size before the window exists)

Config.set("graphics", "width", "1280")
Config.set("graphics", "height", "800")
Config.set("graphics", "resizable", "0")
# No multisample anti-aliasing: flat rectangles and text gain nothing from it, and on a software renderer the
# multisampled framebuffer costs ~30 MB of the 250 MB budget.
Config.set("graphics", "multisamples", "0")
Config.set("input", "mouse", "mouse,disable_multitouch")
Config.set("kivy", "exit_on_escape", "0")

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.properties import (  # noqa: E402
    BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)

from companion.games.errors import IllegalAction, InvalidInput  # noqa: E402
from companion.games.obscurians.constants import BASE_COLOURS, BASE_MISSIONS, COLOURS, MISSIONS, UNCOLOURED  # noqa: E402
from companion.session.store import StoreError  # noqa: E402
from companion.i18n.messages import translate_error  # noqa: E402
from companion.i18n import LANGUAGE_NAMES, LANGUAGES, normalise, translations  # noqa: E402
from companion.ui import texts  # noqa: E402
from companion.ui.texts import N_  # noqa: E402

BANNER_SECONDS = 8


class CompanionApp(App):

    # -- global ----------------------------------------------------------------------------------------------------
    lang = StringProperty("en")
    screen = StringProperty("home")
    banner = StringProperty("")          # a calm message (a refused move, a saved export); empty: hidden

    # -- home ------------------------------------------------------------------------------------------------------
    languages = ListProperty()
    games = ListProperty()
    unfinished = ListProperty()
    history = ListProperty()

    # -- setup -----------------------------------------------------------------------------------------------------
    setup_rows = ListProperty()
    setup_count = NumericProperty(4)
    setup_deck = StringProperty("app")
    setup_error = StringProperty("")
    setup_take_cap = BooleanProperty(True)   # the house rule for Take (RULING obscurians-take-cap)

    # -- round -----------------------------------------------------------------------------------------------------
    round_title = StringProperty("")
    event_name = StringProperty("")
    event_text = StringProperty("")
    lamp_text = StringProperty("")
    prompt = StringProperty("")
    panels = ListProperty()
    dice = ListProperty()
    faces = ListProperty()
    choices = ListProperty()
    choice_cols = NumericProperty(2)
    faces_shown = BooleanProperty(False)  # the face pad: tapping in a roll or the new faces of a reroll
    end_turn_enabled = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    active_rgba = ListProperty([1, 1, 1, 1])
    targeting = BooleanProperty(False)   # some player panels are tap targets right now: dim the others
    target_hint = StringProperty("")
    in_turn = BooleanProperty(False)     # a player's turn (not the event card reveal): the End turn button shows
    compact = BooleanProperty(False)     # 5-7 players: three columns of smaller player panels

    # -- end -------------------------------------------------------------------------------------------------------
    end_mode = StringProperty("missions")  # "missions": players enter them; "over": the scores
    mission_rows = ListProperty()
    score_cards = ListProperty()
    winners_text = StringProperty("")
    export_text = StringProperty("")
    can_score = BooleanProperty(False)

    table = ObjectProperty(None, allownone=True)

    def __init__(self, store, lang: str | None = None, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self.store = store
        self.lang = normalise(lang or os.environ.get("LANG"))
        self._seed = seed
        self._vm = None
        self._banner_ev = None
        self._missions: list[str | None] = []
        self._setup_players: list[dict] = []
        self._setup_start = 0
        self.rulings_popup = None

    # -- building --------------------------------------------------------------------------------------------------

    def build(self):
        from companion.ui import end, home, round as round_screen, setup, widgets  # noqa: F401  (registers kv)
        from kivy.uix.screenmanager import NoTransition, ScreenManager

        self._screen_classes = {"home": home.HomeScreen, "setup": setup.SetupScreen,
                                "round": round_screen.RoundScreen, "end": end.EndScreen}
        Window.clearcolor = (0.09, 0.10, 0.13, 1)
        self.sm = ScreenManager(transition=NoTransition())
        self.sm.transition.bind(on_complete=self._forget_screen_out)
        self.refresh_home()
        self.show("home")
        return self.sm

    def show(self, name: str) -> None:
        """Show screen `name`, built fresh; the screen left is released with everything it drew.

        Only one screen is alive at a time: on a software-rendered tablet every hidden widget still holds its
        canvas and textures (docs/ui.md, "Memory"). Screens are layout only, so rebuilding one from the app's
        properties shows exactly what it showed before.
        """
        self.screen = name
        if self.sm.current == name and self.sm.current_screen is not None:
            return
        old = list(self.sm.screens)
        self.sm.add_widget(self._screen_classes[name](name=name))
        self.sm.current = name
        for screen in old:
            self.sm.remove_widget(screen)
            self._release(screen)

    @staticmethod
    def _release(screen) -> None:
        """Drop the kv bindings of a screen that is gone (so the app's properties no longer update it) and
        collect it at once, so its GL textures and buffers are freed now rather than at some later collection."""
        import gc

        from kivy.lang import Builder

        from kivy.cache import Cache

        widgets = list(screen.walk(restrict=True))
        for w in widgets:
            if getattr(w, "focus", False):
                w.focus = False  # a focused TextInput is held by the window's keyboard
            Builder.unbind_widget(w.uid)
        # Take the tree apart: something Kivy keeps (e.g. the last TextInput in a trigger's arguments) then holds
        # one widget, not the whole screen through its parents.
        for w in reversed(widgets):
            w.clear_widgets()
        Cache.remove("textinput.label")  # the TextInputs' line textures (kept 60 s otherwise)
        Cache.remove("textinput.width")
        gc.collect()

    def _forget_screen_out(self, transition) -> None:
        """The transition keeps the screen it switched away from: once it is done with it (after this event), let
        go of it so that it can be freed."""
        def forget(_dt):
            import gc

            if not transition.is_active and transition.screen_out is not transition.screen_in:
                transition.screen_out = transition.screen_in  # (None is not allowed)
                gc.collect()
        Clock.schedule_once(forget, 0)

    # -- i18n ------------------------------------------------------------------------------------------------------

    def t(self, msgid: str, *_bound) -> str:
        """Translate `msgid`. In .kv pass `app.lang` as a 2nd argument so the text follows a language switch."""
        return translations(self.lang).gettext(msgid)

    def set_language(self, lang: str) -> None:
        self.lang = normalise(lang)
        self.refresh_home()
        if self.table is not None:
            self.refresh()
        self._refresh_setup()

    # -- banner ----------------------------------------------------------------------------------------------------

    def say(self, message: str) -> None:
        self.banner = message
        if self._banner_ev is not None:
            self._banner_ev.cancel()
        self._banner_ev = Clock.schedule_once(lambda dt: self.dismiss_banner(), BANNER_SECONDS)

    def dismiss_banner(self) -> None:
        self.banner = ""

    # -- home ------------------------------------------------------------------------------------------------------

    def refresh_home(self) -> None:
        t = self.t
        self.languages = [{"code": c, "text": LANGUAGE_NAMES[c], "selected": c == self.lang} for c in LANGUAGES]
        soon = t(N_("coming soon"))
        self.games = [
            {"game": "obscurians", "text": t(texts.GAME["obscurians"]), "detail": t(N_("4 to 7 players")),
             "enabled": True, "button": t(N_("New table"))},
            {"game": "obscurio", "text": t(texts.GAME["obscurio"]), "detail": soon, "enabled": False, "button": soon},
            {"game": "obelisk", "text": t(texts.GAME["obelisk"]), "detail": soon, "enabled": False, "button": soon},
        ]
        self.unfinished = [self._table_row(r, resume=True) for r in self.store.unfinished()[:6]]
        self.history = [self._table_row(r, resume=False) for r in self.store.finished()[:8]]

    def _table_row(self, row, resume: bool) -> dict:
        players = row.setup.get("players", [])
        names = ", ".join(p.get("name", "?") if isinstance(p, dict) else str(p[0]) for p in players)
        when = (row.updated if resume else (row.finished or row.updated))[:16].replace("T", " ")
        return {"table_id": row.id, "title": f"{self.t(texts.GAME.get(row.game, row.game))} — {names}",
                "detail": when, "button": self.t(N_("Resume")) if resume else self.t(N_("Scores")),
                "resume": resume}

    def go_home(self) -> None:
        self._close_table()
        self.refresh_home()
        self.show("home")

    def new_table(self, game: str) -> None:
        if game != "obscurians":
            return
        self._setup_players = [{"name": "", "colour": c} for c in BASE_COLOURS[:4]]
        self._setup_start = 0
        self.setup_deck = "app"
        self.setup_take_cap = True
        self.setup_error = ""
        self._refresh_setup()
        self.show("setup")

    def open_table(self, table_id: int) -> None:
        """Resume an unfinished table (or show a finished one's scores) from the store."""
        from companion.session.table import Table

        try:
            table = Table.open(self.store, table_id)
        except (InvalidInput, ValueError, StoreError) as err:
            self.say(str(err))
            return
        self._attach(table)

    # -- setup -----------------------------------------------------------------------------------------------------

    def _refresh_setup(self) -> None:
        if not self._setup_players:
            return
        n = len(self._setup_players)
        palette = COLOURS if n == 7 else BASE_COLOURS
        t = self.t
        rows = []
        for i, p in enumerate(self._setup_players):
            taken = {q["colour"] for j, q in enumerate(self._setup_players) if j != i}
            rows.append({
                "index": i, "name": p["name"], "hint": t(N_("Player {n}")).format(n=i + 1),
                "colour": p["colour"], "starter": i == self._setup_start,
                "swatches": [{"index": i, "colour": c, "selected": c == p["colour"], "enabled": c not in taken}
                             for c in palette],
            })
        self.setup_count = n
        self.setup_rows = rows

    def set_player_count(self, n: int) -> None:
        n = max(4, min(7, int(n)))
        players = self._setup_players[:n]
        palette = COLOURS if n == 7 else BASE_COLOURS
        for p in players:
            if p["colour"] not in palette:
                p["colour"] = ""
        while len(players) < n:
            players.append({"name": "", "colour": ""})
        for p in players:  # give everyone without a colour the first free one
            if not p["colour"]:
                used = {q["colour"] for q in players}
                p["colour"] = next(c for c in palette if c not in used)
        self._setup_players = players
        self._setup_start = min(self._setup_start, n - 1)
        self._refresh_setup()

    def set_player_name(self, index: int, name: str) -> None:
        if index < len(self._setup_players) and self._setup_players[index]["name"] != name:
            self._setup_players[index]["name"] = name
            self.setup_error = ""

    def set_player_colour(self, index: int, colour: str) -> None:
        others = {q["colour"] for j, q in enumerate(self._setup_players) if j != index}
        if colour not in others:
            self._setup_players[index]["colour"] = colour
            self._refresh_setup()

    def set_start_player(self, index: int) -> None:
        self._setup_start = index
        self._refresh_setup()

    def set_deck(self, deck: str) -> None:
        self.setup_deck = deck

    def toggle_take_cap(self) -> None:
        self.setup_take_cap = not self.setup_take_cap

    def setup_rules(self):
        """The house rules chosen on the setup screen, as the engine's rules profile."""
        from companion.games.obscurians.rules import Rules

        return Rules(take_cap=self.setup_take_cap)

    def ruling_rows(self, rules=None) -> list[dict]:
        """Every ruling of the rules profile, translated: a title (with the table's value for an editable one)
        and the summary. `rules`: the open table's rules, else the ones chosen on the setup screen."""
        from companion.games.obscurians.rulings import profile

        t = self.t
        rows = []
        rules = rules if rules is not None else self.setup_rules()
        values = {"obscurians-take-cap": t(texts.TAKE_CAP_VALUE[rules.take_cap]),
                  "obscurians-dice": ", ".join(f"{p} {t(texts.FACE[f])}" for p, f in rules.pips)}
        for r in profile(rules):
            title = t(r["title"])
            if r["editable"]:
                value = values.get(r["id"]) or t(r["value"] or "")
                title = t(N_("{title} — this table: {value}")).format(title=title, value=value)
            rows.append({"title": title, "summary": t(r["summary"])})
        return rows

    def show_rulings(self) -> None:
        """Open the scrollable list of every ruling (where the rulebook is silent, what this app does)."""
        from kivy.uix.popup import Popup

        from companion.ui.setup import RulingsView

        view = RulingsView(rows=self.ruling_rows())
        popup = Popup(title=self.t(N_("House rules: how this app plays where the rulebook is silent")),
                      title_size="22sp", content=view, size_hint=(0.86, 0.92), auto_dismiss=True,
                      separator_color=[0.98, 0.82, 0.35, 1])
        view.popup = popup
        self.rulings_popup = popup
        popup.bind(on_dismiss=self._forget_rulings)
        popup.open(animation=False)

    def _forget_rulings(self, *_):
        self.rulings_popup = None

    def start_game(self) -> None:
        from companion.games.obscurians.setup import Setup
        from companion.session.table import Table

        players = []
        for i, p in enumerate(self._setup_players):
            name = p["name"].strip() or self.t(N_("Player {n}")).format(n=i + 1)
            players.append((name, p["colour"]))
        seed = self._seed if self._seed is not None else random.SystemRandom().randrange(2**31)
        try:
            setup = Setup(players=tuple(players), start=self._setup_start, deck=self.setup_deck, seed=seed,
                          rules=self.setup_rules())
            table = Table.create(self.store, "obscurians", setup,
                                 title=", ".join(name for name, _ in players))
        except (InvalidInput, ValueError, StoreError) as err:
            self.setup_error = str(err)
            return
        self._attach(table)

    # -- the open table --------------------------------------------------------------------------------------------

    def _attach(self, table) -> None:
        from companion.games.obscurians.actions import action_from_json
        from companion.ui.obscurians_vm import RoundModel

        self._close_table()
        self.table = table
        self._unsubscribe = table.subscribe(self._on_table_change)
        self._vm = RoundModel(action_from_json)
        self._missions = list(table.state.setup.missions or [None] * len(table.state.setup.players))
        self.export_text = ""
        self.refresh()

    def _close_table(self) -> None:
        if self.table is not None:
            self._unsubscribe()
        self.table = None
        self._vm = None

    def _on_table_change(self, table, kind: str) -> None:
        self._vm.reset()
        self.refresh()

    def _intent(self, step, *args) -> None:
        """Run a view-model step (a tap); play the action it returns, if any. Refusals end up in the banner."""
        try:
            action = step(self.table.state, *args)
            if action is not None:
                self.table.apply(action)  # the listener refreshes the view
                return
        except (IllegalAction, InvalidInput) as err:
            self._vm.reset()
            self.say(translate_error(err, self.lang))
        except StoreError as err:  # not saved (disk full, file changed elsewhere): nothing happened
            self._vm.reset()
            self.say(str(err))
        self.refresh()

    def refresh(self) -> None:
        """Recompute every property the round and end screens show from the table's state and the taps so far."""
        if self.table is None:
            return
        state = self.table.state
        self.can_undo = self.table.can_undo
        self.can_redo = self.table.can_redo
        if state.phase in ("missions", "over"):
            self._refresh_end(state)
            if self.screen != "end":
                self.show("end")
            return
        self._refresh_round(state)
        if self.screen != "round":
            self.show("round")

    def _refresh_round(self, state) -> None:
        t = self.t
        names = [n for n, _ in state.setup.players]
        self.round_title = t(N_("Round {n}")).format(n=state.round)
        if state.event:
            self.event_name = t(texts.EVENT[state.event])
            self.event_text = t(texts.EVENT_EFFECT[state.event])
        else:
            self.event_name = t(N_("No event card yet"))
            self.event_text = t(N_("The starting player reveals the next event card."))
        self.lamp_text = t(N_("Lamp card: {name}")).format(name=names[state.start_player])
        v = self._vm.view(state, t)
        self.prompt = v["prompt"]
        self.dice = [dict(d, rgba=self._face_rgba(d["face"], d["selected"])) for d in v["dice"]]
        self.faces = [dict(f, rgba=self._face_rgba(f["face"], False)) for f in v["faces"]]
        self.faces_shown = any(f["enabled"] for f in v["faces"])
        self.choices = [self._choice(c) for c in v["choices"]]
        self.choice_cols = v["choice_cols"]
        self.end_turn_enabled = v["end_turn"]
        self.targeting = bool(v["panel_targets"])
        self.target_hint = t(N_("Tap a player with a blue frame.")) if self.targeting else ""
        self.compact = len(names) > 4
        self.in_turn = state.phase == "turn"
        self.panels = [self._panel(state, i, v) for i in range(len(names))]
        self.active_rgba = list(texts.RGBA[state.setup.players[state.active][1]])

    @staticmethod
    def _face_rgba(face: str, selected: bool):
        if not face:
            return [0.22, 0.23, 0.28, 1]
        if selected:
            return [0.95, 0.75, 0.25, 1]
        return [0.93, 0.93, 0.88, 1]

    def _choice(self, c: dict) -> dict:
        good = c.get("good", "")
        rgba = list(texts.RGBA[good]) if good else [0.24, 0.42, 0.62, 1]
        ink = list(texts.INK[good]) if good else [1, 1, 1, 1]
        return {"key": c["key"], "text": c["text"], "enabled": bool(c["enabled"]), "rgba": rgba, "ink": ink,
                "selected": bool(c.get("selected"))}

    def _goods_chips(self, goods) -> list[dict]:
        from companion.ui.obscurians_vm import good_sort_key

        out = []
        for g in sorted(goods, key=good_sort_key):
            label = str(goods[g]) if g not in UNCOLOURED else self.t(texts.GOOD_SHORT[g])
            out.append({"text": label, "rgba": list(texts.RGBA[g]), "ink": list(texts.INK[g])})
        return out

    def _panel(self, state, seat: int, v: dict) -> dict:
        t = self.t
        name, colour = state.setup.players[seat]
        placed_on = [c for c in state.placed if c.on == colour]
        top = placed_on[-1].mission if placed_on else None
        stack = (t(N_("Suspected: {mission} (stack of {n})")).format(mission=t(texts.MISSION[top]), n=len(placed_on))
                 if top else t(N_("No suspicion yet")))
        in_hand = len(state.chips_in_hand[seat])
        vault = state.secured[seat]
        return {
            "seat": seat, "name": name, "colour_rgba": list(texts.RGBA[colour]), "ink": list(texts.INK[colour]),
            "active": seat == state.active and state.phase == "turn",
            "starter": seat == state.start_player,
            "enabled": seat in v["panel_targets"], "selected": seat in v["panel_selected"],
            "goods": self._goods_chips(state.goods[seat]),
            "vault": self._goods_chips(vault),
            "vault_label": t(N_("Vault")) if vault else "",
            "ban": bool(state.trade_ban[seat]),
            "ban_text": t(N_("TRADE BAN")) if state.trade_ban[seat] else "",
            "chips_text": t(N_("Chips in hand: {n}")).format(n=in_hand) + (t(N_(", {n} discarded")).format(
                n=len(state.discarded[seat])) if state.discarded[seat] else ""),
            "stack_text": stack,
        }

    # -- round intents (one per tap) -------------------------------------------------------------------------------

    def tap_player(self, seat: int) -> None:
        self._intent(self._vm.tap_player, seat)

    def tap_face(self, face: str) -> None:
        self._intent(self._vm.tap_face, face)

    def tap_die(self, index: int) -> None:
        self._intent(self._vm.tap_die, index)

    def choose(self, key: str) -> None:
        self._intent(self._vm.choose, key)

    def end_turn(self) -> None:
        self._intent(self._vm.end_turn)

    def undo(self) -> None:
        self._history_step(self.table.undo)

    def redo(self) -> None:
        self._history_step(self.table.redo)

    def _history_step(self, step) -> None:
        try:
            step()
        except IllegalAction as err:
            self.say(translate_error(err, self.lang))
        except StoreError as err:
            self.say(str(err))

    # -- end screen ------------------------------------------------------------------------------------------------

    def _refresh_end(self, state) -> None:
        t = self.t
        players = state.setup.players
        self.end_mode = state.phase
        if state.phase == "missions":
            pool = MISSIONS if len(players) == 7 else BASE_MISSIONS
            from companion.games.obscurians.setup import TRIO_A, TRIO_B

            rows = []
            for i, (name, colour) in enumerate(players):
                others = [m for j, m in enumerate(self._missions) if j != i and m]
                taken = set(others)
                if len(players) == 4:  # 4 players: two of Keep/Take/Collect and two of Give/Select/Lose
                    for trio in (TRIO_A, TRIO_B):
                        if sum(m in trio for m in others) >= 2:
                            taken |= set(trio)
                rows.append({"seat": i, "name": name, "colour_rgba": list(texts.RGBA[colour]), "ink": list(texts.INK[colour]),
                             "options": [{"seat": i, "mission": m, "text": t(texts.MISSION[m]),
                                          "selected": self._missions[i] == m, "enabled": m not in taken}
                                         for m in pool]})
            self.mission_rows = rows
            self.can_score = all(self._missions)
            self.score_cards = []
            self.winners_text = t(N_("The sandstorm ends the game. Reveal the mission cards and tap each one in."))
            return
        result = state.score()  # scored with the table's house rules (setup.rules)
        self.mission_rows = []    # the mission buttons are not shown any more: release them
        winners = set(result.winners)
        templates = self._templates()
        from companion.games.obscurians.scoring import render

        cards = []
        for p in result.players:
            seat = [c for _, c in players].index(p.colour)
            goods = dict(state.goods[seat])
            for g, n in state.secured[seat].items():
                goods[g] = goods.get(g, 0) + n
            cards.append({
                "name": p.name, "colour_rgba": list(texts.RGBA[p.colour]), "ink": list(texts.INK[p.colour]),
                "mission": t(texts.MISSION[p.mission]), "total": str(p.total), "winner": p.colour in winners,
                "goods": self._goods_chips(goods),
                "lines": [{"rule": render(ln.key, self._line_params(ln.params), templates), "points": f"{ln.points:+d}"}
                          for ln in p.lines],
            })
        self.score_cards = cards
        names = [p.name for p in result.players if p.colour in winners]
        self.winners_text = (t(N_("Winner: {names}")) if len(names) == 1 else t(N_("Winners: {names}"))).format(
            names=", ".join(names))

    def _line_params(self, params):
        """A score line's parameters with colour words translated (sub-terms included)."""
        out = {}
        for k, v in params.items():
            if isinstance(v, str) and v in texts.COLOUR:
                v = self.t(texts.COLOUR[v])
            elif k == "terms" and isinstance(v, (list, tuple)):
                v = [(key, self._line_params(p)) for key, p in v]
            out[k] = v
        return out

    def _templates(self):
        """The scorer's English line templates, translated through our catalogue (same msgids)."""
        from companion.games.obscurians.scoring import TEMPLATES_EN

        def tr(v):
            if isinstance(v, str):
                return self.t(v)
            if isinstance(v, dict):
                return {k: tr(x) for k, x in v.items()}
            if isinstance(v, tuple):
                return tuple(tr(x) for x in v)
            return v
        return {k: tr(v) for k, v in TEMPLATES_EN.items()}

    def set_mission(self, seat: int, mission: str) -> None:
        self._missions[seat] = None if self._missions[seat] == mission else mission
        self.refresh()

    def reveal_missions(self) -> None:
        if all(self._missions):
            self._intent(self._vm.reveal_missions, list(self._missions))

    def export(self) -> None:
        """Write the log (.jsonl) and a BG Stats record into the data folder; show where."""
        from companion.games.obscurians.bgstats import to_bgstats

        table = self.table
        folder = Path(self.store.data_dir) / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"obscurians-table-{table.id}"
        log_path = folder / f"{stem}.jsonl"
        log_path.write_text(table.export(), encoding="utf-8")
        paths = [log_path]
        result = table.state.score()
        if result is not None:
            record = to_bgstats(result, datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
                                start_colour=table.state.setup.players[table.state.setup.start][1],
                                source_play_id=f"table-{table.id}")
            bg_path = folder / f"{stem}-bgstats.json"
            bg_path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            paths.append(bg_path)
        self.export_text = self.t(N_("Saved: {paths}")).format(paths="\n".join(str(p) for p in paths))


def run_app(data_dir=None, lang: str | None = None) -> int:
    """Open the tables in `data_dir` (default: the platform's user-data folder) and run the app until it closes."""
    from companion.session.store import TableStore

    store = TableStore(data_dir)
    try:
        app = CompanionApp(store=store, lang=lang)
        asyncio.run(app.async_run(async_lib="asyncio"))
    finally:
        store.close()
    return 0
