"""Rulings: what the app decided where a rulebook is silent (RULINGS.md), kept in the project as data.

Each game lists its rulings as `Ruling(id, title, summary, field)`: `title` and `summary` are the short English
texts the setup screen and `companion rules GAME` show (msgids, translated in the catalogues), `field` the game's
Rules attribute that edits it (None: fixed). The full text of every ruling, as decided, is `ruling_texts.TEXTS[id]`: a copy of RULINGS.md
that tests/test_rulings_conformance.py compares with ../shared/rules/RULINGS.md wherever that folder exists (and
rewrites with `--write`), so the app never depends on a file outside the repository.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from companion.games.ruling_texts import EDITABLE, TEXTS


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str                 # a few words for a heading ("Dice and D6 pips"): a msgid like the summary
    summary: str
    field: str | None = None   # the Rules attribute a group may edit; None: not editable

    @property
    def text(self) -> str:
        """The ruling as decided (RULINGS.md), in English."""
        return TEXTS[self.id]

    @property
    def editable(self) -> bool:
        return self.field is not None


def profile(rulings: Iterable[Ruling], values: Mapping[str, str]) -> list[dict]:
    """The rules profile: every ruling with the group's current value (`values[field]`) for the editable ones."""
    return [{"id": r.id, "title": r.title, "summary": r.summary, "editable": r.editable,
             "value": values.get(r.field) if r.field else None, "text": r.text}
            for r in rulings]


def ids_of(game: str) -> list[str]:
    """Every ruling id RULINGS.md has for `game` ("obscurians-…"), in the file's order."""
    return [rid for rid in TEXTS if rid.startswith(game + "-")]


__all__ = ["EDITABLE", "Ruling", "TEXTS", "ids_of", "profile"]
