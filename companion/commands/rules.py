"""`companion rules obscurians [--rules RULES.json] [--json]`: the rules profile the app plays by (RULINGS.md)."""
from __future__ import annotations

import json


def register(subparsers) -> None:
    p = subparsers.add_parser("rules", help="show the rulings the app applies where the rulebook is silent")
    p.add_argument("game", choices=("obscurians",))
    p.add_argument("--rules", metavar="RULES.json", help='a group\'s profile, e.g. {"take_cap": false}')
    p.add_argument("--json", action="store_true", help="print the profile as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from companion.games.obscurians.rules import Rules
    from companion.games.obscurians.rulings import profile

    rules = Rules()
    if args.rules:
        with open(args.rules, encoding="utf-8") as f:
            rules = Rules.from_json(json.load(f))
    entries = profile(rules)
    if args.json:
        print(json.dumps(entries, indent=2))
        return 0
    for e in entries:
        mark = f"  [editable: {e['value']}]" if e["editable"] else ""
        print(f"{e['id']}{mark}\n    {e['summary']}")
    return 0
