"""The Accusation Phase (rulebook "Hacer una acusación", RULING obscurio-accusation).

One minute of talk (the hourglass: `Sand` ends it), then every wizard votes at once (`Votes`: a target or an
abstention each, never the Grimoire); the most votes are accused, ties accuse all tied. The accused show their
loyalty cards: the group tells the engine which of them was the Traitor (`Loyalty`), unless the app dealt the
loyalty cards itself and already knows. Each loyal wizard accused sends 2 tokens to the box; the phase repeats until
the Traitor is found (exposed: their chip leaves the table, they only take part in step 3) or the cohesion runs out.
"""
from __future__ import annotations

from collections import Counter

from companion.games.errors import IllegalAction
from companion.games.obscurio import words
from companion.games.obscurio.actions import Loyalty, Sand, Votes
from companion.games.obscurio.cohesion import Gauge
from companion.games.obscurio.constants import ACCUSED_COST
from companion.games.obscurio.ending import finish

ACCUSE = "Making an accusation"
RULING = "RULING obscurio-accusation"


def sand_in_discussion(s, a: Sand):
    return s._with(phase="vote")


def votes(s, a: Votes):
    if s.phase != "vote":
        if s.phase == "discussion":
            raise IllegalAction.of("The wizards vote when the hourglass has run out", ACCUSE)
        raise IllegalAction.of("Votes are cast only in the Accusation Phase", ACCUSE)
    wizards = s.setup.wizards
    cast = a.as_dict()
    for voter, target in a.votes:
        if voter not in wizards:
            raise IllegalAction.of("Nobody at this table plays the {chip} chip", ACCUSE, chip=words.chip(voter))
        if target is not None and target not in wizards:
            raise IllegalAction.of("Nobody at this table plays the {chip} chip", ACCUSE, chip=words.chip(target))
    missing = [w for w in wizards if w not in cast]
    if missing:
        raise IllegalAction.of("Every wizard votes or abstains: {chips} missing", RULING, chips=", ".join(missing))
    count = Counter(t for t in cast.values() if t is not None)
    top = max(count.values(), default=0)
    accused = tuple(w for w in wizards if top and count[w] == top)  # ties: all tied are accused
    s = s._with(votes=a.votes, accused=accused)
    if not accused:  # everyone abstained: nobody shows a card, the Traitor was not found
        return s._with(phase="discussion", accusation=s.accusation + 1)
    if s.setup.loyalty == "app":
        return reveal(s, s.traitor if s.traitor in accused else None)
    return s._with(phase="loyalty")


def loyalty(s, a: Loyalty):
    if s.phase != "loyalty":
        raise IllegalAction.of("Loyalty cards are shown after an accusation vote", ACCUSE)
    if a.traitor is not None:
        if a.traitor not in s.accused:
            raise IllegalAction.of("Only the accused show their loyalty cards: {chips}", ACCUSE,
                                   chips=", ".join(s.accused))
        if a.traitor in s.cleared:
            raise IllegalAction.of("{name} ({chip}) already showed a Loyal card", RULING,
                                   name=s.setup.name_of(a.traitor), chip=words.chip(a.traitor))
    return reveal(s, a.traitor)


def reveal(s, traitor: str | None):
    """The accused showed their cards: 2 tokens to the box per loyal one (in seat order), then found or again."""
    loyal = tuple(c for c in s.accused if c != traitor)
    gauge = Gauge.of(s)
    over = False
    for _ in loyal:
        over = gauge.take(ACCUSED_COST)
        if over:
            break
    cleared = s.cleared + tuple(c for c in loyal if c not in s.cleared)
    after = s._with(cleared=cleared, **gauge.fields())
    if traitor is not None:
        after = after._with(traitor=traitor, exposed=True)
    if over:
        return finish(after, "traitor")
    if traitor is not None:
        return after._with(phase="end")  # "pasa al siguiente turno"; the Traitor's chip leaves the table
    return after._with(phase="discussion", accusation=s.accusation + 1)
