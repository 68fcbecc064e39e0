"""The end of an Obscurians game: the players tap in the revealed missions, then the itemised scores, the winners,
the export. `EndModel` is the view-model; `EndScreen` is layout only (end.kv).

A finished game's scores are read-only when opened from Home's finished games; right after the game, Undo is
still there (a mistyped mission), but taking back the last move of a finished game asks first.
"""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.games.obscurians.narrate import narrate
from companion.games.obscurians.scoring import TEMPLATES_EN, render
from companion.games.obscurians.setup import mission_refusals
from companion.games.obscurians.vocabulary import COLOUR, MISSION
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import look, widgets as _own_widgets  # noqa: F401  (this game's widget classes)
from companion.ui.obscurians.round import goods_chips, new_game_state, next_redo, rules_note_text
from companion.i18n.messages import translate_error as tell


class EndModel(EventDispatcher):
    mode = StringProperty("missions")  # "missions": players enter them; "over": the scores
    mission_rows = ListProperty()
    score_cards = ListProperty()
    winners_text = StringProperty("")
    guidance_text = StringProperty("")  # 4 players: the two mission cards put back at the start
    export_text = StringProperty("")
    can_score = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    read_only = BooleanProperty(False)  # opened from the finished games: nothing can be taken back here
    undo_text = StringProperty("")

    def __init__(self, plugin, table, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.table = table
        self._missions: list[str | None] = list(table.state.setup.missions or [None] * table.state.n_players)

    # -- intents -------------------------------------------------------------------------------------------------
    def tap_mission(self, seat: int, mission: str, enabled: bool) -> None:
        """A mission card tapped for a player: set (or, tapped again, cleared) — or, if it cannot be theirs, why."""
        if not enabled:
            state = self.table.state
            why = mission_refusals(self._missions, state.n_players, state.setup.put_back)[seat].get(mission)
            if why is not None:
                self.app.say(tell(why, self.app.lang))
            return
        self._missions[seat] = None if self._missions[seat] == mission else mission
        self.refresh()

    def reveal_missions(self) -> None:
        if not all(self._missions):
            missing = [n for (n, _), m in zip(self.table.state.setup.players, self._missions) if not m]
            self.app.say(self.app.t(N_("Tap in every player's mission first: {names}")).format(
                names=", ".join(missing)))
            return
        self.app.try_move(lambda: self.table.apply(
            self.table.adapter.action_from_json({"type": "missions", "missions": self._missions})))

    def undo(self) -> None:
        """Take back the last move; for a finished game only once the players confirm (it reopens the game)."""
        if self.read_only:
            self.app.say(self.app.t(N_("This finished game is read-only.")))
            return
        if not self.table.can_undo:
            self.app.say(tell(IllegalAction.of("Nothing to undo"), self.app.lang))
            return
        if self.table.finished:
            t = self.app.t
            self.app.confirm(t(N_("Reopen this finished game?")), t(N_("Undo")), self._undo,
                             detail=t(N_("Undo takes back: {move}")).format(move=self.undo_text) + "\n"
                             + t(N_("The scores are gone until the missions are tapped in again.")))
            return
        self._undo()

    def _undo(self) -> None:
        self.app.try_move(self.table.undo)

    def redo(self) -> None:
        self.app.try_move(self.table.redo)

    def export(self) -> None:
        """Write the log and the BG Stats record (companion.session.export) and say, in words, where they went."""
        done = self.app.export(self.table)
        if done is not None:
            where, paths = done
            self.export_text = self.app.t(N_("Saved in {folder}: {files}")).format(
                folder=where, files=", ".join(p.name for p in paths))

    def open_menu(self) -> None:
        self.app.open_menu(0, lambda: [{"text": self.app.t(N_("Home (the table stays saved)")),
                                        "action": self.app.go_home}])

    def announce_winners(self) -> None:
        """The winner's moment: the names, large, for the whole table, with a chime."""
        result = self.table.state.score()
        if result is None:
            return
        t = self.app.t
        names = [p.name for p in result.players if p.colour in set(result.winners)]
        title = (t(N_("{names} wins!")) if len(names) == 1 else t(N_("{names} win!"))).format(
            names=t(N_(" and ")).join(names))
        ranking = sorted(result.players, key=lambda p: -p.total)
        # The Lose mission never wins with the most points: say so next to that player's total.
        lose = t(MISSION["lose"])
        text = "   ".join(f"{p.name} {p.total}" + (f" ({lose})" if p.mission == "lose" else "") for p in ranking)
        self.app.announce(title, text, "winner")

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        state, t = self.table.state, self.app.t
        self.read_only = bool(self.plugin.opened_from_history) and self.table.finished
        self.can_undo, self.can_redo = self.table.can_undo and not self.read_only, self.table.can_redo
        self.undo_text = self._last_move()
        self.mode = state.phase
        players = state.setup.players
        put_back = state.setup.put_back
        self.guidance_text = (t(N_("Put back in the box at the start: {a} and {b}")).format(
            a=t(MISSION[put_back[0]]), b=t(MISSION[put_back[1]])) if put_back else "")
        if state.phase == "missions":
            # The engine's rule (RULING obscurians-players): what each card cannot be, and why.
            refusals = mission_refusals(self._missions, len(players), put_back)
            rows = []
            for i, (name, colour) in enumerate(players):
                rows.append({"seat": i, "name": name, "colour_rgba": list(look.RGBA[colour]),
                             "ink": list(look.INK[colour]),
                             "options": [{"seat": i, "mission": m, "text": t(MISSION[m]),
                                          "selected": self._missions[i] == m, "enabled": why is None}
                                         for m, why in refusals[i].items()]})
            self.mission_rows = rows
            self.can_score = all(self._missions)
            self.score_cards = []
            self.winners_text = t(N_("The sandstorm ends the game. Reveal the mission cards and tap each one in."))
            return
        result = state.score()  # scored with the table's house rules (setup.rules)
        if result is None:  # the game is still on (a language switch during a round refreshes this model too)
            self.mission_rows, self.score_cards, self.winners_text = [], [], ""
            return
        self.mission_rows = []    # the mission buttons are not shown any more: release them
        winners = set(result.winners)
        templates = self._templates()
        end = state.end_of_game()  # every player's goods, free and secured, as the engine counts them
        cards = []
        for p, held in zip(result.players, end.players):
            goods = dict(held.goods)
            goods.update({g: 1 for g in ("lamp", "artifact") if getattr(held, g)})
            cards.append({
                "name": p.name, "colour_rgba": list(look.RGBA[p.colour]), "ink": list(look.INK[p.colour]),
                "mission": t(MISSION[p.mission]), "total": str(p.total), "winner": p.colour in winners,
                "goods": goods_chips(goods, t),
                "lines": [{"rule": render(ln.key, self._line_params(ln.params), templates),
                           "points": f"{ln.points:+d}"} for ln in p.lines],
            })
        self.score_cards = cards
        names = [p.name for p in result.players if p.colour in winners]
        self.winners_text = (t(N_("Winner: {names}")) if len(names) == 1 else t(N_("Winners: {names}"))).format(
            names=", ".join(names))
        top = max(result.players, key=lambda p: p.total)
        if top.mission == "lose" and top.colour not in winners:  # RULING obscurians-winner
            self.winners_text += "  " + t(N_("({name} has Lose: the most points do not win with Lose)")).format(
                name=top.name)
        note = rules_note_text(self.table, self.app.lang)
        if note:  # scored under the rules it was played under (issue 14 §5)
            self.winners_text += "  (" + note + ")"

    def _last_move(self) -> str:
        actions = self.table.actions
        if not actions:
            return ""
        state = new_game_state(self.table)
        for action in actions[:-1]:
            state = state.apply(action)
        return tell(narrate(state, actions[-1], self.table.state), self.app.lang)

    def redo_move(self) -> str:
        redo = next_redo(self.table)
        if redo is None:
            return ""
        try:
            return tell(narrate(self.table.state, redo, self.table.state.apply(redo)), self.app.lang)
        except (IllegalAction, InvalidInput):
            return ""

    def _line_params(self, params):
        """A score line's parameters with colour words translated (sub-terms included)."""
        out = {}
        for k, v in params.items():
            if isinstance(v, str) and v in COLOUR:
                v = self.app.t(COLOUR[v])
            elif k == "terms" and isinstance(v, (list, tuple)):
                v = [(key, self._line_params(p)) for key, p in v]
            out[k] = v
        return out

    def _templates(self):
        """The scorer's English line templates, translated through the catalogue (same msgids)."""
        t = self.app.t

        def tr(v):
            if isinstance(v, str):
                return t(v)
            if isinstance(v, dict):
                return {k: tr(x) for k, x in v.items()}
            if isinstance(v, tuple):
                return tuple(tr(x) for x in v)
            return v
        return {k: tr(v) for k, v in TEMPLATES_EN.items()}


class EndScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
