"""The narrator: a script of lines (companion/games/obscurio/night.py) spoken or shown one at a time, each followed
by its pause, on the session's clock — so tests run it on a fake clock, and a restarted app starts the night anew.

    narrator = Narrator(clock, speaker, say=lambda line: translated text)
    narrator.subscribe(show)          # show(line) for each line, show(None) when the script is over
    narrator.start(script(state)); … narrator.poll() …; narrator.skip() / narrator.stop()
"""
from __future__ import annotations

import logging
from typing import Callable, Sequence

log = logging.getLogger(__name__)


class Narrator:
    def __init__(self, clock, speaker, *, lang: Callable[[], str] = lambda: "en",
                 text: Callable[[object], str] = lambda line: line.text):
        self.clock = clock
        self.speaker = speaker
        self._lang = lang
        self._text = text
        self._lines: list = []
        self._index = -1
        self._next_at: float | None = None
        self._listeners: list[Callable[[object | None], None]] = []

    @property
    def line(self):
        """The line being spoken or shown now, None between scripts."""
        return self._lines[self._index] if 0 <= self._index < len(self._lines) else None

    @property
    def running(self) -> bool:
        return self.line is not None

    def start(self, lines: Sequence) -> None:
        self._lines, self._index = list(lines), -1
        self._advance()

    def poll(self) -> None:
        """Move on when the pause after the current line is over (the app calls this often; tests after advancing)."""
        while self._next_at is not None and self.clock.now() >= self._next_at:
            self._advance()

    def skip(self) -> None:
        """The table is ready sooner: go to the next line now."""
        if self.running:
            self._advance()

    def stop(self) -> None:
        self.speaker.stop()
        self._lines, self._index, self._next_at = [], -1, None
        self._tell(None)

    def subscribe(self, listener: Callable[[object | None], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _advance(self) -> None:
        self._index += 1
        line = self.line
        if line is None:
            self._lines, self._index, self._next_at = [], -1, None
            self._tell(None)
            return
        self._next_at = self.clock.now() + line.seconds
        self.speaker.say(self._text(line), self._lang())
        self._tell(line)

    def _tell(self, line) -> None:
        for listener in list(self._listeners):
            try:
                listener(line)
            except Exception:
                log.exception("narrator listener %r failed", listener)
