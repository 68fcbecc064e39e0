"""The Obscurians round screen: the players' panels and the turn being entered.

`RoundModel` is the view-model: Kivy properties the .kv binds to, recomputed from the table's state and the taps so
far (`TurnEntry`), and one method per tap. `RoundScreen` is layout only (round.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.games.obscurians.vocabulary import EVENT, EVENT_EFFECT, MISSION
from companion.i18n.messages import translate_error
from companion.session.store import StoreError
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import look, widgets as _own_widgets  # noqa: F401  (this game's widget classes)
from companion.ui.obscurians.turn import TurnEntry, good_label, good_sort_key

UNCOLOURED = ("lamp", "artifact")


def goods_chips(goods, t) -> list[dict]:
    """A player's goods as the ChipRow draws them: a count per colour, a short name for lamp and artifact."""
    return [{"text": t(good_label(g)) if g in UNCOLOURED else str(goods[g]), "rgba": list(look.RGBA[g]),
             "ink": list(look.INK[g])} for g in sorted(goods, key=good_sort_key)]


class RoundModel(EventDispatcher):
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

    def __init__(self, plugin, table, **kwargs):
        super().__init__(**kwargs)
        self.app = plugin.app
        self.table = table
        self.entry = TurnEntry()

    # -- intents (one per tap) -----------------------------------------------------------------------------------
    def tap_player(self, seat: int) -> None:
        self._intent(self.entry.tap_player, seat)

    def tap_face(self, face: str) -> None:
        self._intent(self.entry.tap_face, face)

    def tap_die(self, index: int) -> None:
        self._intent(self.entry.tap_die, index)

    def choose(self, choice) -> None:
        self._intent(self.entry.choose, choice)

    def end_turn(self) -> None:
        self._intent(self.entry.end_turn)

    def undo(self) -> None:
        self._history_step(self.table.undo)

    def redo(self) -> None:
        self._history_step(self.table.redo)

    def _intent(self, step, *args) -> None:
        """Run a tap through the turn entry; play the action it returns, if any. Refusals end up in the banner."""
        try:
            action = step(self.table.state, *args)
            if action is not None:
                self.table.apply(action)  # the plug-in follows the table and refreshes the screen
                return
        except (IllegalAction, InvalidInput) as err:
            self.entry.reset()
            self.app.say(translate_error(err, self.app.lang))
        except StoreError as err:  # not saved (disk full, file changed elsewhere): nothing happened
            self.entry.reset()
            self.app.say(str(err))
        self.refresh()

    def _history_step(self, step) -> None:
        try:
            step()
        except IllegalAction as err:
            self.app.say(translate_error(err, self.app.lang))
        except StoreError as err:
            self.app.say(str(err))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        state, t = self.table.state, self.app.t
        self.can_undo, self.can_redo = self.table.can_undo, self.table.can_redo
        names = [n for n, _ in state.setup.players]
        self.round_title = t(N_("Round {n}")).format(n=state.round)
        if state.event:
            self.event_name = t(EVENT[state.event])
            self.event_text = t(EVENT_EFFECT[state.event])
        else:
            self.event_name = t(N_("No event card yet"))
            self.event_text = t(N_("The starting player reveals the next event card."))
        self.lamp_text = t(N_("Lamp card: {name}")).format(name=names[state.start_player])
        v = self.entry.view(state, t)
        self.prompt = v["prompt"]
        self.dice = [dict(d, rgba=look.face_rgba(d["face"], d["selected"])) for d in v["dice"]]
        self.faces = [dict(f, rgba=look.face_rgba(f["face"], False)) for f in v["faces"]]
        self.faces_shown = any(f["enabled"] for f in v["faces"])
        self.choices = [self._choice(c) for c in v["choices"]]
        self.choice_cols = v["choice_cols"]
        self.end_turn_enabled = v["end_turn"]
        self.targeting = bool(v["panel_targets"])
        self.target_hint = t(N_("Tap a player with a blue frame.")) if self.targeting else ""
        self.compact = len(names) > 4
        self.in_turn = state.phase == "turn"
        self.panels = [self._panel(state, i, v) for i in range(len(names))]
        self.active_rgba = list(look.RGBA[state.setup.colour(state.active)])

    @staticmethod
    def _choice(c: dict) -> dict:
        good = c["good"]
        return {"choice": c["choice"], "text": c["text"], "enabled": c["enabled"],
                "rgba": list(look.RGBA[good]) if good else list(look.NEUTRAL),
                "ink": list(look.INK[good]) if good else list(look.WHITE), "selected": bool(c["selected"])}

    def _panel(self, state, seat: int, v: dict) -> dict:
        t = self.app.t
        name, colour = state.setup.players[seat]
        placed_on = [c for c in state.placed if c.on == colour]
        top = placed_on[-1].mission if placed_on else None
        stack = (t(N_("Suspected: {mission} (stack of {n})")).format(mission=t(MISSION[top]), n=len(placed_on))
                 if top else t(N_("No suspicion yet")))
        vault = state.secured[seat]
        chips = t(N_("Chips in hand: {n}")).format(n=len(state.chips_in_hand[seat]))
        if state.discarded[seat]:
            chips += t(N_(", {n} discarded")).format(n=len(state.discarded[seat]))
        return {
            "seat": seat, "name": name, "colour_rgba": list(look.RGBA[colour]), "ink": list(look.INK[colour]),
            "active": seat == state.active and state.phase == "turn",
            "starter": seat == state.start_player,
            "enabled": seat in v["panel_targets"], "selected": seat in v["panel_selected"],
            "goods": goods_chips(state.goods[seat], t),
            "vault": goods_chips(vault, t),
            "vault_label": t(N_("Vault")) if vault else "",
            "ban": bool(state.trade_ban[seat]),
            "ban_text": t(N_("TRADE BAN")) if state.trade_ban[seat] else "",
            "chips_text": chips,
            "stack_text": stack,
        }


class RoundScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
