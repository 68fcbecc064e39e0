"""Game words inside refusals, as Terms (companion.games.errors) so that a translation can name them.

Character chips are named by colour from the house palette, so they are words of the existing "colour"
vocabulary; traps are the "trap" vocabulary (display names: companion/games/obscurio/vocabulary.py).
"""
from __future__ import annotations

from companion.games.errors import Term, Terms
from companion.games.obscurio.constants import TRAP_NAME


def chip(character: str) -> Term:
    return Term("colour", character, character)


def trap(code: str) -> Term:
    return Term("trap", code, TRAP_NAME[code])


def traps(codes) -> Terms:
    return Terms(trap(c) for c in codes)
