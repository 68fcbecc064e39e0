"""What every Obscurio table screen shows around the step being played: the title, Undo/Redo naming the move, the
hourglass and the time track, the numbers the group argues over (the time, the cohesion left, the rooms and the
Watcher, the traps, the tokens on each character card) — upright for the near long side and once more turned to the
far one —, the gauge and the progress track, this turn's traps, the move log.

`Board` is a view-model (Kivy properties the .kv binds to). The sand is read from the table's timer service at each
frame (`redraw_sand`, called by the plug-in's frame tick): time left is computed from the clock, never counted.
Undo and Redo go through the session's GameClock: Undo takes back what a person entered and never the time.
"""
from __future__ import annotations

import math

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.games.errors import N_
from companion.games.obscurio.constants import PLUS2, ROOMS, TRAP_STEP, TRAPS
from companion.games.obscurio.vocabulary import TRAP, TRAP_EFFECT
from companion.ui.obscurio import look, texts
from companion.ui.obscurio.model import TableModel

GLASS = "hourglass"   # the one glass on the table (Game.timer names it so; the hourglass stand turns it too)
LOG_LINES = 2


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
    glass_waiting = BooleanProperty(False)   # set down full: the first card is not down yet
    glass_hint = StringProperty("")
    track = ListProperty()

    progress = NumericProperty(0)
    watcher = BooleanProperty(False)
    watcher_text = StringProperty("")        # the Watcher's trap, large, for the rest of the game
    normal = NumericProperty(0)
    dark = NumericProperty(0)
    normal_total = NumericProperty(0)
    dark_total = NumericProperty(0)
    box_text = StringProperty("")
    tiles = ListProperty()                   # the numbers: {"value", "caption", "value_rgba"}
    card_chips = ListProperty()              # tokens on each character card: PillRow data

    traps = ListProperty()
    traps_cols = NumericProperty(1)          # two columns of names when the turn has many traps
    traps_title = StringProperty("")

    # -- taps ----------------------------------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last move a person entered. When it would take back something the whole table has seen —
        the end of the game, the Traitor shown —, ask first and say so."""
        clock = self.plugin.gameclock
        index = clock.undo_index()
        if index is None:
            self.app.try_move(clock.undo)  # "Nothing to undo", in the players' words
            return
        before, action, after = self.plugin.moves.at(index)
        t = self.app.t
        seen = _traitor_seen(after) and not _traitor_seen(before)
        if self.table.finished or seen:
            name = after.setup.name_of(after.traitor) if seen else ""
            question = t(N_("Reopen this finished game?")) if self.table.finished else t(N_("Undo the accusation?"))
            detail = self.undo_text
            if seen:
                detail = t(N_("Everyone has seen that {name} is the Traitor: after the undo the game goes on with "
                              "the Traitor known.")).format(name=name) + "\n" + detail
            self.app.confirm(question, t(N_("Undo")), lambda: self.app.try_move(clock.undo), detail=detail)
            return
        self.app.try_move(clock.undo)

    def redo(self) -> None:
        self.app.try_move(self.plugin.gameclock.redo)

    def tap_hourglass(self) -> None:
        """Pause or resume the sand (the hourglass stand's button does the same to the same timer); a glass set down
        full is turned (the first card is down)."""
        t = self.app.t
        glass = self.plugin.gameclock.glass() if self.table else None
        if glass is None:
            self.app.say(t(N_("The hourglass runs in step 4 and during an accusation")))
            return
        if glass.waiting:
            self.app.try_move(self.plugin.gameclock.turn)
        elif glass.state == "running":
            self.table.timers.pause(GLASS)
        elif glass.state == "paused":
            self.table.timers.resume(GLASS)
        self.redraw_sand()

    def show_rulings(self) -> None:
        setup = self.table.state.setup
        self.plugin.box = (setup.cohesion, setup.dark)
        self.app.show_rulings("obscurio", setup.rules)

    # -- what the screens show -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Everything but the sand, from the table's state and its moves."""
        state, t = self.table.state, self.app.t
        setup = state.setup
        # The night's last lines run after the card holder closed: the title still says step 3 until they end.
        night = self.plugin.night.active and state.phase == "doors"
        self.title = texts.title(state._with(phase="traitor") if night else state, t)
        self._undo_redo(t)
        moves = self.plugin.moves.lines(self.app.lang)
        recent = list(reversed(moves[-LOG_LINES:]))
        self.log = [{"text": line, "latest": i == 0} for i, line in enumerate(recent)] or [
            {"text": t(N_("The moves of this game appear here.")), "latest": False}]
        self.loyalty_shown = setup.loyalty == "app" and state.phase not in ("over", "unmask")
        self.progress = min(state.progress, ROOMS - 1)
        self.watcher = state.watcher
        self.watcher_text = watcher_words(state, t) if state.watcher else ""
        self.normal_total = setup.cohesion - setup.dark
        self.dark_total = setup.dark
        self.normal, self.dark = state.normal, state.dark
        self.box_text = t(N_("In the box: {box}")).format(box=state.box)
        self._traps(state, t)
        self._track(state)
        self._cards(state)
        self.redraw_sand()

    def _undo_redo(self, t) -> None:
        clock = self.plugin.gameclock
        index = clock.undo_index()
        self.can_undo = index is not None
        if self.can_undo:
            self.undo_text = t(N_("Undo: {move}")).format(move=texts.short_move(*self.plugin.moves.at(index), t, self.app.lang))
        else:
            self.undo_text = t(N_("Undo"))
        action = clock.redo_action
        self.can_redo = action is not None
        self.redo_text = t(N_("Redo"))
        if action is not None:
            state = self.table.state
            try:
                after = state.apply(action)
            except Exception:  # the table moved on since: Redo will say why when tapped
                after = state
            self.redo_text = t(N_("Redo: {move}")).format(move=texts.short_move(state, action, after, t, self.app.lang))

    def show_drawn(self, drawn) -> None:
        """Step 1 with the real bag: the tokens tapped in so far show where this turn's traps will be."""
        state = self.table.state
        if state.phase == "traps":
            self.traps = self._fitted([self._trap_row(x, 1, self.app.t, copies=drawn.count(x))
                                       for x in sorted(set(drawn), key=TRAPS.index)])

    def _traps(self, state, t) -> None:
        step = state.step or 0
        # One row per trap; two tokens of one trap (the two +2s) share it.
        rows = [self._trap_row(x, step, t, copies=state.traps.count(x))
                for x in sorted(set(state.traps), key=TRAPS.index)]
        watcher = state.effects - set(state.traps)
        rows += [self._trap_row(x, step, t, watcher=True) for x in sorted(watcher)]
        self.traps = self._fitted(rows)
        if state.phase == "traps":
            self.traps_title = t(N_("Traps to draw: {n}")).format(n=state.draws_due)
        else:
            self.traps_title = t(N_("Traps this turn: {n}")).format(n=len(state.traps))

    def _fitted(self, rows: list[dict]) -> list[dict]:
        """Every trap of the turn in sight without scrolling: with many, their names in two columns (what the green
        ones do in step 4 is on the doors grid itself: a 7th door, door 4 face down, the doors one at a time), on
        one line each on a small screen."""
        compact = self.plugin.layout.compact
        many = len(rows) > (3 if compact else 4)
        self.traps_cols = 2 if many else 1
        return [{**row, "effect": "" if many else row["effect"], "one_line": many and compact} for row in rows]

    @staticmethod
    def _trap_row(trap: str, step: int, t, watcher: bool = False, copies: int = 1) -> dict:
        # A +2 acts when it is drawn (step 1): from then on it is only a token on the table.
        acts = 1 if trap == PLUS2 else TRAP_STEP[trap]
        name = t(TRAP[trap]) + (f" ×{copies}" if copies > 1 else "")
        if watcher:
            name = t(N_("Watcher: {trap}")).format(trap=name)
        acting = acts == step
        # What a trap does is spelled out until its step is past; then only its name stays (so that every trap of
        # the turn is in sight in step 4 without scrolling).
        effect = t(TRAP_EFFECT[trap]) if acts >= step else ""
        return {"name": name, "effect": effect, "trap_rgba": list(look.TRAP_STEP_RGBA[TRAP_STEP[trap]]),
                "acting": acting}

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

    def _cards(self, state) -> None:
        """The tokens on each character card (the book keeps them in sight: who chose wrong how often)."""
        setup = state.setup
        narrow = len(setup.chips) > 5
        chips = []
        for chip in setup.chips:
            n = state.tokens_on(chip)
            name = texts.chip_name(setup, chip, self.app.lang) if chip != setup.companion else "+"
            text = str(n) if narrow else f"{name} {n}"
            chips.append({"text": text, "rgba": list(look.CHIP[chip]), "ink": list(look.INK[chip])})
        self.card_chips = chips

    def _tiles(self, state, t) -> list[dict]:
        """The numbers the group argues over, large, the same for both long sides."""
        white, gold, stop = list(look.WHITE), list(look.GOLD), list(look.STOP)
        tiles = [{"key": "time", "value": self.time_text, "caption": self.glass_hint_short(state, t),
                  "value_rgba": gold if self.glass_running else white},
                 {"key": "cohesion", "value": f"{state.normal} + {state.dark}", "caption": t(N_("Cohesion")),
                  "value_rgba": white if state.normal else stop}]
        if state.watcher:
            tiles.append({"key": "rooms", "value": f"{min(state.progress, ROOMS)}/{ROOMS}",
                          "caption": t(N_("Watcher!")), "value_rgba": stop})
        else:
            tiles.append({"key": "rooms", "value": f"{state.progress}/{ROOMS}", "caption": t(N_("Rooms")),
                          "value_rgba": white})
        if state.phase == "traps":
            tiles.append({"key": "traps", "value": str(state.draws_due), "caption": t(N_("Traps to draw")),
                          "value_rgba": gold})
        elif state.next_bonus is not None and state.phase in ("exit", "end"):
            tiles.append({"key": "traps", "value": f"+{state.next_bonus}", "caption": t(N_("Traps next turn")),
                          "value_rgba": gold if state.next_bonus else white})
        else:
            tiles.append({"key": "traps", "value": str(len(state.traps)), "caption": t(N_("Traps")),
                          "value_rgba": white})
        return tiles

    def glass_hint_short(self, state, t) -> str:
        if self.glass_waiting:
            return t(N_("Not turned"))
        if state.phase == "doors":
            return t(N_("Space {space} of {spaces}")).format(space=state.space + 1, spaces=len(state.track))
        if self.glass_active:
            return t(N_("Minute of talk"))
        return t(N_("Hourglass"))

    def redraw_sand(self) -> None:
        """The hourglass as the clock says now (called every frame while a table is open)."""
        t = self.app.t
        state = self.table.state
        glass = self.plugin.gameclock.glass() if self.plugin.gameclock is not None else None
        if glass is None:
            self.sand, self.glass_active, self.glass_running, self.glass_paused = 1.0, False, False, False
            self.glass_waiting = False
            self.time_text = self._clock_text(state.setup.rules.hourglass)
            step_4_ahead = state.phase in ("traps", "riddle", "traitor")
            self.glass_hint = t(N_("Runs in step 4")) if step_4_ahead else t(N_("Not running"))
        else:
            self.sand = glass.fraction
            self.glass_waiting = glass.waiting
            self.glass_active = not glass.waiting
            self.glass_running = glass.state == "running"
            self.glass_paused = glass.state == "paused"
            self.time_text = self._clock_text(glass.remaining)
            if glass.waiting:
                self.glass_hint = t(N_("Tap when the first card is down")) if state.phase == "doors" \
                    else t(N_("Tap to turn the glass"))
            elif glass.state == "expired":
                self.glass_hint = t(N_("The sand ran out"))
            else:
                self.glass_hint = t(N_("PAUSED: tap to go on")) if self.glass_paused else t(N_("Tap to pause"))
        tiles = self._tiles(state, t)
        if tiles != self.tiles:
            self.tiles = tiles

    @staticmethod
    def _clock_text(seconds: float) -> str:
        s = max(0, math.ceil(seconds - 1e-9))
        return f"{s // 60}:{s % 60:02d}"


def _traitor_seen(state) -> bool:
    """Has the whole table seen who the Traitor is (exposed by an accusation, or shown at the end)?"""
    return state.traitor is not None and (state.exposed or state.phase == "over")


def watcher_words(state, t) -> str:
    """What the Watcher does, for the rest of the game (RULING obscurio-watcher)."""
    trap = state.setup.rules.watcher
    if trap is None:
        return t(N_("The Watcher is active: apply the trap printed on your board every turn."))
    return t(N_("The Watcher acts as {trap}: {effect}")).format(trap=t(TRAP[trap]), effect=t(TRAP_EFFECT[trap]))
