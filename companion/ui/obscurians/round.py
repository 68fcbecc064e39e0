"""The Obscurians round screen: the players' panels around the edges of the tablet, the shared centre (round,
event, dice, the prompt, the options, the moves) turned to whoever is playing.

`RoundModel` is the view-model: Kivy properties the .kv binds to, recomputed from the table's state and the taps so
far (`TurnEntry`), and one method per tap. `ObsnSeatRing` places the panels and the centre (companion/ui/seating.py);
`ObsnRoundScreen` is layout only (round.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.games.obscurians.constants import SANDSTORM_ROUND
from companion.games.obscurians.movelog import move_line
from companion.games.obscurians.vocabulary import EVENT, EVENT_EFFECT, MISSION
from companion.session.store import StoreError
from companion.ui import seating
from companion.ui import widgets as shared_widgets
from companion.ui.obscurians import look, widgets as _own_widgets  # (this game's widget classes, for the .kv too)
from companion.ui.obscurians.choices import NEW_ROLL, Cancel, ChipMission, PickSeat
from companion.ui.obscurians.goods import good_label, good_sort_key
from companion.ui.obscurians.layout import LAYOUT
from companion.ui.obscurians.refusal import Refusal
from companion.ui.obscurians.turn import TurnEntry
from companion.i18n import RULES_DOMAIN, translations
from companion.i18n.messages import translate_message

UNCOLOURED = ("lamp", "artifact")
# The panels' depth on the long and the short edges (and so the corners' size) follow the window: layout.py.
HAND_BAR, HAND_CENTRE = 76, 560
LOG_LINES = 40


def goods_pills(goods, t) -> list[dict]:
    """A player's goods as the PillRow draws them: a count per colour, a short name for lamp and artifact."""
    return [{"text": t(good_label(g)) if g in UNCOLOURED else str(goods[g]), "rgba": list(look.RGBA[g]),
             "ink": list(look.INK[g])} for g in sorted(goods, key=good_sort_key)]


def next_redo(table):
    """The action Redo would play again, or None (the session keeps it, after a restart too)."""
    return table.next_redo


class RoundModel(EventDispatcher):
    round_title = StringProperty("")
    event_name = StringProperty("")
    event_text = StringProperty("")
    lamp_text = StringProperty("")
    warning_text = StringProperty("")     # from round 5: the next card can be the sandstorm
    rules_note = StringProperty("")       # "Recorded under an earlier ruling: …" for a table from earlier rules
    prompt = StringProperty("")
    dice = ListProperty()
    dice_shown = BooleanProperty(False)   # the rolled dice (while a roll is tapped in, the pad shows it)
    pad = ListProperty()                  # the roll pad: one row per face, counts 1-5
    pad_title = StringProperty("")
    sections = ListProperty()
    end_turn_enabled = BooleanProperty(False)
    cancel_enabled = BooleanProperty(False)
    in_turn = BooleanProperty(False)
    log = ListProperty()                  # the moves, newest first (the first is the one Undo takes back)
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    panels = ListProperty()
    seating = ObjectProperty(None, allownone=True)
    hand = BooleanProperty(False)         # "in the hand": everything upright
    active_rgba = ListProperty([1, 1, 1, 1])
    centre_angle = NumericProperty(0)
    turn = StringProperty("")             # "round:seat" of the turn now: a new one starts the options at the top
    options_step = StringProperty("")     # the kinds of options shown (the action choice, the goods rows, …)

    def __init__(self, plugin, table, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.table = table
        self.entry = TurnEntry()
        self._log_cache: list = []   # (action, line) for the effective actions, oldest first

    # -- intents (one per tap) -----------------------------------------------------------------------------------
    def tap_player(self, seat: int) -> None:
        self._intent(self.entry.tap_player, seat)

    def tap_die(self, index: int) -> None:
        self._intent(self.entry.tap_die, index)
        self._tell_the_dice()

    def _tell_the_dice(self) -> None:
        """Dice picked to roll again: with smart dice bound, only those are expected and they light up
        (docs/devices.md). Not under Flip the Die, where a picked die may be turned over by hand instead."""
        picked = [] if self.table.state.event == "flip_the_die" else sorted(self.entry.sel_dice)
        self.app.dice_at_table.expect("henchmen", picked)

    def tap_option(self, choice, enabled: bool) -> None:
        """An option of the turn: if it is allowed, what it does; if not, why not (in the players' words)."""
        if choice is None:
            return
        if not enabled:
            self._explain(self.entry.explain(self.table.state, choice))
            return
        self._intent(self.entry.choose, choice)

    def end_turn(self) -> None:
        self._intent(self.entry.end_turn)

    def drop(self, source, target) -> None:
        """A piece dragged (a good, a chip in hand: `source`, its choice) and let go on `target`: a cell or a row's
        name (an ObsnChoiceButton), a player's panel, or nothing."""
        if target is None:  # let go where nothing takes it: say where it goes
            self._explain(Refusal(N_("Let the chip go on the player you suspect") if isinstance(source, ChipMission)
                                  else N_("Let it go on a player's row or on their panel")))
            self.refresh()
            return
        where = PickSeat(target.seat) if isinstance(target, _own_widgets.ObsnPlayerPanel) else target.choice
        self._intent(self.entry.drop, source, where)

    def cancel(self) -> None:
        self._intent(lambda state: self.entry.choose(state, Cancel()))
        self._tell_the_dice()

    def undo(self) -> None:
        self.app.try_move(self.table.undo)

    def redo(self) -> None:
        self.app.try_move(self.table.redo)

    def open_menu(self, angle: int = 0) -> None:
        self.app.open_menu(angle, self._menu_extras)

    def _menu_extras(self) -> list[dict]:
        """What the round screen adds to the menu, in the language of the moment."""
        t = self.app.t
        return [
            {"text": t(N_("Everything upright (tablet in the hand)")) if not self.hand
             else t(N_("Panels around the edges (tablet flat on the table)")), "action": self.toggle_hand},
            {"text": t(N_("Turn the seats one place clockwise")), "action": self.turn_seats},
            {"text": t(N_("Home (the table stays saved)")), "action": self.app.go_home},
        ]

    def toggle_hand(self) -> None:
        self.plugin.hand = not self.plugin.hand
        self.refresh()

    def turn_seats(self) -> None:
        """Move every panel one place clockwise, until each one is in front of its player."""
        self.plugin.first_seat = (self.plugin.first_seat + 1) % self.table.state.n_players
        self.refresh()

    def _intent(self, step, *args) -> None:
        """Run a tap through the turn entry; play the actions it returns, if any; say why a tap does nothing."""
        try:
            moves = step(self.table.state, *args)
            if moves:
                self._play(moves)  # the plug-in follows the table and refreshes the screen
                return
        except (IllegalAction, InvalidInput, Refusal) as err:
            self._explain(err)
        except StoreError as err:  # not saved (disk full, file changed elsewhere): nothing happened
            self.entry.reset()
            self.app.say(str(err))
        self.refresh()

    def _play(self, moves) -> None:
        """Record the moves of one tap (a move the screen showed as made goes first: TurnEntry.prefix). The engine
        judges them all before the first is written, so a refused tap records nothing."""
        check = self.table.state
        for action in moves:
            check = check.apply(action)
        for action in moves:
            self.table.apply(action)

    def _explain(self, err) -> None:
        if isinstance(err, Refusal):
            t = self.app.t
            self.app.say(t(err.msgid).format(**{k: t(v) if k == "action" else v for k, v in err.params.items()}))
        else:
            self.app.say(translate_message(err, self.app.lang))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        state, t = self.table.state, self.app.t
        names = [n for n, _ in state.setup.players]
        self.round_title = t(N_("Round {n}")).format(n=state.round)
        if state.event:
            self.event_name = t(EVENT[state.event])
            self.event_text = t(EVENT_EFFECT[state.event])
        else:
            self.event_name = t(N_("No event card yet"))
            self.event_text = t(N_("The starting player reveals the next event card."))
        self.lamp_text = t(N_("Lamp card: {name}")).format(name=names[state.start_player])
        # From round 5 the next card can be the sandstorm: said on the event card for the whole round.
        self.warning_text = (t(N_("From now on the next event card can be the sandstorm."))
                             if state.round >= SANDSTORM_ROUND else "")
        self.rules_note = self._rules_note()
        v = self.entry.view(state, t)
        # Before the options change: the next player's options are shown from their top (round.kv, ObsnTopScroll).
        self.turn = f"{state.round}:{state.active}"
        self.options_step = " ".join(sorted({s["kind"] for s in v["sections"]}))
        self.prompt = v["prompt"]
        self.dice = [dict(d, **look.die_colours(d["face"], d["selected"], d["index"] == NEW_ROLL)) for d in v["dice"]]
        # The dice matter until the action is chosen (rerolls, flips); then the prompt says what is left.
        self.dice_shown = v["dice_shown"]
        self.pad = [dict(row, counts=[dict(c) for c in row["counts"]]) for row in v["pad"]]
        self.pad_title = v["pad_title"]
        self.sections = [self._section(s) for s in v["sections"]]
        self.end_turn_enabled = v["end_turn"]
        self.cancel_enabled = v["cancel"]
        self.in_turn = state.phase == "turn"
        self._refresh_log()
        self.hand = self.plugin.hand
        self.active_rgba = list(look.RGBA[state.setup.colour(state.active)])
        self.panels = [self._panel(state, i, v) for i in range(len(names))]
        self._place()

    def _place(self) -> None:
        state = self.table.state
        from kivy.core.window import Window

        w, h = Window.width, Window.height
        if self.hand:
            s = seating.in_hand(state.n_players, w, h, dp(HAND_BAR), dp(HAND_CENTRE))
        else:
            # Seven players on a small window: the side seats' panels are narrow, so they are deeper (three lines of
            # "Chips: 4 (1 face down) · Top chip: Take (2)" under the name and the goods).
            short = max(LAYOUT.depth_short, dp(150)) if (LAYOUT.compact and state.n_players >= 7) else LAYOUT.depth_short
            s = seating.ring(state.n_players, w, h, LAYOUT.depth_long, short, self.plugin.first_seat)
        # The centre faces whoever must read it now: the player whose turn it is (or who reveals the card).
        s = seating.facing(s, state.active)
        self.centre_angle = s.centre.angle
        self.seating = s

    def _rules_note(self) -> str:
        return rules_note_text(self.table, self.app.lang)

    def _refresh_log(self) -> None:
        t, lang = self.app.t, self.app.lang
        actions = self.table.actions
        cache = self._log_cache
        keep = 0
        while keep < min(len(cache), len(actions)) and cache[keep][0] is actions[keep]:
            keep += 1
        del cache[keep:]
        if keep < len(actions):
            # Narrate only what is new: from the state after the last line kept (states are immutable values).
            state = cache[-1][2] if cache else new_game_state(self.table)
            for action in actions[keep:]:
                after = state.apply(action)
                cache.append((action, move_line(state, action, after), after))
                state = after
        # The last LOG_LINES moves (a round or two): each line is a texture, and the exported log has them all.
        first = max(0, len(cache) - LOG_LINES)
        lines = [translate_message(line, lang) for _, line, _ in reversed(cache[first:])]
        self.log = [{"key": len(cache) - 1 - i, "text": text} for i, text in enumerate(lines)]
        if self.rules_note:  # under the oldest move: the rules the moves were played under
            self.log.append({"key": -1, "text": self.rules_note})
        self.can_undo, self.can_redo = self.table.can_undo, self.table.can_redo
        self.undo_text = lines[0] if lines else t(N_("Nothing to undo yet"))
        redo = next_redo(self.table)
        if redo is not None:
            before = cache[-1][2] if cache else new_game_state(self.table)
            try:
                self.redo_text = translate_message(move_line(before, redo, before.apply(redo)), lang)
            except (IllegalAction, InvalidInput):
                self.redo_text = ""
        else:
            self.redo_text = ""

    def last_line(self):
        """The narration of the last effective action (for announcements), or None."""
        return self._log_cache[-1][1] if self._log_cache else None

    @staticmethod
    def _section(s: dict) -> dict:
        items = []
        for o in s["items"]:
            good = o["good"]
            if o["role"] == "label":  # a column's heading: text only
                rgba, ink = [0, 0, 0, 0], [0.85, 0.87, 0.93, 1]
            elif o["role"] == "name":
                rgba, ink = list(look.RGBA[good]), list(look.INK[good])
            elif o["role"] == "die":  # a die of the roll among the options (All Actions Mandatory, no Wild)
                colours = look.die_colours(good, o["selected"], o["choice"].index == NEW_ROLL)
                rgba, ink, good = colours["rgba"], colours["ink"], ""
            elif good:
                rgba, ink = list(look.RGBA[good]), list(look.INK[good])
            else:
                rgba, ink = list(look.NEUTRAL), list(look.WHITE)
            text = o["text"]
            if o["role"] == "good" and good in UNCOLOURED and text:
                text = {"lamp": "+5", "artifact": "−5"}[good]  # what it is worth: short, and the same in every language
            items.append({"choice": o["choice"], "text": text, "enabled": o["enabled"], "rgba": rgba, "ink": ink,
                          "selected": o["selected"], "role": o["role"], "good": good, "seat": o["seat"],
                          "drag": o["drag"], "col": o.get("col", -1)})
        return {"title": s["title"], "cols": s["cols"], "items": items, "kind": s["kind"]}

    def _panel(self, state, seat: int, v: dict) -> dict:
        t = self.app.t
        name, colour = state.setup.players[seat]
        placed_on = [c for c in state.placed if c.on == colour]
        top = placed_on[-1].mission if placed_on else None
        # The top chip of the stack is public (placed face up); the covered ones stay hidden, as on the table.
        stack = (t(N_("Top chip: {mission} ({n})")).format(mission=t(MISSION[top]), n=len(placed_on))
                 if top else "")
        out = len(state.discarded[seat]) + state.hidden_discards[seat]
        chips = t(N_("Chips: {n}")).format(n=state.chips_left(seat))
        if out:
            chips += " " + t(N_("({n} face down)")).format(n=out)
        vault = state.secured[seat]
        targeting = bool(v["panel_targets"])
        return {
            "seat": seat, "name": name, "colour_rgba": list(look.RGBA[colour]), "ink": list(look.INK[colour]),
            "active": seat == state.active and state.phase == "turn",
            "starter": seat == state.start_player,
            "lamp_card": t(N_("Lamp card")) if seat == state.start_player else "",
            "enabled": seat in v["panel_targets"], "selected": seat in v["panel_selected"],
            # While some panels are targets, the others fade (never the active player's: everyone follows them).
            "dim": (targeting and seat not in v["panel_targets"] and seat not in v["panel_selected"]
                    and seat != state.active),
            "compact": state.n_players > 4,
            "goods": goods_pills(state.goods[seat], t),
            "vault": goods_pills(vault, t),
            "vault_label": t(N_("Vault")) if vault else "",
            "ban": bool(state.trade_ban[seat]),
            "ban_text": t(N_("TRADE BAN")) if state.trade_ban[seat] else "",
            "status": chips + ("  ·  " + stack if stack else ""),
        }


def rules_note_text(table, lang: str) -> str:
    """A table recorded under an earlier ruling is replayed under it and says so (issue 14 §5, the adapter's
    `earlier_rules`: "Recorded under an earlier ruling: Secure took one good"), in the players' language; "" for
    a table of today's rules."""
    note = table.rules_note
    if not note:
        return ""
    text = translations(lang, RULES_DOMAIN).gettext(note) if lang != "en" else note
    return text[:1].upper() + text[1:]


def new_game_state(table):
    from companion.games.obscurians.state import new_game

    return new_game(table.setup)


class ObsnRoundCentre(FloatLayout):
    """The shared centre (layout in round.kv): `wide` when it is read along a long edge, else stacked."""

    model = ObjectProperty(None, allownone=True, rebind=True)
    wide = BooleanProperty(True)


class ObsnHandBar(BoxLayout):
    """In the hand: the bar on top with Home and the menu."""

    model = ObjectProperty(None, allownone=True, rebind=True)


class ObsnCornerButton(shared_widgets.BigButton):
    kind = StringProperty("menu")   # "home" or "menu"


class ObsnSeatRing(FloatLayout):
    """Places the players' panels, the centre and the corner buttons where the model's seating says, each turned
    to face its side of the table. The widgets are made once and reused (a refresh only moves and fills them)."""

    model = ObjectProperty(None, allownone=True, rebind=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._panels: list = []
        self._centre = None
        self._corners: list = []
        self._bar = None
        self.fbind("model", self._bind_model)

    def _bind_model(self, *_):
        m = self.model
        if m is None:
            return
        m.fbind("panels", self._fill)
        m.fbind("seating", self._arrange)
        self._fill()
        self._arrange()

    def _fill(self, *_):
        m = self.model
        while len(self._panels) < len(m.panels):
            holder = shared_widgets.Turned()
            holder.add_widget(Factory.ObsnPlayerPanel())
            self.add_widget(holder)
            self._panels.append(holder)
        for holder, data in zip(self._panels, m.panels):
            panel = holder.children[0]
            for key, value in data.items():
                setattr(panel, key, value)

    def _arrange(self, *_):
        m = self.model
        s = m.seating
        if s is None:
            return
        for holder, place in zip(self._panels, s.seats):
            holder.area, holder.angle = place.area, place.angle
        if self._centre is None:
            self._centre = shared_widgets.Turned()
            self._centre.add_widget(ObsnRoundCentre(model=m))
            self.add_widget(self._centre, index=len(self.children) - len(self._panels))
        self._centre.area, self._centre.angle = s.centre.area, s.centre.angle
        corners = [("home", 0), ("menu", 0), ("menu", 180), ("home", 180)] if s.corners else []
        while len(self._corners) < len(corners):
            holder = shared_widgets.Turned()
            holder.add_widget(Factory.ObsnCornerButton())
            self.add_widget(holder)
            self._corners.append(holder)
        for i, holder in enumerate(self._corners):
            button = holder.children[0]
            if i < len(corners):
                kind, angle = corners[i]
                place = s.corners[(0, 1, 3, 2)[i]]  # home bottom-left, menu bottom-right, menu top-left, home top-right
                holder.area, holder.angle = place.area, place.angle
                button.kind, button.opacity, button.disabled = kind, 1, False
            else:  # in the hand there are no corners: out of the way (and out of reach) below the screen
                holder.area = [0, -dp(200), 1, 1]
                button.opacity, button.disabled = 0, True
        # The bar exists only in the hand: a hidden widget would still swallow the touches meant for the panel
        # under it (Kivy lets disabled widgets take touches).
        if s.corners and self._bar is not None:
            self.remove_widget(self._bar)
            self._bar = None
        elif not s.corners and self._bar is None:
            self._bar = ObsnHandBar(model=m)
            self.add_widget(self._bar)


class ObsnRoundScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
