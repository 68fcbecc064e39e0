"""Obelisk's smart dice (issue 18 §4): an Obelisk *is* a die, its top face its strength. A smart die (GoDice,
Pixels) standing on a corner of the map is bound to that corner — role "obelisk", index row × 6 + column on the 6 × 6
corner grid — and when it is set down or turned by hand its face proposes a move: 1 on a free corner is a Build
there, one more than the Obelisk's strength is a Reinforce. Only proposals: the players pick the one they mean (who
builds, what they pay) or ignore it (table rule 8: sensors propose, people confirm). Pure, like the engine.
"""
from __future__ import annotations

from typing import Mapping

from companion.games.errors import N_, IllegalAction, Message, Terms
from companion.games.obelisk import payments, words
from companion.games.obelisk.actions import Build, Reinforce
from companion.games.obelisk.model import CORNERS, Corner

ROLE = "obelisk"
ROLES = {ROLE: CORNERS * CORNERS}
RULE = "Action: Reinforce Any Obelisk"

NIGHT = N_("Nobody may touch the Obelisks at Night: turn the die on corner {corner} back to {n}")
NIGHT_FREE = N_("Nobody may build at Night: take the die off corner {corner}")
OVER = N_("The game is over: the die on corner {corner} changes nothing")
NOT_ONE = N_("A new Obelisk stands on 1: the die on corner {corner} shows {face}")
NOT_NEXT = N_("The die on corner {corner} shows {face}, the Obelisk stands at {n}: a Reinforce raises it by one")
NO_ONE = N_("The die on corner {corner} shows {face}, but nobody can do that now")
SAYS = N_("The die on corner {corner} shows {face}: who did it?")
BUILDS = N_("{name} builds an Obelisk on corner {corner}")
PAYS_STONES = N_("{name} reinforces the Obelisk on corner {corner} to {n}, paying {stones}")
PAYS_DIE = N_("{name} reinforces the Obelisk on corner {corner} to {n}, sacrificing an unplaced Obelisk")


def index_of(corner: Corner) -> int:
    return corner[0] * CORNERS + corner[1]


def corner_of(index: int) -> Corner:
    return divmod(index, CORNERS)


def proposals(state, faces: Mapping[int, int]) -> tuple:
    """The moves the dice set down on their corners propose now (`faces`: corner index → pips), every one the engine
    accepts: each acting player's Build, or each acting player's Reinforce with each payment the picker would offer.
    () when every die shows what its corner already holds (a die picked up and put back); IllegalAction (a sentence
    for the players) when a die shows something no move makes now."""
    out = []
    for index, face in sorted(faces.items()):
        corner = corner_of(index)
        name = words.corner(corner)
        o = state.obelisk_at(corner)
        if o is not None and face == o.strength:
            continue                                     # as it stood: nothing happened here
        if state.is_over:
            raise IllegalAction.of(OVER, corner=name)
        if state.is_night or state.phase != "day":
            if o is None:
                raise IllegalAction.of(NIGHT_FREE, "Night", corner=name)
            raise IllegalAction.of(NIGHT, "Night", corner=name, n=o.strength)
        if o is None:
            if face != 1:
                raise IllegalAction.of(NOT_ONE, "Action: Build an Obelisk", corner=name, face=face)
            found = [Build(c, corner) for c in state.acting]
        else:
            if face != o.strength + 1:
                raise IllegalAction.of(NOT_NEXT, RULE, corner=name, face=face, n=o.strength)
            found = [Reinforce(c, corner, p) for c in state.acting for p in payments.sensible(state, c)]
        found = [a for a in found if state.is_legal(a)]
        if not found:
            raise IllegalAction.of(NO_ONE, RULE, corner=name, face=face)
        out += found
    return tuple(out)


def question(state, faces: Mapping[int, int]) -> Message:
    """What the table is asked when the dice propose something: which of the proposals happened."""
    index, face = next((i, f) for i, f in sorted(faces.items())
                       if (o := state.obelisk_at(corner_of(i))) is None or o.strength != f)
    return Message(SAYS, {"corner": words.corner(corner_of(index)), "face": face})


def proposal_words(state, action) -> Message | None:
    """A proposal in the players' words: "Anna builds an Obelisk on corner C3", "Ben reinforces … paying blue,
    blue"."""
    if isinstance(action, Build):
        return Message(BUILDS, {"name": state.setup.name_of(action.player), "corner": words.corner(action.corner)})
    if isinstance(action, Reinforce):
        o = state.obelisk_at(action.obelisk)
        params = {"name": state.setup.name_of(action.player), "corner": words.corner(action.obelisk),
                  "n": (o.strength if o is not None else 0) + 1}
        if action.pay.die:
            return Message(PAYS_DIE, params)
        stones = Terms(words.colour(c) for c in ("green", "yellow", "blue") for _ in range(action.pay.stones[c]))
        return Message(PAYS_STONES, {**params, "stones": stones})
    return None
