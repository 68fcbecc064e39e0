"""The words of Obscurio as players read them: one English display name (a msgid of the `companion` catalogue)
for every trap, character chip, role, ending and editable ruling value, translated by companion/i18n.

The engine's codes ("dark_magic", "blue") never reach a screen: the UI shows these names, and the translated
refusals name the same words (`Game.terms`). Sentences the engine writes in English (a trap's effect, why the game
ended) are kept in one place (constants.TRAP_TEXT, ending.WHY) and used here as msgids, not copied.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obscurio.constants import TRAP_TEXT
from companion.games.obscurio.ending import WHY

TRAP = {
    "plus2": N_("+2"), "dark_night": N_("Dark Night"), "dusk_hallway": N_("Dusk Hallway"),
    "united_butterflies": N_("United Butterflies"), "magical_mist": N_("Magical Mist"),
    "bottom_butterfly": N_("Bottom Butterfly"), "dark_magic": N_("Dark Magic"), "espionage": N_("Espionage"),
    "concealed_door": N_("Concealed Door"), "evanescent_room": N_("Evanescent Room"), "great_room": N_("Great Room"),
    "dangerous_room": N_("Dangerous Room"), "locked_doors": N_("Locked Doors"),
}
TRAP_EFFECT = TRAP_TEXT  # what each trap does, one English source (constants.TRAP_TEXT)

# The 7 character chips by colour: the same words as the house palette (Obscurians' colours).
CHARACTER = {
    "blue": N_("blue"), "green": N_("green"), "red": N_("red"), "yellow": N_("yellow"), "orange": N_("orange"),
    "pink": N_("pink"), "turquoise": N_("turquoise"),
}
ROLE = {"grimoire": N_("Grimoire"), "loyal": N_("Loyal"), "traitor": N_("Traitor"), "wizard": N_("Wizard")}
ENDING = WHY  # side -> why the game ended ({left}: cohesion tokens left), one English source (ending.WHY)

# The values the rules profile shows for the editable rulings that are words, not numbers.
DANGEROUS_ROOM_VALUE = {"door": N_("per wrong door"), "chip": N_("per wrong chip")}
WATCHER_NONE = N_("no effect")
WATCHER_ACTS = N_("acts as {trap}")
COHESION_VALUE = N_("{n} players: {total}")
COHESION_DARK_VALUE = N_("dark area with 2-3 players: {n}")
COHESION_TABLE_VALUE = N_("{total} tokens, {dark} of them in the dark area")

# Vocabulary name -> {code: msgid}: how a refusal's game words (errors.Term) are translated.
TERMS = {"colour": CHARACTER, "trap": TRAP}
MSGIDS = (*TRAP_EFFECT.values(), *ROLE.values(), *ENDING.values(), *DANGEROUS_ROOM_VALUE.values(), WATCHER_NONE,
          WATCHER_ACTS, COHESION_VALUE, COHESION_DARK_VALUE, COHESION_TABLE_VALUE)
