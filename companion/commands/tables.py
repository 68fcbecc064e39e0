"""`companion tables`, `companion export TABLE`, `companion import FILE`: the tables database from the shell.

`tables` and `export` only read, so they open the database read-only: they work on a read-only folder, file or disk
and never create or change anything. Errors are one line on stderr with exit code 2 (companion/cli.py prints them).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

IMPORT_WAIT = 10.0  # seconds `import` waits for another program's write lock before giving up
PER_PAGE = 20       # rows of each list `companion tables` shows


def register(subparsers) -> None:
    p = subparsers.add_parser("tables", help="list the tables (games in progress first, then finished ones)")
    p.add_argument("--page", type=int, default=1, metavar="N", help="which page of each list (default 1)")
    p.add_argument("--per-page", type=int, default=PER_PAGE, metavar="N", help=f"rows per list (default {PER_PAGE})")
    p.add_argument("--deleted", action="store_true", help="list the deleted tables instead (see `companion restore`)")
    p.set_defaults(func=list_tables)

    p = subparsers.add_parser("restore", help="bring a deleted table back into the lists")
    p.add_argument("table", type=int, metavar="TABLE", help="the table id (see `companion tables --deleted`)")
    p.set_defaults(func=restore_table)

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
    """A page of each list, from the summaries kept with the tables: the time it takes grows with the page, not
    with the history (a table from before summaries were kept is replayed once to make its summary)."""
    from companion.games.errors import InvalidInput
    from companion.session import TableStore

    if args.page < 1 or not 1 <= args.per_page <= 1000:
        raise InvalidInput("--page starts at 1, and --per-page is from 1 to 1000")
    sections = [("Deleted tables", None, True)] if args.deleted else [
        ("Tables in progress", False, False), ("Finished games", True, False)]
    with TableStore(args.data_dir, read_only=True) as store:
        if not any(store.count(finished=finished, deleted=deleted) for _, finished, deleted in sections):
            print("no deleted tables" if args.deleted else "no tables yet")
            return 0
        for heading, finished, deleted in sections:
            total = store.count(finished=finished, deleted=deleted)
            first = (args.page - 1) * args.per_page
            rows = store.tables(finished=finished, deleted=deleted, limit=args.per_page, offset=first)
            print(_section_heading(heading, total, first, len(rows)))
            for row in rows:
                print(_shown(_row_line(store, row)))
            if first + len(rows) < total:
                print(f"  … {total - first - len(rows)} more: companion tables --page {args.page + 1}")
    return 0


def _section_heading(heading: str, total: int, first: int, shown: int) -> str:
    if not total:
        return f"{heading}: none"
    span = f"{first + 1}-{first + shown} of {total}" if shown else f"none on this page, {total} in all"
    return f"{heading} ({span}):"


def _row_line(store, row) -> str:
    from companion.session.listing import summary_of

    summary = summary_of(store, row)
    if row.finished and summary.get("winners"):
        totals = summary.get("totals") or {}
        who = "won by " + ", ".join(f"{w} ({totals[w]})" if w in totals else w for w in summary["winners"])
    else:
        active = summary.get("active")
        who = f"{active} to play" if active else ""
    players = ", ".join(summary.get("players") or []) or "?"
    updated = row.updated[:16].replace("T", " ")
    title = f" “{row.title}”" if row.title else ""
    return f"{row.id:>5}  {row.game}{title} · {summary.get('status', '?')} · {who + ' · ' if who else ''}" \
           f"{players} · {updated}{_rules_note(row.game, summary.get('rules_version'))}"


def _rules_note(game: str, version) -> str:
    """" · recorded under an earlier ruling: …" for a table played under earlier rules (docs/persistence.md)."""
    from companion.session import games

    try:
        note = games.get(game).earlier_rules.get(version)
    except (ValueError, TypeError):  # an unknown game or a damaged summary: the row says what it can
        return ""
    return f" · {note}" if note else ""


def restore_table(args: argparse.Namespace) -> int:
    from companion.session import TableStore

    with TableStore(args.data_dir) as store:
        store.restore(args.table)
        print(f"table {args.table} is back in the lists")
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
    from companion.games.text import readable_path
    from companion.session.store import AlreadyImported

    if args.title is not None:
        title = args.title
        if not _is_text(title):  # argv bytes that are not UTF-8 arrive as surrogate escapes
            raise InvalidInput("--title is not valid text (it contains bytes that are not UTF-8); nothing was imported")
    else:
        title = readable_path(args.file.stem)  # an odd file name still makes a usable default title
    name = readable_path(str(args.file))
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


def _shown(line: str) -> str:
    # Names come from imported logs: a lone surrogate or a control character must not break the terminal line.
    line = line.encode("utf-8", "replace").decode("utf-8")
    return "".join(c if c.isprintable() else "\ufffd" for c in line)
