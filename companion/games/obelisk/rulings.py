"""The rules profile: every RULINGS.md decision this engine applies, in words a group can check at the table.

Each entry is a `Ruling(id, title, summary, field)` (companion/games/rulings.py): `companion rules obelisk` and the
setup screen show the titles and summaries, with the group's current value for the editable ones (the printed
Turn Guide and Player Guide values); the full text as decided is `ruling.text`.
"""
from __future__ import annotations

from companion.games import rulings as _rulings
from companion.games.obelisk.rules import Rules
from companion.games.obelisk.vocabulary import ACTIONS_VALUE, DEMONS_VALUE, REPEAT_VALUE
from companion.games.rulings import Ruling

RULINGS = (
    Ruling("obelisk-demons", "Demon speed and strength",
           "From the Turn Guide we do not have: green speed 4 / strength 1, yellow 3 / 3, blue 2 / 5 (speeds from "
           "the rulebook's example, strengths from the tile texts). Type in your guide's values.", "demons"),
    Ruling("obelisk-horde", "The horde",
           "Yellow 12 at every difficulty; green 16 down to 8 and blue 8 up to 16 from the difficulty table; the "
           "Scrolls add 2 of each colour."),
    Ruling("obelisk-actions", "Actions per Day",
           "From the Player Guides we do not have: 1 player 4 actions, Rotate 3 tiles; 2 players 2 each, Rotate 2; "
           "3 players 2 each, Rotate 2; 4 players 1 each, Rotate 2. Repeating an action only with 1-2 players.",
           "actions"),
    Ruling("obelisk-path", "Demon paths",
           "A demon moves to the tile its arrow points at. Off the map, into an empty space or a Mountain, or onto a "
           "tile it stood on before (its history starts on the Portal): the game is lost."),
    Ruling("obelisk-move-order", "Who moves first",
           "Most tiles walked this game first; ties: the faster colour, then the order they came out. Demons on the "
           "map move before tonight's; with fewer than 6 (7) left, all of them come out."),
    Ruling("obelisk-night-loss", "Losing at Night",
           "A losing step loses the game. A demon can be captured on any tile it stands on tonight before that step, "
           "never on or after it. The advisor says whether some plan avoids every loss."),
    Ruling("obelisk-capture", "Captures",
           "One Obelisk per corner, reaching the 1-4 tiles touching it; one demon per Night, at any moment: strength "
           "+ tile modifier (Forest -1, Crystal -2) at least the demon's strength. It stops at once."),
    Ruling("obelisk-reinforce", "Reinforce payments",
           "4 green, 3 yellow, 2 blue stones or an unplaced Obelisk; blue replaces any stone of a set (3 green + 1 "
           "blue, 2 yellow + 1 blue …). Strength at most 6."),
    Ruling("obelisk-mine", "Mine",
           "One green stone from the Supply into the Quarry; a spare rotation marker stands in when none is left. "
           "Only green can be mined."),
)


def values(rules: Rules) -> dict[str, str]:
    """The group's choice for each editable ruling, in English words (keyed by Rules field), written with the
    templates the UI translates (vocabulary.DEMONS_VALUE, ACTIONS_VALUE, REPEAT_VALUE)."""
    demons = "; ".join(DEMONS_VALUE.format(colour=c, speed=speed, strength=strength)
                       for c, speed, strength in rules.demons)
    actions = "; ".join(ACTIONS_VALUE["one" if n == 1 else "other"].format(n=n, actions=count, rotate=rotate)
                        + (f", {REPEAT_VALUE}" if repeat else "") for n, count, rotate, repeat in rules.actions)
    return {"demons": demons, "actions": actions}


def profile(rules: Rules = Rules()) -> list[dict]:
    return _rulings.profile(RULINGS, values(rules))
