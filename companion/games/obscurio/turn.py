"""Steps 1, 2, 3 and 5 of a turn: draw traps, the Grimoire's riddle, the Traitor's cards, end of turn."""
from __future__ import annotations

import random
from functools import lru_cache

from companion.games.errors import IllegalAction
from companion.games.obscurio.actions import Decoys, Draw, EndTurn, Riddle
from companion.games.obscurio import words
from companion.games.obscurio.constants import PLUS2, TRAPS

STEP1 = "Step 1: Turn setup"
STEP2 = "Step 2: Prepare the riddle"
STEP3 = "Step 3: The Traitor's cards"
STEP5 = "Step 5: End of the turn"


@lru_cache(maxsize=512)
def app_draw(seed: int, turn: int, due: int, bag: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The app's draw for a turn: `due` tokens from the bag, 2 more for each +2, until none is due or the bag is empty.

    A fresh Random per (seed, turn) keeps each turn's draw a pure function of the state (undo, replays, a state
    loaded from JSON all draw the same tokens) without storing a generator.
    """
    rng = random.Random(f"obscurio-traps:{seed}:{turn}")
    pool = [t for t, n in bag for _ in range(n)]
    drawn = []
    while due > 0 and pool:
        trap = pool.pop(rng.randrange(len(pool)))
        drawn.append(trap)
        due += 1 if trap == PLUS2 else -1  # a +2 replaces itself and adds 2: net one more due
    return Draw(tuple(drawn)).traps


def the_apps_draw(s) -> tuple[str, ...]:
    return app_draw(s.setup.seed, s.turn, s.draws_due, tuple(sorted(s.bag.items(), key=lambda p: TRAPS.index(p[0]))))


def expected_draws(s, drawn: tuple[str, ...]) -> int:
    """How many tokens step 1 draws when these are the tokens: 1 + bonus + 2 per +2, at most the whole bag."""
    return min(s.draws_due + 2 * drawn.count(PLUS2), sum(s.bag.values()))


def draw(s, a: Draw):
    if s.phase != "traps":
        raise IllegalAction.of("Trap tokens are drawn at the start of a turn (step 1)", STEP1)
    bag = s.bag
    for trap in dict.fromkeys(a.traps):
        n = a.traps.count(trap)
        if n > bag.get(trap, 0):
            if not bag.get(trap):
                raise IllegalAction.of("There is no {trap} token in the bag", "RULING obscurio-traps",
                                       trap=words.trap(trap))
            raise IllegalAction.of("The bag holds only one {trap} token" if bag[trap] == 1
                                   else "The bag holds only {n} {trap} tokens", "RULING obscurio-traps",
                                   n=bag[trap], trap=words.trap(trap))
    due = expected_draws(s, a.traps)
    if len(a.traps) != due:
        raise IllegalAction.of("This turn draws one trap token" if due == 1
                               else "This turn draws {due} trap tokens: 1, plus {bonus} extra, "
                                    "plus 2 for each +2 drawn", STEP1, due=due, bonus=s.draws_due - 1)
    if s.setup.bag == "app":
        mine = the_apps_draw(s)
        if a.traps != mine:
            raise IllegalAction.of("The app's bag gives {traps} this turn", STEP1,
                                   traps=words.traps(mine))
    return s._with(phase="riddle", traps=a.traps)


def riddle(s, a: Riddle):
    if s.phase != "riddle":
        raise IllegalAction.of("The Grimoire prepares the riddle in step 2, after the traps are drawn", STEP2)
    if s.setup.has_traitor:
        return s._with(phase="traitor")
    # RULING obscurio-2-3-players: no Traitor, step 3 is skipped.
    return start_doors(s)


def decoys(s, a: Decoys):
    if not s.setup.has_traitor:
        raise IllegalAction.of("There is no Traitor with 2 or 3 players", "RULING obscurio-2-3-players")
    if s.phase != "traitor":
        raise IllegalAction.of("The Traitor picks cards in step 3, after the Grimoire's riddle", STEP3)
    if a.cards is not None and a.cards > s.max_decoys:
        if s.max_decoys < 4:
            raise IllegalAction.of("The Traitor may pick at most {n} cards (4 only under Dark Magic)", STEP3,
                                   n=s.max_decoys)
        raise IllegalAction.of("The Traitor may pick at most {n} cards", STEP3, n=s.max_decoys)
    return start_doors(s._with(decoys=a.cards))


def start_doors(s):
    """Step 4 begins: the doors are laid and the hourglass turned onto the first space of the time track."""
    n = s.n_doors
    return s._with(phase="doors", space=0, opened=1 if s.locked else n, placed=(None,) * len(s.setup.chips),
                   stopped=False, exit=None)


def end_turn(s, a: EndTurn):
    if s.phase != "end":
        raise IllegalAction.of("The turn ends once the doors are resolved (step 5)", STEP5)
    # Illusion cards discarded, every trap back in the bag, chips back to the centre; the bonus carries over.
    return s._with(phase="traps", turn=s.turn + 1, bonus=s.next_bonus or 0, next_bonus=None, traps=(), decoys=None,
                   space=0, opened=0, placed=(None,) * len(s.setup.chips), stopped=False, exit=None, last=None,
                   accusation=0, votes=(), accused=())
