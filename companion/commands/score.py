"""`companion score obscurians END.json [--json | --bgstats]`: score the end position of a finished game.

END.json lists the players (name, color, mission, goods, lamp, artifact) and every placed suspicion chip in placement
order (docs/obscurians-engine.md, Scoring). Errors in the file print one line on stderr naming the file and the
field, e.g. "END.json: players[1].goods.purple: unknown colour", and exit 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from companion.commands._files import InputError, load_json, load_rules

EXIT_INPUT = 2
GAMES = ("obscurians",)


def register(subparsers) -> None:
    p = subparsers.add_parser("score", help="score the end position of a finished game (END.json)")
    p.add_argument("game", choices=GAMES, help="which game the file describes")
    p.add_argument("file", metavar="END.json", help="the end position: players, goods and placed chips")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help='print {"players": [...], "winners": [...]} as JSON')
    out.add_argument("--bgstats", action="store_true", help="print a BG Stats play record (JSON) to import the play")
    p.add_argument("--rules", metavar="RULES.json",
                   help='the group\'s rules profile, e.g. {"take_cap": false} (RULING obscurians-take-cap)')
    p.add_argument("--date", metavar="'YYYY-MM-DD HH:MM:SS'", help="play date for --bgstats (default: now)")
    p.add_argument("--duration", type=int, metavar="MIN", help="play time in minutes for --bgstats")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.games.errors import InvalidInput
    from companion.games.obscurians.scoring import parse_end, score

    try:
        rules = load_rules(args.rules)
        data = load_json(args.file)
        try:
            if isinstance(data, dict) and data.get("game", args.game) != args.game:
                raise InvalidInput(f"game: this file is for {data['game']!r}, not {args.game!r}")
            result = score(parse_end(data), rules)
        except InvalidInput as err:
            raise InputError(args.file, str(err)) from None
        if args.bgstats:
            from companion.games.obscurians.bgstats import to_bgstats

            date = args.date
            if date is None:
                from datetime import datetime

                date = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
            try:
                play = to_bgstats(result, date, duration_min=args.duration)
            except InvalidInput as err:
                raise InputError("--date/--duration", str(err)) from None
            print(json.dumps(play, indent=2, ensure_ascii=False))
        elif args.json:
            print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        else:
            sys.stdout.write(result.to_text())
    except InputError as err:
        print(err, file=sys.stderr)
        return EXIT_INPUT
    return 0
