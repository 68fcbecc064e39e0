"""Game words inside refusals and advice, as Terms (companion.games.errors) so that a translation can name them.

Display names (msgids of the `companion` catalogue): companion/games/obelisk/vocabulary.py. A demon is a word of
its own ("the blue demon", vocabulary "demon"), always the subject of its sentence, so that languages with cases
need one form; a step tonight is an ordinal word ("second step", vocabulary "step").
"""
from __future__ import annotations

from companion.games.errors import Term
from companion.games.obelisk.model import cell_name

KIND_WORD = {"P": "Portal", "G": "Grass", "F": "Forest", "C": "Crystal", "M": "Mountain"}
SCROLL_WORD = {
    "broken_earth": "Broken Earth", "burnout": "Burnout", "consuming_growth": "Consuming Growth",
    "crystal_network": "Crystal Network", "instability": "Instability", "lightning_rod": "Lightning Rod",
    "longbow": "Longbow", "siphon_energy": "Siphon Energy",
}
ACTION_WORD = {"build": "Build", "reinforce": "Reinforce", "mine": "Mine", "rotate": "Rotate", "reroll": "Reroll",
               "aim": "Aim"}
ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def colour(code: str) -> Term:
    return Term("colour", code, code)


def demon(code: str) -> Term:
    return Term("demon", code, f"the {code} demon")


def land(kind: str) -> Term:
    return Term("land", kind, KIND_WORD[kind])


def scroll(code: str) -> Term:
    return Term("scroll", code, SCROLL_WORD[code])


def action(kind: str) -> Term:
    return Term("action", kind, ACTION_WORD[kind])


def step(n: int) -> Term:
    """"second step" for 2 (1-10; beyond that "step 11", which no printed speed reaches)."""
    text = f"{ORDINAL[n - 1]} step" if 1 <= n <= len(ORDINAL) else f"step {n}"
    return Term("step", str(n), text)


def cell(c) -> str:
    return cell_name(c)


def corner(c) -> str:
    """A corner's name on the 6 × 6 corner grid ("C3": the top-left corner of tile C3); templates say "corner"."""
    return cell_name(c)
