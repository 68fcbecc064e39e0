"""`companion score GAME END.json [--json | --bgstats]`: score the end position of a finished game.

GAME is any registered game that can score an end-of-game file (Obscurians: END.json lists the players — name,
color, mission, goods, lamp, artifact — and every placed suspicion chip in placement order; docs/obscurians-engine.md,
Scoring). Errors in the file print one line on stderr naming the file and the field, e.g.
"END.json: players[1].goods.purple: unknown colour", and exit 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from companion.commands._files import InputError, load_json, load_rules

EXIT_INPUT = 2


def register(subparsers) -> None:
    from companion.session import games

    p = subparsers.add_parser("score", help="score the end position of a finished game (END.json)")
    p.add_argument("game", choices=games.names(), help="which game the file describes")
    p.add_argument("file", metavar="END.json", help="the end position: players, goods and placed chips")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help='print {"players": [...], "winners": [...]} as JSON')
    out.add_argument("--bgstats", action="store_true", help="print a BG Stats play record (JSON) to import the play")
    p.add_argument("--rules", metavar="RULES.json",
                   help='the group\'s rules profile, e.g. {"take_cap": false} (see `companion rules GAME`)')
    p.add_argument("--date", metavar="'YYYY-MM-DD HH:MM:SS'", help="play date for --bgstats (default: now)")
    p.add_argument("--duration", type=int, metavar="MIN", help="play time in minutes for --bgstats")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.games.errors import InvalidInput
    from companion.session import games

    game = games.get(args.game)
    if not game.has("score_file"):
        print(f"companion score: {game.title} has no end-of-game file to score; use `companion replay` on its log",
              file=sys.stderr)
        return EXIT_INPUT
    if not args.bgstats and (args.date is not None or args.duration is not None):
        # Said, not ignored: the user expects the date to go somewhere.
        print("companion score: --date and --duration are only used with --bgstats", file=sys.stderr)
        return EXIT_INPUT
    try:
        rules = load_rules(game, args.rules)
        data = load_json(args.file)
        try:
            outcome = game.score_file(data, rules)  # validates the whole file first
            text = None if args.json or args.bgstats else game.score_text(data, rules)
        except InvalidInput as err:
            raise InputError(args.file, str(err)) from None
        if args.bgstats:
            if not game.has("bgstats"):
                raise InputError("--bgstats", f"{game.title} plays cannot be exported to BG Stats yet")
            date = args.date
            if date is None:
                from datetime import datetime

                date = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
            try:
                play = game.bgstats(data, rules, date, args.duration)
            except InvalidInput as err:
                raise InputError("--date/--duration", str(err)) from None
            print(json.dumps(play, indent=2, ensure_ascii=False))
        elif args.json:
            print(json.dumps(outcome.to_json(), indent=2, ensure_ascii=False))
        else:
            sys.stdout.write(text)
    except InputError as err:
        print(err, file=sys.stderr)
        return EXIT_INPUT
    return 0
