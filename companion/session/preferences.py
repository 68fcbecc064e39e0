"""The group's own settings, kept beside the tables: the language, the sound switch, and where everyone sits at
each table (a table screen's seats: which side of the tablet each player's row faces).

A group that plays in German wants the app back in German after a restart (or a crash), and a muted app to stay
quiet. The file is tiny and only ever written whole (a new file, then renamed over the old one), so a crash while
saving leaves the previous settings. A file that cannot be read (hand-edited, damaged, from a future version) is
not an error for the players: the defaults apply and the next change writes a good file.

Seats are the screen's business, never the game's: they live here, not in the table's move log, so a replay of a
table is the same whoever sat where.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from companion.games.errors import InvalidInput
from companion.session.jsontext import loads

log = logging.getLogger(__name__)

FILE_NAME = "preferences.json"


@dataclass(frozen=True)
class Preferences:
    lang: str | None = None   # None: the system's language (LANG)
    sound_on: bool = True
    seats: dict = field(default_factory=dict)   # str(table id) -> {player key: side}, as the table screen set them


MAX_SEATED_TABLES = 200   # the seats of older tables are forgotten first (a file that never stops growing)

def load(data_dir: str | Path) -> Preferences:
    """The settings saved in `data_dir`, or the defaults when there are none or they cannot be read."""
    path = Path(data_dir) / FILE_NAME
    try:
        value = loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Preferences()
    except (OSError, UnicodeDecodeError, InvalidInput) as err:
        log.warning("preferences not read (%s): the defaults apply", err)
        return Preferences()
    if not isinstance(value, dict):
        return Preferences()
    lang = value.get("lang")
    sound_on = value.get("sound_on")
    return Preferences(lang=lang if isinstance(lang, str) and len(lang) <= 16 else None,
                       sound_on=sound_on if isinstance(sound_on, bool) else True,
                       seats=_seats(value.get("seats")))


def _seats(value) -> dict:
    """The seats as saved, keeping only well-formed short entries (a hand-edited file loses only what is wrong)."""
    if not isinstance(value, dict):
        return {}
    out = {}
    for table, sides in list(value.items())[-MAX_SEATED_TABLES:]:
        if isinstance(table, str) and len(table) <= 20 and isinstance(sides, dict):
            out[table] = {k: v for k, v in list(sides.items())[:16]
                          if isinstance(k, str) and isinstance(v, str) and len(k) <= 32 and len(v) <= 16}
    return out


def table_seats(data_dir: str | Path, table_id) -> dict:
    """Where everyone sits at table `table_id` as the group last set it ({} when never set)."""
    return dict(load(data_dir).seats.get(str(table_id), {}))


def keep_seats(data_dir: str | Path, table_id, sides: dict) -> Preferences:
    """Remember where everyone sits at table `table_id` (the newest table last: the oldest are dropped first)."""
    seats = {k: v for k, v in load(data_dir).seats.items() if k != str(table_id)}
    seats[str(table_id)] = dict(sides)
    return changed(data_dir, seats=dict(list(seats.items())[-MAX_SEATED_TABLES:]))


def save(data_dir: str | Path, prefs: Preferences) -> bool:
    """Write `prefs` into `data_dir` whole (write, flush, rename). False when the disk refused: the settings still
    hold for this run, they are only not remembered."""
    folder = Path(data_dir)
    path, part = folder / FILE_NAME, folder / (FILE_NAME + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(part, "w", encoding="utf-8") as f:
            f.write(json.dumps(asdict(prefs)))
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
        return True
    except OSError as err:
        log.warning("preferences not saved: %s", err)
        return False


def changed(data_dir: str | Path, **fields) -> Preferences:
    """Save the settings in `data_dir` with `fields` changed; the new settings."""
    prefs = replace(load(data_dir), **fields)
    save(data_dir, prefs)
    return prefs
