"""The rules profile: every RULINGS.md decision this engine applies, in words a group can check at the table.

Each entry is a `Ruling(id, title, summary, field)` (companion/games/rulings.py): the setup screen and
`companion rules obscurians` show the titles and summaries, with the group's current value for the editable ones;
the full text as decided is `ruling.text`.
"""
from __future__ import annotations

from companion.games import rulings as _rulings
from companion.games.obscurians.rules import Rules
from companion.games.rulings import Ruling

RULINGS = (
    Ruling("obscurians-dice", "Dice and D6 pips",
           "5 henchmen dice; opposite faces Steal/Donate, Swap/Secure, Relocate/Wild. A D6 stands in with pips "
           "1 Steal, 6 Donate, 2 Swap, 5 Secure, 3 Relocate, 4 Wild; another mapping must keep opposite faces on "
           "opposite pips.", "pips"),
    Ruling("obscurians-players", "Players and missions",
           "4-6 players; 7 only with the Control module. With 4 players one of Keep/Take/Collect and one of "
           "Give/Select/Lose are removed at random."),
    Ruling("obscurians-chip", "Suspicion chips",
           "A chip is correct when it names the target's mission. Per target, in placement order: 1st correct +10, "
           "2nd +5, 3rd +2, further 0. Chips discarded for rerolls never score."),
    Ruling("obscurians-masters", "Masters",
           "Master of Unmasking +8: a correct chip on every other player. Master of Disguise +8: no correct chip on "
           "your own board. Everyone can earn both."),
    Ruling("obscurians-take-cap", "Take",
           "Take: n goods of one foreign colour score n x n, up to 25 for 5. House rule: 6 or more score 25 (the "
           "largest listed collection), or n x n without a cap.", "take_cap"),
    Ruling("obscurians-collect", "Collect",
           "Collect: the best split of your goods into sets of different colours; sets of 3/4/5 colours score "
           "8/14/22. Lamp and artifact have no colour."),
    Ruling("obscurians-give", "Give", "Give: 70 - 5 per good, lamp and artifact included; may go below zero."),
    Ruling("obscurians-select", "Select",
           "Select: +15 per colour held exactly once (at most 4), +5 per colour held exactly twice."),
    Ruling("obscurians-lose", "Lose",
           "Lose: 75, -20 each for exactly 4-6 goods, goods of at most 2 colours, and every own chip wrong with a "
           "chip on every other player."),
    Ruling("obscurians-winner", "Winner",
           "Highest total wins (ties share), unless the Lose player is strictly lowest: then Lose wins alone."),
    Ruling("obscurians-actions", "Actions",
           "Executions = symbols + chosen Wilds (never for Relocate), doubled after Wilds by a Double event; all must "
           "be done unless no target is left. Each Secure puts exactly 2 goods in the vault (1 only when one free "
           "good is left); 4+ Secures make a trade ban: no goods can be received by any action until that player's "
           "next turn."),
    Ruling("obscurians-relocate", "Relocate",
           "Relocate moves 1 good from one opponent to another (the English rulebook; the German summary's "
           "exchange is not used)."),
    Ruling("obscurians-lamp", "The magic lamp",
           "The magic lamp is always held by exactly one player, free or in the vault; an end of game where nobody "
           "or two players hold it is refused."),
    Ruling("obscurians-rounds", "Rounds and the sandstorm",
           "Rounds 1-4 use the 4-card event deck, then the 3-card sandstorm deck; the sandstorm ends the game "
           "before the revealer's turn."),
)


def values(rules: Rules) -> dict[str, str]:
    """The group's choice for each editable ruling, in English words (keyed by Rules field)."""
    return {"pips": ", ".join(f"{p} {f}" for p, f in rules.pips),
            "take_cap": "6+ goods score 25" if rules.take_cap else "n x n, no cap"}


def profile(rules: Rules = Rules()) -> list[dict]:
    """The rulings with the group's current value for each editable one."""
    return _rulings.profile(RULINGS, values(rules))
