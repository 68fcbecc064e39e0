"""The narrator: a script of lines (companion/games/obscurio/night.py) spoken or shown one at a time, each followed
by its pause, on the session's clock — so tests run it on a fake clock.

Each line's pause is a timer of the table's TimerService (named "night", tagged with the script and the line), so
the night is in the table's log like the hourglass: a killed app reopens where the night stood (the line, its
pause or countdown, paused or not) instead of starting it again. A line that `wait`s stops the narration until
someone taps (`go_on`): the Traitor chooses at their own pace; a countdown on it only marks it `timed_out`.

    narrator = Narrator(clock, speaker, timers=table.timers, text=lambda line: translated text)
    narrator.subscribe(show)          # show(line) for each line (again when it is paused, resumed, timed out),
                                      # show(None) when the script is over
    narrator.start(script(state), key="turn 3"); … narrator.poll() …; narrator.go_on() / skip() / pause() / stop()
    narrator.restore(script(state), key="turn 3")   # reopened: True when the night was under way
"""
from __future__ import annotations

import logging
from typing import Callable, Sequence

from companion.session.timers import EXPIRED, PAUSED, RUNNING, TimerService

log = logging.getLogger(__name__)

NAME = "night"
WAITING = 86_400   # a line without a countdown waits, set down, for a day at most


class Narrator:
    def __init__(self, clock, speaker, *, timers: TimerService | None = None, name: str = NAME,
                 lang: Callable[[], str] = lambda: "en", text: Callable[[object], str] = lambda line: line.text):
        self.clock = clock
        self.speaker = speaker
        self.name = name
        self._own_timers = timers is None   # a shared TimerService is polled by its owner (the table's GameClock)
        self.timers = TimerService(clock) if timers is None else timers
        self._lang = lang
        self._text = text
        self._lines: list = []
        self._index = -1
        self._key = ""
        self.timed_out = False       # the waiting line's countdown ran out (it still waits for the tap)
        self._listeners: list[Callable[[object | None], None]] = []
        self._unsubscribe = self.timers.subscribe(self._on_timer)

    # -- reading -------------------------------------------------------------------------------------------------
    @property
    def line(self):
        """The line being spoken or shown now, None between scripts."""
        return self._lines[self._index] if 0 <= self._index < len(self._lines) else None

    @property
    def index(self) -> int:
        """0-based place of the current line in the script (-1 between scripts)."""
        return self._index if self.line is not None else -1

    @property
    def total(self) -> int:
        return len(self._lines)

    @property
    def running(self) -> bool:
        return self.line is not None

    @property
    def waiting(self) -> bool:
        """The current line waits for a tap (go_on)."""
        line = self.line
        return line is not None and getattr(line, "wait", False)

    @property
    def paused(self) -> bool:
        view = self.timers.get(self.name)
        return self.running and view is not None and view.state == PAUSED

    def remaining(self) -> float | None:
        """Seconds left of the current line's pause or countdown (None: it waits with no countdown)."""
        line = self.line
        if line is None or line.seconds is None:
            return None
        return self.timers.remaining(self.name)

    # -- changing ------------------------------------------------------------------------------------------------
    def start(self, lines: Sequence, key: str = "", at: int = 0) -> None:
        """Narrate `lines` from line `at` (0: the first); `key` names the script in the stored log."""
        self._lines, self._key = list(lines), key
        self._index = at - 1
        self._advance()

    def restore(self, lines: Sequence, key: str = "") -> bool:
        """Pick the script up where the stored timers say it stood; False when it was not under way."""
        view = self.timers.get(self.name)
        if view is None or not view.tag.startswith(f"{key}|"):
            return False
        try:
            index = int(view.tag.rsplit("|", 1)[1])
        except ValueError:
            return False
        if not 0 <= index < len(lines):
            return False
        self._lines, self._key, self._index = list(lines), key, index
        line = self.line
        self.timed_out = line.wait and view.state == EXPIRED
        if view.state == EXPIRED and not line.wait:
            self._advance()  # its pause ended while the app was closed
            return True
        if view.state != PAUSED:
            self._say(line)
        self._tell(line)
        return True

    def poll(self) -> None:
        """Move on when the pause after the current line is over (the app calls this often; tests after advancing).
        A shared TimerService is polled by its owner; this then does nothing."""
        if self._own_timers:
            self.timers.poll()

    def skip(self) -> None:
        """The table is ready sooner: go to the next line now (a waiting line too: the Grimoire's tap)."""
        if self.running:
            self._advance()

    go_on = skip

    def pause(self) -> bool:
        """Hold the narration: the line's pause or countdown stops, the voice stops. False when nothing runs."""
        view = self.timers.get(self.name)
        if not self.running or view is None or view.state != RUNNING:
            return False
        self.timers.pause(self.name)
        self.speaker.stop()
        self._tell(self.line)
        return True

    def resume(self) -> bool:
        """Go on from where it was held, saying the line again."""
        if not self.paused:
            return False
        self.timers.resume(self.name)
        self._say(self.line)
        self._tell(self.line)
        return True

    def stop(self) -> None:
        self.speaker.stop()
        self._lines, self._index, self.timed_out = [], -1, False
        if self.timers.get(self.name) is not None:
            self.timers.cancel(self.name)
        self._tell(None)

    def close(self) -> None:
        """Stop following the timers (the table is closed); the stored night stays where it stood."""
        self.speaker.stop()
        self._unsubscribe()

    def subscribe(self, listener: Callable[[object | None], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- internals -----------------------------------------------------------------------------------------------
    def _advance(self) -> None:
        self._index += 1
        self.timed_out = False
        line = self.line
        if line is None:
            self._lines, self._index = [], -1
            if self.timers.get(self.name) is not None:
                self.timers.cancel(self.name)
            self._tell(None)
            return
        tag = f"{self._key}|{self._index}"
        if line.seconds is None:
            self.timers.set(self.name, WAITING, tag=tag)     # waits for the tap, no sand running
        else:
            self.timers.start(self.name, line.seconds, tag=tag)
        self._say(line)
        self._tell(line)

    def _say(self, line) -> None:
        try:
            self.speaker.say(self._text(line), self._lang())
        except Exception:  # a voice that fails must not stop the night: the screen shows the line
            log.exception("could not speak a line")

    def _on_timer(self, event) -> None:
        if event.timer != self.name or event.op != "expire" or not self.running:
            return
        if event.tag != f"{self._key}|{self._index}":
            return
        if self.waiting:
            self.timed_out = True   # the countdown is over; the line still waits for the Grimoire's tap
            self._tell(self.line)
        else:
            self._advance()

    def _tell(self, line) -> None:
        for listener in list(self._listeners):
            try:
                listener(line)
            except Exception:
                log.exception("narrator listener %r failed", listener)
