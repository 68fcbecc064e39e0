"""The fixed vocabulary of Obscurio: roles, character chips, trap tokens, doors and the board's sizes."""

GRIMOIRE = "grimoire"  # the Grimoire's id: it is a player, but has no character chip

# The 7 character chips, named by colour. The rulebook names Blue, Green, Red and Yellow; the other three are the
# house palette's names (vocabulary.py CHARACTER) so the UI can show and translate them like Obscurians'.
CHARACTERS = ("blue", "green", "red", "yellow", "orange", "pink", "turquoise")

MIN_PLAYERS, MAX_PLAYERS = 2, 8  # the Grimoire included
TRAITOR_FROM = 4                 # with 2-3 players there is no Traitor (RULING obscurio-2-3-players)

ROOMS = 6            # "deben cruzar con éxito 6 habitaciones"; progress counts rooms crossed, 0-6
WATCHER_AT = ROOMS - 1  # the marker on the last space: the Watcher is active (RULING obscurio-progress)
DOORS = 6            # doors #1-#6
GREAT_ROOM_DOORS = 7  # the Great Room trap adds a 7th door
CONCEALED_DOOR = 4    # the Concealed Door trap hides door #4 until the end of step 4
DECOYS = 2           # the Traitor picks up to 2 cards ...
DARK_MAGIC_DECOYS = 4  # ... or up to 4 under Dark Magic
CARD_HOLDER = 8      # cards in the card holder, the most a Traitor could ever point at
MAX_COHESION = 30    # "30 fichas de cohesión" in the box
OWN_CHIP_COST, COMPANION_COST = 2, 1  # 2 players: own chip wrong → 2 tokens, companion wrong → 1
ACCUSED_COST = 2     # each loyal wizard accused sends 2 tokens to the box

# RULING obscurio-traps: the 13 known traps, by the step they act on (brown 2, purple 3, green 4).
PLUS2 = "plus2"
TRAP_STEP = {
    PLUS2: 2, "dark_night": 2, "dusk_hallway": 2, "united_butterflies": 2, "magical_mist": 2,
    "bottom_butterfly": 2,
    "dark_magic": 3, "espionage": 3,
    "concealed_door": 4, "evanescent_room": 4, "great_room": 4, "dangerous_room": 4, "locked_doors": 4,
}
TRAPS = tuple(TRAP_STEP)
PURPLE = tuple(t for t in TRAPS if TRAP_STEP[t] == 3)  # the Traitor's traps: out of the bag with 2-3 players
TRAP_COLOUR = {2: "brown", 3: "purple", 4: "green"}
TRAP_NAME = {
    PLUS2: "+2", "dark_night": "Dark Night", "dusk_hallway": "Dusk Hallway",
    "united_butterflies": "United Butterflies", "magical_mist": "Magical Mist", "bottom_butterfly": "Bottom Butterfly",
    "dark_magic": "Dark Magic", "espionage": "Espionage", "concealed_door": "Concealed Door",
    "evanescent_room": "Evanescent Room", "great_room": "Great Room", "dangerous_room": "Dangerous Room",
    "locked_doors": "Locked Doors",
}
# What each trap does, in a sentence for the table. RULING obscurio-traps names the brown traps and the step they
# act on, but only two of their effects (the sheets); the others are printed on the token and only shown here.
_PRINTED = "Step 2: the Grimoire's riddle follows the rule printed on this token."
TRAP_TEXT = {
    PLUS2: "Draw 2 more trap tokens now.",
    "dark_night": _PRINTED,
    "dusk_hallway": "Step 2: the red sheet lies over the Grimoire's Pages.",
    "united_butterflies": _PRINTED,
    "magical_mist": "Step 2: the printed sheet lies over the Grimoire's Pages.",
    "bottom_butterfly": _PRINTED,
    "dark_magic": "Step 3: the Traitor may pick up to 4 cards.",
    "espionage": "Step 3: the Traitor is shown the Exit card.",
    "concealed_door": "Step 4: door 4 stays hidden until the end of the step.",
    "evanescent_room": "Step 4: the Evanescent Room tile replaces the time track this turn.",
    "great_room": "Step 4: a 7th door.",
    "dangerous_room": "Step 4: each wrong door chosen costs one more cohesion token.",
    "locked_doors": "Step 4: the doors are revealed one at a time; a wizard may decline every door.",
}
# RULING obscurio-traps: one of each, and the unknown 14th token as a second +2.
DEFAULT_BAG = tuple((t, 2 if t == PLUS2 else 1) for t in TRAPS)
MAX_TRAP_COPIES = 14

# RULING obscurio-cohesion: default totals ("Beginner Grimoire") by players incl. the Grimoire; dark-area tokens.
DEFAULT_COHESION = ((2, 12), (3, 9), (4, 14), (5, 18), (6, 22), (7, 26), (8, 30))
DARK_SMALL = 5  # 2-3 players (RULING obscurio-cohesion); 4-8 players: the rulebook's table below


def rulebook_dark(n_players: int) -> int | None:
    """Dark-area tokens printed in the rulebook: 5 with 4-5 players, 7 with 6-8; None for 2-3 (a ruling)."""
    if 4 <= n_players <= 5:
        return 5
    if 6 <= n_players <= 8:
        return 7
    return None


DEFAULT_DIFFICULTY = "Beginner Grimoire"
