"""`companion tables`, `companion export TABLE`, `companion import FILE`: the tables database from the shell."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser("tables", help="list the tables (games in progress first, then finished ones)")
    p.set_defaults(func=list_tables)

    p = subparsers.add_parser("export", help="write a table's log as JSON Lines to stdout")
    p.add_argument("table", type=int, metavar="TABLE", help="the table id (see `companion tables`)")
    p.set_defaults(func=export_table)

    p = subparsers.add_parser("import", help="create a table from a JSON Lines log, to resume it here")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--title", default=None, help="a name for the table (default: the file name)")
    p.set_defaults(func=import_table)


def list_tables(args: argparse.Namespace) -> int:
    from companion.games.errors import IllegalAction, InvalidInput
    from companion.session import StoreError, Table, TableStore

    with TableStore(args.data_dir) as store:
        rows = store.unfinished() + store.finished()
        if not rows:
            print("no tables yet")
            return 0
        print(f"{'id':>4}  {'game':<11} {'status':<19} {'updated':<20} players")
        for row in rows:
            try:
                table = Table.open(store, row.id)
                players, status = ", ".join(table.players()), table.status()
            except (InvalidInput, IllegalAction, StoreError) as err:  # one unreadable table must not hide the rest
                players, status = "?", f"unreadable: {err}"
            print(f"{row.id:>4}  {row.game:<11} {status:<19} {row.updated[:19].replace('T', ' '):<20} {players}")
    return 0


def export_table(args: argparse.Namespace) -> int:
    from companion.session import Table, TableStore

    with TableStore(args.data_dir) as store:
        sys.stdout.write(Table.open(store, args.table).export())
    return 0


def import_table(args: argparse.Namespace) -> int:
    from companion.session import Table, TableStore
    from companion.session.logfile import read_log_file

    game_log = read_log_file(args.file)
    with TableStore(args.data_dir) as store:
        table = Table.import_log(store, game_log, title=args.title if args.title is not None else args.file.stem)
        print(f"imported {args.file} as table {table.id} ({table.status()})")
    return 0
