"""`companion rules GAME [--rules RULES.json] [--json]`: the rules profile the app plays by (RULINGS.md)."""
from __future__ import annotations

import json
import sys

from companion.commands._files import InputError, load_rules


def register(subparsers) -> None:
    from companion.session import games

    p = subparsers.add_parser("rules", help="show the rulings the app applies where the rulebook is silent")
    p.add_argument("game", choices=games.names())
    p.add_argument("--rules", metavar="RULES.json", help='a group\'s profile, e.g. {"take_cap": false}')
    p.add_argument("--json", action="store_true", help="print the profile as JSON")
    p.add_argument("--full", action="store_true", help="print each ruling's whole text as decided")
    p.set_defaults(func=run)


def run(args) -> int:
    from companion.session import games

    game = games.get(args.game)
    try:
        rules = load_rules(game, args.rules)
    except InputError as err:
        print(err, file=sys.stderr)
        return 2
    entries = game.profile(rules)
    if args.json:
        print(json.dumps(entries, indent=2, ensure_ascii=False))
        return 0
    for e in entries:
        mark = f"  [editable: {e['value']}]" if e["editable"] else ""
        print(f"{e['id']}{mark}\n    {e['text'] if args.full else e['summary']}")
    return 0
