"""The group's own settings, kept beside the tables: the language and the sound switch.

A group that plays in German wants the app back in German after a restart (or a crash), and a muted app to stay
quiet. The file is tiny and only ever written whole (a new file, then renamed over the old one), so a crash while
saving leaves the previous settings. A file that cannot be read (hand-edited, damaged, from a future version) is
not an error for the players: the defaults apply and the next change writes a good file.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from companion.games.errors import InvalidInput
from companion.session.jsontext import loads

log = logging.getLogger(__name__)

FILE_NAME = "preferences.json"


@dataclass(frozen=True)
class Preferences:
    lang: str | None = None   # None: the system's language (LANG)
    sound_on: bool = True


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
                       sound_on=sound_on if isinstance(sound_on, bool) else True)


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
