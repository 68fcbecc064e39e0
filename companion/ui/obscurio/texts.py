"""Obscurio in the players' words: step titles, Undo/Redo's short names, what a turn cost, an accusation's result.

Pure functions of engine states and actions; `t` translates a msgid (the app's `t`), `lang` is the language the
engine's sentences are told in (the move log is the engine's: companion/games/obscurio/movelog.py). Wizards are named by their
player name (the chip's colour shows on screen); nothing here ever names a Traitor the table has not seen, and the
Traitor's card count, when the Grimoire entered it, stays hidden until the game is over.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obscurio import movelog
from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Look, Loyalty, Open, Riddle, Sand, Unmask, Votes,
)
from companion.games.obscurio.vocabulary import ENDING
from companion.i18n.messages import translate_message

STEP_TITLE = {
    "traps": N_("Step 1: draw the traps"), "riddle": N_("Step 2: the Grimoire's riddle"),
    "traitor": N_("Step 3: the Traitor's cards"), "doors": N_("Step 4: choose the door"),
    "exit": N_("Step 4: the Exit"), "end": N_("Step 5: end of the turn"),
}
SIDE_TITLE = {"wizards": N_("The wizards escape!"), "traitor": N_("The Traitor wins!"),
              "nobody": N_("Lost in the Library: nobody wins")}
# A step-4 tap before the glass was turned: what comes first.
FIRST_CARD_FIRST = N_("Turn the glass first: tap “First card down” once the first card is on the board")
# The escape's sentence with the right number word (the engine's English says "token(s)").
ESCAPE_ONE = N_("The wizards moved the progress marker past the last space with 1 cohesion token left: they escape "
                "the Library, and the loyal wizards and the Grimoire win.")
ESCAPE_MANY = N_("The wizards moved the progress marker past the last space with {left} cohesion tokens left: they "
                 "escape the Library, and the loyal wizards and the Grimoire win.")


def chip_name(setup, chip: str, lang: str) -> str:
    """The player behind a chip; the 2-player companion chip is "<name>'s companion"."""
    return translate_message(movelog.chip_holder(setup, chip), lang)


def move(before, action, after, lang: str) -> str:
    """One line of the move log in `lang`: what `action` did to `before` (giving `after`)."""
    return translate_message(movelog.move_line(before, action, after), lang)


def exit_headline(state, lang: str) -> str:
    """After the Exit is revealed: did the group move on ("" before)."""
    result = movelog.exit_result(state)
    return translate_message(result, lang) if result is not None else ""


def title(state, t) -> str:
    """The top bar's title: the turn and the step (it wraps onto two lines rather than being cut)."""
    if state.phase in ("discussion", "vote", "loyalty"):
        return t(N_("Turn {turn} · Accusation, round {n}")).format(turn=state.turn, n=state.accusation)
    if state.phase in ("unmask", "over"):
        return t(N_("End of the game"))
    return t(N_("Turn {turn} · {step}")).format(turn=state.turn, step=t(STEP_TITLE[state.phase]))


def short_move(before, action, after, t, lang: str) -> str:
    """The move in a few words, for Undo and Redo (the log has the whole sentence)."""
    setup = before.setup
    if isinstance(action, Chip):
        return move(before, action, after, lang)
    if isinstance(action, Draw):
        return t(N_("the traps drawn"))
    if isinstance(action, Riddle):
        return t(N_("the riddle is ready"))
    if isinstance(action, Decoys):
        return t(N_("the card holder closed"))
    if isinstance(action, Look):
        return t(N_("{name} looked")).format(name=setup.name_of(action.chip))
    if isinstance(action, Open):
        return t(N_("door {door} revealed")).format(door=after.opened)
    if isinstance(action, Sand):
        return t(N_("the sand ran out"))
    if isinstance(action, Done):
        return t(N_("all agreed"))
    if isinstance(action, Exit):
        return t(N_("the Exit: door {door}")).format(door=action.door)
    if isinstance(action, Votes):
        return t(N_("the vote"))
    if isinstance(action, Loyalty):
        return t(N_("the cards shown"))
    if isinstance(action, EndTurn):
        return t(N_("the next turn"))
    if isinstance(action, Unmask):
        return t(N_("the Traitor revealed"))
    return action.to_text()


def exit_costs(state, t, lang: str) -> list[tuple[str | None, str]]:
    """What the reveal cost: (chip, words) for each chip that paid, in the order the tokens were taken, then
    (None, words) for the box."""
    last = state.last
    if last is None:
        return []
    lines = []
    for chip, n in last.charged:
        if not n:
            continue
        who = chip_name(state.setup, chip, lang)
        if chip in last.unplaced:
            lines.append((chip, t(N_("{name}: −{n} (no door)")).format(name=who, n=n)))
        else:
            lines.append((chip, t(N_("{name}: −{n}")).format(name=who, n=n)))
    if last.dangerous:
        lines.append((None, t(N_("Dangerous Room: −{n} to the box")).format(n=last.dangerous)))
    return lines


def accusation_costs(moves, t, lang: str) -> list[tuple[str | None, str]]:
    """Every accusation round among `moves` ((before, action, after), this turn's): who was accused and what their
    card cost, as the table saw it."""
    lines = []
    for before, action, after in moves:
        if isinstance(action, Votes) and not after.accused:
            lines.append((None, translate_message(movelog.votes_line(before, after), lang)))
            continue
        if not _revealed(before, action, after):
            continue
        setup = after.setup
        lost = before.cohesion_left - after.cohesion_left
        found = after.traitor if after.exposed and not before.exposed else None
        for chip in after.accused:
            if chip == found:
                lines.append((chip, t(N_("{name}: accused, the Traitor!")).format(name=setup.name_of(chip))))
            else:
                n = min(2, lost)
                lost -= n
                lines.append((chip, t(N_("{name}: accused, Loyal: −{n} to the box")).format(
                    name=setup.name_of(chip), n=n)))
    return lines


def _revealed(before, action, after) -> bool:
    """Did this move show the accused's loyalty cards (the real ones tapped in, or the app's own)?"""
    if isinstance(action, Loyalty):
        return True
    return isinstance(action, Votes) and bool(after.accused) and after.setup.loyalty == "app"


def turn_lines(moves, state, t, lang: str) -> list[tuple[str | None, str]]:
    """This turn's result: what the Exit cost, each accusation round, then the total of every token the turn took
    (wrong doors, the Dangerous Room, false accusations) and the next turn's extra traps."""
    lines = exit_costs(state, t, lang) + accusation_costs(moves, t, lang)
    start = moves[0][0] if moves else state
    lost = start.cohesion_left - state.cohesion_left
    lines.append((None, t(N_("Cohesion tokens lost this turn: {n}")).format(n=lost)))
    if state.next_bonus:
        lines.append((None, t(N_("Extra trap tokens next turn (time track): {n}")).format(n=state.next_bonus)))
    return lines


def accusation_result(state, t, lang: str) -> str:
    """The last accusation round's result, as everyone at the table saw it (accused and their cards)."""
    setup = state.setup
    if not state.votes:
        return ""
    if not state.accused:
        return translate_message(movelog.votes_line(state, state), lang)
    parts = []
    for c in state.accused:
        if state.exposed and c == state.traitor:
            parts.append(t(N_("{name}: the Traitor!")).format(name=setup.name_of(c)))
        else:
            parts.append(t(N_("{name}: Loyal, −2 to the box")).format(name=setup.name_of(c)))
    return t(N_("Accused: {list}")).format(list="; ".join(parts))


def hidden_counts(moves, t) -> list[str]:
    """At the end: the Traitor's card counts the Grimoire entered in secret, turn by turn."""
    out = []
    for before, action, _ in moves:
        if isinstance(action, Decoys) and action.cards is not None:
            msgid = N_("Turn {turn}: the Traitor picked 1 card") if action.cards == 1 \
                else N_("Turn {turn}: the Traitor picked {n} cards")
            out.append(t(msgid).format(turn=before.turn, n=action.cards))
    return out


def ending(state, t) -> tuple[str, str]:
    """(headline, why) of a finished game."""
    left = state.cohesion_left
    if state.side == "wizards":
        why = t(ESCAPE_ONE) if left == 1 else t(ESCAPE_MANY).format(left=left)
    else:
        why = t(ENDING[state.side]).format(left=left)
    return t(SIDE_TITLE[state.side]), why
