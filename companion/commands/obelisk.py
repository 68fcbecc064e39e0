"""`companion obelisk path MAP` and `companion obelisk advise NIGHT.json`: Obelisk's two tools on the command line.

    companion obelisk path "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS MN / FN FE GE CE GS / GW MN FN CW FS" --json
        {"path": [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 3], [3, 3], [3, 4], [4, 4]], "end": "off-map"}
    companion obelisk advise NIGHT.json --json
        {"safe": true, "best_captured_strength": 8, "plan": [{"obelisk": 1, "demon": "demons[0]", "step": 3},
         {"obelisk": 0, "demon": "spawns[1]", "step": 1}], "lost": []}

MAP is the map's notation (docs/obelisk-engine.md), or the name of a file holding it. NIGHT.json is the Night exchange
form (companion/games/obelisk/exchange.py). Without --json both print sentences. Bad input: one line on stderr,
exit 2 (companion/cli.py).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from companion.commands._files import InputError, load_json, load_rules


def register(subparsers) -> None:
    p = subparsers.add_parser("obelisk", help="Obelisk's tools: a demon's path, the Night's capture plan")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    path = tools.add_parser("path", help="the path a new demon walks from the Portal until it would lose")
    path.add_argument("map", metavar="MAP", help='the map\'s notation ("PE GE FS CW GN / …"), or a file holding it')
    path.add_argument("--json", action="store_true", help='print {"path", "end", "loop_at"} as JSON')
    path.set_defaults(func=run_path)
    advise = tools.add_parser("advise", help="the best capture plan for a Night (NIGHT.json)")
    advise.add_argument("file", metavar="NIGHT.json", help="the table at the start of a Night (map, obelisks, "
                                                           "demons, spawns)")
    advise.add_argument("--json", action="store_true",
                        help='print {"safe", "best_captured_strength", "plan", "lost"} as JSON')
    advise.add_argument("--rules", metavar="RULES.json", help="the group's rules profile (demon speeds and "
                                                              "strengths, see `companion rules obelisk`)")
    advise.set_defaults(func=run_advise)


def _map_text(arg: str) -> str:
    """The notation itself, or the text of the file the argument names."""
    if len(arg) < 4096 and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8") as f:
                return f.read(4096).strip()
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(arg, f"cannot read the file ({getattr(err, 'strerror', None) or 'not UTF-8 text'})") \
                from None
    return arg


def run_path(args: argparse.Namespace) -> int:
    from companion.session import games

    try:
        route, sentence = games.get("obelisk").path_of(_map_text(args.map))
    except InputError as err:
        print(f"companion obelisk: {err}", file=sys.stderr)
        return 2
    print(json.dumps(route) if args.json else sentence)
    return 0


def run_advise(args: argparse.Namespace) -> int:
    from companion.games.errors import InvalidInput
    from companion.session import games

    game = games.get("obelisk")
    try:
        rules = load_rules(game, args.rules)
        data = load_json(args.file, unique_keys=True)
        try:
            answer, reasons = game.advise(data, rules)
        except InvalidInput as err:
            raise InputError(args.file, str(err)) from None
    except InputError as err:
        print(f"companion obelisk: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer))
    else:
        for reason in reasons:
            print(reason[:1].upper() + reason[1:])
    return 0
