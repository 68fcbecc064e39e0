"""The end of an Obscurians game: the players tap in the revealed missions, then the itemised scores, the winners,
the export. `EndModel` is the view-model; `EndScreen` is layout only (end.kv)."""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.games.obscurians.scoring import TEMPLATES_EN, render
from companion.games.obscurians.setup import mission_refusals
from companion.games.obscurians.vocabulary import COLOUR, MISSION
from companion.i18n.messages import translate_error
from companion.session.store import StoreError
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import look, widgets as _own_widgets  # noqa: F401  (this game's widget classes)
from companion.ui.obscurians.round import goods_chips


class EndModel(EventDispatcher):
    mode = StringProperty("missions")  # "missions": players enter them; "over": the scores
    mission_rows = ListProperty()
    score_cards = ListProperty()
    winners_text = StringProperty("")
    export_text = StringProperty("")
    can_score = BooleanProperty(False)
    can_undo = BooleanProperty(False)

    def __init__(self, plugin, table, **kwargs):
        super().__init__(**kwargs)
        self.app = plugin.app
        self.table = table
        self._missions: list[str | None] = list(table.state.setup.missions or [None] * table.state.n_players)

    # -- intents -------------------------------------------------------------------------------------------------
    def set_mission(self, seat: int, mission: str) -> None:
        self._missions[seat] = None if self._missions[seat] == mission else mission
        self.refresh()

    def reveal_missions(self) -> None:
        if not all(self._missions):
            return
        try:
            self.table.apply(self.table.adapter.action_from_json({"type": "missions", "missions": self._missions}))
        except (IllegalAction, InvalidInput) as err:
            self.app.say(translate_error(err, self.app.lang))
        except StoreError as err:
            self.app.say(str(err))

    def undo(self) -> None:
        try:
            self.table.undo()
        except IllegalAction as err:
            self.app.say(translate_error(err, self.app.lang))
        except StoreError as err:
            self.app.say(str(err))

    def export(self) -> None:
        """Write the log and the BG Stats record (companion.session.export) and say where they went."""
        from companion.session.export import export_table

        try:
            paths = export_table(self.table, self.app.export_dir)
        except OSError as err:
            self.app.say(self.app.t(N_("Could not save the export: {reason}")).format(reason=err.strerror or err))
            return
        self.export_text = self.app.t(N_("Saved: {paths}")).format(paths="\n".join(str(p) for p in paths))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        state, t = self.table.state, self.app.t
        self.can_undo = self.table.can_undo
        self.mode = state.phase
        players = state.setup.players
        if state.phase == "missions":
            refusals = mission_refusals(self._missions, len(players))  # the engine's rule (RULING obscurians-players)
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
