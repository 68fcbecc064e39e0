"""Taps per action: whole Obscurians games played through the real screen by touch, the touches counted.

    .venv/bin/python bench/bench_taps.py [--seeds 4] [--players 4 7] [--policies random plausible] [--taps-only]
    .venv/bin/python bench/bench_taps.py --entry-only [--seeds 20] ...   # no screen: through TurnEntry alone

Each game runs the real app under Xvfb (tests/ui/obscurians_driver.py play): a scripted player decides every move
(tests/ui/policies.py: "random" is the engine's uniform random player, "plausible" plays like people do) and the
harness enters it on the screen, the way a group that knows its move would (tests/ui/intents.py), checking that the
screen recorded exactly that move. A touch is one finger on the glass: a tap, or a drag (a good carried from its
owner's row to where it goes, a chip onto a player); the figures say how many were drags. With --taps-only every
move is tapped in without drags (the two-tap ways stay). An action is an effective engine action, as the table
records it (the missions reveal at the end is left out: it is tapped on the end screen, one tap per player; the
first event card, revealed by the setup's Start, is in, with no touch on this screen). Taps that close an
announcement (an event card, the sandstorm, the winner) are counted apart.

--entry-only enters the same moves through TurnEntry alone, the view-model the screen mirrors widget for widget
(tests/ui/intents.enter: the same touches, no Kivy, a second per game): many more games for a steadier figure.

"Before" is the same games' actions priced with what the previous round screen (commit d232883) needed per move:
a die per tap (5 for a roll), the player's panel and then the good (a Swap or Relocate: 3), two goods and "Secure"
for a Secure, the die and its new face and the chip's mission for each rerolled die, a tap per Wild assigned, and a
tap to pick the next action under All Actions Mandatory. The old screen's own scripted game measured 2.6-2.8.

Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def play(players: int, seed: int, policy: str, taps_only: bool = False) -> tuple[dict, list]:
    """One game by touch; (the harness's result, the table's effective actions and the states before them)."""
    from companion.session.store import TableStore
    from companion.session.table import Table

    with tempfile.TemporaryDirectory() as tmp:
        out, data = Path(tmp) / "game.json", Path(tmp) / "data"
        run = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "obscurians_driver.py"), "play", "--players",
                              str(players), "--seed", str(seed), "--policy", policy, "--data-dir", str(data),
                              "--out", str(out)] + (["--taps-only"] if taps_only else []),
                             capture_output=True, text=True, timeout=900, cwd=ROOT,
                             env=dict(os.environ, KIVY_NO_ARGS="1", PYTHONPATH=str(ROOT)))
        result = json.loads(out.read_text()) if out.exists() else {"error": run.stderr[-2000:]}
        if "error" in result:
            raise SystemExit(f"{players} players, seed {seed}, {policy}: {result['error']}")
        with TableStore(data) as store:
            table = Table.open(store, result["table_id"])
            state, moves = table.adapter.new_game(table.setup), []
            for action in table.actions:
                moves.append((state, action))
                state = state.apply(action)
    return result, moves


def taps_before(state, action) -> int:
    """What the previous round screen needed for `action` in `state` (see the module's docstring)."""
    kind = action.TYPE
    if kind == "roll":
        return 5
    if kind == "reroll":
        return 2 * len(action.dice) + 1
    if kind == "flip":
        return len(action.dice) + 1
    if kind == "chip":
        return 2
    if kind == "assign":
        return max(1, len(action.kinds))
    if kind in ("steal", "donate"):
        extra = 0
    elif kind in ("swap", "relocate"):
        extra = 1
    elif kind == "secure":
        return 1 if len(action.goods) > 2 or not action.goods else len(action.goods) + 1
    else:  # reveal, choose, end, missions
        return 1
    # All Actions Mandatory: the next kind was tapped when more than one kind could be carried out.
    if state.chosen == "all" and len([k for k in state.pending if k in state.legal_types()]) > 1:
        extra += 1
    return 2 + extra


def entry_game(players: int, seed: int, policy: str, taps_only: bool) -> tuple[int, int]:
    """One game through TurnEntry alone: (touches, recorded actions), the first card revealed by the setup."""
    import random

    from companion.games.obscurians.randplay import random_setup
    from companion.games.obscurians.state import new_game
    from companion.ui.obscurians.turn import TurnEntry
    from tests.ui.intents import enter
    from tests.ui.policies import POLICIES

    rng = random.Random(seed)
    state = new_game(random_setup(rng, seed, players))
    state = state.apply(state.legal_actions()[0])  # the setup's Start reveals round 1's card (the app's deck)
    vm, decided, touches, actions, memory = TurnEntry(), state, 0, 1, {}
    while state.phase in ("reveal", "turn"):
        wanted = POLICIES[policy](decided, rng, memory)
        state, decided, recorded, n = enter(vm, state, decided, wanted, drags=not taps_only)
        touches, actions = touches + n, actions + len(recorded)
    return touches, actions


def entry_only(args) -> int:
    for policy in args.policies:
        per_count = {}
        for players in args.players:
            games = [entry_game(players, seed, policy, args.taps_only) for seed in range(1, args.seeds + 1)]
            per_count[players] = (sum(t for t, _ in games), sum(a for _, a in games))
        taps, actions = sum(t for t, _ in per_count.values()), sum(a for _, a in per_count.values())
        print(f"{policy} player, through TurnEntry alone ({'taps only' if args.taps_only else 'with drags'}), "
              f"{args.seeds} games each with {' and '.join(map(str, args.players))} players: "
              f"{taps / actions:.2f} touches per action ({taps} touches, {actions} actions); "
              + ", ".join(f"{n} players {t / a:.2f}" for n, (t, a) in per_count.items()))
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--players", type=int, nargs="*", default=[4, 7])
    p.add_argument("--policies", nargs="*", default=["random", "plausible"])
    p.add_argument("--taps-only", action="store_true", help="enter every move with taps (no drags)")
    p.add_argument("--entry-only", action="store_true", help="through TurnEntry alone, no screen (fast)")
    args = p.parse_args()
    if args.entry_only:
        return entry_only(args)
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            raise SystemExit("no DISPLAY and no xvfb-run: install xvfb")
        return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, *sys.argv])

    for policy in args.policies:
        taps = moments = actions = before = drags = 0
        by_kind, moves_by_kind = Counter(), Counter()
        per_count = {}  # players -> (taps, actions)
        for players in args.players:
            for seed in range(1, args.seeds + 1):
                result, moves = play(players, seed, policy, args.taps_only)
                played = [(s, a) for s, a in moves if a.TYPE != "missions"]
                game_taps = sum(result["taps_by_kind"].values())
                t0, a0 = per_count.get(players, (0, 0))
                per_count[players] = (t0 + game_taps, a0 + len(played))
                taps += game_taps  # the round screen's taps, move by move
                moments += result["moment_taps"]
                drags += result["drags"]
                actions += len(played)
                before += sum(taps_before(s, a) for s, a in played)
                by_kind.update(result["taps_by_kind"])
                moves_by_kind.update(result["moves_by_kind"])
        how = "taps only" if args.taps_only else f"{drags} of them drags"
        print(f"{policy} player, {args.seeds} game(s) each with {' and '.join(map(str, args.players))} players: "
              f"{taps / actions:.2f} touches per action ({taps} touches, {how}; {actions} actions; {moments} more "
              f"to close announcements: {(taps + moments) / actions:.2f}); before: {before / actions:.2f} "
              f"(target <= 1.6)")
        if len(per_count) > 1:
            print("   by player count: " + ", ".join(f"{n} players {t / a:.2f} ({t} taps, {a} actions)"
                                                   for n, (t, a) in per_count.items()))
        # Per move type: taps per move, how many moves, and the share of all taps (where the taps go).
        print("   per move (taps each × moves = share of all taps):")
        for k in sorted(moves_by_kind, key=lambda k: -by_kind[k]):
            print(f"     {k:<12} {by_kind[k] / moves_by_kind[k]:5.2f} × {moves_by_kind[k]:4d} = {by_kind[k]:5d} taps "
                  f"({100 * by_kind[k] / taps:4.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
