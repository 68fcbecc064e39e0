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

from companion.games.errors import InvalidInput
from companion.games.ruling_texts import EDITABLE, TEXTS
from companion.games.text import shown


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


def rules_version_from_json(d: Mapping, current: int) -> int:
    """`rules.version` of a rules object (docs/persistence.md "Rules versions"): which version of the game's rules
    a table was played under, 1 to `current`; `current` when the object names none (a new table, a rules file)."""
    version = d.get("version", current)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidInput(f"rules.version: {shown(version)} is not a rules version (1, 2, …)")
    if version > current:
        raise InvalidInput(f"rules.version: {version} comes from a newer Table Companion (this one knows the rules "
                           f"up to version {current}); update the app")
    return version


def ids_of(game: str) -> list[str]:
    """Every ruling id RULINGS.md has for `game` ("obscurians-…"), in the file's order."""
    return [rid for rid in TEXTS if rid.startswith(game + "-")]


__all__ = ["EDITABLE", "Ruling", "TEXTS", "ids_of", "profile", "rules_version_from_json"]
