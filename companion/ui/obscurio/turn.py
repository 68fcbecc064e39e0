"""The table screen of an Obscurio turn: step 1 (draw the traps; before turn 1, the box's checklist), step 2 (the
riddle), step 4 (the first card down turns the glass, the doors, "Stop!", the Exit) and step 5 (everything the turn
cost, the next turn). Step 3 is the night screen; the accusation has its own.

`TurnModel` is the view-model: one method per tap, each turning the tap into an engine action for the table; a
refusal is said in the banner in the players' language (a dimmed control still takes the tap and says why).
`ObsoTableScreen` is layout only (turn.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction
from companion.games.obscurio.actions import Chip, Done, Draw, EndTurn, Exit, Open, Riddle
from companion.games.obscurio.constants import PLUS2, TRAP_STEP, TRAPS
from companion.games.obscurio.turn import expected_draws
from companion.games.obscurio.vocabulary import TRAP, TRAP_EFFECT
from companion.i18n.messages import translate_message
from companion.ui.obscurio import look, texts
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel

# Step 4 and the Exit share one view: "Stop!" comes by itself, so nothing may move under a finger then (table rule 2);
# the door numbers over the chips become the Exit's buttons, and where the step's buttons were the moment shows.
VIEWS = {"traps": "ObsoDrawView", "riddle": "ObsoRiddleView", "doors": "ObsoDoorsView", "exit": "ObsoDoorsView",
         "end": "ObsoEndTurnView"}
MAX_ROW = 64   # dp: a row of the doors grid is never taller than this
MIN_ROW = 32   # dp: nor shorter (7 wizards on an 8" tablet)


def play(model, action) -> bool:
    """Apply `action` to the model's table; a refusal is said in the banner. True when the move was made."""
    return model.app.try_move(lambda: model.table.apply(action))


class TurnModel(TableModel):
    view = StringProperty("")
    prompt = StringProperty("")
    detail = StringProperty("")
    moment = StringProperty("")           # the moment's words, large: "Stop!", "The Exit is door 4"
    moment_rgba = ListProperty(list(look.GOLD))
    app_bag = BooleanProperty(True)
    bag_options = ListProperty()
    drawn_text = StringProperty("")
    draw_ready = BooleanProperty(False)
    door_heads = ListProperty()
    chip_rows = ListProperty()
    done_enabled = BooleanProperty(False)
    locked = BooleanProperty(False)
    open_enabled = BooleanProperty(False)
    waiting = BooleanProperty(False)      # step 4, the glass set down: "First card down: turn the glass"
    exiting = BooleanProperty(False)      # step 4 is over: the Grimoire taps the Exit's number
    row_height = NumericProperty(dp(60))
    prompt_shown = BooleanProperty(True)
    result_lines = ListProperty()          # every line of the turn's result (what the tests and the log read)
    cost_chips = ListProperty()            # what each chip cost, as chips of its colour
    other_lines = ListProperty()           # the box, the accusations, the total, the next turn's traps

    def __init__(self, plugin, **kwargs):
        super().__init__(plugin, **kwargs)
        self._drawn: list[str] = []       # physical bag: the tokens tapped in so far, in the order drawn

    def reset_entry(self) -> None:
        self._drawn = []

    # -- step 1 ----------------------------------------------------------------------------------------------------
    def draw_from_app(self) -> None:
        state = self.table.state
        draws = [a for a in state.legal_actions() if isinstance(a, Draw)]
        if state.phase != "traps" or not draws:
            play(self, Draw(()))  # the engine says why (not step 1)
            return
        play(self, draws[0])

    def add_trap(self, trap: str) -> None:
        """Physical bag: one more token as drawn from the real bag."""
        state, t = self.table.state, self.app.t
        if state.phase != "traps":
            play(self, Draw(tuple(self._drawn) + (trap,)))
            return
        if self._drawn.count(trap) >= state.bag.get(trap, 0):
            try:  # the engine's own words: "There is no … token in the bag" / "The bag holds only …"
                state.apply(Draw(tuple(self._drawn) + (trap,)))
            except IllegalAction as err:
                self.app.say(translate_message(err, self.app.lang))
            return
        if len(self._drawn) >= expected_draws(state, tuple(self._drawn)):
            self.app.say(t(N_("All {n} tokens are in: confirm them, or take one out")).format(n=len(self._drawn)))
            return
        self._drawn.append(trap)
        self.refresh()

    def take_one_out(self) -> None:
        if not self._drawn:
            self.app.say(self.app.t(N_("No token tapped in yet")))
            return
        self._drawn.pop()
        self.refresh()

    def confirm_draw(self) -> None:
        if play(self, Draw(tuple(self._drawn))):
            self._drawn = []

    # -- step 2 ----------------------------------------------------------------------------------------------------
    def riddle_ready(self) -> None:
        play(self, Riddle())

    # -- step 4 ----------------------------------------------------------------------------------------------------
    def first_card(self) -> None:
        """The first card is on the board: the Grimoire turns the glass (the book: "Tan pronto como se coloca la
        primera carta en el tablero, el Grimorio gira el reloj de arena")."""
        if self.app.try_move(self.plugin.gameclock.turn):
            self.plugin.sound("flip")
        self.plugin.board.redraw_sand()
        self.refresh()

    def _before_the_glass(self) -> bool:
        """A step-4 tap before the glass was turned: say what comes first."""
        if self.table.state.phase == "doors" and self.plugin.gameclock.waiting:
            self.app.say(self.app.t(texts.FIRST_CARD_FIRST))
            return True
        return False

    def tap_cell(self, chip: str, door: int) -> None:
        """A wizard's chip in front of `door`; tapped again there, back to the centre."""
        if self._before_the_glass():
            return
        state = self.table.state
        on = state.door_of(chip) if chip in state.setup.chips else None
        play(self, Chip(chip, None if on == door else door))

    def open_next(self) -> None:
        if self._before_the_glass():
            return
        play(self, Open())

    def all_agreed(self) -> None:
        if self._before_the_glass():
            return
        state = self.table.state
        waiting = [c for c in state.chips if state.door_of(c) is None]
        if state.phase == "doors" and waiting and not state.locked:
            # The engine's refusal names chips by colour code; the table knows the players by name.
            names = ", ".join(texts.chip_name(state.setup, c, self.app.lang) for c in waiting)
            self.app.say(self.app.t(N_("Every wizard chooses a door first: {names} still in the centre")).format(
                names=names))
            return
        play(self, Done())

    def tap_door(self, door: int) -> None:
        """A door's number: once step 4 is over, the Grimoire reveals that door as the Exit (before, the engine
        says when the Exit is revealed)."""
        play(self, Exit(door))

    def fit_rows(self, view_height: float | None = None) -> None:
        """Every row of the doors grid in sight, as tall as the view allows (the view's height: its prompt, the
        grid, the step's buttons); on a small screen with many wizards the prompt gives its room to the rows (the
        step's button says what to do)."""
        if view_height is not None:
            self._view_height = view_height
        height = getattr(self, "_view_height", 0)
        rows = getattr(self, "_rows", 0)
        if not height or not rows:
            return
        grid = height - self.plugin.layout.button_h - 3 * dp(6) - (rows - 1) * dp(5) - dp(4)
        room = (grid - dp(54)) / rows
        self.prompt_shown = room >= dp(44) or rows <= 5
        if not self.prompt_shown:
            room = grid / rows
        self.row_height = max(dp(MIN_ROW), min(dp(MAX_ROW), room))

    # -- step 5 ----------------------------------------------------------------------------------------------------
    def next_turn(self) -> None:
        play(self, EndTurn())

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None:
            return
        state, t = self.table.state, self.app.t
        self.view = VIEWS.get(state.phase, "")
        if not self.view:
            return
        self.moment, self.detail = "", ""
        getattr(self, "_" + state.phase)(state, t)

    def _traps(self, state, t) -> None:
        self.app_bag = state.setup.bag == "app"
        due = expected_draws(state, tuple(self._drawn))
        plus = 2 * self._drawn.count(PLUS2)
        if due == 1:
            self.prompt = t(N_("Draw 1 trap token"))
        elif plus:
            self.prompt = t(N_("Draw {n} trap tokens: {base}, plus 2 for each +2")).format(n=due, base=due - plus)
        else:
            self.prompt = t(N_("Draw {n} trap tokens: 1, plus {bonus} from the time track")).format(
                n=due, bonus=due - 1)
        if self.app_bag:
            self.detail = t(N_("The app draws from its own bag; a +2 draws two more at once."))
            self.bag_options = []
            return
        self.detail = t(N_("Tap each token drawn from the real bag (a +2 means: draw two more)."))
        bag = state.bag
        self.bag_options = [{
            # the count only where it can be more than one (a second +2): a long name keeps its button
            "value": trap, "text": t(TRAP[trap]) + (f" ×{self._drawn.count(trap)}" if self._drawn.count(trap) > 1
                                                    else ""),
            "enabled": self._drawn.count(trap) < bag.get(trap, 0) and len(self._drawn) < due,
            "rgba": list(look.TRAP_STEP_RGBA[TRAP_STEP[trap]]), "selected": trap in self._drawn,
        } for trap in TRAPS if trap in bag]
        self.drawn_text = t(N_("These are our tokens ({k} of {n})")).format(k=len(self._drawn), n=due)
        self.draw_ready = len(self._drawn) == due
        self.plugin.board.show_drawn(self._drawn)

    def _riddle(self, state, t) -> None:
        self.prompt = t(N_("Grimoire: look at the Exit card, point the Butterflies at the Pages, pass the desk."))
        # The +2 did its work in step 1: only the traps that shape the riddle are told here.
        brown = [x for x in state.effects if TRAP_STEP[x] == 2 and x != PLUS2]
        self.detail = "\n".join(f"{t(TRAP[x])}: {t(TRAP_EFFECT[x])}" for x in sorted(brown, key=TRAPS.index))

    def _doors(self, state, t) -> None:
        self.exiting = False
        self.waiting = bool(self.plugin.gameclock and self.plugin.gameclock.waiting)
        self.locked = state.locked
        if self.waiting:
            self.prompt = t(N_("Lay the doors. When the first card is down, turn the glass."))
        else:
            self.prompt = t(N_("Tap your row under the door you choose; tap it again to take the chip back."))
        self.done_enabled = state.is_legal(Done())
        self.open_enabled = state.locked and state.is_legal(Open())
        self._grid(state, t)

    def _exit(self, state, t) -> None:
        self.exiting, self.waiting = True, False
        if state.stopped:
            self.moment = t(N_("Stop!"))
            self.detail = t(N_("Chips still in the centre count as wrong doors."))
            self.moment_rgba = list(look.STOP)
        else:
            self.moment = t(N_("All agreed: step 4 is over"))
            self.moment_rgba = list(look.GOLD)
        self.prompt = t(N_("Grimoire: reveal the Exit, then tap its number above the chips."))
        self._grid(state, t)

    def _end(self, state, t) -> None:
        self.moment, self.prompt = result_head(state, t, self.app.lang)
        self.moment_rgba = list(look.GOLD if state.last and state.last.advanced else look.STOP)
        self.result_lines, self.cost_chips, self.other_lines = result_rows(self.plugin.moves.this_turn(), state, t,
                                                                           self.app.lang)
        self.detail = t(N_("Step 5: discard the Illusion cards, traps back into the bag, every chip to the centre."))

    def _grid(self, state, t) -> None:
        """The doors and, for each wizard, a row of cells, one per door: a tap puts the chip there."""
        setup = state.setup
        self._rows = len(state.chips) + 1
        self.fit_rows()
        heads = []
        for d in range(1, state.n_doors + 1):
            kind = "choose" if state.phase == "exit" else "open"
            if state.exit is not None:
                kind = "exit" if d == state.exit else "wrong"
            elif state.locked and d > state.opened:
                kind = "closed"
            elif d in state.hidden_doors:
                kind = "hidden"
            elif state.locked and d == state.opened and state.phase == "doors":
                kind = "new"
            heads.append({"door": d, "text": str(d), "look": kind})
        self.door_heads = heads
        rows = []
        for chip in state.chips:
            on = state.door_of(chip)
            cells = []
            for d in range(1, state.n_doors + 1):
                move = Chip(chip, None if on == d else d)
                cells.append({"chip": chip, "door": d, "text": str(d), "placed": on == d,
                              "enabled": state.phase == "doors" and not self.waiting and state.is_legal(move),
                              "chip_rgba": list(look.CHIP[chip]), "chip_ink": list(look.INK[chip])})
            companion = chip == setup.companion
            rows.append({"chip": chip, "name": setup.name_of(chip),
                         "where": t(N_("companion")) if companion else "",
                         "chip_rgba": list(look.CHIP[chip]), "chip_ink": list(look.INK[chip]), "cells": cells})
        self.chip_rows = rows


def result_head(state, t, lang: str) -> tuple[str, str]:
    """The Exit reveal's moment and headline ("The Exit is door 4", "Someone found it …")."""
    if state.exit is None and state.last is None:
        return "", ""
    door = state.exit if state.exit is not None else state.last.exit
    headline = texts.exit_headline(state, lang)
    return t(N_("The Exit is door {door}")).format(door=door), headline[:1].upper() + headline[1:]


def result_rows(moves, state, t, lang: str) -> tuple[list[dict], list[dict], list[dict]]:
    """This turn's result: every line (ObsoLine rows, a chip's colour in front of its line); what each chip cost as
    chips of its colour (read across the table); and the other lines (the box, the accusations, the total)."""
    none = [0, 0, 0, 0]
    costs = {line for chip, line in texts.exit_costs(state, t, lang) if chip}
    every = [(chip, line) for chip, line in texts.turn_lines(moves, state, t, lang)]
    lines = [{"text": line, "mark_rgba": list(look.CHIP[chip]) if chip else none} for chip, line in every]
    chips = [{"text": line, "rgba": list(look.CHIP[chip]), "ink": list(look.INK[chip])}
             for chip, line in every if chip and line in costs]
    others = [row for row, (chip, line) in zip(lines, every) if not (chip and line in costs)]
    return lines, chips, others


def checklist(state, t) -> list[dict]:
    """Before turn 1: what the box holds for this table (the real cards, the gauge, the bag), as a checklist."""
    setup = state.setup
    wizards = len(setup.wizards)
    if not setup.has_traitor:
        cards = t(N_("No loyalty cards with 2 or 3 players; the card holder only holds the time track."))
    elif setup.loyalty == "app":
        cards = t(N_("Loyalty cards: the app dealt them; each wizard has looked at theirs."))
    else:
        cards = t(N_("Loyalty cards: 1 Traitor + {loyal} Loyal, shuffled, one to each wizard.")).format(
            loyal=wizards - 1)
    lines = [cards,
             t(N_("Cohesion tokens: {dark} in the dark area, {normal} in the normal area.")).format(
                 dark=setup.dark, normal=setup.cohesion - setup.dark),
             t(N_("The progress marker on the first space; every chip in the centre of the board."))]
    if setup.bag == "physical":
        lines.append(t(N_("Trap tokens in the bag: {n}.")).format(n=sum(state.bag.values())))
    return [{"text": line, "mark_rgba": list(look.GOLD)} for line in lines]


class ObsoTableScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
