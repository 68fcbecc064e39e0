"""Loyalty cards dealt by the app, seen in private: each wizard holds their own card; nothing secret is ever on
the shared screen (no widget holds the word, not even a hidden one), and the screens do not depend on who the
Traitor is. After the deal a card shows only on a deliberate request by its holder, and the look is noted in the
move log (and kept by Undo). Two tables whose deals differ (seeds 1 and 3: Eli, then Dani is the Traitor) are
compared.

Their traps come from the group's real bag (+2, Locked Doors, Great Room, tapped in), so both tables then play the
same step 4: 7 doors revealed one at a time."""
from __future__ import annotations

import pytest

from companion.games.obscurio.setup import deal_traitor
from companion.ui.obscurio.texts import FIRST_CARD_FIRST
from tests.ui.obscurio_run import run_driver

pytestmark = pytest.mark.ui
WIZARDS = ("blue", "green", "red", "yellow")
NAMES = {"blue": "Bea", "green": "Cruz", "red": "Dani", "yellow": "Eli"}
CARD_WORDS = {"Loyal", "Traitor"}


@pytest.fixture(scope="module")
def deals(tmp_path_factory):
    out = {}
    for seed in (1, 3):
        data = tmp_path_factory.mktemp(f"deal{seed}")
        out[seed] = run_driver("deal", "--data-dir", str(data), "--seed", str(seed), out=data / "result.json")
    return out


def test_the_two_deals_differ(deals):
    assert deal_traitor(1, WIZARDS) != deal_traitor(3, WIZARDS)


def test_each_wizard_sees_only_their_own_card_while_holding_it(deals):
    for seed, result in deals.items():
        traitor = NAMES[deal_traitor(seed, WIZARDS)]
        holding = {s["who"]: s["texts"] for s in result["states"] if s["when"] == "holding"}
        assert set(holding) == set(NAMES.values())
        for who, texts in holding.items():
            words = [t for t in texts if t in CARD_WORDS]
            assert words == (["Traitor"] if who == traitor else ["Loyal"]), (seed, who, texts)
            before = next(s["texts"] for s in result["states"] if s["who"] == who and s["when"] == "before")
            # Holding changes the card's word and nothing else on the screen.
            assert [t for t in texts if t not in CARD_WORDS] == [t for t in before if t != "Hold here"]


def test_nothing_secret_anywhere_else(deals):
    for result in deals.values():
        shared = [s["texts"] for s in result["states"] if s["when"] != "holding"]
        shared += [result["table_texts"], result["again_texts"], result["step4_texts"], result["request_texts"]]
        for texts in shared:
            assert not CARD_WORDS & set(texts), texts
    # Whoever the Traitor is, every screen state outside the held card shows exactly the same texts.
    a, b = deals[1], deals[3]
    assert [s for s in a["states"] if s["when"] != "holding"] == [s for s in b["states"] if s["when"] != "holding"]
    assert a["table_texts"] == b["table_texts"] and a["again_texts"] == b["again_texts"]


def test_a_look_after_the_deal_is_a_deliberate_request_and_is_noted(deals):
    for r in deals.values():
        assert r["again_texts"][0] == ("Who wants to look at their own loyalty card? Only that wizard looks, and the "
                                       "look is noted in the move log.")
        assert r["request_texts"][:2] == ["Only Cruz looks. Everyone else, look away.",
                                          "This look is noted in the move log."]
        assert [t for t in r["looked_holding"] if t in CARD_WORDS] in (["Loyal"], ["Traitor"])
        assert r["log_after_look"][0] == "Cruz looked at their loyalty card"
        assert r["undo_after_look"] == "Undo"             # a look is noted, not a move Undo could take back


def test_the_game_waits_until_every_wizard_has_looked(deals):
    for result in deals.values():
        assert result["early_finish"] == "Not everyone has seen their card: Bea, Cruz, Dani, Eli"


def test_traps_from_the_real_bag_and_locked_doors(deals):
    for r in deals.values():
        assert r["draw_prompt"] == "Draw 1 trap token"
        assert r["drawn_2"] == "These are our tokens (2 of 3)"          # the +2 made it 3 …
        assert r["prompt_after_plus2"] == "Draw 3 trap tokens: 1, plus 2 for each +2"   # … and the header says so
        assert r["drawn_3"] == "These are our tokens (3 of 3)"
        assert r["riddle_detail"] == ""                                   # step 2 does not repeat the +2's rule
        assert r["chip_before_glass"] == FIRST_CARD_FIRST
        assert r["too_many"] == "All 3 tokens are in: confirm them, or take one out"
        assert r["traps"] == ["plus2", "great_room", "locked_doors"]
        assert r["trap_rows"] == ["+2", "Great Room", "Locked Doors"]
        assert r["heads"] == [["1", "new"]] + [[str(d), "closed"] for d in range(2, 8)]
        assert r["locked_refusal"] == "Under Locked Doors only the door just revealed (#1) can be chosen"
        assert r["done_refusal"] == "Reveal the remaining doors first, or every chip must have chosen one"
        assert r["opened"] == 7 and r["after_done"] == "exit"
        assert r["exit"]["costs"][:2] == ["Bea: −1", "Eli: −1 (no door)"]   # Eli declined every door
    assert deals[1]["step4_texts"] == deals[3]["step4_texts"]
