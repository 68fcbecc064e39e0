"""CLI subcommands: every module here exposes `register(subparsers)`, adding its parsers with `func` set.

companion.cli discovers them, so adding a command never touches cli.py. Keep imports at module level light (no
Kivy, no engines): every `companion …` call imports all of these.
"""
