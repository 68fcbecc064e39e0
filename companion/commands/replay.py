"""`companion replay FILE [--json]`: check a JSON Lines log against the rules and show where it ends."""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help="replay a JSON Lines log and print the final state and score")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--json", action="store_true", help='print {"game", "state", "outcome"} as JSON')
    p.set_defaults(func=replay)


def replay(args: argparse.Namespace) -> int:
    from companion.session import games
    from companion.session.logfile import read_log_file

    game_log = read_log_file(args.file)
    adapter = games.get(game_log.game)
    if args.json:
        out = {"game": game_log.game, "state": game_log.state.to_json(),
               "outcome": adapter.outcome_json(game_log.state)}
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        if game_log.rules_note:  # replayed under the rules it was played under, which are not today's
            print(game_log.rules_note)
        print(adapter.describe(game_log.state))
    return 0
