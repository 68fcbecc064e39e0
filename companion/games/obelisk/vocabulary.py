"""The words of Obelisk as players read them: one English display name (a msgid of the `companion` catalogue) for
every colour, demon, land, Scroll, action, step, difficulty and editable ruling value, translated by companion/i18n.

The engine's codes ("crystal_network", "F") never reach a screen: the UI shows these names, and the translated
refusals and advice name the same words (`Game.terms`). The English texts the engine writes itself come from one
place each (words.py, ending.py) and are used here as msgids, not copied.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obelisk.ending import LEVEL, LINES
from companion.games.obelisk.words import ACTION_WORD, KIND_WORD, ORDINAL, SCROLL_WORD

COLOUR = {"blue": N_("blue"), "yellow": N_("yellow"), "green": N_("green"), "black": N_("black")}
DEMON = {"green": N_("the green demon"), "yellow": N_("the yellow demon"), "blue": N_("the blue demon")}
LAND = dict(KIND_WORD)
SCROLL = dict(SCROLL_WORD)
ACTION = dict(ACTION_WORD)
STEP = {str(i + 1): f"{word} step" for i, word in enumerate(ORDINAL)}
DIFFICULTY = dict(LEVEL)

# The values the rules profile shows for the editable rulings (rulings.values writes them in English).
DEMONS_VALUE = N_("{colour}: speed {speed}, strength {strength}")
ACTIONS_VALUE = {"one": N_("1 player: {actions} actions, Rotate {rotate} tiles"),
                 "other": N_("{n} players: {actions} actions each, Rotate {rotate} tiles")}
REPEAT_VALUE = N_("repeats allowed")

# Vocabulary name -> {code: msgid}: how refusals' and advice's game words (errors.Term) are translated.
TERMS = {"colour": COLOUR, "demon": DEMON, "land": LAND, "scroll": SCROLL, "action": ACTION, "step": STEP}
MSGIDS = (*DIFFICULTY.values(), DEMONS_VALUE, *ACTIONS_VALUE.values(), REPEAT_VALUE)
LINE_TEMPLATES = LINES
