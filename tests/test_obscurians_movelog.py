"""The move log in the players' words: one line per effective action, built by the engine from (state before,
action, state after) as a template and game words, like a refusal; translated word by word
(companion/i18n/messages.py translate_message)."""
import pytest

from companion.games.errors import Term
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal,
    Swap,
)
from companion.games.obscurians.constants import FACE_DOWN
from companion.games.obscurians.movelog import move_line, move_lines
from companion.games.obscurians.randplay import random_game
from companion.games.obscurians.setup import Setup
from companion.games.obscurians.state import new_game
from companion.i18n.extract import rules_msgids
from companion.i18n.messages import translate_message

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))


def line(state, action):
    return move_line(state, action, state.apply(action))


def start(event="double_steal"):
    return new_game(Setup(players=PLAYERS, deck="physical")).apply(RevealEvent(event))


def test_each_kind_of_move_in_players_words():
    s0 = new_game(Setup(players=PLAYERS, deck="physical"))
    assert str(line(s0, RevealEvent("double_steal"))) == "Anna revealed double_steal"
    s = start()
    assert str(line(s, PlaceChip("blue", "keep"))) == "Anna placed a Keep chip on Ben"
    assert str(line(s, Roll(("wild", "steal", "swap", "steal", "relocate")))) == \
        "Anna rolled Steal, Steal, Swap, Relocate, Wild"
    r = s.apply(Roll(("steal", "steal", "swap", "wild", "relocate")))
    assert str(line(r, Reroll((2,), ("steal",), FACE_DOWN))) == \
        "Anna discarded a chip face down and rerolled: Steal, Steal, Steal, Relocate, Wild"
    assert str(line(r, Reroll((2,), ("steal",), "keep"))).startswith("Anna discarded the Keep chip and rerolled")
    assert str(line(r, Choose("steal", 1))) == "Anna chose Steal × 6, using 1 Wild"
    assert str(line(r, Choose("relocate", 0))) == "Anna chose Relocate × 1"
    c = r.apply(Choose("steal", 0))
    assert str(line(c, Steal("blue", "blue"))) == "Anna stole 1 blue good from Ben"
    steal = Steal("blue", "blue")
    assert str(line(c, steal)) == str(move_line(c, steal, c.apply(steal)))
    d = start("double_donate").apply(Roll(("donate",) * 5)).apply(Choose("donate", 0))
    assert str(line(d, Donate("green", "lamp"))) == "Anna gave 1 magic lamp to Chris"
    w = start("double_swap").apply(Roll(("swap",) * 5)).apply(Choose("swap", 0))
    assert str(line(w, Swap("yellow", "red", "yellow"))) == \
        "Anna swapped with Dana: gave 1 red good, took 1 yellow good"
    sec = start("bonus_wild").apply(Roll(("secure", "steal", "steal", "swap", "swap"))).apply(Choose("secure", 0))
    assert str(line(sec, Secure(("red", "lamp")))) == "Anna put 1 red good and 1 magic lamp in the vault"
    ban = start("double_secure").apply(Roll(("secure", "secure", "steal", "swap", "swap"))).apply(Choose("secure", 0))
    every = ban.legal_actions()[0]
    assert str(line(ban, every)) == "Anna secured all their goods: trade ban until their next turn"
    rel = start().apply(Roll(("relocate",) * 5)).apply(Choose("relocate", 0))
    assert str(line(rel, Relocate("blue", "green", "blue"))) == "Anna moved 1 blue good from Ben to Chris"
    f = start("flip_the_die").apply(Roll(("steal", "steal", "swap", "wild", "relocate")))
    assert str(line(f, Flip((0,)))) == "Anna flipped dice: Steal, Donate, Swap, Relocate, Wild"
    a = start("all_actions_mandatory").apply(Roll(("steal", "wild", "swap", "wild", "relocate")))
    assert str(line(a, AssignWilds(("donate", "steal")))) == \
        "Anna carries out every die: Steal, Steal, Donate, Swap, Relocate"
    e = start("no_steal").apply(Roll(("steal",) * 5))
    assert str(line(e, EndTurn())) == "Anna passed the dice to Ben"


def test_the_end_of_a_round_says_who_starts_the_next():
    s = start("no_steal")
    for _ in range(4):
        s = s.apply(Roll(("steal",) * 5))
        last = s
        s = s.apply(EndTurn())
    assert str(move_line(last, EndTurn(), s)) == \
        "Dana ended round 1; Anna has the lamp and starts the next round"


def test_whole_games_narrate_every_move_with_known_templates_and_words():
    templates = rules_msgids()
    for seed in range(4):
        setup, actions = random_game(seed, 4 + seed % 4, missions_known=False)
        lines = move_lines(new_game(setup), actions)
        assert len(lines) == len(actions)
        for ln in lines:
            assert ln.template in templates
            assert str(ln) and "{" not in str(ln)
            for value in ln.params.values():
                for word in (value if isinstance(value, tuple) else (value,)):
                    assert not isinstance(word, Term) or word.vocab in ("action", "colour", "good", "mission", "event")
        assert lines[-1].template == "The missions were revealed and the game was scored"


@pytest.mark.parametrize("lang, expected", [
    ("en", "Anna stole 1 blue good from Ben"),
    ("de", "Anna raubt Ben: 1 Ware blau"),
    ("es", "Anna roba a Ben: 1 mercancía de color azul"),
])
def test_a_line_in_each_language(lang, expected):
    c = start().apply(Roll(("steal",) * 5)).apply(Choose("steal", 0))
    assert translate_message(line(c, Steal("blue", "blue")), lang) == expected


def test_the_words_of_a_list_are_translated_one_by_one():
    r = start().apply(Roll(("steal", "steal", "swap", "wild", "relocate")))
    before = start()
    assert translate_message(move_line(before, Roll(r.dice), r), "de") == \
        "Anna würfelt Rauben, Rauben, Tauschen, Verschieben, Joker"
    physical = new_game(Setup(players=PLAYERS, deck="physical"))
    assert translate_message(move_line(physical, RevealEvent("double_steal"), start()), "en") == \
        "Anna revealed Double Steal"
