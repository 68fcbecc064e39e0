"""The move log: what a move did, in the players' words: (state before, action, state after) -> a Message, one line.

Like a refusal, a line is an English template of the `rules` catalogue with its params (players' names as they are,
traps as Terms), translated by companion.i18n.messages.translate_message. A piece that is a sentence of its own (the
companion chip's holder, the Exit's result) is a Message inside the params, translated on its own.

Only what the table sees is told: how many cards the Traitor picked stays hidden until the game is over (the end
screen reads it from the moves), and a Traitor is named only once the table has seen the card.
"""
from __future__ import annotations

from companion.games.errors import N_, Message
from companion.games.obscurio import words
from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Look, Loyalty, Open, Riddle, Sand, Unmask, Votes,
)
from companion.games.obscurio.constants import ROOMS

COMPANION = N_("{name}'s companion")
NOBODY_ACCUSED = N_("Everyone abstained: nobody is accused")

# Moves whose line is always the same sentence.
FIXED = {
    Riddle: N_("The Grimoire's riddle is ready"),
    Done: N_("All agreed: step 4 is over"),
}


def chip_holder(setup, chip: str) -> str | Message:
    """The player behind a chip (their name); the 2-player companion chip is "<name>'s companion"."""
    if chip == setup.companion:
        return Message(COMPANION, {"name": setup.name_of(chip)})
    return setup.name_of(chip)


def exit_result(state) -> Message | None:
    """After the Exit is revealed: did the group move on (state.last is this turn's Resolution). None before."""
    last = state.last
    if last is None:
        return None
    if state.phase in ("unmask", "over") and state.side == "wizards":
        return Message(N_("the wizards escape the Library!"))
    if last.advanced:
        return Message(N_("someone found it, the group moves on ({n} of {rooms} rooms)"),
                       {"n": state.progress, "rooms": ROOMS})
    return Message(N_("nobody found it, the group stays"))


def votes_line(before, after) -> Message:
    """The vote's result: who the table accused, or nobody."""
    if not after.accused:
        return Message(NOBODY_ACCUSED)
    return Message(N_("Vote: {names} accused"), {"names": ", ".join(before.setup.name_of(c) for c in after.accused)})


def move_line(before, action, after) -> Message:
    """The log line of `action`, played in state `before` and leading to state `after`."""
    setup = before.setup
    if type(action) in FIXED:
        return Message(FIXED[type(action)])
    if isinstance(action, Draw):
        return Message(N_("Traps drawn: {traps}"), {"traps": words.traps(action.traps)})
    if isinstance(action, Decoys):
        # Only the Grimoire and the Traitor know how many cards the Traitor picked: never on the shared screen.
        if action.cards is None:
            return Message(N_("The Grimoire closed the card holder"))
        return Message(N_("The Grimoire closed the card holder (the Traitor's cards: entered, hidden until the end)"))
    if isinstance(action, Look):
        return Message(N_("{name} looked at their loyalty card"), {"name": setup.name_of(action.chip)})
    if isinstance(action, Chip):
        who = chip_holder(setup, action.chip)
        if action.door is None:
            return Message(N_("{name}: chip back to the centre"), {"name": who})
        return Message(N_("{name}: door {door}"), {"name": who, "door": action.door})
    if isinstance(action, Open):
        return Message(N_("Door {door} is revealed"), {"door": after.opened})
    if isinstance(action, Sand):
        if before.phase == "discussion":
            return Message(N_("The accusation's minute is over: vote"))
        if after.stopped:
            return Message(N_("Stop! The sand ran out on the last space"))
        return Message(N_("The sand ran out: the hourglass moves to space {space} of {spaces}"),
                       {"space": after.space + 1, "spaces": len(after.track)})
    if isinstance(action, Exit):
        return Message(N_("The Exit is door {door}: {result}"),
                       {"door": action.door, "result": exit_result(after) or ""})
    if isinstance(action, Votes):
        return votes_line(before, after)
    if isinstance(action, Loyalty):
        if action.traitor is None:
            return Message(N_("Every accused wizard showed a Loyal card"))
        return Message(N_("{name} showed the Traitor card"), {"name": setup.name_of(action.traitor)})
    if isinstance(action, EndTurn):
        return Message(N_("Turn {turn} is over"), {"turn": before.turn})
    if isinstance(action, Unmask):
        return Message(N_("The Traitor was {name}"), {"name": setup.name_of(action.traitor)})
    return Message("{text}", {"text": action.to_text()})
