"""Small values shared by the engine's modules; imports nothing from the package.

The state (state.py), the handlers (flow.py and the step modules), what is legal (legal.py) and the JSON (persist.py)
all build on these, so none of them needs another to know what a phase or a resolution is.
"""
from __future__ import annotations

from dataclasses import dataclass

PHASES = ("traps", "riddle", "traitor", "doors", "exit", "discussion", "vote", "loyalty", "end", "unmask", "over")
STEP = {"traps": 1, "riddle": 2, "traitor": 3, "doors": 4, "exit": 4, "discussion": 4, "vote": 4, "loyalty": 4,
        "end": 5}
ACCUSATION_PHASES = ("discussion", "vote", "loyalty")
SIDES = ("wizards", "traitor", "nobody")


GLASS = "hourglass"  # the one timer of the game (contract GameTimer.name): step 4's glasses and the accusation's


@dataclass(frozen=True)
class Resolution:
    """How this turn's doors resolved (step 4), for the screen and the log."""
    exit: int
    advanced: bool                          # at least one chip was on the Exit
    charged: tuple[tuple[str, int], ...]    # (chip, tokens put on its character card), wrong or unplaced chips
    unplaced: tuple[str, ...]               # chips that were in front of no door
    dangerous: int = 0                      # tokens the Dangerous Room sent to the box
