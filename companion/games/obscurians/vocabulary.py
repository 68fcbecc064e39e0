"""The words of Obscurians as players read them: the one English display name of every colour, face, mission,
event card and good (msgids, translated by companion/i18n; mission names as printed in each box).

The engine's codes ("keep", "no_swap") never reach a screen: the UI and the translated refusals both show these
names, and nothing else keeps a second copy of them (tests/test_layers.py, companion/i18n/extract.py).
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obscurians.constants import EVENT_TEXT

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
}
UNCOLOURED_GOOD = {"lamp": N_("magic lamp"), "artifact": N_("cursed artifact")}
GOOD_SHORT = {"lamp": N_("Lamp"), "artifact": N_("Artifact")}   # on a small goods pill
EVENT = {
    "sandstorm": N_("Sandstorm"), "cursed_artifact": N_("Cursed Artifact"), "double_steal": N_("Double Steal"),
    "no_steal": N_("No Steal"), "double_swap": N_("Double Swap"), "no_swap": N_("No Swap"),
    "double_secure": N_("Double Secure"), "no_secure": N_("No Secure"), "double_donate": N_("Double Donate"),
    "bonus_wild": N_("Bonus Wild"), "chips_or_dice": N_("Chips or Dice"), "flip_the_die": N_("Flip the Die"),
    "reroll_once": N_("Reroll Once"), "all_actions_mandatory": N_("All Actions Mandatory"),
}
EVENT_EFFECT = EVENT_TEXT  # the card's effect, one English source (constants.EVENT_TEXT)
# The value the rules profile shows for the Take ruling, as msgids (rulings.values gives the English words).
TAKE_CAP_VALUE = {True: N_("6+ goods score 25"), False: N_("n x n, no cap")}

# Vocabulary name (as in errors.Term) -> {code: msgid}: how a refusal's game words are translated. A coloured
# good is the phrase "{colour} good" (the i18n layer composes it); lamp and artifact have names of their own.
TERMS = {"action": FACE, "colour": COLOUR, "mission": MISSION, "event": EVENT, "good": UNCOLOURED_GOOD}
