"""The traitor's step (step 3), as the app narrates it: what is said, to whom, and how long the table gets to do it.

Like a night in One Night Ultimate Werewolf: the wizards close their eyes, the Traitor opens theirs and picks up to
2 cards of the card holder (4 under Dark Magic; shown the Exit card first under Espionage), everyone opens their
eyes. The script never names the Traitor and never depends on who it is: the same words are spoken whoever it is
(the app may not even know). Once the Traitor is exposed nobody needs to close their eyes (RULING
obscurio-accusation: they still take part in step 3).

    script(state) -> tuple[Line, ...]     # () when there is no step 3 (2-3 players)

Each line is an English template (a msgid of the `rules` catalogue) with its params and the seconds to wait after
it; the session's narrator speaks or shows each one in turn (companion/session/narrator.py). The Traitor chooses at
their own pace: that line `wait`s for the Grimoire's tap (the card holder closed), with a countdown only when the
group set one at setup (`Setup.countdown`). The Grimoire tells the app how many cards the Traitor picked only when a
trap's limit needs checking (`count_needed`: Dark Magic's 4), and then while the wizards' eyes are closed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from companion.games.errors import N_

@dataclass(frozen=True)
class Line:
    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    seconds: float | None = 3.0  # the pause after it; on a waiting line the countdown (None: none)
    chime: bool = False          # a soft chime with it: the moments everyone must notice (eyes closed / open)
    wait: bool = False           # the narration stops here until the Grimoire taps (the Traitor's choice)

    @property
    def text(self) -> str:
        return self.template.format(**self.params)


def script(state) -> tuple[Line, ...]:
    """The narration of step 3 for `state` (any phase of the turn: the traps decide the words)."""
    if not state.setup.has_traitor:
        return ()
    n = state.max_decoys
    lines = []
    if not state.exposed:
        lines += [Line(N_("Wizards, close your eyes."), seconds=4, chime=True),
                  Line(N_("Traitor, open your eyes."), seconds=3)]
    if state.traitor_sees_exit:
        lines.append(Line(N_("Espionage: Grimoire, show the Traitor the Exit card."), seconds=6))
    lines += [
        Line(N_("Grimoire, open the card holder and show it to the Traitor."), seconds=3),
        Line(N_("Grimoire, lay each chosen card face down on the Exit card and draw a new card into its place."),
             seconds=5),
        Line(N_("Traitor, you may choose up to {n} cards: show each number with your fingers, or nod to choose "
                "none."), {"n": n}, seconds=state.setup.countdown or None, wait=True),
        Line(N_("Grimoire, close the card holder."), seconds=2),
    ]
    if not state.exposed:
        lines += [Line(N_("Traitor, close your eyes."), seconds=3),
                  Line(N_("Everyone, open your eyes."), seconds=3, chime=True)]
    return tuple(lines)


def count_needed(state) -> bool:
    """Does the app need to know how many cards the Traitor picked? Only when a trap changes the limit to check
    (Dark Magic: up to 4); the Grimoire then enters it hidden. Otherwise nobody is asked: only the Grimoire and the
    Traitor know it."""
    return "dark_magic" in state.effects


def choice_line(lines) -> int | None:
    """Where the Traitor's choice is in a script (the line that waits), or None."""
    return next((i for i, line in enumerate(lines) if line.wait), None)
