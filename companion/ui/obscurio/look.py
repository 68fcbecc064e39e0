"""How Obscurio looks on the table-side screen: the character chips' colours, the traps' colours, the gauge's areas.

Colours are saturated enough to tell apart across a table; text on a colour is dark on the light ones.
"""
from __future__ import annotations

CHIP = {
    "blue": (0.16, 0.40, 0.90, 1), "green": (0.18, 0.66, 0.25, 1), "red": (0.86, 0.16, 0.16, 1),
    "yellow": (0.97, 0.83, 0.10, 1), "orange": (0.96, 0.52, 0.06, 1), "pink": (0.93, 0.38, 0.70, 1),
    "turquoise": (0.10, 0.78, 0.76, 1), "grimoire": (0.55, 0.42, 0.28, 1),
}
INK = {c: ((0.08, 0.08, 0.1, 1) if c in ("yellow", "orange", "turquoise", "pink", "green") else (1, 1, 1, 1))
       for c in CHIP}

# The trap tokens by the step they act on, as on the box: brown (step 2), purple (step 3), green (step 4).
TRAP_STEP_RGBA = {2: (0.55, 0.36, 0.20, 1), 3: (0.52, 0.28, 0.72, 1), 4: (0.15, 0.55, 0.32, 1)}

GOLD = (0.98, 0.82, 0.35, 1)
GOLD_INK = (0.12, 0.09, 0.02, 1)
QUIET = (0.27, 0.29, 0.35, 1)
GO = (0.16, 0.58, 0.34, 1)
STOP = (0.90, 0.22, 0.18, 1)
WHITE = (1, 1, 1, 1)
DIM = (0.75, 0.78, 0.85, 1)
NIGHT = (0.05, 0.06, 0.14, 1)

# The cohesion gauge: the normal area (light tokens) and the dark area with the monster (deep violet).
NORMAL_TOKEN = (0.95, 0.86, 0.55, 1)
DARK_TOKEN = (0.62, 0.45, 0.95, 1)
EMPTY_TOKEN = (0.30, 0.31, 0.38, 1)
DARK_AREA = (0.16, 0.10, 0.26, 1)
NORMAL_AREA = (0.22, 0.21, 0.18, 1)
