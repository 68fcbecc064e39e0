"""Which handler takes an action (state.py draws the Day and Night they move through)."""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obelisk import day, night, scrolls
from companion.games.obelisk.actions import (
    Aim, Build, Capture, Charge, Dawn, Decipher, March, Mine, Nightfall, Pass, Reinforce, Reroll, Roll, Rotate, Spawn,
    Timeout,
)

END = "End Game Conditions"

HANDLERS = {
    Build: day.build, Reinforce: day.reinforce, Mine: day.mine, Rotate: day.rotate, Reroll: day.reroll, Aim: day.aim,
    Pass: day.pass_, Nightfall: day.nightfall, Charge: scrolls.charge, Decipher: scrolls.decipher, Roll: night.roll,
    Capture: night.capture, March: night.march, Spawn: night.spawn, Dawn: night.dawn, Timeout: night.timeout,
}


def dispatch(s, action):
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction.of("That is not an Obelisk action", "Obelisk")
    if s.is_over:
        raise IllegalAction.of("The game is over", END)
    return handler(s, action)
