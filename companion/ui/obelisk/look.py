"""How Obelisk looks on the table-side screen: the lands, the players' Obelisks (dice), the demons, the routes.

Colours are saturated enough to tell apart across a table; a number on a colour is dark on the light ones.
"""
from __future__ import annotations

LAND = {"P": (0.50, 0.28, 0.70, 1), "G": (0.62, 0.80, 0.36, 1), "F": (0.13, 0.45, 0.22, 1),
        "C": (0.45, 0.78, 0.90, 1), "M": (0.55, 0.52, 0.50, 1)}
LAND_INK = {"P": (1, 1, 1, 1), "G": (0.08, 0.12, 0.04, 1), "F": (1, 1, 1, 1), "C": (0.04, 0.10, 0.16, 1),
            "M": (1, 1, 1, 1)}
EMPTY = (0.10, 0.11, 0.14, 1)
TABLE = (0.07, 0.08, 0.10, 1)

PLAYER = {"blue": (0.16, 0.40, 0.90, 1), "yellow": (0.97, 0.83, 0.10, 1), "green": (0.18, 0.66, 0.25, 1),
          "black": (0.08, 0.08, 0.08, 1)}
PLAYER_INK = {"blue": (1, 1, 1, 1), "yellow": (0.08, 0.08, 0.1, 1), "green": (0.05, 0.1, 0.05, 1),
              "black": (1, 1, 1, 1)}
DEMON = {"green": (0.30, 0.95, 0.30, 1), "yellow": (1.0, 0.90, 0.15, 1), "blue": (0.25, 0.55, 1.0, 1)}

GOLD = (0.98, 0.82, 0.35, 1)
DANGER = (0.95, 0.18, 0.15, 1)
ROUTE = (1, 1, 1, 0.85)
MARKER = (1, 1, 1, 0.95)
RUNE = (0.78, 0.45, 1.0, 1)       # an Obelisk carrying a Scroll
DAY = (0.14, 0.16, 0.20, 1)
NIGHT = (0.05, 0.06, 0.14, 1)
SMART_DIE = (0.30, 0.85, 0.95, 1)   # a smart die standing on a corner (companion/ui/obelisk/dice.py)
