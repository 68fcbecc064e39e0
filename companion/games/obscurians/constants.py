"""The fixed vocabulary of Obscurians: colours, missions, dice faces, event cards."""

COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "turquoise")
BASE_COLOURS = COLOURS[:6]
CONTROL_COLOUR = "turquoise"  # the Control module's travel towel

MISSIONS = ("keep", "take", "collect", "give", "select", "lose", "control")
BASE_MISSIONS = MISSIONS[:6]

LAMP = "lamp"          # +5 coins, a good without colour
ARTIFACT = "artifact"  # -5 coins, a good without colour
UNCOLOURED = (LAMP, ARTIFACT)
GOODS_PER_COLOUR = 10

FACES = ("steal", "donate", "swap", "secure", "relocate", "wild")
ACTION_KINDS = ("steal", "donate", "swap", "secure", "relocate")
WILD_KINDS = ("steal", "donate", "swap", "secure")  # Wilds are never Relocate (rulebook p. 3)
# RULING obscurians-dice: opposite faces, used by the Flip the Die event.
OPPOSITE = {
    "steal": "donate", "donate": "steal",
    "swap": "secure", "secure": "swap",
    "relocate": "wild", "wild": "relocate",
}
N_DICE = 5  # RULING obscurians-dice: five, not the German summary's six
# A reroll paid with a chip discarded face down, unseen (rulebook "Rerolling"): the app never learns its mission.
FACE_DOWN = "face_down"

SANDSTORM = "sandstorm"
SANDSTORM_ROUND = 5  # rulebook "Revealing an Event Card": the sandstorm deck, and so the end, from round 5 on
EVENTS = (
    "cursed_artifact", "double_steal", "no_steal", "double_swap", "no_swap", "double_secure",
    "no_secure", "double_donate", "bonus_wild", "chips_or_dice", "flip_the_die", "reroll_once",
    "all_actions_mandatory",
)
DOUBLE_EVENT = {"double_steal": "steal", "double_swap": "swap", "double_secure": "secure", "double_donate": "donate"}
NO_EVENT = {"no_steal": "steal", "no_swap": "swap", "no_secure": "secure"}

EVENT_TEXT = {
    "sandstorm": "The game ends at once. The player who revealed it takes no turn.",
    "cursed_artifact": "The player who revealed this card receives the cursed artifact (-5 coins, a good without colour).",
    "double_steal": "Double the number of Steal actions this round.",
    "no_steal": "Steal cannot be used this round.",
    "double_swap": "Double the number of Swap actions this round.",
    "no_swap": "Swap cannot be used this round.",
    "double_secure": "Double the number of Secure actions this round.",
    "no_secure": "Secure cannot be used this round.",
    "double_donate": "Double the number of Donate actions this round.",
    "bonus_wild": "Everyone gets 2 Wilds in addition to their roll this round.",
    "chips_or_dice": "This round each player either places suspicion chips or rolls the dice, not both.",
    "flip_the_die": "Any number of dice may be turned to their opposite side this round.",
    "reroll_once": "Any number of dice may be rolled again once this round, for free.",
    "all_actions_mandatory": "All 5 rolled actions must be carried out this round, one die at a time.",
}

# Points (rulebook "End of Game" and the mission overview; RULINGS obscurians-chip/-masters).
CHIP_POINTS = (10, 5, 2)
MASTER_BONUS = 8
LAMP_POINTS = 5
ARTIFACT_POINTS = -5
