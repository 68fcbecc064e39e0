"""The accusation screen by touch, on a table left in the Accusation Phase (a real tables file): what the turn
cost first (the glass waits), the minute of talk, every wizard's vote (taken back, changed), a tie accusing both,
their Loyal cards costing 2 tokens each to the box (the next round's result counts them), a round where everyone
abstains (nothing lost), a Loyal wizard accused alone with the last tokens — the Traitor wins, and the group taps
who it was."""
from __future__ import annotations

import pytest

from companion.games.obscurio import Chip, Decoys, Done, Draw, Exit, Riddle, Setup
from companion.games.obscurio.state import new_game
from companion.session.store import TableStore
from companion.session.table import Table
from tests.ui.obscurio_run import run_driver

pytestmark = pytest.mark.ui
PLAYERS = (("Gala", "grimoire"), ("Bea", "blue"), ("Cruz", "green"), ("Dani", "red"), ("Eli", "yellow"))
PLAIN = {"locked_doors", "dangerous_room", "evanescent_room"}   # traps that would change this turn's arithmetic


def table_in_accusation(data) -> int:
    """Turn 1 with every chip on a wrong door: the 4 tokens of the normal area are gone, 5 dark ones left."""
    seed = next(s for s in range(1, 200)
                if not PLAIN & set(new_game(Setup(PLAYERS, cohesion=9, dark=5, seed=s)).legal_actions()[0].traps))
    setup = Setup(PLAYERS, cohesion=9, dark=5, seed=seed)
    with TableStore(data) as store:
        table = Table.create(store, "obscurio", setup, title="accusation")
        draw = next(a for a in table.state.legal_actions() if isinstance(a, Draw))
        for action in (draw, Riddle(), Decoys(0), *(Chip(c, 2) for c in setup.wizards), Done(), Exit(1)):
            table.apply(action)
        assert table.state.phase == "discussion" and (table.state.normal, table.state.dark) == (0, 5)
        return table.id


def test_votes_ties_repeats_and_the_end(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    table_id = table_in_accusation(data)
    r = run_driver("accuse", "--data-dir", str(data), out=tmp_path / "result.json")
    exit_costs = ["Bea: −1", "Cruz: −1", "Dani: −1", "Eli: −1"]
    assert r["result"] == {"view": "ObsoAccuseResultView", "lines": exit_costs + ["Cohesion tokens lost this turn: 4"]}
    assert r["round1"]["view"] == "ObsoTalkView" and r["round1"]["time"] == "1:00"
    assert r["incomplete"] == "Still to vote or abstain: Bea, Cruz, Dani, Eli"
    assert r["count_text_taken_back"] == "Count the votes (3 of 4)"
    assert r["accused"] == ["blue", "green"]
    assert r["loyalty_prompt"] == "Accused: Bea, Cruz. Show your loyalty cards: who showed the Traitor card?"
    assert r["card_options"] == ["Bea: Traitor", "Cruz: Traitor", "Nobody: every card shown is Loyal"]
    assert r["round2"] == {"result": "Accused: Bea: Loyal, −2 to the box; Cruz: Loyal, −2 to the box", "box": 4,
                           "dark": 1, "cohesion": "0 + 1", "round": 2,
                           "lines": exit_costs + ["Bea: accused, Loyal: −2 to the box",
                                                  "Cruz: accused, Loyal: −2 to the box",
                                                  "Cohesion tokens lost this turn: 8"]}
    assert r["round3"] == {"result": "Everyone abstained: nobody is accused", "box": 4, "round": 3}
    assert r["unmask"]["headline"] == "The Traitor wins!"
    assert r["unmask"]["prompt"] == "Everyone, turn your loyalty card over: who was the Traitor?"
    assert r["unmask"]["options"] == [["Bea", False], ["Cruz", False], ["Dani", False], ["Eli", True]]
    assert r["unmask_refused"] == "Cruz (green) showed a Loyal card when accused"
    assert r["over"]["side"] == "traitor" and r["over"]["prompt"] == "The Traitor was Eli"
    assert r["over"]["players"][4] == "Eli — Traitor · wins · tokens taken: 1"
    with TableStore(data) as store:
        state = Table.open(store, table_id).state
    assert state.is_over and state.traitor == "yellow" and state.cleared == ("blue", "green", "red")
    assert state.cohesion_left == 0
