"""One live table: the engine state, kept in step with its event log in the store.

The order inside apply/undo/redo is the guarantee: validate with the engine, commit the log entry (fsynced), and
only then change the in-memory state and tell listeners. So the screen never shows a move the disk does not have,
and a rejected move leaves no trace.

When another program holds the tables file's write lock, a change waits and retries for a bounded time (telling the
players through `on_wait`) instead of losing the move; if the file never frees, StoreBusy says so and nothing changed.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, TypeVar

from companion.games.errors import InvalidInput
from companion.session import games
from companion.session.timeline import Timeline, replay
from companion.session.logfile import GameLog, write_log
from companion.session.store import StoreBusy, TableRecord, TableStore
from companion.session.timers import Clock, TimerEvent, TimerService

log = logging.getLogger(__name__)

Listener = Callable[["Table", str], None]  # (table, "action" | "undo" | "redo"), called after the commit
OnWait = Callable[[str], None]             # told once when a save has to wait for another program

WAIT_LIMIT = 30.0     # seconds a save keeps retrying while another program holds the write lock
WAITING = "waiting for the tables file: another program is writing to it…"

T = TypeVar("T")


def summarize(game, state) -> dict:
    """What a list of tables shows of a table whose game `game` (a registry Game) stands at `state`: the game's own
    summary, the players' names and the rules version it is played under (kept with the table:
    companion/session/listing.py)."""
    return {**game.summary(state), "players": game.players(state.setup),
            "rules_version": game.rules_version_of(state.setup)}


def patiently(write: Callable[[], T], on_wait: OnWait | None = None, limit: float = WAIT_LIMIT) -> T:
    """`write()`, retried with back-off while it raises StoreBusy, for at most `limit` seconds.

    A busy store has written nothing (the transaction never started or was rolled back), so trying again is safe.
    `on_wait(message)` is called once, at the first wait, so the players know why the move is not on screen yet.
    """
    deadline = time.monotonic() + limit
    pause = 0.05
    told = False
    while True:
        try:
            return write()
        except StoreBusy as err:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StoreBusy(f"{err} (waited {limit:g} s; nothing was saved)") from err
            if on_wait is not None and not told:
                told = True
                try:
                    on_wait(WAITING)
                except Exception:
                    log.exception("on_wait callback %r failed", on_wait)  # a broken banner must not lose the move
            time.sleep(min(pause, left))
            pause = min(pause * 2, 1.0)


def _setup(adapter, setup_json: dict, table_id: int) -> Any:
    try:
        return adapter.setup_from_json(setup_json)
    except InvalidInput as err:
        raise InvalidInput(f"table {table_id} is unreadable: its setup is invalid ({err})") from err
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        # A damaged but still parseable entry: whatever the engine's parser lets through must not crash a listing.
        raise InvalidInput(f"table {table_id} is unreadable: its setup is invalid") from err


class Table:
    wait_limit: float = WAIT_LIMIT  # per table: how long apply/undo/redo wait for a busy tables file

    def __init__(self, store: TableStore, row: TableRecord, setup: Any, timeline: Timeline, n_events: int,
                 timer_events: list[TimerEvent] = (), clock: Clock | None = None):
        """Use Table.create / Table.open / Table.import_log."""
        self.store = store
        self.id = row.id
        self.game = row.game
        self.title = row.title
        self.setup = setup
        self.adapter = games.get(row.game)
        # The rules this table is played under (docs/persistence.md "Rules versions"): recorded with a new table;
        # for one stored before versions were recorded, the version its replay found.
        self.rules_version = self.adapter.rules_version_of(setup)
        self.setup_json = self.adapter.with_rules_version(row.setup, self.rules_version)
        self._timeline = timeline
        self._n_events = n_events
        self._listeners: list[Listener] = []
        # The table's timers, as its log left them (docs/timers.md); every change of one is logged too.
        self.timers = TimerService.restore(timer_events, clock)
        self.timers.subscribe(self._log_timer)

    # -- opening -------------------------------------------------------------------------------------------------

    @classmethod
    def create(cls, store: TableStore, game: str, setup: Any, *, title: str = "", on_wait: OnWait | None = None,
               wait_limit: float = WAIT_LIMIT, clock: Clock | None = None) -> "Table":
        """A new table; `setup` is the engine's Setup or its JSON (validated either way before anything is saved)."""
        adapter = games.get(game)
        if isinstance(setup, dict):
            setup = adapter.setup_from_json(setup)
        if adapter.rules_version_of(setup) != adapter.rules_version:
            # A correction applies to new tables (docs/persistence.md "Rules versions"); earlier rules only replay.
            raise InvalidInput(f"rules.version: a new table is played under today's rules (version "
                               f"{adapter.rules_version}), not version {adapter.rules_version_of(setup)}")
        # Stored in canonical form (defaults filled in), parsed back once so that reopening can never fail on it.
        setup_json = setup.to_json()
        setup = adapter.setup_from_json(setup_json)
        state = adapter.new_game(setup)
        table_id = patiently(lambda: store.create(game, setup_json, title=title, summary=summarize(adapter, state)),
                             on_wait, wait_limit)
        return cls(store, store.get(table_id), setup, Timeline(state), 0, clock=clock)

    @classmethod
    def open(cls, store: TableStore, table_id: int, *, clock: Clock | None = None) -> "Table":
        """Reopen a table, rebuilding its state by replaying the stored log (each entry re-checked by the engine)."""
        row = store.get(table_id)
        adapter = games.get(row.game)
        _setup(adapter, row.setup, table_id)  # a bad setup is named before the log is read
        events = store.events(table_id)
        replayed = replay(adapter, row.setup, [(e.kind, e.payload) for e in events],
                          lambda i: f"table {table_id}, entry {events[i].seq}", lambda d: _setup(adapter, d, table_id))
        timers = [TimerEvent.from_json(e.payload) for e in events if e.kind == "timer"]  # checked by rebuild
        return cls(store, row, replayed.setup, replayed.timeline, len(events), timers, clock)

    @classmethod
    def import_log(cls, store: TableStore, game_log: GameLog, *, title: str = "", copy: bool = False,
                   on_wait: OnWait | None = None, wait_limit: float = WAIT_LIMIT) -> "Table":
        """A new table holding a log read with read_log (already validated), written in one transaction.

        Unless `copy`, a log already stored as a table (same game, setup and entries) raises AlreadyImported naming
        it: repeating an import that was interrupted after its commit must not make a twin.
        """
        adapter = games.get(game_log.game)
        table_id = patiently(
            lambda: store.create(game_log.game, game_log.setup.to_json(), title=title, events=list(game_log.entries),
                                 finished=adapter.is_over(game_log.state), unique_log=not copy,
                                 summary=summarize(adapter, game_log.state), also_as=(game_log.setup_json,)),
            on_wait, wait_limit)
        timers = [TimerEvent.from_json(p) for kind, p in game_log.entries if kind == "timer"]
        return cls(store, store.get(table_id), game_log.setup, game_log.timeline, len(game_log.entries), timers)

    # -- what the UI reads ---------------------------------------------------------------------------------------

    @property
    def rules_note(self) -> str | None:
        """What the table's log says when it was played under earlier rules ("recorded under an earlier ruling:
        Secure took one good", a `rules` msgid), None under today's."""
        return self.adapter.earlier_rules.get(self.rules_version)

    @property
    def state(self) -> Any:
        return self._timeline.state

    @property
    def actions(self) -> tuple:
        """The effective actions (undone ones excluded), oldest first."""
        return self._timeline.actions

    @property
    def moves(self) -> list[tuple]:
        """(state before, action, state after) for every effective move, oldest first (Timeline.moves)."""
        return self._timeline.moves

    @property
    def can_undo(self) -> bool:
        return self._timeline.can_undo

    @property
    def can_redo(self) -> bool:
        return self._timeline.can_redo

    @property
    def next_redo(self) -> Any:
        """The action `redo()` would play again (rebuilt from the log, so it survives a restart), or None."""
        return self._timeline.next_redo

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
        """The whole log as a JSON Lines file (undo/redo entries included); its setup names the rules version."""
        events = self.store.events(self.id)
        return write_log(self.game, self.setup_json, [(e.kind, e.payload) for e in events])

    # -- changing it ---------------------------------------------------------------------------------------------

    def apply(self, action: Any, *, on_wait: OnWait | None = None) -> Any:
        """Play `action`. IllegalAction propagates and nothing is written; otherwise it is on disk when this returns.

        If another program is writing the tables file, this waits (up to `wait_limit` seconds, calling
        `on_wait(message)` once) and then raises StoreBusy with nothing written and the state unchanged.
        """
        return self._change("action", action, on_wait)

    def undo(self, *, on_wait: OnWait | None = None) -> Any:
        """Take back the last effective action (IllegalAction "Nothing to undo" if there is none)."""
        return self._change("undo", None, on_wait)

    def redo(self, *, on_wait: OnWait | None = None) -> Any:
        """Play the last undone action again (IllegalAction "Nothing to redo" if a new action cleared it)."""
        return self._change("redo", None, on_wait)

    def _change(self, kind: str, action: Any, on_wait: OnWait | None) -> Any:
        new_state = self._timeline.preview(kind, action)  # the engine's verdict first: a refusal writes nothing
        payload = action.to_json() if kind == "action" else None
        seq, finished = self._n_events + 1, self.adapter.is_over(new_state)
        summary = summarize(self.adapter, new_state)
        patiently(lambda: self.store.append(self.id, seq, kind, payload, finished=finished, summary=summary),
                  on_wait, self.wait_limit)
        self._n_events += 1
        self._timeline.record(kind, action, new_state)
        self._notify(kind)
        return new_state

    def _log_timer(self, event: TimerEvent) -> None:
        """Every timer change goes into the log, so a running hourglass survives a kill with the right time left.

        Called by the timer service after the change (whose own listeners — screen, sounds — follow the timers).
        A store that cannot save makes the timer service log the failure: the sand keeps running on screen either
        way, as a real hourglass would; only a restart would then show an older glass.
        """
        seq = self._n_events + 1
        patiently(lambda: self.store.append(self.id, seq, "timer", event.to_json(), finished=self.finished),
                  None, self.wait_limit)
        self._n_events += 1

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
