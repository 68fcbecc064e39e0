"""Saying aloud what the whole table must hear (issue 14 §4): an event card and its effect, the sandstorm (and,
from round 5, that it can come next), and whose turn it is, where the system can speak and the sound is on.

The speaker is the one Obscurio's narrator reads its lines with (companion/session/speech.py: espeak-ng where it
exists, muted with the sound switch, read at every line); the screen still shows everything large, so a tablet
without speech loses nothing. One tap says one utterance: a new line stops the one still being read, so what a
tap brings (the card, then whose turn it is) is said together.
"""
from __future__ import annotations

from typing import Callable


def turn_of(state) -> tuple | None:
    """Whose turn it is, as a key that changes when the turn passes (None between turns: a card to reveal, the end)."""
    return (state.round, state.active) if state.phase == "turn" else None


class TableVoice:
    """Speaks `lines` after a move, adding whose turn it is when the turn has just passed to someone."""

    def __init__(self, speaker, lang: Callable[[], str]):
        self.speaker = speaker
        self._lang = lang
        self._turn: tuple | None = None

    def follow(self, state) -> None:
        """The table opened, or a move was taken back or played again: nothing said, only whose turn it is noted."""
        self._turn = turn_of(state)

    def after_move(self, state, lines: list[str], whose_turn: str) -> None:
        """A move was made: say `lines` (the moment it brought, if any) and, if the turn passed, `whose_turn`."""
        turn = turn_of(state)
        said = [line.replace("\n", " ") for line in lines if line]
        if turn is not None and turn != self._turn:
            said.append(whose_turn)
        self._turn = turn
        if said:
            self.speaker.say(" ".join(said), self._lang())

    def stop(self) -> None:
        self.speaker.stop()
