"""Game words inside refusals, as Terms (companion.games.errors) so that a translation can name them.

Character chips are named by colour from the house palette, so they are words of the existing "colour"
vocabulary. Traps have no vocabulary yet: they stay plain English names (TRAP_NAME) until one is added.
"""
from __future__ import annotations

from companion.games.errors import Term


def chip(character: str) -> Term:
    return Term("colour", character, character)
