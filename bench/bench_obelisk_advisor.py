"""Obelisk advisor speed in its worst case: is the advice there before the group has finished asking?

Worst case (issue 18): all 11 Obelisks on the map (with the runes that give the most captures: two Consuming Growth,
two Lightning Rods with 3 charges), a full Night of demons — 28 on the map along a 20-tile path and 7 out of the Dark
Realm (Scrolls) — and every choice of the largest Rotate action (3 of 21 marked tiles, each to one of three new
directions: 37,863 choices). Targets: the capture plan in at most 100 ms, ranking every Rotate choice in at most 1 s.

Run: .venv/bin/python bench/bench_obelisk_advisor.py   — prints the median and the slowest of several runs; it
asserts nothing (speed is measured, not asserted).
"""
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.obelisk import Setup, map_from_text, new_game  # noqa: E402
from companion.games.obelisk.advisor import night_advice, rotate_choices  # noqa: E402
from companion.games.obelisk.exchange import NightTable, advise  # noqa: E402
from companion.games.obelisk.model import Demon, Obelisk, Stones  # noqa: E402
from companion.games.obelisk.paths import portal_walk  # noqa: E402

# A spiral from the Portal in the middle: 20 tiles before the path leaves the map (the longest a box map allows).
MAP = "FN -- -- -- -- / FN GE FE FE CS / FN GN PE GS FS / CN GN GW GW FS / FN CW FW FW CW"
# The path snakes row by row (A1 → E1, E2 → A2, …) down to A5: another 20-tile path, other tiles next to it.
SNAKE = "PE GE FE CE FS / FS GW FW CW FW / FE FE GE GE FS / CS FW CW FW FW / FS -- -- -- --"
RUNES = ["consuming_growth", "consuming_growth", "lightning_rod", "lightning_rod", "crystal_network", "longbow",
         None, None, None, None, None]
CORNERS = [(2, 2), (2, 3), (3, 2), (3, 3), (4, 1), (4, 3), (2, 1), (3, 4), (1, 2), (4, 4), (1, 4)]
COLOURS = ("green", "yellow", "blue")
RUNS = 7


def obelisks():
    out = []
    for i, (corner, rune) in enumerate(zip(CORNERS, RUNES)):
        out.append(Obelisk(corner, ("green", "blue", "yellow", "black")[i % 4], 3 + i % 4, rune,
                           3 if rune == "lightning_rod" else 0, "SE" if rune == "longbow" else None))
    return tuple(out)


def demons(game_map, reach: int | None = None):
    """28 demons of every colour spread along the path (within its first `reach` tiles), as four Nights of spawns
    would leave them."""
    route = portal_walk(game_map).cells
    span = min(len(route) - 1, reach or len(route) - 1)
    return [(COLOURS[i % 3], route[:2 + (i * 7) % span]) for i in range(28)]


def table(game_map, on_map):
    """A solo table (the largest Rotate: 3 tiles) with `on_map` demons ((colour, visited)) and the Scrolls."""
    setup = Setup(players=(("Ana", "green"),), map=game_map, difficulty="even_easier", scrolls=True, realm="table",
                  quarry=Stones(blue=2))
    state = new_game(setup)
    placed = tuple(Demon(i + 1, colour, tuple(visited)) for i, (colour, visited) in enumerate(on_map))
    return replace(state, demons=placed, realm=state.realm - Stones.of(c for c, _ in on_map), drawn=len(placed),
                   trodden=frozenset(c for _, v in on_map for c in v))


def timed(fn):
    """(result, median wall time, slowest wall time, median CPU time): wall is what the table waits; the CPU time
    is the work, the same on a busy machine."""
    walls, cpus = [], []
    result = None
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), max(walls), statistics.median(cpus)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def main() -> None:
    game_map = map_from_text(MAP)
    walkers = demons(game_map)
    night = NightTable(game_map, obelisks(), tuple(walkers), ("green", "yellow", "blue", "blue", "green", "yellow",
                                                               "blue"), scrolls=True)
    (answer, _), median, worst, cpu = timed(lambda: advise(night))
    slots = sum(3 if r == "lightning_rod" else 2 if r == "consuming_growth" else 1 for r in RUNES)
    print(f"capture plan (NIGHT exchange): 11 Obelisks ({slots} captures), {len(walkers)} demons on the map + 7 "
          f"new: median {ms(median)}, slowest {ms(worst)}, CPU {ms(cpu)} (target ≤ 100 ms); "
          f"plan of {len(answer['plan'])} captures, safe: {answer['safe']}")

    scenarios = [("the spiral, demons all along it", game_map, walkers),
                 ("the spiral, demons in its first 8 tiles", game_map, demons(game_map, 8))]
    snake = map_from_text(SNAKE)
    scenarios += [("a snake, demons all along it", snake, demons(snake)),
                  ("a snake, demons in its first 8 tiles", snake, demons(snake, 8))]
    slowest = None
    for label, where, on_map in scenarios:
        state = table(where, on_map)
        choices, median, worst, cpu = timed(lambda: rotate_choices(state, "green"))
        print(f"Rotate ranking, {label}: {len(choices)} choices (up to 3 of {len(state.markers)} marked tiles), "
              f"{len(on_map)} demons on the map: median {ms(median)}, slowest {ms(worst)}, CPU {ms(cpu)}; "
              f"the best keeps every path legal {choices[0].nights} Night(s)")
        slowest = max(slowest or 0, worst)
    print(f"Rotate ranking, slowest of all: {ms(slowest)} (target ≤ 1000 ms)")
    state = table(game_map, walkers)

    # The same table in a game, once tonight's demons are out (a solo player owns every Obelisk here).
    swarm = replace(state, phase="swarm", obelisks=tuple(replace(o, owner="green") for o in obelisks()))
    advice, median, worst, cpu = timed(lambda: night_advice(swarm))
    print(f"in-game Night advice (swarm, same table): median {ms(median)}, slowest {ms(worst)}, CPU {ms(cpu)}; "
          f"{len(advice.captures)} captures suggested")


if __name__ == "__main__":
    main()
