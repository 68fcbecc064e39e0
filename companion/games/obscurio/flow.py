"""Which handler takes an action, and what is legal in each phase of the turn (state.py draws the diagram)."""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obscurio import accusation, doors, ending, turn
from companion.games.obscurio import words
from companion.games.obscurio.actions import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Look, Loyalty, Open, Riddle, Sand, Unmask, Votes,
)


def _sand(s, a: Sand):
    """The hourglass ran out: in step 4 it moves on the time track, in the accusation it ends the talk."""
    if s.phase == "doors":
        return doors.sand_in_doors(s, a)
    if s.phase == "discussion":
        return accusation.sand_in_discussion(s, a)
    raise IllegalAction.of("No hourglass is running now", "RULING obscurio-hourglass")


def _look(s, a: Look):
    """A note: a wizard looked at the loyalty card the app dealt them. Nothing in the game changes."""
    if s.setup.loyalty != "app":
        raise IllegalAction.of("The app did not deal the loyalty cards: look at your own card", "Setup")
    if a.chip not in s.setup.wizards:
        raise IllegalAction.of("Nobody at this table plays the {chip} chip", "Setup", chip=words.chip(a.chip))
    return s


def _not_over(handler):
    def checked(s, a):
        if s.phase in ("over", "unmask") and not isinstance(a, Unmask):
            raise IllegalAction.of("The game is over", ending.END)
        return handler(s, a)
    return checked


HANDLERS = {cls: _not_over(fn) for cls, fn in {
    Draw: turn.draw, Riddle: turn.riddle, Decoys: turn.decoys, Chip: doors.chip, Open: doors.open_door,
    Sand: _sand, Done: doors.done, Exit: doors.reveal_exit, Votes: accusation.votes, Loyalty: accusation.loyalty,
    EndTurn: turn.end_turn, Unmask: ending.unmask, Look: _look,
}.items()}


# legal_types / legal_actions list the game's moves. Two things are accepted besides, and never listed: a Look (a
# note, in any phase until the end, with app-dealt loyalty) and Decoys(None) (step 3 over, the count not told).


def legal_types(s) -> set[str]:
    phase = s.phase
    if phase == "doors":
        out = {"sand"}
        if _chip_moves(s):
            out.add("chip")
        if s.locked and s.opened < s.n_doors:
            out.add("open")
        if s.is_legal(Done()):
            out.add("done")
        return out
    return set(_SINGLE.get(phase, ()))


_SINGLE = {"traps": ("draw",), "riddle": ("riddle",), "traitor": ("decoys",), "exit": ("exit",),
           "discussion": ("sand",), "vote": ("votes",), "loyalty": ("loyalty",), "end": ("end",),
           "unmask": ("traitor",)}


def legal_actions(s) -> list:
    phase = s.phase
    if phase == "traps":
        return [Draw(turn.the_apps_draw(s))] if s.setup.bag == "app" else []
    if phase == "riddle":
        return [Riddle()]
    if phase == "traitor":
        return [Decoys(n) for n in range(s.max_decoys + 1)]
    if phase == "doors":
        out = _chip_moves(s)
        if "open" in legal_types(s):
            out.append(Open())
        out.append(Sand())
        if s.is_legal(Done()):
            out.append(Done())
        return out
    if phase == "exit":
        return [Exit(d) for d in range(1, s.n_doors + 1)]
    if phase == "discussion":
        return [Sand()]
    if phase == "loyalty":
        return [Loyalty(c) for c in s.accused if c not in s.cleared] + [Loyalty(None)]
    if phase == "end":
        return [EndTurn()]
    if phase == "unmask":
        return [Unmask(c) for c in s.setup.wizards if c not in s.cleared]
    return []  # "vote": every combination of votes is too many to list; "over"


def _chip_moves(s) -> list:
    out = []
    for c in s.chips:
        now = s.door_of(c)
        if s.locked:
            if now is None:
                out.append(Chip(c, s.opened))
            continue
        out.extend(Chip(c, d) for d in range(1, s.n_doors + 1) if d != now)
        if now is not None:
            out.append(Chip(c, None))
    return out
