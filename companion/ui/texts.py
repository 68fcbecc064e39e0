"""Names the UI shows for the game's vocabulary, as msgids (translated with the app's `t`).

`N_` only marks a string for the catalogue test (tests/ui/test_i18n.py); translation happens at display time.
Mission names follow the printed boxes: EN Keep/Take/..., DE Behalt/Nimm/..., ES see docs/ui.md.
"""
from __future__ import annotations

from companion.games.obscurians.constants import EVENT_TEXT


def N_(msgid: str) -> str:
    return msgid


MISSION = {
    "keep": N_("Keep"), "take": N_("Take"), "collect": N_("Collect"), "give": N_("Give"),
    "select": N_("Select"), "lose": N_("Lose"), "control": N_("Control"),
}
FACE = {
    "steal": N_("Steal"), "donate": N_("Donate"), "swap": N_("Swap"), "secure": N_("Secure"),
    "relocate": N_("Relocate"), "wild": N_("Wild"),
}
COLOUR = {
    "red": N_("red"), "orange": N_("orange"), "yellow": N_("yellow"), "green": N_("green"),
    "blue": N_("blue"), "pink": N_("pink"), "turquoise": N_("turquoise"),
    "lamp": N_("magic lamp"), "artifact": N_("cursed artifact"),
}
EVENT = {
    "sandstorm": N_("Sandstorm"), "cursed_artifact": N_("Cursed Artifact"), "double_steal": N_("Double Steal"),
    "no_steal": N_("No Steal"), "double_swap": N_("Double Swap"), "no_swap": N_("No Swap"),
    "double_secure": N_("Double Secure"), "no_secure": N_("No Secure"), "double_donate": N_("Double Donate"),
    "bonus_wild": N_("Bonus Wild"), "chips_or_dice": N_("Chips or Dice"), "flip_the_die": N_("Flip the Die"),
    "reroll_once": N_("Reroll Once"), "all_actions_mandatory": N_("All Actions Mandatory"),
}
# The effect texts are the engine's own (constants.EVENT_TEXT): one English source, translated as msgids
# (companion.i18n.extract lists them for the catalogue test).
EVENT_EFFECT = EVENT_TEXT
GAME = {"obscurians": N_("Obscurians"), "obscurio": N_("Obscurio"), "obelisk": N_("Obelisk")}

# Screen colours (RGBA 0-1) for each player colour: saturated enough to tell apart across a table.
RGBA = {
    "red": (0.86, 0.16, 0.16, 1), "orange": (0.96, 0.52, 0.06, 1), "yellow": (0.97, 0.83, 0.10, 1),
    "green": (0.18, 0.66, 0.25, 1), "blue": (0.16, 0.40, 0.90, 1), "pink": (0.93, 0.38, 0.70, 1),
    "turquoise": (0.10, 0.78, 0.76, 1), "lamp": (0.95, 0.80, 0.35, 1), "artifact": (0.35, 0.30, 0.40, 1),
}
# Text on top of a colour: dark on light colours, white on dark ones.
INK = {c: ((0.08, 0.08, 0.1, 1) if c in ("yellow", "orange", "turquoise", "lamp", "pink", "green") else (1, 1, 1, 1))
       for c in RGBA}
# Short glyph-free labels for goods on small chips.
GOOD_SHORT = {"lamp": N_("Lamp"), "artifact": N_("Artifact")}
# The value the rules profile shows for the Take ruling (rulings.profile), as msgids.
TAKE_CAP_VALUE = {True: N_("6+ goods score 25"), False: N_("n x n, no cap")}
