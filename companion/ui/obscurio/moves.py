"""The move log of the open table: every effective move with the states around it (its words may need them: which
space the sand moved to, what the Exit cost), and the moves undone, so that Redo can name what it plays again."""
from __future__ import annotations

from companion.ui.obscurio import texts


class MoveLog:
    def __init__(self):
        self._done: list[tuple] = []     # (state before, action, state after), oldest first
        self._undone: list[tuple] = []   # the same, the next Redo last
        self.state = None                # the table's state as last seen

    def start(self, table) -> None:
        """Follow `table` from its log: its moves replayed by the engine from the setup."""
        state = table.adapter.new_game(table.setup)
        self._done = []
        for action in table.actions:
            after = state.apply(action)
            self._done.append((state, action, after))
            state = after
        self._undone = []  # a reopened table's redo stack is in its log, but not which move it holds
        self.state = table.state

    def follow(self, table, kind: str) -> None:
        """The table changed (`kind`: action, undo or redo)."""
        before = self.state
        if kind == "undo" and self._done:
            self._undone.append(self._done.pop())
        elif kind == "redo" and self._undone:
            self._done.append(self._undone.pop())
        elif kind in ("action", "redo") and table.actions:
            self._done.append((before, table.actions[-1], table.state))
            if kind == "action":
                self._undone.clear()
        self.state = table.state

    def lines(self, t) -> list[str]:
        return [texts.move(before, action, after, t) for before, action, after in self._done]

    def undone_line(self, t) -> str | None:
        return texts.move(*self._undone[-1], t) if self._undone else None
