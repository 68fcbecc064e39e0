"""The committed Obelisk example games (examples/obelisk-*.jsonl) replay to the ending each one shows; this file also
makes them.

    .venv/bin/python tests/test_obelisk_examples.py --write

- obelisk-1p-win.jsonl: a solo game on a hand-laid spiral map with the real box (every draw told to the app),
  played by the scripted table below, which builds around the Portal, reinforces where a demon would otherwise get
  away and follows the advisor's plan every Night: every Stone Demon captured.
- obelisk-2p-scrolls-loop.jsonl: two players with the Scrolls, the app as the Dark Realm; lost to a loop.
- obelisk-3p-off-map.jsonl: three players with the real box and real dice, Rotating Leadership; lost off the map.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.obelisk import (
    Build, Capture, Dawn, March, Mine, Nightfall, Pay, Reinforce, Setup, Spawn, map_from_text, new_game,
)
from companion.games.obelisk import payments
from companion.games.obelisk.advisor import night_advice
from companion.games.obelisk.cycle import spawn_count
from companion.games.obelisk.exchange import NightTable, advise
from companion.games.obelisk.model import Stones
from companion.games.obelisk.paths import effective, reach, walk
from companion.games.obelisk.randplay import random_game
from companion.session.logfile import read_log, write_log

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# A spiral from the Portal in the middle, the six Grass tiles around it, ending at A1 (and off the map); the four
# Mountains removed from the top row.
SPIRAL_MAP = "FN -- -- -- -- / FN GE FE FE CS / FN GN PE GS FS / CN GN GW GW FS / FN CW FW FW CW"
AROUND_PORTAL = [(2, 2), (2, 3), (3, 2), (3, 3)]
FURTHER = [(4, 1), (4, 3), (2, 1), (3, 4), (1, 2)]
DRAWS = ["green"] * 10 + ["yellow"] * 4 + ["green"] * 6 + ["yellow"] * 8 + ["blue"] * 8


class Director:
    """A solo table with the real box: it draws `DRAWS` in that order, builds five Obelisks (around the Portal
    first), reinforces the Portal's to 3 and then wherever +1 lets an Obelisk catch a demon still walking, mines
    otherwise, and captures what the advisor's plan (the Night exchange, with tonight's draw known to the director)
    says."""

    def __init__(self):
        self.setup = Setup(players=(("Ana", "green"),), map=map_from_text(SPIRAL_MAP), difficulty="even_easier",
                           realm="table", quarry=Stones(blue=2))
        self.state = new_game(self.setup)
        self.actions = []
        self.draws = list(DRAWS)

    def do(self, action):
        self.state = self.state.apply(action)
        self.actions.append(action)

    def play(self):
        while not self.state.is_over:
            {"day": self.day, "march": self.march, "spawn": self.spawn, "swarm": self.swarm}[self.state.phase]()
        return self

    def day(self):
        s = self.state
        if not s.acting:
            return self.do(Nightfall())
        built = [o.corner for o in s.obelisks]
        if len(built) < 5:
            return self.do(Build("green", next(c for c in AROUND_PORTAL + FURTHER if c not in built)))
        weak = sorted((o for o in s.obelisks if o.corner in AROUND_PORTAL and o.strength < 3),
                      key=lambda o: (o.strength, AROUND_PORTAL.index(o.corner))) or self.wanted()
        if weak:
            stones = [p for p in payments.sensible(s, "green") if not p.die]
            if stones:
                return self.do(Reinforce("green", weak[0].corner, stones[0]))
            if s.unplaced[0]:
                return self.do(Reinforce("green", weak[0].corner, Pay(die=True)))
        self.do(Mine("green"))

    def wanted(self):
        """Obelisks one point short of catching a demon somewhere on its way, the smallest gap first."""
        s, out = self.state, []
        for d in s.demons:
            cells = walk(s.map, d.visited).cells
            for o in s.obelisks:
                near = [c for c in cells if c in reach(o, s.map)]
                if near and o.strength < 6:
                    gap = min(s.strength(d.colour) - effective(o, s.map[c].kind) for c in near)
                    if gap > 0:
                        out.append((gap, o.corner, o))
        return [o for _, _, o in sorted(out, key=lambda t: t[:2])]

    def march(self):
        s = self.state
        night = NightTable(s.map, s.obelisks, tuple((d.colour, d.visited) for d in s.demons),
                           tuple(self.draws[:spawn_count(s)]))
        answer, _ = advise(night)
        ids = [d.id for d in s.demons]
        for p in answer["plan"]:
            if p["demon"].startswith("demons"):
                self.do(Capture(night.obelisks[p["obelisk"]].corner, ids[int(p["demon"][7:-1])], p["step"]))
        self.do(March())

    def spawn(self):
        k = spawn_count(self.state)
        self.do(Spawn(tuple(self.draws[:k])))
        del self.draws[:k]

    def swarm(self):
        advice = night_advice(self.state)
        if advice and advice.captures:
            c = advice.captures[0]
            return self.do(Capture(c.obelisk, c.demon, c.step))
        self.do(Dawn())


def make(name: str) -> str:
    if name == "obelisk-1p-win":
        d = Director().play()
        setup, actions = d.setup, d.actions
    elif name == "obelisk-2p-scrolls-loop":
        setup, actions = random_game(28, 2, scrolls=True)
    else:
        setup, actions = random_game(102, 3, realm="table", dice="table", scrolls=False, leadership=True)
    return write_log("obelisk", setup.to_json(), [("action", a.to_json()) for a in actions])


ENDINGS = {"obelisk-1p-win": ("won", None), "obelisk-2p-scrolls-loop": ("lost", "loop"),
           "obelisk-3p-off-map": ("lost", "off-map")}


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_each_example_replays_through_the_command_line_to_its_ending(name):
    path = EXAMPLES / f"{name}.jsonl"
    result = subprocess.run([sys.executable, "-m", "companion", "replay", str(path), "--json"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    result_, end = ENDINGS[name]
    outcome = out["outcome"]
    assert out["game"] == "obelisk" and outcome["result"] == result_
    assert (outcome["loss"] or {}).get("end") == end
    log = read_log(path.read_text(encoding="utf-8"))
    if result_ == "won":
        assert outcome["winners"] == list(log.setup.colours) and outcome["captured"] == log.setup.horde.total
        assert not out["state"]["demons"] and out["state"]["realm"] == {"green": 0, "yellow": 0, "blue": 0}
    else:
        assert outcome["winners"] == [] and outcome["why"].startswith(f"Night {out['state']['day']}: ")
    plain = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                           cwd=ROOT, timeout=60)
    assert plain.returncode == 0 and outcome["why"] in plain.stdout


def test_the_examples_are_what_this_code_makes():
    for name in ENDINGS:
        assert (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8") == make(name), \
            f"run: .venv/bin/python tests/test_obelisk_examples.py --write ({name} changed)"


def test_the_examples_show_the_features():
    logs = {name: read_log((EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8")) for name in ENDINGS}
    types = {name: {p["type"] for kind, p in log.entries} for name, log in logs.items()}
    assert {"spawn", "capture", "reinforce", "build", "mine"} <= types["obelisk-1p-win"]
    assert "charge" in types["obelisk-2p-scrolls-loop"] and logs["obelisk-2p-scrolls-loop"].setup.scrolls
    assert {"spawn", "pass"} <= types["obelisk-3p-off-map"] and logs["obelisk-3p-off-map"].setup.leadership


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    for example in ENDINGS:
        (EXAMPLES / f"{example}.jsonl").write_text(make(example), encoding="utf-8")
        print(f"wrote examples/{example}.jsonl")
