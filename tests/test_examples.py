"""The committed example games (examples/*.jsonl) all replay to their end through `companion replay`; this file
also makes the Obscurians ones (the Obscurio ones: tests/test_obscurio_examples.py).

Regenerate with `.venv/bin/python tests/test_examples.py --write` (see examples/README.md).
"""
import json
import sys
from pathlib import Path

import pytest

from companion.games.obscurians.randplay import random_game
from companion.session.logfile import read_log, write_log
from cli_helpers import companion

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# name: (seed, players, deck); missions are revealed at the end (RevealMissions) in every example.
GAMES = {
    "obscurians-4p-undo": (4, 4, "app"),
    "obscurians-5p-physical-deck": (5, 5, "physical"),
    "obscurians-6p": (6, 6, "app"),
    "obscurians-7p-control": (7, 7, "app"),
}


def entries_with_undo(actions):
    """The game's actions with a table's typical corrections: undo twice + redo twice, and undo + play again."""
    entries = []
    for i, action in enumerate(actions):
        entries.append(("action", action.to_json()))
        if i == 10:
            entries += [("undo", None), ("undo", None), ("redo", None), ("redo", None)]
        if i == 30:  # a new action after an undo: the redo stack is cleared
            entries += [("undo", None), ("action", action.to_json())]
    return entries


def make(name):
    seed, players, deck = GAMES[name]
    setup, actions = random_game(seed, players, deck=deck, missions_known=False)
    entries = entries_with_undo(actions) if "undo" in name else [("action", a.to_json()) for a in actions]
    return write_log("obscurians", setup.to_json(), entries)


def example_files():
    return sorted(EXAMPLES.glob("*.jsonl"))


def test_the_examples_cover_the_brief():
    logs = [read_log(p.read_text()) for p in sorted(EXAMPLES.glob("obscurians-*.jsonl"))]
    counts = {len(log.setup.players) for log in logs}
    assert {4, 7} <= counts and counts & {5, 6}
    assert any(log.setup.deck == "physical" for log in logs)
    assert any(kind in ("undo", "redo") for log in logs for kind, _ in log.entries)
    assert all(log.entries[-1][1]["type"] == "missions" for log in logs)  # the missions reveal ends each game


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_every_example_replays_to_a_scored_end(path):
    result = companion("replay", path, "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    game_log = read_log(path.read_text())
    assert out["game"] == game_log.game and out["state"] == game_log.state.to_json()
    assert out["outcome"] is not None and set(out["outcome"]) >= {"players", "winners"}
    if game_log.game == "obscurians":
        assert out["state"]["phase"] == "over" and out["outcome"]["winners"]
    elif game_log.game == "obelisk":  # co-operative: the group wins or loses together, and says why
        assert out["outcome"]["result"] in ("won", "lost") and out["outcome"]["why"]
    else:  # a co-operative game: the winning side and why (a traitor's or the wizards' win in these examples)
        assert out["outcome"]["side"] in ("wizards", "traitor") and out["outcome"]["why"]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    EXAMPLES.mkdir(exist_ok=True)
    for name in GAMES:
        (EXAMPLES / f"{name}.jsonl").write_text(make(name))
        print(f"wrote examples/{name}.jsonl")
