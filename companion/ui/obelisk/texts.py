"""The plug-in's sentences (msgids of the `companion` catalogue) and the few that are put together from game words."""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obelisk.vocabulary import COLOUR, LAND

DAY = N_("Day {n}")
NIGHT = N_("Night {n}")
OVER = N_("The game is over")
DAY_PROMPT = N_("{name}: tap a corner to build, an Obelisk to reinforce, marked tiles to turn")
DAY_DONE = N_("Everyone is done: the Night falls")
MARCH_PROMPT = N_("Capture demons before or while they move, then let them move")
SWARM_PROMPT = N_("The new demons are out: capture, then dawn")
ACTIONS_LEFT = {"one": N_("1 action left"), "other": N_("{n} actions left")}
DONE_TODAY = N_("done for today")
TO_BUILD = N_("Obelisks to build: {names}")
QUARRY = N_("Quarry: {green} green · {yellow} yellow · {blue} blue")
REALM = N_("Dark Realm: {n} demons")
NOT_ACTING = N_("{name} cannot act now")
NO_ONE = N_("Nobody can act now")
NIGHT_MAP = N_("Nobody may touch the map at Night")
NIGHT_OBELISK = N_("At Night an Obelisk captures: pick the capture in the list")
PAY_TITLE = N_("Reinforce the Obelisk on corner {corner} to {n}: pay with")
THE_OBELISK = N_("The Obelisk on corner {corner}")
PAY_DIE = N_("An unplaced Obelisk of {name}")
PAY_STONES = N_("{n} {colour}")
NO_TURNS = N_("Tap the marked tiles to turn them first")
UNDO = N_("Undo: {move}")
NOTHING_TO_UNDO = N_("Nothing to undo")
LEADER = N_("Leader: {name} · may speak: {names}")
SILENT_NIGHT = N_("Night: nobody speaks, except to say which demon their Obelisk captures")
READ_ONLY = N_("Finished game: read-only")
MINUTE_STANDS = N_("Time Trials: the minute of that move has run out, so the move stands")
CAPTURES = N_("Captures now (the advice first)")
NO_CAPTURE_NOW = N_("No Obelisk can capture a demon now")
SUGGESTED = N_("Suggested: ")
WALK_STEP = N_("Step {n}")
STOP_WATCHING = N_("Stop")
NOTHING_WALKS = N_("No demon walks now")
BEST_TITLE = N_("The advisor's turns, best first")
TURN_TO = N_("{cell} to the {way}")
WAY = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
RANKED = 4   # the advisor's best Rotate choices offered
SPAWN_PROMPT = N_("Draw {n} demons from the box top and tap each colour in the order it came out ({k} so far: {drawn})")
ROLL_PROMPT = N_("Roll a die for the Obelisk on corner {corner} ({scroll}) and tap what it shows")
DECIPHER_PROMPT = N_("Flip the top Scroll of the deck and tap the one that shows")
DRAW = N_("{colour} ({n} left)")
NOTHING_DRAWN = N_("No demon tapped in yet")
ALL_DRAWN = N_("{n} demons come out tonight: all are tapped in")
NONE_LEFT = N_("No {colour} demon is left in the Dark Realm")
BUTTON = {
    "draw_back": N_("Take back"),
    "spawn": N_("These came out"),
    "watch": N_("Watch them walk"),
    "mine": N_("Mine"),
    "rotate": N_("Rotate"),
    "best": N_("Best turn"),
    "pass": N_("Done today"),
    "nightfall": N_("Night falls"),
    "march": N_("Demons move"),
    "dawn": N_("Dawn"),
    "undo": N_("Undo"),
}
ROTATE_N = N_("Rotate {n}")


def pay_words(pay, name: str, t) -> str:
    """A payment as the table says it: "3 green + 1 blue", or the player's unplaced Obelisk."""
    if pay.die:
        return t(PAY_DIE).format(name=name)
    parts = [t(PAY_STONES).format(n=pay.stones[c], colour=t(COLOUR[c]))
             for c in ("green", "yellow", "blue") if pay.stones[c]]
    return " + ".join(parts)


def land_word(kind: str, t) -> str:
    return t(LAND[kind])

BOARD_TURNED = N_("The board: {cell} was turned. Tap Rotate to confirm, or turn it back")
BOARD_TURNED_BACK = N_("The board: {cell} lies as before")
BOARD_NIGHT = N_("The board: {cell} was turned at Night. Nobody may touch the map now: turn it back")
BOARD_OTHER = N_("The board: {cell} changed in a way no Rotate makes. Put the tile back as the map shows")

# Where everyone sits (Menu, seats.py): each player's row faces their side of the table, one of four.
SEATS = N_("Where everyone sits")
SEATS_TITLE = N_("Tap a player, then the side they sit at: their row turns to face them")
SITS = {"near": N_("{name}: the near side"), "far": N_("{name}: the far side"),
        "left": N_("{name}: the left end"), "right": N_("{name}: the right end")}
WHERE = N_("Where does {name} sit? Left and right as the near side sees them")
SIDE = {"near": N_("The near side"), "far": N_("The far side"), "left": N_("The left end"),
        "right": N_("The right end")}
NOW = {"near": N_("{name}'s row now faces the near side"), "far": N_("{name}'s row now faces the far side"),
       "left": N_("{name}'s row now faces the left end"), "right": N_("{name}'s row now faces the right end")}
END_FULL = {"left": N_("Two players already sit at the left end: move one of them first"),
            "right": N_("Two players already sit at the right end: move one of them first")}
