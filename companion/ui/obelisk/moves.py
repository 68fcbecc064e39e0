"""The move log of the open table: every effective move with the states around it (the table keeps them,
Table.moves; the engine's move_line() needs both states), so that each line and Undo's name say what the move did."""
from __future__ import annotations

from companion.games.obelisk.movelog import move_line
from companion.i18n.messages import translate_message


class MoveLog:
    def __init__(self):
        self._done: list[tuple] = []     # (state before, action, state after), oldest first

    def follow(self, table) -> None:
        """Keep the same moves as `table` (after an action, an undo, a redo, or when it is opened)."""
        self._done = table.moves

    def clear(self) -> None:
        self._done = []

    def line(self, index: int, lang: str) -> str:
        return translate_message(move_line(*self._done[index]), lang)

    def lines(self, lang: str, most: int = 40) -> list[str]:
        """The last `most` moves in the players' words, newest first."""
        n = len(self._done)
        return [self.line(i, lang) for i in range(n - 1, max(-1, n - 1 - most), -1)]

    def __len__(self) -> int:
        return len(self._done)
