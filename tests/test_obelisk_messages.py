"""Obelisk's sentences for players — refusals, advice, the move log — are templates of the `rules` catalogue with
German and Spanish translations, and every one met in play rebuilds its English text from its params."""
from __future__ import annotations

import random

import pytest

from companion.games.errors import IllegalAction, Term
from companion.games.obelisk import (
    Aim, Build, Capture, Charge, Dawn, Decipher, March, Mine, Nightfall, Pay, Reinforce, Reroll, Roll, Rotate, Spawn,
    Timeout, new_game,
)
from companion.games.obelisk.advisor import night_advice, rotate_choices, routes
from companion.games.obelisk.legal import captures
from companion.games.obelisk.movelog import move_line
from companion.games.obelisk.randplay import random_action, random_setup
from companion.games.obelisk.vocabulary import TERMS
from companion.i18n.extract import rules_msgids
from companion.i18n.messages import translate_message

from tests.obelisk_helpers import make_setup, ob, position

MAP = "PE GE FS CW GN / GN FN FS GW FW / CE GS FE FS -- / FN FE GE CE GS / GW -- FN -- --"


def check(message, ids, met):
    assert message.template in ids, message.template
    assert str(message) == message.template.format(**message.params)
    for value in message.params.values():
        for term in value if isinstance(value, tuple) else (value,):
            if isinstance(term, Term):
                assert term.code in TERMS[term.vocab] or term.vocab == "action", term
    for lang in ("de", "es"):
        assert translate_message(message, lang) != str(message) or not any(c.isalpha() for c in message.template)
    met.add(message.template)


def candidates(s, rng):
    yield Build("green", (0, 0))
    yield Mine("blue")
    yield Rotate("green", (((0, 0), "N"),))
    yield Rotate("yellow", (((0, 0), "N"), ((0, 1), "S"), ((0, 2), "S"), ((0, 3), "S")))
    yield Reinforce("green", (1, 1), Pay(green=3))
    yield Reinforce("blue", s.obelisks[0].corner if s.obelisks else (1, 1), Pay(blue=2))
    yield Charge("green", "longbow", (1, 1), Pay(blue=2), aim="NE")
    yield Reroll("green", (1, 1))
    yield Aim("green", (1, 1), "NE")
    yield from (Dawn(), March(), Spawn(("green",)), Decipher("burnout"), Roll((1, 1), 3), Timeout(), Nightfall())
    yield from rng.sample(captures(s), min(3, len(captures(s))))
    yield Capture((5, 5), 1, 9)
    yield from s.legal_actions()[:3]


def test_every_sentence_met_in_play_is_a_translated_template():
    ids, met = rules_msgids(), set()
    for seed in range(12):
        rng = random.Random(seed)
        s = new_game(random_setup(rng, seed, 1 + seed % 4, scrolls=seed % 2 == 0))
        while not s.is_over:
            for action in candidates(s, rng):
                try:
                    s.apply(action)
                except IllegalAction as err:
                    check(err, ids, met)
            for route in routes(s):
                check(route.said, ids, met)
            advice = night_advice(s)
            for reason in advice.reasons if advice else ():
                check(reason, ids, met)
            action = random_action(s, rng)
            after = s.apply(action)
            check(move_line(s, action, after), ids, met)
            s = after
    assert len(met) > 45


def test_the_move_log_in_three_languages():
    s = position(make_setup(MAP, 2), phase="march", obelisks=[ob((1, 2), "green", 5)],
                 demons=[("blue", [(0, 0), (0, 1)])])
    after = s.apply(Capture((1, 2), 1, 0))
    line = move_line(s, Capture((1, 2), 1, 0), after)
    assert str(line) == "the blue demon was captured on B1 by the Obelisk on corner C2"
    assert translate_message(line, "de") == "der blaue Dämon wurde auf B1 vom Obelisken an Ecke C2 gefangen"
    assert translate_message(line, "es") == "el demonio azul fue capturado en B1 por el obelisco de la esquina C2"
    day = new_game(make_setup(MAP, 2))
    turned = Rotate("green", (((0, 1), "S"), ((2, 2), "W")))
    assert str(move_line(day, turned, day.apply(turned))) == "Ana turned B1 ↓, C3 ←"


def test_a_rotate_choice_explains_itself():
    s = new_game(make_setup(MAP, 2))
    best = rotate_choices(s)[0]
    texts = [translate_message(r, "de") for r in best.reasons()]
    assert texts[-1].startswith("Neue Dämonen gehen vom Portal")


@pytest.mark.parametrize("lang, expected", [
    ("en", "The Obelisk on corner E2 has strength 2 on the Crystal at D1, the yellow demon has 3"),
    ("de", "Der Obelisk an Ecke E2 hat auf Kristall (D1) Stärke 2, der gelbe Dämon hat 3"),
    ("es", "El obelisco de la esquina E2 tiene fuerza 2 en Cristales (D1); el demonio amarillo tiene 3"),
])
def test_a_refusal_names_the_land_the_strength_and_the_demon(lang, expected):
    s = position(make_setup(MAP, 2), phase="march", obelisks=[ob((1, 4), "green", 4)],
                 demons=[("yellow", [(0, 0), (0, 1), (0, 2), (0, 3)])])
    with pytest.raises(IllegalAction) as info:
        s.apply(Capture((1, 4), 1, 0))
    assert translate_message(info.value, lang) == expected
