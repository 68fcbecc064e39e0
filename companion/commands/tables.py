"""`companion tables`, `companion export TABLE`, `companion import FILE`: the tables database from the shell.

`tables` and `export` only read, so they open the database read-only: they work on a read-only folder, file or disk
and never create or change anything. Errors are one line on stderr with exit code 2 (companion/cli.py prints them).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

IMPORT_WAIT = 10.0  # seconds `import` waits for another program's write lock before giving up


def register(subparsers) -> None:
    p = subparsers.add_parser("tables", help="list the tables (games in progress first, then finished ones)")
    p.set_defaults(func=list_tables)

    p = subparsers.add_parser("export", help="write a table's log as JSON Lines to stdout")
    p.add_argument("table", type=int, metavar="TABLE", help="the table id (see `companion tables`)")
    p.set_defaults(func=export_table)

    p = subparsers.add_parser("import", help="create a table from a JSON Lines log, to resume it here")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--title", default=None, help="a name for the table (default: the file name)")
    p.add_argument("--copy", action="store_true",
                   help="import it even if this exact log is already a table here (makes a second table)")
    p.set_defaults(func=import_table)


def list_tables(args: argparse.Namespace) -> int:
    from companion.session import StoreError, Table, TableStore

    with TableStore(args.data_dir, read_only=True) as store:
        rows = store.unfinished() + store.finished()
        if not rows:
            print("no tables yet")
            return 0
        print(f"{'id':>4}  {'game':<11} {'status':<19} {'updated':<20} players")
        for row in rows:
            players, status = "?", f"unreadable: {row.problem}"
            if row.problem is None:
                try:
                    table = Table.open(store, row.id)
                    players, status = ", ".join(table.players()), table.status()
                # One unreadable table must not hide the rest. ValueError covers InvalidInput and IllegalAction.
                except (ValueError, StoreError) as err:
                    status = f"unreadable: {err}"
            updated = row.updated[:19].replace("T", " ")
            print(_shown(f"{row.id:>4}  {row.game:<11} {status:<19} {updated:<20} {players}"))
    return 0


def export_table(args: argparse.Namespace) -> int:
    from companion.session import Table, TableStore

    with TableStore(args.data_dir, read_only=True) as store:
        sys.stdout.write(Table.open(store, args.table).export())
    return 0


def import_table(args: argparse.Namespace) -> int:
    from companion.games.errors import InvalidInput
    from companion.session import Table, TableStore
    from companion.session.logfile import read_log_file
    from companion.session.store import AlreadyImported

    if args.title is not None:
        title = args.title
        if not _is_text(title):  # argv bytes that are not UTF-8 arrive as surrogate escapes
            raise InvalidInput("--title is not valid text (it contains bytes that are not UTF-8); nothing was imported")
    else:
        title = _readable(args.file.stem)  # an odd file name still makes a usable default title
    name = _readable(str(args.file))
    game_log = read_log_file(args.file)
    with TableStore(args.data_dir) as store:
        try:
            table = Table.import_log(store, game_log, title=title, copy=args.copy, wait_limit=IMPORT_WAIT)
        except AlreadyImported as already:
            # The usual cause: the same import was run before (perhaps interrupted after saving). The table is
            # there, which is what the user wants; say so rather than make a twin.
            table = Table.open(store, already.table_id)
            print(f"{name} is already table {table.id} ({table.status()}); nothing was imported "
                  "(use --copy to import it again as a new table)")
            return 0
        print(f"imported {name} as table {table.id} ({table.status()})")
    return 0


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _readable(value: str) -> str:
    """A path or name for display: bytes that are not UTF-8 become replacement characters."""
    try:
        raw = os.fsencode(value)  # undoes the surrogate escapes: the name's real bytes
    except UnicodeEncodeError:
        raw = value.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def _shown(line: str) -> str:
    # Names come from imported logs: a lone surrogate or a control character must not break the terminal line.
    line = line.encode("utf-8", "replace").decode("utf-8")
    return "".join(c if c.isprintable() else "\ufffd" for c in line)
