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

import calendar
import re

from companion.games.errors import InvalidInput
from companion.games.text import shown
from companion.games.contract import Outcome
from companion.games.obscurians.scoring import TEMPLATES_EN

SOURCE_NAME = "Table Companion"
GAME_NAME = "Obscurians"
SOURCE_GAME_ID = "obscurians"
MAX_MINUTES = 7 * 24 * 60  # a week: longer is a typo, not a play
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def _real_date(text: str) -> bool:
    """"2024-02-30 10:00:00" has the right shape but is no day of any calendar."""
    year, month, day = (int(x) for x in text[:10].split("-"))
    hour, minute, second = (int(x) for x in text[11:].split(":"))
    if not (1 <= year and 1 <= month <= 12 and hour < 24 and minute < 60 and second < 60):
        return False
    return 1 <= day <= calendar.monthrange(year, month)[1]


def to_bgstats(result: Outcome, play_date: str, *, duration_min: int | None = None,
               start_colour: str | None = None, location: str | None = None,
               source_play_id: str | None = None, comments: str | None = None) -> dict:
    """The BG Stats play record of `result`.

    `play_date` is "YYYY-MM-DD HH:MM:SS" (local time, as BG Stats expects). `start_colour` marks the starting
    player if known. Each player's mission becomes their BG Stats `role` (e.g. "Keep"); winners follow
    RULING obscurians-winner (so a winning Lose player is flagged even though `highestWins` is true for the game).
    """
    if not isinstance(play_date, str) or not _DATE.match(play_date) or not _real_date(play_date):
        raise InvalidInput(f"playDate: expected a real date and time as YYYY-MM-DD HH:MM:SS, got {shown(play_date)}")
    if duration_min is not None and (isinstance(duration_min, bool) or not isinstance(duration_min, int)
                                     or not 0 <= duration_min <= MAX_MINUTES):
        raise InvalidInput(f"durationMin: expected whole minutes from 0 to {MAX_MINUTES}, got {shown(duration_min)}")
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
