"""The move log of the open table: every effective move with the states around it (its words may need them: which
space the sand moved to, what the Exit cost), in the table's own order — so Undo can name the move it takes back
(the time's moves and the notes after it stay) and a turn's result can count every token the turn took."""
from __future__ import annotations

from companion.games.obscurio.actions import EndTurn
from companion.ui.obscurio import texts


class MoveLog:
    def __init__(self):
        self._done: list[tuple] = []     # (state before, action, state after), oldest first: table.actions' order
        self.state = None                # the table's state as last seen

    def start(self, table) -> None:
        """Follow `table` from its log (the table keeps every move with the states around it: Table.moves)."""
        self._done = table.moves
        self.state = table.state

    def follow(self, table, kind: str) -> None:
        """The table changed (`kind`: action, undo or redo): keep the same moves as the table, in its order."""
        self._done = table.moves
        self.state = table.state

    @property
    def moves(self) -> list[tuple]:
        return list(self._done)

    def lines(self, lang: str) -> list[str]:
        return [texts.move(before, action, after, lang) for before, action, after in self._done]

    def this_turn(self) -> list[tuple]:
        """The moves since the last turn ended (this turn's, the accusation's included)."""
        for i in range(len(self._done) - 1, -1, -1):
            if isinstance(self._done[i][1], EndTurn):
                return self._done[i + 1:]
        return list(self._done)

    def at(self, index: int) -> tuple:
        return self._done[index]
