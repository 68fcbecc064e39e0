"""Step 4: choose the door. Chips, the hourglass on the time track, the Exit revealed, and the resolution."""
from __future__ import annotations

from companion.games.errors import IllegalAction
from companion.games.obscurio import words
from companion.games.obscurio.actions import Chip, Done, Exit, Open, Sand
from companion.games.obscurio.cohesion import Gauge
from companion.games.obscurio.constants import ROOMS, WATCHER_AT
from companion.games.obscurio.ending import finish
from companion.games.obscurio.model import Resolution

STEP4 = "Step 4: Choose the door"


def need_doors(s) -> None:
    if s.phase != "doors":
        if s.phase == "exit":
            raise IllegalAction.of("Step 4 is over: the Grimoire reveals the Exit now", STEP4)
        raise IllegalAction.of("Chips are placed in step 4, while the doors are open", STEP4)


def chip(s, a: Chip):
    need_doors(s)
    if a.chip not in s.setup.chips:
        raise IllegalAction.of("Nobody at this table plays the {chip} chip", STEP4, chip=words.chip(a.chip))
    if a.chip not in s.chips:
        raise IllegalAction.of("The {chip} chip belongs to the exposed Traitor and no longer chooses a door",
                               "RULING obscurio-accusation", chip=words.chip(a.chip))
    now = s.door_of(a.chip)
    if a.door is None:
        if s.locked:
            raise IllegalAction.of("Under Locked Doors a chip stays where it was put", "RULING obscurio-unplaced")
        if now is None:
            raise IllegalAction.of("The {chip} chip is not in front of a door", STEP4, chip=words.chip(a.chip))
    else:
        if a.door > s.n_doors:
            raise IllegalAction.of("There are only {n} doors this turn", STEP4, n=s.n_doors)
        if now == a.door:
            raise IllegalAction.of("The {chip} chip is already in front of door {door}", STEP4,
                                   chip=words.chip(a.chip), door=a.door)
        if s.locked:
            # RULING obscurio-unplaced: the doors come one at a time; a wizard takes the open one or declines it.
            if now is not None:
                raise IllegalAction.of("Under Locked Doors a chip stays where it was put", "RULING obscurio-unplaced")
            if a.door != s.opened:
                raise IllegalAction.of("Under Locked Doors only the door just revealed (#{open}) can be chosen",
                                       "RULING obscurio-unplaced", open=s.opened)
    placed = list(s.placed)
    placed[s.setup.chips.index(a.chip)] = a.door
    return s._with(placed=tuple(placed))


def open_door(s, a: Open):
    need_doors(s)
    if not s.locked:
        raise IllegalAction.of("All doors are already open: doors are revealed one at a time only under Locked Doors",
                               STEP4)
    if s.opened >= s.n_doors:
        raise IllegalAction.of("Every door has been revealed", STEP4)
    return s._with(opened=s.opened + 1)


def sand_in_doors(s, a: Sand):
    """The hourglass ran out: onto the next space of the time track, or "Stop!" on the last one."""
    track = s.track
    if s.space + 1 < len(track):
        return s._with(space=s.space + 1)
    # "¡Alto!": chips can no longer be placed; the ones still in the centre cost tokens (RULING obscurio-unplaced).
    return s._with(phase="exit", stopped=True, next_bonus=track[s.space])


def done(s, a: Done):
    need_doors(s)
    waiting = [c for c in s.chips if s.door_of(c) is None]
    if waiting and not (s.locked and s.opened >= s.n_doors):
        if s.locked:
            raise IllegalAction.of("Reveal the remaining doors first, or every chip must have chosen one",
                                   "RULING obscurio-unplaced")
        raise IllegalAction.of("Every wizard chooses a door before the step is over: {chips} still in the centre",
                               STEP4, chips=", ".join(waiting))
    # The hourglass stays on its space: that space's bonus applies to the next turn (RULING obscurio-time-track).
    return s._with(phase="exit", next_bonus=s.track[s.space])


def reveal_exit(s, a: Exit):
    if s.phase != "exit":
        if s.phase == "doors":
            raise IllegalAction.of("The Exit is revealed when step 4 is over", STEP4)
        raise IllegalAction.of("The Exit is revealed at the end of step 4", STEP4)
    if a.door > s.n_doors:
        raise IllegalAction.of("There are only {n} doors this turn", STEP4, n=s.n_doors)
    return resolve(s._with(exit=a.door), a.door)


def resolve(s, exit_door: int):
    """RULING obscurio-resolution-order: progress (a winning move ends the game at once), then one token per wrong
    or unplaced chip in seat order, then Dangerous Room, then the Accusation Phase if the normal area emptied."""
    effects = s.effects  # before the progress moves: a Watcher becoming active acts from the next turn
    chips = s.chips
    doors = {c: s.door_of(c) for c in chips}
    advanced = any(d == exit_door for d in doors.values())
    progress = s.progress
    if advanced:
        if progress >= WATCHER_AT:
            # RULING obscurio-progress: moving the marker off the last space with cohesion left is the escape.
            done_state = s._with(progress=ROOMS, last=Resolution(exit_door, True, (), _unplaced(doors)))
            return finish(done_state, "wizards")
        progress += 1  # on reaching the last space the Watcher is active (state.watcher, RULING obscurio-watcher)
    gauge = Gauge.of(s)
    normal_before = s.normal
    charged = []
    over = False
    for c in chips:
        if doors[c] != exit_door:
            n = s.setup.chip_cost(c)
            before = gauge.cards[s.setup.chips.index(c)]
            over = gauge.take(n, s.setup.chips.index(c))
            charged.append((c, gauge.cards[s.setup.chips.index(c)] - before))
            if over:
                break
    dangerous = 0
    if not over and "dangerous_room" in effects:
        wrong = [d for d in doors.values() if d is not None and d != exit_door]
        # RULING obscurio-dangerous-room: per distinct wrong door with a chip (or, edited, per wrong chip).
        dangerous = len(set(wrong)) if s.setup.rules.dangerous_room == "door" else len(wrong)
        box_before = gauge.box
        over = gauge.take(dangerous)
        dangerous = gauge.box - box_before
    result = Resolution(exit_door, advanced, tuple(charged), _unplaced(doors), dangerous)
    after = s._with(progress=progress, last=result, **gauge.fields())
    if over:
        return finish(after, "traitor" if s.setup.has_traitor else "nobody")
    if normal_before and not after.normal and s.setup.has_traitor and not s.exposed:
        # "Tan pronto como toman la última ficha de Cohesión de la primera área ... comienza la Fase de Acusación"
        return after._with(phase="discussion", accusation=1, votes=(), accused=())
    return after._with(phase="end")


def _unplaced(doors: dict) -> tuple[str, ...]:
    return tuple(c for c, d in doors.items() if d is None)
