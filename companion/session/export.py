"""Writing a table out to files a person keeps: its log (JSON Lines) and, for a finished game, a BG Stats record.

The UI only asks for it and says where the files went; which files, their names and contents are decided here.
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path


def default_export_dir() -> Path:
    """A folder a person finds without help: "Table Companion" in their documents folder."""
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "Table Companion"


def export_table(table, folder: Path | None = None, *, now: datetime | None = None) -> list[Path]:
    """Write `table`'s log (and its BG Stats play, once the game is over) into `folder`; the paths written.

    OSError (a full or read-only disk) propagates: the caller tells the players, nothing is half-written because
    each file is written whole to a temporary name and then renamed.
    """
    folder = Path(folder) if folder is not None else default_export_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{table.game}-table-{table.id}"
    paths = [_write(folder / f"{stem}.jsonl", table.export())]
    game, outcome = table.adapter, table.state.outcome()
    if outcome is not None and game.has("bgstats_of"):
        when = (now or datetime.now()).strftime("%Y-%m-%d %H:%M:%S")
        record = game.bgstats_of(table.state, when, source_play_id=f"table-{table.id}")
        paths.append(_write(folder / f"{stem}-bgstats.json", json.dumps(record, indent=2, ensure_ascii=False) + "\n"))
    return paths


def _write(path: Path, text: str) -> Path:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
