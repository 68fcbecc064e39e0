"""Obscurians engine speed: random legal full games (random_game, which applies every action) plus a replay.

Run: .venv/bin/python bench/bench_engine.py   — prints games/second and actions/second; no assertions.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.obscurians.randplay import random_game  # noqa: E402
from companion.games.obscurians.state import new_game  # noqa: E402

SECONDS = 3.0


def main() -> None:
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < SECONDS:
        setup, log = random_game(seed, 4 + seed % 4, deck=("app", "physical")[seed % 2])
        games += 1
        actions += len(log)
        seed += 1
    generate = time.perf_counter() - start

    replayed = 0
    start = time.perf_counter()
    for s in range(games):
        setup, log = random_game(s, 4 + s % 4, deck=("app", "physical")[s % 2])
        state = new_game(setup)
        for a in log:
            state = state.apply(a)
        replayed += 1
    both = time.perf_counter() - start

    print(f"random_game:           {games / generate:8.0f} games/s  {actions / generate:9.0f} actions/s "
          f"({actions / games:.0f} actions/game, 4-7 players)")
    print(f"random_game + replay:  {replayed / both:8.0f} games/s  {2 * actions / both:9.0f} applies/s")


if __name__ == "__main__":
    main()
