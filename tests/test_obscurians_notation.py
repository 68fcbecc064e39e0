"""The Obscurians action notation: the contract's text and JSON forms, round trips, and errors naming the field."""
import pytest

from companion.games.errors import InvalidInput
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Reroll, Roll,
    Secure, Steal, Swap, action_from_json, action_from_text,
)

# (text as the contract writes it, the action)
EXAMPLES = [
    ("reveal double_steal", RevealEvent("double_steal")),
    ("chip blue keep", PlaceChip("blue", "keep")),
    ("roll steal steal swap wild relocate", Roll(("steal", "steal", "swap", "wild", "relocate"))),
    ("reroll 0,3 swap wild keep", Reroll((0, 3), ("swap", "wild"), "keep")),
    ("reroll 0,3 swap wild free", Reroll((0, 3), ("swap", "wild"), None)),
    ("flip 1,4", Flip((1, 4))),
    ("choose steal 1", Choose("steal", 1)),
    ("assign steal secure", AssignWilds(("steal", "secure"))),
    ("steal blue lamp", Steal("blue", "lamp")),
    ("donate blue green", Donate("blue", "green")),
    ("swap blue green blue", Swap("blue", "green", "blue")),
    ("secure green,lamp", Secure(("green", "lamp"))),
    ("relocate blue red green", Relocate("blue", "red", "green")),
    ("end", EndTurn()),
    ("missions keep take give lose", RevealMissions(("keep", "take", "give", "lose"))),
]


@pytest.mark.parametrize("text,action", EXAMPLES, ids=[t for t, _ in EXAMPLES])
def test_contract_examples_parse_and_print_back(text, action):
    assert action_from_text(text) == action
    assert action.to_text() == text
    assert action_from_json(action.to_json()) == action
    assert action.to_json()["type"] == text.split()[0]


def test_json_fields_are_the_contract_names():
    assert Steal("blue", "lamp").to_json() == {"type": "steal", "victim": "blue", "good": "lamp"}
    assert Reroll((3, 0), ("wild", "swap"), None).to_json() == {
        "type": "reroll", "dice": [0, 3], "faces": ["swap", "wild"], "discard": None}
    assert Secure(("lamp", "green")).to_json() == {"type": "secure", "goods": ["green", "lamp"]}
    assert EndTurn().to_json() == {"type": "end"}


def test_equal_multisets_are_equal_actions():
    assert Secure(("lamp", "green")) == Secure(("green", "lamp"))
    assert AssignWilds(("secure", "steal")) == AssignWilds(("steal", "secure"))
    assert Reroll((3, 0), ("wild", "swap"), "keep") == Reroll((0, 3), ("swap", "wild"), "keep")


def test_a_trade_ban_without_goods_is_just_secure():
    assert Secure(()).to_text() == "secure" and action_from_text("secure") == Secure(())
    assert action_from_text("assign") == AssignWilds(())


@pytest.mark.parametrize("text,field", [
    ("steal purple lamp", "steal.victim"),
    ("steal blue gold", "steal.good"),
    ("roll steal steal swap wild", "roll.faces"),
    ("roll steal steal swap wild jump", "roll.faces[4]"),
    ("reroll 0,7 swap wild keep", "reroll.dice[1]"),
    ("reroll 0,x swap keep", "reroll.dice"),
    ("reroll 0,3 swap keep", "reroll.faces"),
    ("reroll 0 swap boss", "reroll.discard"),
    ("choose steal many", "choose.wilds"),
    ("choose dance 1", "choose.action"),
    ("assign relocate", "assign.kinds[0]"),
    ("chip blue", "chip"),
    ("fly away", "type"),
    ("", "action"),
    ("reveal joker", "reveal.card"),
    ("missions keep boss", "missions.missions[1]"),
])
def test_bad_text_names_the_field(text, field):
    with pytest.raises(InvalidInput) as err:
        action_from_text(text)
    assert str(err.value).startswith(field), str(err.value)


@pytest.mark.parametrize("d,field", [
    ({"type": "steal", "victim": "blue"}, "steal.good"),
    ({"type": "steal", "victim": "blue", "good": "lamp", "extra": 1}, "steal.extra"),
    ({"type": "choose", "action": "steal", "wilds": True}, "choose.wilds"),
    ({"type": "flip", "dice": [1, 1]}, "flip.dice"),
    ({"type": "secure", "goods": "green"}, "secure.goods"),
    ({"type": "reroll", "dice": [0], "faces": ["swap", "wild"], "discard": None}, "reroll.faces"),
    ({"victim": "blue"}, "type"),
    ([], "action"),
])
def test_bad_json_names_the_field(d, field):
    with pytest.raises(InvalidInput) as err:
        action_from_json(d)
    assert str(err.value).startswith(field), str(err.value)


def test_reroll_discard_may_be_omitted_in_json_for_the_free_reroll():
    assert action_from_json({"type": "reroll", "dice": [2], "faces": ["wild"]}) == Reroll((2,), ("wild",), None)
