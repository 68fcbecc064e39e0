"""Hidden `companion session-script --table ID`: drive a table from stdin, for the kill test (tests/test_kill.py).

Each stdin line is a log entry ({"action": …}, {"undo": true}, {"redo": true}) or a bare action object. After the
entry is committed the command prints `ack <seq>` and flushes, so an ack on stdout promises the entry is on disk.
"""
from __future__ import annotations

import argparse
import sys


def register(subparsers) -> None:
    # No help=: argparse then leaves it out of `companion --help`; it is a test fixture, not a user command.
    p = subparsers.add_parser("session-script")
    p.add_argument("--table", type=int, required=True)
    p.set_defaults(func=session_script)


def session_script(args: argparse.Namespace) -> int:
    from companion.games.errors import InvalidInput
    from companion.session import Table, TableStore
    from companion.session.timeline import parse_action
    from companion.session.jsontext import loads
    from companion.session.logfile import entry_from_json

    with TableStore(args.data_dir) as store:
        table = Table.open(store, args.table)
        for n, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                obj = loads(line)
            except InvalidInput as err:
                raise InvalidInput(f"stdin line {n}: {err}") from None
            kind, payload = ("action", obj) if isinstance(obj, dict) and "type" in obj else entry_from_json(obj)
            if kind == "action":
                table.apply(parse_action(table.adapter, payload, f"stdin line {n}"))
            else:
                getattr(table, kind)()
            sys.stdout.write(f"ack {table.log_length}\n")
            sys.stdout.flush()
    return 0
