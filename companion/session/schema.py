"""The tables database's schema (docs/persistence.md "Schema"), and the migrations that bring a file written by an
earlier app up to it: what the file holds, apart from how the store reads and writes it (store.py).

Every version of the schema a file may have is named here: its columns (checked before anything is written), how a
row of `tables` is read from it (a schema-1 file is read as it is, never migrated just to be read), and the step
that brings it one version up. A file's version is its `PRAGMA user_version`.
"""
from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
KINDS = ("action", "undo", "redo", "timer")
BACKUP_BEFORE_MIGRATION = "tables-v{version}-backup.sqlite3"  # a copy of the file as it was, kept beside it

# One small index per list, in the lists' order: a page of 20 reads 20 index entries and 20 rows, and counting reads
# only the index, however many tables the history holds (bench/bench_history.py).
_LIST_INDEXES = (
    "CREATE INDEX tables_in_progress ON tables (updated, id) WHERE finished IS NULL AND deleted IS NULL",
    "CREATE INDEX tables_finished ON tables (updated, id) WHERE finished IS NOT NULL AND deleted IS NULL",
    "CREATE INDEX tables_deleted ON tables (updated, id) WHERE deleted IS NOT NULL",
)

# Separate statements (not one script): executescript() would COMMIT on its own, outside our transaction.
_EVENTS = """
CREATE TABLE {name} (
    table_id     INTEGER NOT NULL REFERENCES tables(id),
    seq          INTEGER NOT NULL,                  -- 1, 2, 3 ... per table, no gaps
    kind         TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo', 'timer')),
    payload_json TEXT,                              -- the action's or timer event's JSON; NULL for undo/redo
    at           TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID"""
SCHEMA = ("""
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: an id is never reused, exports stay unambiguous
    game         TEXT NOT NULL,
    setup_json   TEXT NOT NULL,
    created      TEXT NOT NULL,                     -- ISO 8601, UTC
    updated      TEXT NOT NULL,
    finished     TEXT,                              -- NULL while the game is in progress
    title        TEXT NOT NULL DEFAULT '',
    summary_json TEXT,                              -- what a list shows, kept as the table changes; NULL: not known yet
    deleted      TEXT,                              -- when the players deleted it (it leaves the lists); NULL: listed
    log_sha256   TEXT                               -- of an imported log, to recognise it when imported again
)""", _EVENTS.format(name="events"), """
CREATE INDEX tables_by_log ON tables (log_sha256) WHERE log_sha256 IS NOT NULL""", *_LIST_INDEXES)

# Schema 1 -> 2 (docs/persistence.md "Schema"): the listing's summary, soft delete, the import hash, timer events.
# SQLite cannot change a CHECK constraint in place, so the events table is rebuilt with its rows.
_MIGRATE_1_TO_2 = (
    "ALTER TABLE tables ADD COLUMN summary_json TEXT",
    "ALTER TABLE tables ADD COLUMN deleted TEXT",
    "ALTER TABLE tables ADD COLUMN log_sha256 TEXT",
    _EVENTS.format(name="events_v2"),
    "INSERT INTO events_v2 (table_id, seq, kind, payload_json, at) SELECT table_id, seq, kind, payload_json, at "
    "FROM events",
    "DROP TABLE events",
    "ALTER TABLE events_v2 RENAME TO events",
    "CREATE INDEX tables_by_log ON tables (log_sha256) WHERE log_sha256 IS NOT NULL",
    "DROP INDEX IF EXISTS tables_by_state",  # schema 1's list index; the three below serve every list now
    *_LIST_INDEXES,
)

# What a file of each schema version must have before we write anything to it (even the WAL switch writes its
# header), and read from it.
_COLUMNS_V1 = {
    "tables": {"id", "game", "setup_json", "created", "updated", "finished", "title"},
    "events": {"table_id", "seq", "kind", "payload_json", "at"},
}
COLUMNS = {1: _COLUMNS_V1,
           2: {"tables": _COLUMNS_V1["tables"] | {"summary_json", "deleted", "log_sha256"},
               "events": _COLUMNS_V1["events"]}}

# Text columns are read as bytes (CAST AS BLOB) and decoded here, so that one damaged entry becomes one unreadable
# table instead of an exception that stops the whole listing. A schema-1 file (read-only: not migrated) has no
# summary or deleted columns: it reads as NULLs.
_ROW_COLUMNS = ("id, CAST(game AS BLOB), CAST(setup_json AS BLOB), CAST(created AS BLOB), CAST(updated AS BLOB), "
                "CAST(finished AS BLOB), CAST(title AS BLOB)")
ROW_SQL = {1: f"SELECT {_ROW_COLUMNS}, NULL, NULL FROM tables",
           2: f"SELECT {_ROW_COLUMNS}, CAST(summary_json AS BLOB), CAST(deleted AS BLOB) FROM tables"}


def create(conn: sqlite3.Connection) -> None:
    """Give a new, empty file this schema, all or nothing."""
    _all_or_nothing(conn, 0, SCHEMA, SCHEMA_VERSION)


def migrate(conn: sqlite3.Connection, version: int, backup: Path) -> None:
    """Bring a file of schema `version` (checked by the store) up to SCHEMA_VERSION, keeping every table and entry.

    A copy of the file as it was is kept at `backup` first (VACUUM INTO: a consistent copy even of a WAL file), so
    the older app can still open its data; then each step is one transaction, all or nothing.
    """
    if not backup.exists():
        conn.execute("VACUUM INTO ?", (os.fspath(backup),))
    steps = {1: _MIGRATE_1_TO_2}  # looked up now, so a test can break a step halfway
    for old in range(version, SCHEMA_VERSION):
        _all_or_nothing(conn, old, steps[old], old + 1)


def _all_or_nothing(conn: sqlite3.Connection, expected: int, statements, new_version: int) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Re-read inside the write lock: another process may have done it meanwhile.
        if conn.execute("PRAGMA user_version").fetchone()[0] == expected:
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version={int(new_version)}")
        conn.execute("COMMIT")
    except BaseException:
        abandon(conn)
        raise


def incomplete_table(conn: sqlite3.Connection, version: int) -> str | None:
    """The first of our tables a file of schema `version` lacks, or lacks columns of; None when all are there."""
    for table, columns in COLUMNS.get(version, {}).items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= have:
            return table
    return None


def abandon(conn: sqlite3.Connection) -> None:
    """Roll back what is left of a failed transaction. SQLite cancels some on its own (disk full), and then the
    error that made it fail is the one to report, never "cannot rollback - no transaction is active"."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        log.warning("rollback after a failed write also failed", exc_info=True)
