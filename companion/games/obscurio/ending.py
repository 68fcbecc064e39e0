"""The end of the game: who won, revealing a Traitor the app never knew, and the contract's Outcome.

Winners are ids as actions name them: the characters of the winning wizards and "grimoire" (setup.py).
  - "wizards": the loyal wizards and the Grimoire (rulebook "Fin del juego": escape with ≥1 cohesion token);
  - "traitor": the Traitor alone (the last token taken from the dark area);
  - "nobody": 2-3 players, the cohesion ran out (RULING obscurio-2-3-loss).
"""
from __future__ import annotations

from companion.games.contract import Outcome, OutcomeLine, PlayerResult
from companion.games.errors import IllegalAction
from companion.games.obscurio import words
from companion.games.obscurio.actions import Unmask
from companion.games.obscurio.constants import GRIMOIRE, ROOMS

END = "End of the game"

WHY = {
    "wizards": "The wizards moved the progress marker past the last space with {left} cohesion token(s) left: "
               "they escape the Library, and the loyal wizards and the Grimoire win.",
    "traitor": "The last cohesion token was taken from the dark area: the wizards are lost in the Library "
               "and the Traitor wins alone.",
    "nobody": "The last cohesion token was taken: the wizards are lost in the Library. With 2 or 3 players there "
              "is no Traitor, so nobody wins.",
}


def finish(s, side: str):
    """The game ends now. With loyalty cards the app never saw, the Traitor is revealed first ("unmask")."""
    unknown = s.setup.has_traitor and s.traitor is None
    return s._with(phase="unmask" if unknown else "over", side=side)


def unmask(s, a: Unmask):
    if s.phase != "unmask":
        if s.phase == "over":
            raise IllegalAction.of("The Traitor is already known", END)
        raise IllegalAction.of("The Traitor reveals their loyalty card when the game is over", END)
    if a.traitor not in s.setup.wizards:
        raise IllegalAction.of("Nobody at this table plays the {chip} chip", END, chip=words.chip(a.traitor))
    if a.traitor in s.cleared:
        raise IllegalAction.of("{name} ({chip}) showed a Loyal card when accused", "RULING obscurio-accusation",
                               name=s.setup.name_of(a.traitor), chip=words.chip(a.traitor))
    return s._with(phase="over", traitor=a.traitor)


def winners(s) -> tuple[str, ...]:
    if s.side == "wizards":
        return tuple(role for _, role in s.setup.players if role != s.traitor)
    if s.side == "traitor":
        return (s.traitor,)
    return ()


def why(s) -> str:
    return WHY[s.side].format(left=s.cohesion_left)


def role_of(s, role: str) -> str:
    if role == GRIMOIRE:
        return "grimoire"
    if not s.setup.has_traitor:
        return "wizard"
    return "traitor" if role == s.traitor else "loyal"


def outcome(s) -> Outcome | None:
    if s.phase != "over":
        return None
    win = set(winners(s))
    players = []
    for name, role in s.setup.players:
        players.append(PlayerResult(name=name, total=None, lines=tuple(_lines(s, role, role in win)),
                                    extra={"id": role, "role": role_of(s, role)}))
    return Outcome(players=tuple(players), winners=winners(s), detail={"side": s.side, "why": why(s)})


def _lines(s, role: str, won: bool):
    kind = role_of(s, role)
    result = "wins" if won else "loses"
    yield OutcomeLine(f"{_ROLE_TEXT[kind]} {result}", None, f"{kind}-{result}", {})
    if role == GRIMOIRE:
        yield OutcomeLine(f"Rooms crossed: {s.progress} of {ROOMS}", None, "rooms",
                          {"rooms": s.progress, "of": ROOMS})
        return
    chips = (role,) + ((s.setup.companion,) if s.setup.companion else ())
    for chip in chips:
        n = s.tokens_on(chip)
        label = "Companion chip" if chip == s.setup.companion else "Wrong or missing doors"
        yield OutcomeLine(f"{label}: {n} cohesion token(s) on the {chip} card", None, "tokens",
                          {"chip": chip, "tokens": n})
    if role in s.cleared:
        yield OutcomeLine("Accused, showed a Loyal card", None, "cleared", {})
    if role == s.traitor and s.exposed:
        yield OutcomeLine("Exposed by an accusation", None, "exposed", {})


_ROLE_TEXT = {"grimoire": "The Grimoire", "wizard": "Wizard", "loyal": "Loyal wizard", "traitor": "The Traitor"}
