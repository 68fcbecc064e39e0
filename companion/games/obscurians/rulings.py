"""The rules profile: every RULINGS.md decision this engine applies, in words a group can check at the table.

Each entry is (ruling id, summary, Rules field that edits it or None). The UI's setup screen and
`companion rules obscurians` show this list, with the group's current values for the editable ones.
"""
from __future__ import annotations

from companion.games.obscurians.rules import Rules

RULINGS = (
    ("obscurians-dice", "5 henchmen dice; opposite faces Steal/Donate, Swap/Secure, Relocate/Wild. "
                        "A D6 stands in with pips 1 Steal, 6 Donate, 2 Swap, 5 Secure, 3 Relocate, 4 Wild.", "pips"),
    ("obscurians-players", "4-6 players; 7 only with the Control module. With 4 players one of Keep/Take/Collect and "
                           "one of Give/Select/Lose are removed at random.", None),
    ("obscurians-chip", "A chip is correct when it names the target's mission. Per target, in placement order: "
                        "1st correct +10, 2nd +5, 3rd +2, further 0. Chips discarded for rerolls never score.", None),
    ("obscurians-masters", "Master of Unmasking +8: a correct chip on every other player. Master of Disguise +8: no "
                           "correct chip on your own board. Everyone can earn both.", None),
    ("obscurians-take-cap", "Take: n goods of one foreign colour score n x n, up to 25 for 5. House rule: 6 or more "
                            "score 25 (the largest listed collection), or n x n without a cap.", "take_cap"),
    ("obscurians-collect", "Collect: the best split of your goods into sets of different colours; sets of 3/4/5 "
                           "colours score 8/14/22. Lamp and artifact have no colour.", None),
    ("obscurians-give", "Give: 70 - 5 per good, lamp and artifact included; may go below zero.", None),
    ("obscurians-select", "Select: +15 per colour held exactly once (at most 4), +5 per colour held exactly twice.",
     None),
    ("obscurians-lose", "Lose: 75, -20 each for exactly 4-6 goods, goods of at most 2 colours, and every own chip "
                        "wrong with a chip on every other player.", None),
    ("obscurians-winner", "Highest total wins (ties share), unless the Lose player is strictly lowest: then Lose "
                          "wins alone.", None),
    ("obscurians-actions", "Executions = symbols + chosen Wilds (never for Relocate), doubled after Wilds by a Double "
                           "event; all must be done unless no target is left. 4+ Secures make a trade ban: no goods "
                           "can be received by any action until that player's next turn.", None),
    ("obscurians-rounds", "Rounds 1-4 use the 4-card event deck, then the 3-card sandstorm deck; the sandstorm ends "
                          "the game before the revealer's turn.", None),
)


def profile(rules: Rules = Rules()) -> list[dict]:
    """The rulings with the group's current value for each editable one."""
    values = {"pips": ", ".join(f"{p} {f}" for p, f in rules.pips),
              "take_cap": "6+ goods score 25" if rules.take_cap else "n x n, no cap"}
    return [{"id": rid, "summary": text, "editable": field is not None, "value": values.get(field)}
            for rid, text, field in RULINGS]
