"""Obscurians final scoring throughput: `python bench/bench_scoring.py [--seconds S] [--positions N] [--seed K]`.

Builds N varied random valid end positions (4-7 players, random missions, goods up to the 10-per-colour limit,
lamp/artifact, up to every chip placed), checks them with parse_end, then scores them round-robin on one core for S
seconds and prints scorings/second. Target: at least 10,000/s.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.obscurians.constants import COLOURS, MISSIONS  # noqa: E402
from companion.games.obscurians.rules import Rules  # noqa: E402
from companion.games.obscurians.end_json import parse_end  # noqa: E402
from companion.games.obscurians.scoring import score  # noqa: E402

TARGET = 10_000


def random_end(rng: random.Random) -> dict:
    n = rng.randint(4, 7)
    colours = list(COLOURS) if n == 7 else rng.sample(COLOURS[:6], n)
    if n == 4:  # two of Keep/Take/Collect, two of Give/Select/Lose (rulebook "Game Setup"; RULING obscurians-players)
        missions = rng.sample(MISSIONS[:3], 2) + rng.sample(MISSIONS[3:6], 2)
        rng.shuffle(missions)
    else:
        missions = rng.sample(MISSIONS if n == 7 else MISSIONS[:6], n)
    # Goods: each colour's 10 goods spread over the players (some left in the market, i.e. not in play).
    goods = [dict() for _ in range(n)]
    for c in colours:
        for _ in range(rng.randint(0, 10)):
            i = rng.randrange(n)
            goods[i][c] = goods[i].get(c, 0) + 1
    lamp = rng.randrange(n)
    artifact = rng.randrange(n + 1)   # n: the artifact never came into play
    players = [{"name": f"P{i}", "color": colours[i], "mission": missions[i], "goods": goods[i],
                "lamp": i == lamp, "artifact": i == artifact} for i in range(n)]
    chips = []
    pool = MISSIONS if n == 7 else MISSIONS[:6]
    for by in colours:
        for m in pool:
            if rng.random() < 0.5:
                on = rng.choice([c for c in colours if c != by])
                # bias towards correct guesses, like a real table late in the game
                if rng.random() < 0.4:
                    m2 = missions[colours.index(on)]
                    if all(not (ch["by"] == by and ch["mission"] == m2) for ch in chips):
                        m = m2
                if all(not (ch["by"] == by and ch["mission"] == m) for ch in chips):
                    chips.append({"by": by, "on": on, "mission": m})
    rng.shuffle(chips)
    return {"game": "obscurians", "players": players, "suspicions": chips}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--positions", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    ends = [parse_end(random_end(rng)) for _ in range(args.positions)]
    rules = [Rules(take_cap=True), Rules(take_cap=False)]

    # First pass: every position once, Collect memo cold.
    t0 = time.perf_counter()
    for i, e in enumerate(ends):
        score(e, rules[i & 1])
    cold = len(ends) / (time.perf_counter() - t0)

    done = 0
    t0 = time.perf_counter()
    deadline = t0 + args.seconds
    while time.perf_counter() < deadline:
        for i, e in enumerate(ends):
            score(e, rules[i & 1])
        done += len(ends)
    rate = done / (time.perf_counter() - t0)

    # Including the JSON (rule texts rendered), as `companion score --json` does.
    t0 = time.perf_counter()
    for i, e in enumerate(ends[:1000]):
        score(e, rules[i & 1]).to_json()
    with_json = min(1000, len(ends)) / (time.perf_counter() - t0)

    print(f"obscurians scoring: {rate:,.0f} scorings/s on one core ({len(ends)} varied positions; "
          f"first pass {cold:,.0f}/s; with to_json {with_json:,.0f}/s; target {TARGET:,}/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
