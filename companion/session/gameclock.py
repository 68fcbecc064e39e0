"""Keeping a table's timers where the rules want them: the game says which glass should run (Game.timer), this turns
it over at the right moments and tells the game when the sand has run out (Game.timer_action).

    after every change of the table:   wanted = game.timer(state)
        nothing wanted        → the game's glass is cancelled
        a new token           → a fresh glass: started, or — right after it ran out — turned over from that moment
        the same token        → left alone (paused stays paused: the players hold it)
    when a glass runs out:    the game's action (Obscurio: Sand) is applied to the table; the engine judges it

The hourglass on screen and a real hourglass stand are the same timer (companion/session/devices.py turns it over
and pauses it). A timer that ran out while the app was closed runs out at the first poll after it reopens, and the
glasses that followed are counted from that moment, so the game catches up exactly as the sand would have.
"""
from __future__ import annotations

import logging

from companion.games.errors import IllegalAction

log = logging.getLogger(__name__)


class GameClock:
    def __init__(self, table, *, on_error=None):
        self.table = table
        self.game = table.adapter
        self.timers = table.timers
        self._on_error = on_error or (lambda err: None)
        self._token: str | None = None
        self._name: str | None = None
        wanted = self.game.timer(table.state)
        if wanted is not None and self.timers.get(wanted.name) is not None:
            # Reopened: the glass in the log is the one the rules want (a new token would have been logged).
            self._token, self._name = wanted.token, wanted.name
        self._unsubscribe_table = table.subscribe(lambda t, kind: self.reconcile())
        self._unsubscribe_timers = self.timers.subscribe(self._on_timer)
        self.reconcile()

    def reconcile(self) -> None:
        """Bring the glass in line with what the rules want now."""
        wanted = self.game.timer(self.table.state)
        if wanted is None:
            if self._name is not None and self.timers.get(self._name) is not None:
                self.timers.cancel(self._name)
            self._token = self._name = None
            return
        if wanted.token == self._token and self.timers.get(wanted.name) is not None:
            return
        current = self.timers.get(wanted.name)
        self._token, self._name = wanted.token, wanted.name
        if current is not None and current.state == "expired" and current.duration == wanted.seconds:
            self.timers.flip(wanted.name, from_expiry=True)  # the next glass counts from the moment it ran out
        else:
            self.timers.start(wanted.name, wanted.seconds)

    def poll(self) -> list:
        """Let the timers run out (the app calls this on time; tests after advancing the clock)."""
        return self.timers.poll()

    def _on_timer(self, event) -> None:
        if event.op != "expire" or event.timer != self._name:
            return
        try:
            self.table.apply(self.game.timer_action(self.table.state, event.timer))
        except IllegalAction as err:  # the rules no longer want this glass (e.g. the step just ended): nothing to do
            log.info("the %s ran out but the game refused it: %s", event.timer, err)
        except Exception as err:  # a disk that cannot save: say so; the sand keeps running
            log.exception("the %s ran out but could not be recorded", event.timer)
            self._on_error(err)

    def close(self) -> None:
        self._unsubscribe_table()
        self._unsubscribe_timers()
