"""The `companion` command: no subcommand starts the tablet app; subcommands come from companion/commands/.

Errors a user can cause (bad files, illegal moves, a damaged database) print one line on stderr and exit 2; a
traceback would mean a bug in the app, not in the input.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import pkgutil
import sys

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.text import readable_path

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    import companion.commands

    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: track a board game at the table.")
    parser.add_argument("--data-dir", metavar="DIR", help="where the tables database lives (default: the user-data folder)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in sorted(pkgutil.iter_modules(companion.commands.__path__), key=lambda m: m.name):
        if not module.name.startswith("_"):
            importlib.import_module(f"companion.commands.{module.name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        code = _run(argv)
        sys.stdout.flush()  # inside the try: a reader that went away shows up here at the latest
        return code
    except BrokenPipeError:
        # `companion tables | head -1`: the reader has all it wanted. Exit quietly, as shell tools do, and keep
        # Python from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


class _Unsure(argparse.ArgumentParser):
    def error(self, message):  # not for us to say: the full parser reads these arguments and words the error
        raise ValueError(message)


def _app_args(argv: list[str] | None) -> argparse.Namespace | None:
    """The arguments of `companion [--data-dir DIR]` (no command: the app), read without building every command's
    parser, which imports every command module (~25 ms of the app's first frame: bench/bench_startup.py); None
    when there is a command, --help or anything else for the full parser."""
    light = _Unsure(prog="companion", add_help=False, exit_on_error=False)
    light.add_argument("--data-dir")
    try:
        args, rest = light.parse_known_args(argv)
    except (ValueError, argparse.ArgumentError):
        return None
    if rest:
        return None
    args.command = None
    return args


def _run(argv: list[str] | None) -> int:
    args = _app_args(argv) or build_parser().parse_args(argv)
    if args.command is None:
        # No garbage collection until Home's first frame (the app enables it then: CompanionApp.on_start): the
        # start makes many objects and frees almost none, and each collection on the way would walk all of them
        # again (bench/bench_startup.py).
        gc.disable()
    from companion.session.store import StoreError, TableStore

    try:
        if args.command is None:
            # Open the database once before Kivy loads: a damaged file is then reported on the terminal, with no
            # window opened (Kivy redirects sys.stderr into its log file); a read-only one is said there too.
            # The app then goes on with it (opening it again would cost the first frame ~5 ms).
            store = TableStore(args.data_dir)
            try:
                if store.read_only_reason:
                    print(f"companion: the tables can be read but not saved: {store.read_only_reason}",
                          file=sys.stderr)
                # Imported here: only the app needs Kivy, and importing it is slow and opens a window system.
                from companion.ui.app import run_app
            except BaseException:
                store.close()
                raise
            return run_app(store=store) or 0
        return args.func(args) or 0
    except (InvalidInput, IllegalAction, StoreError) as err:
        print(f"companion{' ' + args.command if args.command else ''}: {err}", file=sys.stderr)
    except BrokenPipeError:
        raise  # not a failure: main() ends quietly
    except OSError as err:
        where = readable_path(err.filename) if err.filename is not None else ""
        print(f"companion {args.command}: {where}: {err.strerror or err}", file=sys.stderr)
    return EXIT_USAGE
