"""Short texts for the shared screen and `companion replay`: `status` (one phrase) and `describe` (a few lines).

Neither ever names a Traitor the table does not know yet (an app-dealt one before it is exposed): both are built
only from what everybody at the table can see.
"""
from __future__ import annotations

from companion.games.obscurio.constants import ROOMS, TRAP_NAME

STEP_NAME = {1: "draw traps", 2: "the Grimoire's riddle", 3: "the Traitor's cards", 4: "choose the door",
             5: "end of turn"}


def status(state) -> str:
    """'turn 3, step 4', 'turn 5, accusation', 'Traitor to reveal', 'over'."""
    if state.phase == "over":
        return "over"
    if state.phase == "unmask":
        return "Traitor to reveal"
    if state.phase in ("discussion", "vote", "loyalty"):
        return f"turn {state.turn}, accusation"
    return f"turn {state.turn}, step {state.step}"


def _traps(traps) -> str:
    return ", ".join(TRAP_NAME[t] for t in traps) or "none yet"


def describe(state) -> str:
    setup = state.setup
    lines = [f"Obscurio, {setup.n_players} players ({setup.grimoire} is the Grimoire), {status(state)}"
             + (f": {STEP_NAME[state.step]}" if state.step else "")]
    lines.append(f"progress: {state.progress} of {ROOMS} rooms" + ("; the Watcher is active" if state.watcher else ""))
    lines.append(f"cohesion: {state.normal} normal + {state.dark} dark left of {setup.cohesion}; "
                 f"{state.box} in the box")
    if not state.is_over and state.phase != "unmask":
        extra = f" (drawing 1 + {state.draws_due - 1})" if state.phase == "traps" else ""
        lines.append(f"traps this turn: {_traps(state.traps)}{extra}")
        if state.phase == "doors":
            track = ", ".join(f"+{b}" for b in state.track)
            lines.append(f"hourglass on space {state.space + 1} of {len(state.track)} [{track}]; "
                         f"{state.n_doors} doors" + (", #4 hidden" if state.hidden_doors else "")
                         + (f", {state.opened} revealed" if state.locked else ""))
        if state.next_bonus:
            lines.append(f"next turn: {state.next_bonus} extra trap(s)")
    for name, role in setup.players:
        if role == "grimoire":
            continue
        chips = [role] + ([setup.companion] if setup.companion else [])
        parts = []
        for chip in chips:
            door = state.door_of(chip)
            where = f"door {door}" if door is not None and state.phase in ("doors", "exit") else ""
            label = "companion " + chip if chip == setup.companion else chip
            parts.append(f"{label}: {state.tokens_on(chip)} token(s)" + (f", {where}" if where else ""))
        # Only what the table saw: a wizard exposed by an accusation, or cleared by showing a Loyal card.
        if role == state.traitor and (state.exposed or state.is_over):
            tag = " — the Traitor" + (", exposed" if state.exposed else "")
        else:
            tag = " — showed a Loyal card" if role in state.cleared else ""
        lines.append(f"  {name} ({'; '.join(parts)}){tag}")
    if state.phase in ("discussion", "vote", "loyalty"):
        lines.append(f"accusation round {state.accusation}" +
                     (f"; accused: {', '.join(state.accused)}" if state.accused else ""))
    result = state.outcome()
    if result is not None:
        winners = ", ".join(setup.name_of(w) for w in result.winners) or "nobody"
        lines += ["", result.detail["why"], f"winners: {winners}"]
    elif state.phase == "unmask":
        lines += ["", "The game is over: everyone shows their loyalty card; who was the Traitor?"]
    return "\n".join(lines)
