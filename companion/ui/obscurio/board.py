"""What every Obscurio table screen shows around the step being played: the title, Undo/Redo naming the move, the
hourglass and the time track, the cohesion gauge and the progress track, the traps of this turn, the move log.

`Board` is a view-model (Kivy properties the .kv binds to). The sand is read from the table's timer service at each
frame (`redraw_sand`, called by the plug-in's frame tick): time left is computed from the clock, never counted.
"""
from __future__ import annotations

import math

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.games.errors import N_
from companion.games.obscurio.constants import ROOMS, TRAP_STEP
from companion.games.obscurio.vocabulary import TRAP, TRAP_EFFECT
from companion.ui.obscurio import look, texts
from companion.ui.obscurio.model import TableModel

GLASS = "hourglass"   # the one glass on the table (Game.timer names it so; the hourglass stand turns it too)
LOG_LINES = 2


UNDO_CHARS = 34       # of the move Undo/Redo name: the button holds two short lines (the log has the whole move)


def _short(move: str) -> str:
    return move if len(move) <= UNDO_CHARS else move[:UNDO_CHARS - 1].rstrip() + "…"


class Board(TableModel):
    title = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    log = ListProperty()
    loyalty_shown = BooleanProperty(False)   # the app dealt the loyalty cards: a wizard may look again

    sand = NumericProperty(1.0)
    time_text = StringProperty("")
    glass_running = BooleanProperty(False)
    glass_paused = BooleanProperty(False)
    glass_active = BooleanProperty(False)
    glass_hint = StringProperty("")
    track = ListProperty()

    progress = NumericProperty(0)
    watcher = BooleanProperty(False)
    progress_text = StringProperty("")
    normal = NumericProperty(0)
    dark = NumericProperty(0)
    normal_total = NumericProperty(0)
    dark_total = NumericProperty(0)
    cohesion_text = StringProperty("")
    box_text = StringProperty("")

    traps = ListProperty()
    traps_title = StringProperty("")

    # -- taps ----------------------------------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last move; a finished game only once the players confirm (it reopens the game)."""
        if self.table.finished and self.table.can_undo:
            t = self.app.t
            self.app.confirm(t(N_("Reopen this finished game?")), t(N_("Undo")),
                             lambda: self.app.try_move(self.table.undo),
                             detail=self.undo_text)  # "Undo: <the move>"
            return
        self.app.try_move(self.table.undo)  # with nothing to take back, the table's refusal says so

    def redo(self) -> None:
        self.app.try_move(self.table.redo)

    def tap_hourglass(self) -> None:
        """Pause or resume the sand (the hourglass stand's button does the same to the same timer)."""
        t = self.app.t
        glass = self.table.timers.get(GLASS) if self.table else None
        if glass is None:
            self.app.say(t(N_("The hourglass runs in step 4 and during an accusation")))
            return
        if glass.state == "running":
            self.table.timers.pause(GLASS)
        elif glass.state == "paused":
            self.table.timers.resume(GLASS)
        self.redraw_sand()

    def show_rulings(self) -> None:
        setup = self.table.state.setup
        self.plugin.box = (setup.cohesion, setup.dark)
        self.app.show_rulings("obscurio", setup.rules)

    # -- what the screens show -----------------------------------------------------------------------------------
    def refresh(self, moves: list[str], undone: str | None) -> None:
        """Everything but the sand, from the table's state; `moves` is the move log (oldest first), `undone` the
        move Redo would play again (None: unknown, e.g. after a restart)."""
        state, t = self.table.state, self.app.t
        setup = state.setup
        self.title = texts.title(state, t)
        self.can_undo, self.can_redo = self.table.can_undo, self.table.can_redo
        self.undo_text = t(N_("Undo: {move}")).format(move=_short(moves[-1])) if moves and self.can_undo \
            else t(N_("Undo"))
        self.redo_text = t(N_("Redo: {move}")).format(move=_short(undone)) if undone and self.can_redo \
            else t(N_("Redo"))
        recent = list(reversed(moves[-LOG_LINES:]))
        self.log = [{"text": line, "latest": i == 0} for i, line in enumerate(recent)] or [
            {"text": t(N_("The moves of this game appear here.")), "latest": False}]
        self.loyalty_shown = setup.loyalty == "app" and state.phase not in ("over",)
        self.progress = min(state.progress, ROOMS - 1)
        self.watcher = state.watcher
        if state.progress >= ROOMS:
            self.progress_text = t(N_("Escaped: {n} of {rooms} rooms")).format(n=state.progress, rooms=ROOMS)
        else:
            self.progress_text = t(N_("Rooms crossed: {n} of {rooms}")).format(n=state.progress, rooms=ROOMS) + (
                "  · " + t(N_("Watcher active")) if state.watcher else "")
        self.normal_total = setup.cohesion - setup.dark
        self.dark_total = setup.dark
        self.normal, self.dark = state.normal, state.dark
        self.cohesion_text = t(N_("Cohesion: {normal} + {dark} dark")).format(normal=state.normal, dark=state.dark)
        on_cards = sum(state.cards)
        self.box_text = t(N_("On character cards: {cards} · in the box: {box}")).format(cards=on_cards,
                                                                                        box=state.box)
        self._traps(state, t)
        self._track(state)
        self.redraw_sand()

    def _traps(self, state, t) -> None:
        step = state.step or 0
        rows = [self._trap_row(x, step, t) for x in state.traps]
        watcher = state.effects - set(state.traps)
        rows += [self._trap_row(x, step, t, watcher=True) for x in sorted(watcher)]
        self.traps = rows
        if state.phase == "traps":
            self.traps_title = t(N_("Traps this turn: {n} to draw")).format(n=state.draws_due)
        else:
            self.traps_title = t(N_("Traps this turn"))

    @staticmethod
    def _trap_row(trap: str, step: int, t, watcher: bool = False) -> dict:
        acts = TRAP_STEP[trap]
        name = t(TRAP[trap])
        if watcher:
            name = t(N_("Watcher: {trap}")).format(trap=name)
        return {"name": name, "effect": t(TRAP_EFFECT[trap]),
                "trap_rgba": list(look.TRAP_STEP_RGBA[acts]), "acting": acts == step}

    def _track(self, state) -> None:
        """The time track: the space the hourglass stands on; after step 4, the space where it ended."""
        track = state.track
        if state.phase == "doors":
            self.track = [{"text": f"+{b}", "current": i == state.space, "passed": i < state.space}
                          for i, b in enumerate(track)]
        elif state.phase in ("exit", "end") and state.next_bonus is not None:
            last = len(track) - 1 if state.stopped else state.space
            self.track = [{"text": f"+{b}", "current": i == last, "passed": i < last} for i, b in enumerate(track)]
        else:
            self.track = [{"text": f"+{b}", "current": False, "passed": False} for b in track]

    def redraw_sand(self) -> None:
        """The hourglass as the clock says now (called every frame while a table is open)."""
        t = self.app.t
        state = self.table.state
        glass = self.table.timers.get(GLASS)
        timed = state.timer is not None
        if glass is None or not timed:
            self.sand, self.glass_active, self.glass_running, self.glass_paused = 1.0, False, False, False
            self.time_text = self._clock_text(state.setup.rules.hourglass)
            step_4_ahead = state.phase in ("traps", "riddle", "traitor")
            self.glass_hint = t(N_("Runs in step 4")) if step_4_ahead else t(N_("Not running"))
            return
        self.sand = glass.fraction
        self.glass_active = True
        self.glass_running = glass.state == "running"
        self.glass_paused = glass.state == "paused"
        self.time_text = self._clock_text(glass.remaining)
        self.glass_hint = t(N_("PAUSED: tap to go on")) if self.glass_paused else t(N_("Tap to pause"))

    @staticmethod
    def _clock_text(seconds: float) -> str:
        s = max(0, math.ceil(seconds - 1e-9))
        return f"{s // 60}:{s % 60:02d}"
