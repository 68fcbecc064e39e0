"""Export a scored Obscurians game as a BG Stats play record (the JSON that BG Stats' "push plays" import reads).

Field names follow BG Stats' published import format ("Push plays to BG Stats from other apps or websites",
bgstatsapp.com support pages): top level `sourceName`, `sourcePlayId`, `playDate` ("YYYY-MM-DD HH:MM:SS"),
`durationMin`, `location`, `board`, `comments`, `game` {`name`, `bggId`, `sourceGameId`, `highestWins`, `noPoints`}
and `players` [{`name`, `score`, `winner`, `startPlayer`, `rank`, `role`, `sourcePlayerId`}]. Only fields we know
are written; `bggId` is left out (we have no verified BoardGameGeek id for Obscurians), so BG Stats matches the game
by name.

Pure: no clock here (the caller passes the date), per the engine purity convention.
"""
from __future__ import annotations

import re

from companion.games.errors import InvalidInput
from companion.games.obscurians.scoring import TEMPLATES_EN, ScoreResult

SOURCE_NAME = "Table Companion"
GAME_NAME = "Obscurians"
SOURCE_GAME_ID = "obscurians"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def to_bgstats(result: ScoreResult, play_date: str, *, duration_min: int | None = None,
               start_colour: str | None = None, location: str | None = None,
               source_play_id: str | None = None, comments: str | None = None) -> dict:
    """The BG Stats play record of `result`.

    `play_date` is "YYYY-MM-DD HH:MM:SS" (local time, as BG Stats expects). `start_colour` marks the starting
    player if known. Each player's mission becomes their BG Stats `role` (e.g. "Keep"); winners follow
    RULING obscurians-winner (so a winning Lose player is flagged even though `highestWins` is true for the game).
    """
    if not isinstance(play_date, str) or not _DATE.match(play_date):
        raise InvalidInput(f"playDate: expected YYYY-MM-DD HH:MM:SS, got {play_date!r}")
    if duration_min is not None and (isinstance(duration_min, bool) or not isinstance(duration_min, int)
                                     or duration_min < 0):
        raise InvalidInput(f"durationMin: expected whole minutes (0 or more), got {duration_min!r}")
    colours = {p.colour for p in result.players}
    if start_colour is not None and start_colour not in colours:
        raise InvalidInput(f"startPlayer: no player has colour {start_colour}")

    missions = TEMPLATES_EN["missions"]
    winners = set(result.winners)
    players = []
    for p in result.players:
        entry = {
            "name": p.name,
            "score": p.total,
            "winner": p.colour in winners,
            "role": missions[p.mission],
        }
        if start_colour is not None:
            entry["startPlayer"] = p.colour == start_colour
        players.append(entry)

    play: dict = {
        "sourceName": SOURCE_NAME,
        "game": {
            "name": GAME_NAME,
            "sourceGameId": SOURCE_GAME_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "playDate": play_date,
        "players": players,
    }
    if duration_min is not None:
        play["durationMin"] = duration_min
    if location:
        play["location"] = location
    if source_play_id:
        play["sourcePlayId"] = str(source_play_id)
    if comments is None:
        comments = "Colours: " + ", ".join(f"{p.name} {p.colour}" for p in result.players)
    if comments:
        play["comments"] = comments
    return play
