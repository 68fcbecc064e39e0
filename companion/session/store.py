"""The SQLite file that holds every table: one row per game, plus its append-only event log.

Durability is the whole point (docs/architecture.md, convention 9): WAL mode with synchronous=FULL makes COMMIT return only
after the log entry is fsynced, so an action the caller saw accepted survives SIGKILL and power loss. A file we cannot
read is reported and left alone, never "repaired" by overwriting it: it may be the only copy of someone's game.

Every SQLite error, wherever it happens (opening, BEGIN, INSERT, SELECT, COMMIT), leaves this module as a StoreError
whose message is one plain line naming the real cause (disk full, read-only folder, another program writing, damage).
docs/persistence.md lists what each fault does.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import quote

from companion.games.errors import InvalidInput

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
DB_NAME = "tables.sqlite3"
KINDS = ("action", "undo", "redo", "timer")
BACKUP_BEFORE_MIGRATION = "tables-v{version}-backup.sqlite3"  # a copy of the file as it was, kept beside it
MAX_ID = 2**63 - 1          # SQLite INTEGER: a larger id cannot name a stored table
BUSY_TIMEOUT = 1.0          # seconds SQLite waits for another writer before saying "busy"; callers may retry

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
_SCHEMA = ("""
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
_COLUMNS = {1: _COLUMNS_V1,
            2: {"tables": _COLUMNS_V1["tables"] | {"summary_json", "deleted", "log_sha256"},
                "events": _COLUMNS_V1["events"]}}

# Text columns are read as bytes (CAST AS BLOB) and decoded here, so that one damaged entry becomes one unreadable
# table instead of an exception that stops the whole listing. A schema-1 file (read-only: not migrated) has no
# summary or deleted columns: it reads as NULLs.
_ROW_COLUMNS = ("id, CAST(game AS BLOB), CAST(setup_json AS BLOB), CAST(created AS BLOB), CAST(updated AS BLOB), "
                "CAST(finished AS BLOB), CAST(title AS BLOB)")
_ROW_SQL = {1: f"SELECT {_ROW_COLUMNS}, NULL, NULL FROM tables",
            2: f"SELECT {_ROW_COLUMNS}, CAST(summary_json AS BLOB), CAST(deleted AS BLOB) FROM tables"}


class StoreError(Exception):
    """The database cannot be used (damaged, foreign, newer schema) or a write conflicted. The message is for users."""


class StoreBusy(StoreError):
    """Another program holds the write lock on the tables file; nothing was written, and trying again may work."""


class StoreReadOnly(StoreError):
    """The tables file or its folder cannot be written; reading still works."""


class AlreadyImported(StoreError):
    """create(unique_log=True) found a table with exactly this game, setup and log; nothing was written."""

    def __init__(self, table_id: int):
        super().__init__(f"this log is already stored as table {table_id}")
        self.table_id = table_id


@dataclass(frozen=True)
class TableRecord:
    """One stored table as the database holds it (the live game is companion.session.table.Table)."""
    id: int
    game: str
    setup: dict
    created: str
    updated: str
    finished: str | None
    title: str
    problem: str | None = None  # why this row cannot be opened (a damaged entry); then `setup` is {}
    summary: dict | None = None  # what a list shows (companion/session/listing.py); None: not known yet
    deleted: str | None = None   # when the players deleted it; None: listed


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


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class TableStore:
    """One connection to the tables database. Use one instance per process/thread (sqlite3 enforces the thread part).

    read_only=True opens the file for reading only (`companion tables`, `export`): nothing is created or changed,
    and a read-only folder, file or disk is no obstacle. A read-write store whose file or folder turns out not to be
    writable also opens for reading; `read_only_reason` then says why, and every write raises StoreReadOnly.
    """

    def __init__(self, data_dir: str | Path | None = None, *, clock: Callable[[], float] = time.time,
                 read_only: bool = False, busy_timeout: float = BUSY_TIMEOUT):
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.path = self.data_dir / DB_NAME
        self.read_only_reason: str | None = "it was opened for reading only" if read_only else None
        self._clock = clock
        self._busy_timeout = busy_timeout
        if not read_only:
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise StoreError(f"cannot create the data folder {self.data_dir}: {err.strerror}") from err
            self.read_only_reason = self._why_not_writable()
        self._conn = self._connect()

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    # -- opening -------------------------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        self._refuse_orphaned_wal()
        with self._sqlite_errors("open"):
            if self.read_only:
                return self._open_for_reading()
            return self._open_for_writing()

    def _sidecar(self, suffix: str) -> Path:
        return self.path.with_name(self.path.name + suffix)

    def _refuse_orphaned_wal(self) -> None:
        # SQLite deletes the -wal of an empty or missing main file as soon as it opens it, even read-only: whatever
        # the -wal held (acknowledged moves, after a crash or a partial copy) would be gone without a word.
        wal_size = _size(self._sidecar("-wal")) or 0
        if wal_size and not _size(self.path):
            raise StoreError(
                f"{self.path} is empty or missing but {self._sidecar('-wal').name} beside it holds {wal_size} bytes of "
                "saved changes; both files were left untouched: keep them together and do not delete them")

    def _uri(self, query: str) -> str:
        # Percent-encoded bytes, so any folder name (spaces, '?', '#', non-UTF-8 bytes) reaches SQLite exactly.
        return f"file:{quote(os.fsencode(os.path.abspath(self.path)))}?{query}"

    def _open(self, query: str) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so the commit point is explicit.
        return sqlite3.connect(self._uri(query), uri=True, isolation_level=None, timeout=self._busy_timeout)

    def _open_for_writing(self) -> sqlite3.Connection:
        is_new = not _size(self.path)
        conn = self._open("mode=rwc")
        try:
            conn.execute("PRAGMA synchronous=FULL")  # connection settings only: nothing is written to the file
            conn.execute("PRAGMA foreign_keys=ON")
            version = self._check(conn, is_new)      # everything checked before the first write
            if version == 0:
                # Still in rollback-journal mode: the schema reaches the main file itself before there is any -wal,
                # so the main file is never empty while a -wal holds something (see _refuse_orphaned_wal).
                self._create_schema(conn)
            elif version < SCHEMA_VERSION:
                self._migrate(conn, version)
            self._version = SCHEMA_VERSION
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise StoreError(f"could not open {self.path} for safe saving (journal mode {mode}); "
                                 "it was not changed")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_for_reading(self) -> sqlite3.Connection:
        if not _size(self.path):
            return self._empty_stand_in()  # nothing stored yet; and nothing gets created just to read
        try:
            conn, version = self._open_checked("mode=ro")
        except sqlite3.OperationalError as err:
            if err.sqlite_errorname not in ("SQLITE_CANTOPEN", "SQLITE_READONLY_DIRECTORY"):
                raise
            # A WAL database cannot be read without its -shm, and a read-only folder cannot get one. Without a -wal
            # nobody can be writing (a writer would need to create it), so the main file alone is the whole truth.
            if _size(self._sidecar("-wal")):
                raise StoreReadOnly(
                    f"cannot read {self.path}: its folder is read-only and its latest changes are still in "
                    f"{self._sidecar('-wal').name}; make the folder writable so they can be read") from err
            conn, version = self._open_checked("mode=ro&immutable=1")
        if version == 0:
            conn.close()
            return self._empty_stand_in()
        self._version = version  # an older schema is read as it is: reading never migrates (nothing is written)
        return conn

    def _open_checked(self, query: str) -> tuple[sqlite3.Connection, int]:
        conn = self._open(query)
        try:
            return conn, self._check(conn, is_new=False)
        except BaseException:
            conn.close()
            raise

    def _empty_stand_in(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        for statement in _SCHEMA:
            conn.execute(statement)
        self._version = SCHEMA_VERSION
        return conn

    def _check(self, conn: sqlite3.Connection, is_new: bool) -> int:
        """The schema version of a file we may use; StoreError (or sqlite3.DatabaseError) for one we must not."""
        # Reading the header is what makes SQLite notice a file that is not a database at all.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer Table Companion (schema {version}); update the app")
        if not is_new and not self._verified_unchanged():
            # The whole file is read for this (about 0.4 s per 180 MB): done only when the file changed since this
            # app last closed it cleanly (see close()), i.e. after a crash, a copy, or someone else's hands.
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{self.path} is damaged ({_one_line(problems[0])}). It was left untouched.")
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 and names - {"sqlite_sequence"}:
            raise StoreError(f"{self.path} is some other program's database; it was left untouched")
        if version in _COLUMNS:
            for table, columns in _COLUMNS[version].items():
                have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if not columns <= have:
                    raise StoreError(f"{self.path} is not a complete Table Companion database (its {table} table is "
                                     "missing or incomplete); it was left untouched")
        return version

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring a file of an older schema (checked by _check) up to this app's, keeping every table and entry.

        A copy of the file as it was is kept beside it first (VACUUM INTO: a consistent copy even of a WAL file), so
        the older app can still open its data; then the whole migration is one transaction, all or nothing.
        """
        backup = self.data_dir / BACKUP_BEFORE_MIGRATION.format(version=version)
        if not backup.exists():
            conn.execute("VACUUM INTO ?", (os.fspath(backup),))
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have migrated the file meanwhile.
            if conn.execute("PRAGMA user_version").fetchone()[0] == 1:
                for statement in _MIGRATE_1_TO_2:
                    conn.execute(statement)
                conn.execute("PRAGMA user_version=2")
            conn.execute("COMMIT")
        except BaseException:
            _abandon(conn)
            raise
        log.info("migrated %s from schema %d to %d (copy of the old file: %s)", self.path, version,
                 SCHEMA_VERSION, backup)

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
            _abandon(conn)
            raise

    def close(self) -> None:
        self._conn.close()
        if not self.read_only:
            self._mark_verified()

    # -- the integrity check, skipped while the file is as this app left it -----------------------------------------

    def _marker(self) -> Path:
        return self._sidecar("-verified")

    def _fingerprint(self) -> list | None:
        """Size and modification time of the file and of its -wal (None while a -wal holds changes: another
        connection is still open, or the last one did not close)."""
        if _size(self._sidecar("-wal")):
            return None
        try:
            st = self.path.stat()
        except OSError:
            return None
        return [SCHEMA_VERSION, st.st_size, st.st_mtime_ns]

    def _verified_unchanged(self) -> bool:
        fingerprint = self._fingerprint()
        try:
            return fingerprint is not None and json.loads(self._marker().read_text()) == fingerprint
        except (OSError, ValueError):
            return False

    def _mark_verified(self) -> None:
        """After a clean close every change to the file went through SQLite: remember the file as it is now, so
        the next start need not read all of it again. Best effort: without the marker the next start checks."""
        fingerprint = self._fingerprint()
        if fingerprint is None:
            return
        try:
            tmp = self._marker().with_name(self._marker().name + ".part")
            tmp.write_text(json.dumps(fingerprint))
            tmp.replace(self._marker())
        except OSError:
            log.info("could not keep %s", self._marker(), exc_info=True)

    def __enter__(self) -> "TableStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- errors --------------------------------------------------------------------------------------------------

    def _why_not_writable(self) -> str | None:
        """Why nothing could be saved here, or None. os.access answers for this process (root included)."""
        folder = self.data_dir
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"the folder {folder} is {self._read_only_kind(folder)}"
        for path in (self.path, self._sidecar("-wal"), self._sidecar("-shm")):
            if path.exists() and not os.access(path, os.W_OK):
                return f"the file {path} is read-only"
        return None

    @staticmethod
    def _read_only_kind(folder: Path) -> str:
        try:
            if os.statvfs(folder).f_flag & os.ST_RDONLY:
                return "on a read-only disk"
        except OSError:
            pass
        return "read-only"

    def _error(self, err: sqlite3.Error, doing: str) -> StoreError:
        """The one-line StoreError for an SQLite error, naming its real cause."""
        name = getattr(err, "sqlite_errorname", "") or ""
        where = f"could not {doing} {self.path}"
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StoreBusy(f"{where}: another program is writing to it; try again in a moment")
        if name == "SQLITE_FULL":
            return StoreError(f"{where}: the disk is full (free some space and try again)")
        if name.startswith("SQLITE_READONLY"):
            reason = self._why_not_writable() or "it is read-only"
            return StoreReadOnly(f"{where}: {reason}")
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return StoreError(
                f"{self.path} is damaged or is not a Table Companion database ({_one_line(err)}). "
                "It was left untouched: move it aside to start afresh, or keep it for recovery.")
        if name.startswith("SQLITE_CANTOPEN") and self.path.exists() and not os.access(self.path, os.R_OK):
            return StoreError(f"{where}: this account is not allowed to read it (check its permissions)")
        if name.startswith("SQLITE_IOERR"):
            return StoreError(f"{where}: the disk reported an error ({_one_line(err)})")
        return StoreError(f"{where}: {_one_line(err)}")

    @contextmanager
    def _sqlite_errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as err:
            raise self._error(err, doing) from err

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.read_only_reason is not None:
            raise StoreReadOnly(f"could not save to {self.path}: {self.read_only_reason}")
        with self._sqlite_errors("save to"):
            self._conn.execute("BEGIN IMMEDIATE")  # may be "busy": another program holds the write lock
            try:
                yield self._conn
                self._conn.execute("COMMIT")  # returns after the WAL fsync (synchronous=FULL)
            except BaseException:
                _abandon(self._conn)
                raise

    # -- writing -------------------------------------------------------------------------------------------------

    def create(self, game: str, setup: dict, *, title: str = "", events: list[tuple[str, dict | None]] = (),
               finished: bool = False, unique_log: bool = False, summary: dict | None = None) -> int:
        """A new table, optionally with a whole log at once (import): all or nothing, in one transaction.

        unique_log=True: if a listed table with the same game, setup and exactly these entries exists, raise
        AlreadyImported naming it instead (an import repeated after it was interrupted must not make a twin); the
        log's hash is kept with the table so that it is recognised even after the table was played on.
        `summary`: what a list of tables shows (companion/session/listing.py).
        """
        _check_text(title, "the title")
        setup_text = json.dumps(setup, sort_keys=True)
        rows = [(kind, _payload_text(kind, payload)) for kind, payload in events]
        digest = _log_sha256(game, setup_text, rows) if unique_log else None
        now = _utc_now(self._clock)
        with self._transaction() as conn:
            if unique_log:
                same = self._imported_as(conn, digest) or self._same_log(conn, game, setup_text, rows)
                if same is not None:
                    raise AlreadyImported(same)
            cur = conn.execute(
                "INSERT INTO tables (game, setup_json, created, updated, finished, title, summary_json, log_sha256) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game, setup_text, now, now, now if finished else None, title, _summary_text(summary), digest),
            )
            table_id = cur.lastrowid
            conn.executemany(
                "INSERT INTO events (table_id, seq, kind, payload_json, at) VALUES (?, ?, ?, ?, ?)",
                [(table_id, seq, kind, text, now) for seq, (kind, text) in enumerate(rows, start=1)],
            )
        return table_id

    def _imported_as(self, conn, digest: str) -> int | None:
        """The listed table this log was imported as, if it can still be read (a damaged one is no reason to refuse
        a good copy: importing again is how its owner recovers it)."""
        for (table_id,) in conn.execute("SELECT id FROM tables WHERE log_sha256 = ? AND deleted IS NULL ORDER BY id",
                                        (digest,)).fetchall():
            try:
                self.get(table_id)
                self.events(table_id)
            except StoreError:
                continue
            return table_id
        return None

    @staticmethod
    def _same_log(conn, game: str, setup_text: str, rows: list[tuple[str, str | None]]) -> int | None:
        # For tables imported before the hash was kept (schema 1): compared as stored bytes, so that a damaged row
        # elsewhere cannot stop an import with a decoding error.
        wanted = [(kind.encode(), None if text is None else text.encode()) for kind, text in rows]
        candidates = conn.execute(
            "SELECT t.id FROM tables t WHERE t.game = ? AND t.setup_json = ? AND t.deleted IS NULL "
            "AND (SELECT COUNT(*) FROM events e WHERE e.table_id = t.id) = ? ORDER BY t.id",
            (game, setup_text, len(rows)),
        ).fetchall()
        for (table_id,) in candidates:
            stored = conn.execute(
                "SELECT CAST(kind AS BLOB), CAST(payload_json AS BLOB) FROM events WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
            if stored == wanted:
                return table_id
        return None

    def append(self, table_id: int, seq: int, kind: str, payload: dict | None, *, finished: bool,
               summary: dict | None = None) -> None:
        """Commit log entry `seq` (the caller's count + 1) and return only once it is on disk.

        The caller names the seq so that two windows writing the same table cannot interleave silently: the second
        one hits the primary key and is told to reopen. `summary` (when given) replaces the table's listed
        summary in the same transaction, so the list never disagrees with the log.
        """
        if not _is_id(table_id):
            raise StoreError(f"there is no table {table_id}")
        text = _payload_text(kind, payload)
        now = _utc_now(self._clock)
        with self._transaction() as conn:
            # The table row first: a missing table is then told apart from a taken seq (both IntegrityErrors).
            cur = conn.execute(
                "UPDATE tables SET updated = ?, finished = CASE WHEN ? THEN COALESCE(finished, ?) END, "
                "summary_json = COALESCE(?, summary_json) WHERE id = ?",
                (now, finished, now, _summary_text(summary), table_id),
            )
            if cur.rowcount != 1:
                raise StoreError(f"there is no table {table_id}")
            try:
                conn.execute("INSERT INTO events (table_id, seq, kind, payload_json, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, seq, kind, text, now))
            except sqlite3.IntegrityError as err:
                raise StoreError(f"table {table_id} was changed elsewhere (entry {seq} exists); reopen it") from err

    # -- changing a table's row: its summary, name, deleted or not ------------------------------------------------

    def set_summary(self, table_id: int, summary: dict) -> None:
        """Keep a computed summary with a table (one whose summary was not known: migrated from schema 1)."""
        with self._transaction() as conn:
            conn.execute("UPDATE tables SET summary_json = ? WHERE id = ?", (_summary_text(summary), table_id))

    def rename(self, table_id: int, title: str) -> None:
        _check_text(title, "the title")
        self._change_row(table_id, "UPDATE tables SET title = ? WHERE id = ?", (title, table_id))

    def delete(self, table_id: int) -> None:
        """Take a table off the lists. Nothing is erased: `restore` brings it back exactly as it was."""
        self._change_row(table_id, "UPDATE tables SET deleted = ? WHERE id = ?", (_utc_now(self._clock), table_id))

    def restore(self, table_id: int) -> None:
        self._change_row(table_id, "UPDATE tables SET deleted = NULL WHERE id = ?", (table_id,))

    def _change_row(self, table_id: int, sql: str, params: tuple) -> None:
        if not _is_id(table_id):
            raise StoreError(f"there is no table {table_id}")
        with self._transaction() as conn:
            if conn.execute(sql, params).rowcount != 1:
                raise StoreError(f"there is no table {table_id}")

    # -- reading -------------------------------------------------------------------------------------------------

    def get(self, table_id: int) -> TableRecord:
        """The table's record (deleted ones too); StoreError if there is none or its entry is damaged."""
        row = None
        if _is_id(table_id):
            with self._sqlite_errors("read"):
                row = self._conn.execute(f"{_ROW_SQL[self._version]} WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no table {table_id}")
        table = _table_row(row)
        if table.problem:
            raise StoreError(f"table {table_id} is unreadable: {table.problem}")
        return table

    def events(self, table_id: int) -> list[Event]:
        """The table's log, oldest first; StoreError naming the first damaged entry."""
        if not _is_id(table_id):
            return []
        with self._sqlite_errors("read"):
            rows = self._conn.execute(
                "SELECT seq, CAST(kind AS BLOB), CAST(payload_json AS BLOB), CAST(at AS BLOB) FROM events "
                "WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        return [_event(table_id, *row) for row in rows]

    def tables(self, *, finished: bool | None = None, limit: int | None = None, offset: int = 0,
               deleted: bool = False) -> list[TableRecord]:
        """Listed tables, most recently played first; finished=False: resumable ones, True: the finished games.
        `limit`/`offset` page through them (a list costs what it shows); deleted=True: the deleted ones instead.

        A row whose entry is damaged is still listed, with `problem` saying why it cannot be opened.
        """
        where = self._where(finished, deleted)
        page = "" if limit is None else f" LIMIT {max(0, int(limit))} OFFSET {max(0, int(offset))}"
        with self._sqlite_errors("read"):
            rows = self._conn.execute(
                f"{_ROW_SQL[self._version]} {where} ORDER BY updated DESC, id DESC{page}").fetchall()
        return [_table_row(r) for r in rows]

    def count(self, *, finished: bool | None = None, deleted: bool = False) -> int:
        with self._sqlite_errors("read"):
            return self._conn.execute(f"SELECT COUNT(*) FROM tables {self._where(finished, deleted)}").fetchone()[0]

    def _where(self, finished: bool | None, deleted: bool) -> str:
        clauses = {None: [], False: ["finished IS NULL"], True: ["finished IS NOT NULL"]}[finished]
        if self._version >= 2:  # a schema-1 file read as it is has no deleted tables
            clauses.append("deleted IS NOT NULL" if deleted else "deleted IS NULL")
        elif deleted:
            clauses.append("0")
        return ("WHERE " + " AND ".join(clauses)) if clauses else ""

    def unfinished(self, limit: int | None = None, offset: int = 0) -> list[TableRecord]:
        return self.tables(finished=False, limit=limit, offset=offset)

    def finished(self, limit: int | None = None, offset: int = 0) -> list[TableRecord]:
        return self.tables(finished=True, limit=limit, offset=offset)


def _abandon(conn: sqlite3.Connection) -> None:
    """Roll back what is left of a failed transaction. SQLite cancels some on its own (disk full), and then the
    error that made it fail is the one to report, never "cannot rollback - no transaction is active"."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        log.warning("rollback after a failed write also failed", exc_info=True)


def _is_id(table_id) -> bool:
    return isinstance(table_id, int) and 0 < table_id <= MAX_ID


def _check_text(value: str, what: str) -> None:
    # A str from argv or a file name may carry undecodable bytes (surrogate escapes) that SQLite cannot store.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} is not valid text (it contains bytes that are not UTF-8)") from None


def _summary_text(summary: dict | None) -> str | None:
    return None if summary is None else json.dumps(summary, sort_keys=True)


def _log_sha256(game: str, setup_text: str, rows) -> str:
    """A fingerprint of a whole log: the same game, setup and entries give the same hex digest."""
    digest = hashlib.sha256(json.dumps([game, setup_text, rows]).encode("utf-8"))
    return digest.hexdigest()


def _payload_text(kind: str, payload: dict | None) -> str | None:
    if kind not in KINDS:
        raise ValueError(f"unknown event kind {kind!r}")
    # ensure_ascii (the default) escapes everything, lone surrogates included, so the text always stores.
    return None if payload is None else json.dumps(payload, sort_keys=True)


def _text(raw: bytes | None) -> str:
    """A column shown to people: undecodable bytes become replacement characters."""
    return "" if raw is None else bytes(raw).decode("utf-8", "replace")


def _json_object(raw: bytes | None, what: str) -> dict:
    """A JSON column that must hold an object; ValueError saying what is wrong with it."""
    if raw is None:
        raise ValueError(f"its {what} is missing")
    try:
        value = json.loads(bytes(raw).decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"its {what} is not valid text") from None
    except ValueError:
        raise ValueError(f"its {what} is not valid JSON") from None
    if not isinstance(value, dict):
        raise ValueError(f"its {what} is not a JSON object")
    return value


def _table_row(row) -> TableRecord:
    id_, game, setup_json, created, updated, finished, title, summary_json, deleted = row
    try:
        setup, problem = _json_object(setup_json, "setup"), None
    except ValueError as err:
        setup, problem = {}, str(err)
    try:
        summary = None if summary_json is None else _json_object(summary_json, "summary")
    except ValueError:
        summary = None  # only a shortcut for lists: computed again from the log when it cannot be read
    return TableRecord(id_, _text(game), setup, _text(created), _text(updated),
                       None if finished is None else _text(finished), _text(title), problem, summary,
                       None if deleted is None else _text(deleted))


def _event(table_id: int, seq: int, kind: bytes, payload: bytes | None, at: bytes) -> Event:
    kind_text = _text(kind)
    try:
        if kind_text not in KINDS:
            raise ValueError("its kind is unknown")
        value = _json_object(payload, "move" if kind_text == "action" else "timer") if kind_text in ("action", "timer") else None
    except ValueError as err:
        raise StoreError(f"table {table_id} is unreadable: entry {seq} is damaged ({err})") from None
    return Event(seq, kind_text, value, _text(at))
