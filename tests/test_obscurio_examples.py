"""The committed Obscurio example games (examples/obscurio-*.jsonl) replay through the engine to the ending each one
shows; this file also makes them.

Regenerate with `.venv/bin/python tests/test_obscurio_examples.py --write`. Until "obscurio" is in the game
registry the replay here goes straight through the engine (json lines → action_from_json → apply).
"""
import json
import random
import sys
from pathlib import Path

import pytest

from companion.games.obscurio import (
    Chip, Decoys, Done, Draw, EndTurn, Exit, Loyalty, Open, Riddle, Sand, Setup, State, Unmask, Votes,
    action_from_json, describe, new_game,
)
from companion.games.obscurio.constants import PLUS2, TRAPS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


# ----------------------------------------------------------------- a scripted table

class Director:
    """Plays a game the way a real table would, turn by turn, from a short plan; every action goes through the
    engine, so the log is legal by construction."""

    def __init__(self, setup: Setup, seed: int):
        self.state = new_game(setup)
        self.actions = []
        self.rng = random.Random(seed)  # the hand in the physical bag

    def do(self, action):
        self.state = self.state.apply(action)
        self.actions.append(action)

    def turn(self, exit_door: int, wrong=(), sand=0, decoys=2, late=()):
        """One turn: `wrong` chips pick a wrong door, `late` chips are still in the centre when the hourglass
        stops (`sand` is how often it ran out before the wizards were done)."""
        s = self.state
        self.do(s.legal_actions()[0] if s.setup.bag == "app" else self._hand_draw())
        self.do(Riddle())
        if self.state.phase == "traitor":
            self.do(Decoys(min(decoys, self.state.max_decoys)))
        exit_door = min(exit_door, self.state.n_doors)
        wrong_door = 1 if exit_door != 1 else 2
        chips = [c for c in self.state.chips if c not in late]
        if self.state.locked:
            for door in range(1, self.state.n_doors + 1):
                for c in chips:
                    if door == (wrong_door if c in wrong else exit_door):
                        self.do(Chip(c, door))
                if door < self.state.n_doors and any(self.state.door_of(c) is None for c in chips):
                    self.do(Open())
        else:
            for c in chips:
                self.do(Chip(c, wrong_door if c in wrong else exit_door))
        for _ in range(sand):
            if self.state.phase == "doors":
                self.do(Sand())
        while self.state.phase == "doors":
            self.do(Done() if not late else Sand())
        self.do(Exit(exit_door))

    def accuse(self, votes: dict, traitor_found=None):
        self.do(Sand())  # the minute of talk is over
        self.do(Votes(tuple(votes.items())))
        if self.state.phase == "loyalty":
            self.do(Loyalty(traitor_found))

    def end(self):
        self.do(EndTurn())

    def _hand_draw(self) -> Draw:
        pool = [t for t in TRAPS for _ in range(self.state.bag.get(t, 0))]
        due, drawn = self.state.draws_due, []
        while due > 0 and pool:
            trap = pool.pop(self.rng.randrange(len(pool)))
            drawn.append(trap)
            due += 1 if trap == PLUS2 else -1
        return Draw(tuple(drawn))


FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))
SIX = (("Ana", "blue"), ("Bruno", "green"), ("Carla", "grimoire"), ("Diego", "red"), ("Elena", "yellow"),
       ("Fran", "orange"))


def wizards_escape() -> Director:
    """5 players, the app draws the traps; six rooms crossed with a few wrong doors; Rita was the Traitor."""
    t = Director(Setup(players=FIVE, bag="app", seed=21), seed=21)
    t.turn(3, wrong=("red",), sand=1)
    t.end()
    t.turn(5, wrong=("red", "green"))
    t.end()
    t.turn(2, sand=2)
    t.end()
    t.turn(6, wrong=("blue",), sand=1)
    t.end()
    t.turn(4, wrong=("yellow",), sand=1)  # the marker reaches the last space: the Watcher is active
    t.end()
    t.turn(2, wrong=("red", "green"))     # a chip on the Exit while on the last space: the escape
    t.do(Unmask("red"))
    return t


def traitor_wins() -> Director:
    """5 players with the numbers of the group's own box (12 tokens), traps drawn from the real bag: wrong doors
    empty the normal area, two false accusations follow, and the last token goes: Yago, the Traitor, wins alone."""
    setup = Setup(players=FIVE, bag="physical", seed=6, difficulty="Expert", cohesion=12, dark=5)
    t = Director(setup, seed=6)
    t.turn(2, wrong=("blue", "red", "yellow"), sand=1)
    t.end()
    t.turn(4, wrong=("green", "yellow"), sand=2)
    t.end()
    t.turn(6, wrong=("blue",), late=("green",), sand=3)  # Gus never placed his chip before "Stop!"
    t.accuse({"blue": "green", "green": "blue", "red": "blue", "yellow": "blue"})
    t.accuse({"blue": "red", "green": "red", "red": "green", "yellow": "red"})
    t.do(Unmask("yellow"))
    return t


def accusation_exposes_the_traitor() -> Director:
    """6 players, real bag and real loyalty cards: a tied vote accuses two loyal wizards, the next round exposes
    Elena; the group plays on without her chip (she still picks decoys in step 3) and escapes."""
    t = Director(Setup(players=SIX, bag="physical", seed=5), seed=5)
    t.turn(2, wrong=("yellow", "red"), sand=1)
    t.end()
    t.turn(5, wrong=("yellow", "blue", "green"), sand=2)
    t.end()
    t.turn(1, wrong=("yellow", "green", "red", "blue"))
    t.end()
    t.turn(3, wrong=("yellow", "orange", "red", "blue"))
    # Normal area empty: Blue and Red tie with 2 votes each; both show Loyal cards (4 tokens to the box).
    t.accuse({"blue": "red", "green": "blue", "red": "blue", "yellow": "red", "orange": "green"})
    t.accuse({"blue": "yellow", "green": "yellow", "red": "yellow", "yellow": "orange", "orange": "yellow"},
             traitor_found="yellow")
    t.end()
    t.turn(6)
    t.end()
    t.turn(4)
    return t


GAMES = {
    "obscurio-5p-wizards-escape": wizards_escape,
    "obscurio-5p-traitor-wins": traitor_wins,
    "obscurio-6p-accusation": accusation_exposes_the_traitor,
}


def make(name: str) -> str:
    t = GAMES[name]()
    lines = [json.dumps({"format": 1, "game": "obscurio", "setup": t.state.setup.to_json()}, sort_keys=True)]
    lines += [json.dumps({"action": a.to_json()}, sort_keys=True) for a in t.actions]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------- replaying the committed files

def replay(path: Path) -> tuple[State, list]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = lines[0]
    assert header["format"] == 1 and header["game"] == "obscurio"
    state = new_game(Setup.from_json(header["setup"]))
    actions = []
    for entry in lines[1:]:
        assert set(entry) == {"action"}
        action = action_from_json(entry["action"])
        state = state.apply(action)
        actions.append(action)
    return state, actions


def example(name: str) -> Path:
    return EXAMPLES / f"{name}.jsonl"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_example_replays_to_its_end_and_is_what_the_script_makes(name):
    state, _ = replay(example(name))
    assert state.is_over and state.outcome() is not None
    assert State.from_json(state.to_json()) == state
    assert example(name).read_text(encoding="utf-8") == make(name)  # regenerate with --write after engine changes


def test_the_wizards_escape():
    state, actions = replay(example("obscurio-5p-wizards-escape"))
    out = state.outcome()
    assert out.detail["side"] == "wizards" and state.progress == 6
    assert out.winners == ("grimoire", "blue", "green", "yellow")
    assert actions[-1] == Unmask("red") and state.setup.bag == "app"
    assert "winners: Gala, Bea, Gus, Yago" in describe(state)


def test_the_traitor_wins_alone():
    state, actions = replay(example("obscurio-5p-traitor-wins"))
    out = state.outcome()
    assert out.detail["side"] == "traitor" and out.winners == ("yellow",)
    assert state.cohesion_left == 0 and state.setup.bag == "physical" and state.setup.cohesion == 12
    assert state.cleared == ("blue", "red")  # two false accusations: the second took the last token
    assert [a for a in actions if isinstance(a, Loyalty)] == [Loyalty(None), Loyalty(None)]
    assert actions[-1] == Unmask("yellow") and not state.exposed


def test_an_accusation_exposes_the_traitor():
    state, actions = replay(example("obscurio-6p-accusation"))
    assert state.exposed and state.traitor == "yellow" and state.cleared == ("blue", "red")
    assert [a for a in actions if isinstance(a, Loyalty)] == [Loyalty(None), Loyalty("yellow")]
    assert len([a for a in actions if isinstance(a, Votes)]) == 2
    assert state.chips == ("blue", "green", "red", "orange")  # Elena's chip left the table
    out = state.outcome()
    assert out.detail["side"] == "wizards" and out.winners == ("blue", "green", "grimoire", "red", "orange")


def test_the_examples_cover_the_brief():
    sides = set()
    for name in GAMES:
        state, actions = replay(example(name))
        sides.add(state.side)
    assert sides == {"wizards", "traitor"}
    assert {p.name for p in EXAMPLES.glob("obscurio-*.jsonl")} == {f"{n}.jsonl" for n in GAMES}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    EXAMPLES.mkdir(exist_ok=True)
    for name in GAMES:
        example(name).write_text(make(name), encoding="utf-8")
        print(f"wrote examples/{name}.jsonl")
