"""What the Obelisk box holds and the rulebook's printed tables: components, difficulty, obelisks, the Quarry.

Only what the rulebook prints is here. What the printed Player Guides and Turn Guides say (demon speed and strength,
actions per Day, tiles per Rotate) is not in our rulebook: those are the editable rulings in rules.py.
Imports nothing from the package.
"""
from __future__ import annotations

# Contents: 25 map tiles (1 Portal, 4 Crystals, 10 Forests, 6 Grass, 4 Mountains), 11 Obelisks (3 blue, 3 yellow,
# 3 green, 2 black), 22 Rotation Markers, 50 Stone Demons (14 yellow, 18 green, 18 blue), 8 Scrolls.
TILES = {"P": 1, "C": 4, "F": 10, "G": 6, "M": 4}
OBELISK_DICE = {"blue": 3, "yellow": 3, "green": 3, "black": 2}
N_OBELISKS = sum(OBELISK_DICE.values())  # 11
MARKERS = 22
DEMONS_IN_BOX = {"green": 18, "yellow": 14, "blue": 18}

# Demon colours, in the RULING obelisk-move-order tie order (green, yellow, blue).
DEMON_COLOURS = ("green", "yellow", "blue")
# Player guide colours (the obelisks of the 2-4 player game match them).
PLAYER_COLOURS = ("blue", "yellow", "green", "black")
MIN_PLAYERS, MAX_PLAYERS = 1, 4

# "Starting Obelisks Per Player": 1 → 9, 2 → 4, 3 → 3, 4 → 2.
OBELISKS_PER_PLAYER = {1: 9, 2: 4, 3: 3, 4: 2}
# "Random resources in Quarry": 1 → 2, 2 → 0, 3 → 4, 4 → 0 (drawn from the Supply).
QUARRY_START = {1: 2, 2: 0, 3: 4, 4: 0}

# The difficulty table: green 16..8, blue 8..16; RULING obelisk-horde: yellow 12 at every level.
DIFFICULTIES = ("even_easier", "very_easy", "easy", "mostly_easy", "normal", "almost_hard", "hard", "very_hard",
                "even_harder")
DEFAULT_DIFFICULTY = "normal"  # "If this is your first game we recommend playing on Normal."
YELLOW_HORDE = 12
SCROLLS_EXTRA = 2  # "place two additional monsters of each color into the Dark Realm"


def horde(difficulty: str, scrolls: bool) -> dict[str, int]:
    """The Stone Demons put into the Dark Realm. RULING obelisk-horde."""
    level = DIFFICULTIES.index(difficulty)
    extra = SCROLLS_EXTRA if scrolls else 0
    return {"green": 16 - level + extra, "yellow": YELLOW_HORDE + extra, "blue": 8 + level + extra}


SPAWNS = 6             # "randomly draw six new Stone Demons from the Dark Realm"
SPAWNS_SCROLLS = 7     # "seven Demons appear from the Portal (instead of six)"

# Tile modifiers printed on the tiles: Forest -1, Crystal -2, the others 0 (RULING obelisk-capture).
MODIFIER = {"P": 0, "G": 0, "F": -1, "C": -2, "M": 0}
MAX_STRENGTH = 6       # an Obelisk is a D6 (RULING obelisk-reinforce: strength caps at 6)

# The eight Scrolls. Broken Earth is set aside and put on top of a deck of six of the other seven.
SCROLLS = ("broken_earth", "burnout", "consuming_growth", "crystal_network", "instability", "lightning_rod",
           "longbow", "siphon_energy")
FIRST_SCROLL = "broken_earth"
SCROLL_DECK = 6        # "place six of them face down"
# The land a Scroll's target Obelisk must stand next to (one of them is enough).
SCROLL_LANDS = {
    "broken_earth": ("G", "F", "C", "M"), "instability": ("G", "F", "C", "M"),
    "burnout": ("F",), "consuming_growth": ("F",), "crystal_network": ("C",), "lightning_rod": ("G",),
    "longbow": ("M",), "siphon_energy": ("C",),
}
# Scrolls with the Obelisk Reinforce symbol: the Obelisk cannot be reinforced, overwritten or targeted by a Scroll.
SEALED = frozenset({"burnout", "instability"})
# Scrolls played once and discarded ("You may discard this card after playing it"): they leave no rune behind.
INSTANT = frozenset({"broken_earth", "siphon_energy"})
BURNOUT_BOOST = 4      # "increase the strength of this Obelisk by up to +4"
BURNOUT_OVERHEAT = 4   # "If the value shown is 4 or greater … decrease the Obelisk strength by one"
LIGHTNING_MAX = 3      # "add a Charge to Lightning Rod (max 3)"
CONSUMING_CAPTURES = 2  # "can now capture two Stone Demons each Night instead of one"
CRYSTAL_BONUS = 1      # Crystal Network: "+1 strength when capturing Stone Demons on Crystals"
LONGBOW_RANGE = 4      # "the four tiles along the chosen direction"

TIME_TRIAL_SECONDS = 60  # Time Trials: "Each Day lasts one minute … Night also lasts one minute."
