"""Which handler takes an action (state.py draws the turn's diagram; legal.py lists what is legal in each phase)."""
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
