"""The move log: what a move did, in the players' words: (state before, action, state after) → a Message, one line.

Like a refusal, a line is an English template of the `rules` catalogue with its params (names as they are, game
words as Terms), translated by companion.i18n.messages.translate_message. Only what the table sees is told: the app's
draw is named once the demons are out, never before. Arrows (↑ → ↓ ←) say directions in every language.
"""
from __future__ import annotations

from companion.games.errors import N_, Message
from companion.games.obelisk import words
from companion.games.obelisk.actions import (
    Aim, Build, Capture, Charge, Dawn, Decipher, March, Mine, Nightfall, Pass, Reinforce, Reroll, Roll, Rotate, Spawn,
    Timeout,
)
from companion.games.obelisk.ending import ending_line

ARROW = {"N": "↑", "E": "→", "S": "↓", "W": "←", "NE": "↗", "SE": "↘", "SW": "↙", "NW": "↖"}
LINES = {
    Build: N_("{name} built an Obelisk on corner {corner}"),
    Reinforce: N_("{name} reinforced the Obelisk on corner {corner} to strength {n}"),
    Mine: N_("{name} mined a green stone"),
    Rotate: N_("{name} turned {tiles}"),
    Charge: N_("{name} charged {scroll} on the Obelisk on corner {corner}"),
    Reroll: N_("{name} rerolled the Obelisk on corner {corner}: strength {n}"),
    Aim: N_("{name} turned the Longbow on corner {corner} {aim}"),
    Pass: N_("{name} is done for the Day"),
    Nightfall: N_("The Day is over"),
    Decipher: N_("{scroll} was deciphered"),
    Roll: N_("The Obelisk on corner {corner} rolled {n}"),
    Capture: N_("{demon} was captured on {cell} by the Obelisk on corner {corner}"),
    March: N_("The demons on the map moved"),
    Spawn: N_("Out of the Dark Realm: {n} demons"),
    Dawn: N_("Dawn: the captured demons turn to stone"),
    Timeout: N_("The minute ran out"),
}


def move_line(before, action, after) -> Message:
    """The log line of `action`, played in state `before` and leading to state `after` (how the game ended, when it
    did)."""
    if after.is_over and not before.is_over:
        end = ending_line(after)
        return Message(ENDING[end.key], end.params)
    params: dict = {}
    player = getattr(action, "player", None)
    if player is not None:
        params["name"] = before.setup.name_of(player)
    corner = getattr(action, "obelisk", None) or getattr(action, "corner", None)
    if corner is not None:
        params["corner"] = words.corner(corner)
        o = after.obelisk_at(corner)
        params["n"] = o.strength if o is not None else 0
    if isinstance(action, Rotate):
        params["tiles"] = ", ".join(f"{words.cell(c)} {ARROW[f]}" for c, f in action.tiles)
    elif isinstance(action, (Charge, Decipher)):
        params["scroll"] = words.scroll(action.scroll)
    elif isinstance(action, Aim):
        params["aim"] = ARROW[action.aim]
    elif isinstance(action, Roll):
        params["n"] = action.roll
    elif isinstance(action, Capture):
        taken = next(c for c in after.obelisk_at(action.obelisk).captured if c.demon == action.demon)
        params.update(demon=words.demon(taken.colour), cell=words.cell(taken.cell))
    elif isinstance(action, Spawn):
        params["n"] = len(action.demons)
    return Message(LINES[type(action)], params)


# The game's end as a log line (the outcome's lines say it for the end screen, ending.LINES).
ENDING = {
    "won": N_("The group wins: all {n} Stone Demons are captured"),
    "lost.off-map": N_("The game is lost: {demon} walked off the map from {cell}"),
    "lost.empty": N_("The game is lost: {demon} walked from {cell} into the empty space at {target}"),
    "lost.mountain": N_("The game is lost: {demon} walked from {cell} into the Mountain at {target}"),
    "lost.loop": N_("The game is lost: {demon} stepped on {target} a second time, a loop"),
}
