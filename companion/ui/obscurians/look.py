"""How Obscurians looks on the table-side screen: the players' colours, and text on top of them."""
from __future__ import annotations

# Screen colours (RGBA 0-1) for each player colour: saturated enough to tell apart across a table.
RGBA = {
    "red": (0.86, 0.16, 0.16, 1), "orange": (0.96, 0.52, 0.06, 1), "yellow": (0.97, 0.83, 0.10, 1),
    "green": (0.18, 0.66, 0.25, 1), "blue": (0.16, 0.40, 0.90, 1), "pink": (0.93, 0.38, 0.70, 1),
    "turquoise": (0.10, 0.78, 0.76, 1), "lamp": (0.95, 0.80, 0.35, 1), "artifact": (0.35, 0.30, 0.40, 1),
}
# Text on top of a colour: dark on light colours, white on dark ones.
INK = {c: ((0.08, 0.08, 0.1, 1) if c in ("yellow", "orange", "turquoise", "lamp", "pink", "green") else (1, 1, 1, 1))
       for c in RGBA}
NEUTRAL = [0.24, 0.42, 0.62, 1]   # a choice that is not a good
WHITE = [1, 1, 1, 1]


def die_colours(face: str, selected: bool, new_roll: bool = False) -> dict:
    """A slot of the dice row: its colour and its text's (the New roll slot is a button, blue or gold)."""
    if new_roll:
        return {"rgba": [0.95, 0.75, 0.25, 1] if selected else NEUTRAL, "ink": [0.08, 0.08, 0.1, 1] if selected
                else WHITE}
    return {"rgba": face_rgba(face, selected), "ink": [0.08, 0.08, 0.1, 1] if face else [0.6, 0.62, 0.7, 1]}


def face_rgba(face: str, selected: bool) -> list:
    """A die's or face button's colour: empty slot, selected (gold) or a face (ivory)."""
    if not face:
        return [0.22, 0.23, 0.28, 1]
    if selected:
        return [0.95, 0.75, 0.25, 1]
    return [0.93, 0.93, 0.88, 1]
