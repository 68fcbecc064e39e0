"""Keeping a table's timers where the rules want them: the game says which glass should run (Game.timer), this sets
it on the table, turns it over at the right moments and tells the game when the sand has run out
(Game.timer_action). Time is real (table rule 9): the clock starts when the book says, and Undo never gives time back.

    after every change of the table:   wanted = game.timer(state)
        nothing wanted        → the glass is left as it is (the real sand keeps falling: an undo back into the
                                step finds it where the time has taken it); a finished game puts it away
        a new run             → a fresh glass: set down to wait for its turn (wanted.wait: "First card down"),
                                or started
        the same run          → the glass counts the glasses that really ran out (`runs`); when the table is
                                behind (an Undo took back the time's moves), the time's moves are made again;
                                a glass that ran out is turned over from the moment it did
    when a glass runs out:    the game's action (Obscurio: Sand) is applied to the table; the engine judges it

Undo here takes back what a person entered: the time's moves (the sand ran out) and the game's notes (someone looked
at their loyalty card) after it stay. The hourglass on screen and a real hourglass stand are the same timer
(companion/session/devices.py turns it over and pauses it). A timer that ran out while the app was closed runs out
at the first poll after it reopens, and the glasses that followed are counted from that moment, so the game catches
up exactly as the sand would have.
"""
from __future__ import annotations

import logging

from companion.games.errors import IllegalAction
from companion.session.timers import EXPIRED, SET

log = logging.getLogger(__name__)


class GameClock:
    def __init__(self, table, *, on_error=None):
        self.table = table
        self.game = table.adapter
        self.timers = table.timers
        self._on_error = on_error or (lambda err: None)
        self._busy = False          # reconciling, or undoing several entries as one: no reconcile in between
        self._own = False           # the move being applied is this clock's (time, a note kept, a redo)
        self.catching_up = False    # the time's moves are being made again (a screen plays no moment for them)
        self._live = False          # the glass ran out just now: its move is a moment
        self._name = "hourglass"    # the game's glass, as last wanted
        self._redo: list = self._redo_from_log()   # moves Undo took back, the next Redo last
        self._unsubscribe_table = table.subscribe(self._on_table)
        self._unsubscribe_timers = self.timers.subscribe(self._on_timer)
        self.reconcile()

    # -- what the table shows ------------------------------------------------------------------------------------
    def wanted(self):
        return self.game.timer(self.table.state)

    def glass(self):
        """The glass the rules want now, as the timers have it (None when nothing is to be timed)."""
        wanted = self.wanted()
        if wanted is None:
            return None
        glass = self.timers.get(wanted.name)
        return glass if glass is not None and glass.tag in (_run(wanted), "") else None

    @property
    def waiting(self) -> bool:
        """The glass is set down full and waits for someone to turn it (the first card is not down yet)."""
        glass = self.glass()
        return glass is not None and glass.state == SET

    # -- a person's taps -----------------------------------------------------------------------------------------
    def turn(self) -> None:
        """The glass is turned now (Obscurio: the first card is down). IllegalAction when it already runs."""
        wanted = self.wanted()
        if wanted is None:
            raise IllegalAction.of("No hourglass is running now")
        if not self.waiting:
            raise IllegalAction.of("The hourglass is already turned")
        self.timers.flip(wanted.name)

    def run_out(self) -> None:
        """The group is done before the sand is: the glass counts as run out now (and the game moves on)."""
        glass = self.glass()
        if glass is None:
            raise IllegalAction.of("No hourglass is running now")
        self.timers.run_out(glass.name)

    def undo_index(self) -> int | None:
        """Where in the table's moves the last move a person entered is (what Undo takes back), or None."""
        actions = self.table.actions
        for i in range(len(actions) - 1, -1, -1):
            if not self._kept(actions[i]):
                return i
        return None

    @property
    def can_undo(self) -> bool:
        return self.undo_index() is not None

    def undo(self) -> None:
        """Take back the last move a person entered. The time's moves after it stay (the glass and the time track
        show the real time since the glass was turned), and so do the notes (a look at a loyalty card)."""
        i = self.undo_index()
        if i is None:
            raise IllegalAction.of("Nothing to undo")
        actions = self.table.actions
        target, kept = actions[i], actions[i + 1:]
        self._busy = True
        try:
            for _ in range(len(kept) + 1):
                self.table.undo()
            for action in kept:
                if self.game.is_note(action):
                    self._apply(action)
        finally:
            self._busy = False
        self._redo.append(target)
        self.reconcile()

    @property
    def redo_action(self):
        """The move Redo plays again (after a restart: the one the table's log keeps), or None."""
        if self._redo:
            return self._redo[-1]
        return self.table.next_redo if self.table.can_redo else None

    @property
    def can_redo(self) -> bool:
        return self.redo_action is not None

    def redo(self) -> None:
        if not self._redo:
            self.table.redo()  # the table's own refusal when there is nothing to redo
            return
        target = self._redo[-1]
        if self.table.can_redo and self.table.next_redo == target:
            self.table.redo()  # nothing happened since: the log says "redo"
        else:
            self._apply(target)  # the time moved on meanwhile: the move is made again on the table as it is now
        self._redo.pop()

    def _redo_from_log(self) -> list:
        """The moves Undo took back, as the table's stored log tells them (so Redo knows its move after a restart,
        even when the time's moves came after the undo): an undo of a person's move keeps it; Redo, or the same
        move made again, plays it back; any other move by a person forgets them; the time's moves and the notes
        leave them alone."""
        try:
            events = self.table.store.events(self.table.id)
        except Exception:  # a store that cannot read now: Redo knows only what the table's own stack holds
            log.exception("the log could not be read for Redo")
            return []
        done, undone, redo = [], [], []
        for event in events:
            if event.kind == "action":
                try:
                    action = self.game.action_from_json(event.payload)
                except Exception:
                    return []
                done.append(action)
                undone.clear()
                if self._kept(action):
                    continue
                if redo and redo[-1] == action:
                    redo.pop()
                else:
                    redo.clear()
            elif event.kind == "undo" and done:
                action = done.pop()
                undone.append(action)
                if not self._kept(action):
                    redo.append(action)
            elif event.kind == "redo" and undone:
                action = undone.pop()
                done.append(action)
                if redo and redo[-1] == action:
                    redo.pop()
        return redo

    # -- following the table -------------------------------------------------------------------------------------
    def reconcile(self) -> None:
        """Bring the glass in line with what the rules want now, and the table in line with the real time."""
        if self._busy:
            return
        self._busy = True
        try:
            self._reconcile()
        finally:
            self._busy = False
            self.catching_up = False

    def _reconcile(self) -> None:
        for _ in range(10_000):  # each round makes one of the time's moves; the sand cannot run out more often
            state = self.table.state
            wanted = self.game.timer(state)
            if wanted is None:
                if self.game.is_over(state):
                    for name in self.timers.names():  # the game is over: no sand is worth keeping
                        self.timers.cancel(name)
                return
            self._name = wanted.name
            run = _run(wanted)
            glass = self.timers.get(wanted.name)
            if glass is None or glass.tag not in (run, ""):
                if wanted.wait:
                    self.timers.set(wanted.name, wanted.seconds, tag=run)
                else:
                    self.timers.start(wanted.name, wanted.seconds, tag=run)
                return
            if glass.state == SET:
                return  # nobody has turned it yet
            if glass.tag == "":
                # A glass started by an earlier version counted nothing: it is taken as in step with the table
                # (one glass more if it ran out: the table has not heard of that yet).
                ran = wanted.glass + (1 if glass.state == EXPIRED else 0)
                self.timers.retag(wanted.name, run, ran)
                continue
            if wanted.glass < glass.runs:
                # The sand ran out more often than the table says (an undo took back the time's moves, or the app
                # was closed meanwhile): the time's move again.
                if not self._time_move(wanted):
                    return
                continue
            if wanted.glass > glass.runs:
                # The table moved the glass on by itself (the sand declared out by hand): a fresh glass.
                self.timers.start(wanted.name, wanted.seconds, tag=run, runs=wanted.glass)
            elif glass.state == EXPIRED:
                # The next glass of the run, counted from the moment the last one ran out.
                self.timers.flip(wanted.name, from_expiry=True)
            return

    def _time_move(self, wanted) -> bool:
        # The sand that ran out just now is a moment; the moves made again after an undo are not.
        self.catching_up = not self._live
        self._live = False
        try:
            self._apply(self.game.timer_action(self.table.state, wanted.name))
            return True
        except IllegalAction as err:  # the rules no longer want this glass: nothing to do
            log.info("the %s ran out but the game refused it: %s", wanted.name, err)
        except Exception as err:  # a disk that cannot save: say so; the sand keeps running
            log.exception("the %s ran out but could not be recorded", wanted.name)
            self._on_error(err)
        return False

    def _apply(self, action) -> None:
        self._own = True
        try:
            self.table.apply(action)
        finally:
            self._own = False

    def poll(self) -> list:
        """Let the timers run out (the app calls this on time; tests after advancing the clock)."""
        return self.timers.poll()

    def _on_table(self, table, kind: str) -> None:
        if kind == "action" and not self._own and table.actions and not self._kept(table.actions[-1]):
            self._redo.clear()  # a new move by a person: what was undone before is gone
        self.reconcile()

    def _on_timer(self, event) -> None:
        if event.op != "expire":
            return
        wanted = self.wanted()
        if wanted is not None and event.timer == wanted.name and event.tag in (_run(wanted), ""):
            self._live = True
            try:
                self.reconcile()
            finally:
                self._live = False

    def _kept(self, action) -> bool:
        """Moves Undo leaves in place: the time's (the sand ran out) and the game's notes."""
        return self.game.is_note(action) or self._is_time(action)

    def _is_time(self, action) -> bool:
        try:
            return action == self.game.timer_action(self.table.state, self._name)
        except NotImplementedError:
            return False

    def close(self) -> None:
        self._unsubscribe_table()
        self._unsubscribe_timers()


def _run(wanted) -> str:
    return wanted.run or wanted.token
