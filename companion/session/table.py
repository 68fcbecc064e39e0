"""One live table: the engine state, kept in step with its event log in the store.

The order inside apply/undo/redo is the guarantee: validate with the engine, commit the log entry (fsynced), and
only then change the in-memory state and tell listeners. So the screen never shows a move the disk does not have,
and a rejected move leaves no trace.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from companion.session import games
from companion.session.history import History, rebuild
from companion.session.logfile import GameLog, write_log
from companion.session.store import TableRow, TableStore

log = logging.getLogger(__name__)

Listener = Callable[["Table", str], None]  # (table, "action" | "undo" | "redo"), called after the commit


class Table:
    def __init__(self, store: TableStore, row: TableRow, setup: Any, history: History, n_events: int):
        """Use Table.create / Table.open / Table.import_log."""
        self.store = store
        self.id = row.id
        self.game = row.game
        self.title = row.title
        self.setup_json = row.setup
        self.setup = setup
        self.adapter = games.get(row.game)
        self._history = history
        self._n_events = n_events
        self._listeners: list[Listener] = []

    # -- opening -------------------------------------------------------------------------------------------------

    @classmethod
    def create(cls, store: TableStore, game: str, setup: Any, *, title: str = "") -> "Table":
        """A new table; `setup` is the engine's Setup or its JSON (validated either way before anything is saved)."""
        adapter = games.get(game)
        if isinstance(setup, dict):
            setup = adapter.setup_from_json(setup)
        # Stored in canonical form (defaults filled in), parsed back once so that reopening can never fail on it.
        setup_json = setup.to_json()
        setup = adapter.setup_from_json(setup_json)
        table_id = store.create(game, setup_json, title=title)
        return cls(store, store.get(table_id), setup, History(adapter.new_game(setup)), 0)

    @classmethod
    def open(cls, store: TableStore, table_id: int) -> "Table":
        """Reopen a table, rebuilding its state by replaying the stored log (each entry re-checked by the engine)."""
        row = store.get(table_id)
        adapter = games.get(row.game)
        setup = adapter.setup_from_json(row.setup)
        events = store.events(table_id)
        history = rebuild(adapter, setup, [(e.kind, e.payload) for e in events],
                          lambda i: f"table {table_id}, entry {events[i].seq}")
        return cls(store, row, setup, history, len(events))

    @classmethod
    def import_log(cls, store: TableStore, game_log: GameLog, *, title: str = "") -> "Table":
        """A new table holding a log read with read_log (already validated), written in one transaction."""
        adapter = games.get(game_log.game)
        table_id = store.create(game_log.game, game_log.setup.to_json(), title=title, events=list(game_log.entries),
                                finished=adapter.is_over(game_log.state))
        return cls(store, store.get(table_id), game_log.setup, game_log.history, len(game_log.entries))

    # -- what the UI reads ---------------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._history.state

    @property
    def history(self) -> tuple:
        """The effective actions (undone ones excluded), oldest first."""
        return self._history.actions

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    @property
    def log_length(self) -> int:
        """Entries in the stored log (actions, undos and redos); the seq of the last one."""
        return self._n_events

    @property
    def finished(self) -> bool:
        return self.adapter.is_over(self.state)

    def players(self) -> list[str]:
        return self.adapter.players(self.setup)

    def status(self) -> str:
        return self.adapter.status(self.state)

    def export(self) -> str:
        """The whole log as a JSON Lines file (undo/redo entries included)."""
        events = self.store.events(self.id)
        return write_log(self.game, self.setup_json, [(e.kind, e.payload) for e in events])

    # -- changing it ---------------------------------------------------------------------------------------------

    def apply(self, action: Any) -> Any:
        """Play `action`. IllegalAction propagates and nothing is written; otherwise it is on disk when this returns."""
        return self._change("action", action)

    def undo(self) -> Any:
        """Take back the last effective action (IllegalAction "Nothing to undo" if there is none)."""
        return self._change("undo")

    def redo(self) -> Any:
        """Play the last undone action again (IllegalAction "Nothing to redo" if a new action cleared it)."""
        return self._change("redo")

    def _change(self, kind: str, action: Any = None) -> Any:
        new_state = self._history.preview(kind, action)  # the engine's verdict first: a refusal writes nothing
        payload = action.to_json() if kind == "action" else None
        self.store.append(self.id, self._n_events + 1, kind, payload, finished=self.adapter.is_over(new_state))
        self._n_events += 1
        self._history.record(kind, action, new_state)
        self._notify(kind)
        return new_state

    # -- listeners -----------------------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(table, kind)` after every committed change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self, kind: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(self, kind)
            except Exception:
                # The change is already committed: a broken view must not make it look refused to the caller.
                log.exception("table listener %r failed after %s", listener, kind)
