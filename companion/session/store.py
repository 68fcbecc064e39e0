"""The SQLite file that holds every table: one row per game, plus its append-only event log.

Durability is the whole point (ARCHITECTURE convention 9): WAL mode with synchronous=FULL makes COMMIT return only
after the log entry is fsynced, so an action the caller saw accepted survives SIGKILL and power loss. A file we cannot
read is reported and left alone, never "repaired" by overwriting it: it may be the only copy of someone's game.
"""
from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

SCHEMA_VERSION = 1
DB_NAME = "tables.sqlite3"
KINDS = ("action", "undo", "redo")

# Separate statements (not one script): executescript() would COMMIT on its own, outside our transaction.
_SCHEMA = ("""
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: an id is never reused, exports stay unambiguous
    game        TEXT NOT NULL,
    setup_json  TEXT NOT NULL,
    created     TEXT NOT NULL,                      -- ISO 8601, UTC
    updated     TEXT NOT NULL,
    finished    TEXT,                               -- NULL while the game is in progress
    title       TEXT NOT NULL DEFAULT ''
)""", """
CREATE TABLE events (
    table_id     INTEGER NOT NULL REFERENCES tables(id),
    seq          INTEGER NOT NULL,                  -- 1, 2, 3 ... per table, no gaps
    kind         TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    payload_json TEXT,                              -- the action's JSON; NULL for undo/redo
    at           TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID""", """
CREATE INDEX tables_by_state ON tables (finished, updated)""")


class StoreError(Exception):
    """The database cannot be used (damaged, foreign, newer schema) or a write conflicted. The message is for users."""


@dataclass(frozen=True)
class TableRow:
    id: int
    game: str
    setup: dict
    created: str
    updated: str
    finished: str | None
    title: str


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str               # "action" | "undo" | "redo"
    payload: dict | None    # the action's JSON for "action", else None
    at: str


def default_data_dir() -> Path:
    # Imported here so that tools passing --data-dir never need platformdirs' platform probing.
    import platformdirs

    return Path(platformdirs.user_data_dir("table-companion"))


def _utc_now(clock: Callable[[], float]) -> str:
    return datetime.fromtimestamp(clock(), timezone.utc).isoformat(timespec="milliseconds")


class TableStore:
    """One connection to the tables database. Use one instance per process/thread (sqlite3 enforces the thread part)."""

    def __init__(self, data_dir: str | Path | None = None, *, clock: Callable[[], float] = time.time):
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.path = self.data_dir / DB_NAME
        self._clock = clock
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create the data folder {self.data_dir}: {err.strerror}") from err
        self._conn = self._connect()

    # -- opening -------------------------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        is_new = not self.path.exists() or self.path.stat().st_size == 0
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, so the commit point is explicit.
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open {self.path}: {err}") from err
        try:
            version = self._check(conn, is_new)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            if version == 0:
                self._create_schema(conn)
        except sqlite3.DatabaseError as err:
            conn.close()
            raise StoreError(
                f"{self.path} is damaged or is not a Table Companion database ({err}). "
                "It was left untouched: move it aside to start afresh, or keep it for recovery."
            ) from err
        except StoreError:
            conn.close()
            raise
        return conn

    def _check(self, conn: sqlite3.Connection, is_new: bool) -> int:
        """The schema version of a file we may use; StoreError (or sqlite3.DatabaseError) for one we must not."""
        # Reading the header is what makes SQLite notice a file that is not a database at all.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer Table Companion (schema {version}); update the app")
        if not is_new:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{self.path} is damaged ({problems[0]}). It was left untouched.")
        if version == 0:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if names - {"sqlite_sequence"}:
                raise StoreError(f"{self.path} is some other program's database; it was left untouched")
        return version

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have created the schema meanwhile.
            if conn.execute("PRAGMA user_version").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "TableStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        try:
            self._conn.execute("COMMIT")  # returns after the WAL fsync (synchronous=FULL)
        except sqlite3.Error as err:
            if self._conn.in_transaction:  # e.g. disk full: drop the half-done write, report it as not accepted
                self._conn.execute("ROLLBACK")
            raise StoreError(f"could not save to {self.path}: {err}") from err

    # -- writing -------------------------------------------------------------------------------------------------

    def create(self, game: str, setup: dict, *, title: str = "", events: list[tuple[str, dict | None]] = (),
               finished: bool = False) -> int:
        """A new table, optionally with a whole log at once (import): all or nothing, in one transaction."""
        now = _utc_now(self._clock)
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO tables (game, setup_json, created, updated, finished, title) VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(setup, sort_keys=True), now, now, now if finished else None, title),
            )
            table_id = cur.lastrowid
            for seq, (kind, payload) in enumerate(events, start=1):
                self._insert_event(conn, table_id, seq, kind, payload, now)
        return table_id

    def append(self, table_id: int, seq: int, kind: str, payload: dict | None, *, finished: bool) -> None:
        """Commit log entry `seq` (the caller's count + 1) and return only once it is on disk.

        The caller names the seq so that two windows writing the same table cannot interleave silently: the second
        one hits the primary key and is told to reopen.
        """
        now = _utc_now(self._clock)
        try:
            with self._transaction() as conn:
                # The table row first: a missing table is then told apart from a taken seq (both IntegrityErrors).
                cur = conn.execute(
                    "UPDATE tables SET updated = ?, finished = CASE WHEN ? THEN COALESCE(finished, ?) END WHERE id = ?",
                    (now, finished, now, table_id),
                )
                if cur.rowcount != 1:
                    raise StoreError(f"there is no table {table_id}")
                self._insert_event(conn, table_id, seq, kind, payload, now)
        except sqlite3.IntegrityError as err:
            raise StoreError(f"table {table_id} was changed elsewhere (entry {seq} exists); reopen it") from err

    @staticmethod
    def _insert_event(conn, table_id: int, seq: int, kind: str, payload: dict | None, at: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        conn.execute(
            "INSERT INTO events (table_id, seq, kind, payload_json, at) VALUES (?, ?, ?, ?, ?)",
            (table_id, seq, kind, None if payload is None else json.dumps(payload, sort_keys=True), at),
        )

    # -- reading -------------------------------------------------------------------------------------------------

    def get(self, table_id: int) -> TableRow:
        row = self._conn.execute(
            "SELECT id, game, setup_json, created, updated, finished, title FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"there is no table {table_id}")
        return _table_row(row)

    def events(self, table_id: int) -> list[Event]:
        rows = self._conn.execute(
            "SELECT seq, kind, payload_json, at FROM events WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [Event(seq, kind, None if p is None else json.loads(p), at) for seq, kind, p, at in rows]

    def tables(self, *, finished: bool | None = None) -> list[TableRow]:
        """Tables, most recently played first; finished=False: resumable ones, True: history."""
        where = {None: "", False: "WHERE finished IS NULL", True: "WHERE finished IS NOT NULL"}[finished]
        rows = self._conn.execute(
            f"SELECT id, game, setup_json, created, updated, finished, title FROM tables {where} "
            "ORDER BY updated DESC, id DESC"
        )
        return [_table_row(r) for r in rows]

    def unfinished(self) -> list[TableRow]:
        return self.tables(finished=False)

    def finished(self) -> list[TableRow]:
        return self.tables(finished=True)


def _table_row(row) -> TableRow:
    id_, game, setup_json, created, updated, finished, title = row
    return TableRow(id_, game, json.loads(setup_json), created, updated, finished, title)
