"""Obscurio in the players' words: step titles, the move log, what an Exit reveal cost, an accusation's result.

Pure functions of engine states and actions; `t` translates a msgid (the app's `t`). Wizards are named by their
player name (the chip's colour shows on screen); nothing here ever names a Traitor the table has not seen.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Sand, Unmask, Votes,
)
from companion.games.obscurio.constants import ROOMS
from companion.games.obscurio.vocabulary import ENDING, TRAP

STEP_TITLE = {
    "traps": N_("Step 1: draw the traps"), "riddle": N_("Step 2: the Grimoire's riddle"),
    "traitor": N_("Step 3: the Traitor's cards"), "doors": N_("Step 4: choose the door"),
    "exit": N_("Step 4: the Exit"), "end": N_("Step 5: end of the turn"),
}
SIDE_TITLE = {"wizards": N_("The wizards escape!"), "traitor": N_("The Traitor wins!"),
              "nobody": N_("Lost in the Library: nobody wins")}


def chip_name(setup, chip: str, t) -> str:
    """The player behind a chip; the 2-player companion chip is "<name>'s companion"."""
    if chip == setup.companion:
        return t(N_("{name}'s companion")).format(name=setup.name_of(chip))
    return setup.name_of(chip)


def title(state, t) -> str:
    if state.phase in ("discussion", "vote", "loyalty"):
        return t(N_("Turn {turn} · Accusation, round {n}")).format(turn=state.turn, n=state.accusation)
    if state.phase in ("unmask", "over"):
        return t(N_("End of the game"))
    return t(N_("Turn {turn} · {step}")).format(turn=state.turn, step=t(STEP_TITLE[state.phase]))


def trap_names(traps, t) -> str:
    return ", ".join(t(TRAP[x]) for x in traps)


def move(before, action, after, t) -> str:
    """One line of the move log: what `action` did to `before` (giving `after`)."""
    setup = before.setup
    if isinstance(action, Draw):
        return t(N_("Traps drawn: {traps}")).format(traps=trap_names(action.traps, t))
    if isinstance(action, Riddle):
        return t(N_("The Grimoire's riddle is ready"))
    if isinstance(action, Decoys):
        return t(N_("The Traitor picked cards: {n}")).format(n=action.cards)
    if isinstance(action, Chip):
        who = chip_name(setup, action.chip, t)
        if action.door is None:
            return t(N_("{name}: chip back to the centre")).format(name=who)
        return t(N_("{name}: door {door}")).format(name=who, door=action.door)
    if isinstance(action, Open):
        return t(N_("Door {door} is revealed")).format(door=after.opened)
    if isinstance(action, Sand):
        if before.phase == "discussion":
            return t(N_("The accusation's minute is over: vote"))
        if after.stopped:
            return t(N_("Stop! The sand ran out on the last space"))
        return t(N_("The sand ran out: the hourglass moves to space {space} of {spaces}")).format(
            space=after.space + 1, spaces=len(after.track))
    if isinstance(action, Done):
        return t(N_("All agreed: step 4 is over"))
    if isinstance(action, Exit):
        return t(N_("The Exit is door {door}: {result}")).format(door=action.door, result=exit_headline(after, t))
    if isinstance(action, Votes):
        return votes_line(before, action, after, t)
    if isinstance(action, Loyalty):
        if action.traitor is None:
            return t(N_("Every accused wizard showed a Loyal card"))
        return t(N_("{name} showed the Traitor card")).format(name=setup.name_of(action.traitor))
    if isinstance(action, EndTurn):
        return t(N_("Turn {turn} is over")).format(turn=before.turn)
    if isinstance(action, Unmask):
        return t(N_("The Traitor was {name}")).format(name=setup.name_of(action.traitor))
    return action.to_text()


def votes_line(before, action, after, t) -> str:
    setup = before.setup
    if not after.accused:
        return t(N_("Everyone abstained: nobody is accused"))
    names = ", ".join(setup.name_of(c) for c in after.accused)
    return t(N_("Vote: {names} accused")).format(names=names)


def exit_headline(state, t) -> str:
    """After the Exit is revealed: did the group move on (state.last is this turn's Resolution)."""
    last = state.last
    if last is None:
        return ""
    if state.phase in ("unmask", "over") and state.side == "wizards":
        return t(N_("the wizards escape the Library!"))
    if last.advanced:
        return t(N_("someone found it, the group moves on ({n} of {rooms} rooms)")).format(n=state.progress,
                                                                                          rooms=ROOMS)
    return t(N_("nobody found it, the group stays"))


def exit_costs(state, t) -> list[tuple[str | None, str]]:
    """What the reveal cost: (chip, words) for each chip that paid, in the order the tokens were taken, then
    (None, words) for the box."""
    last = state.last
    if last is None:
        return []
    lines = []
    for chip, n in last.charged:
        if not n:
            continue
        who = chip_name(state.setup, chip, t)
        if chip in last.unplaced:
            lines.append((chip, t(N_("{name}: −{n} (no door)")).format(name=who, n=n)))
        else:
            lines.append((chip, t(N_("{name}: −{n}")).format(name=who, n=n)))
    if last.dangerous:
        lines.append((None, t(N_("Dangerous Room: −{n} to the box")).format(n=last.dangerous)))
    return lines


def exit_lost(state) -> int:
    last = state.last
    return 0 if last is None else sum(n for _, n in last.charged) + last.dangerous


def accusation_result(state, t) -> str:
    """The last accusation round's result, as everyone at the table saw it (accused and their cards)."""
    setup = state.setup
    if not state.votes:
        return ""
    if not state.accused:
        return t(N_("Everyone abstained: nobody is accused"))
    parts = []
    for c in state.accused:
        if state.exposed and c == state.traitor:
            parts.append(t(N_("{name}: the Traitor!")).format(name=setup.name_of(c)))
        else:
            parts.append(t(N_("{name}: Loyal, −2 to the box")).format(name=setup.name_of(c)))
    return t(N_("Accused: {list}")).format(list="; ".join(parts))


def ending(state, t) -> tuple[str, str]:
    """(headline, why) of a finished game."""
    return t(SIDE_TITLE[state.side]), t(ENDING[state.side]).format(left=state.cohesion_left)
