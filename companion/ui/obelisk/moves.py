"""The move log of the open table: every effective move with the states around it, in the table's own order (the
engine's narrate() needs both states), so that each line and Undo's name say what the move did."""
from __future__ import annotations

from companion.games.obelisk.narrate import narrate
from companion.i18n.messages import translate_error


class MoveLog:
    def __init__(self):
        self._done: list[tuple] = []     # (state before, action, state after), oldest first

    def follow(self, table) -> None:
        """Keep the same moves as `table` (after an action, an undo, a redo, or when it is opened)."""
        actions = table.actions
        keep = 0
        while keep < min(len(actions), len(self._done)) and self._done[keep][1] == actions[keep]:
            keep += 1
        del self._done[keep:]
        state = self._done[-1][2] if self._done else table.adapter.new_game(table.setup)
        for action in actions[keep:]:
            after = state.apply(action) if action is not actions[-1] else table.state
            self._done.append((state, action, after))
            state = after

    def clear(self) -> None:
        self._done = []

    def line(self, index: int, lang: str) -> str:
        return translate_error(narrate(*self._done[index]), lang)

    def lines(self, lang: str, most: int = 40) -> list[str]:
        """The last `most` moves in the players' words, newest first."""
        n = len(self._done)
        return [self.line(i, lang) for i in range(n - 1, max(-1, n - 1 - most), -1)]

    def __len__(self) -> int:
        return len(self._done)
