"""Obscurio's move log is the engine's (companion/games/obscurio/movelog.py): every line of whole random games is a
template of the `rules` catalogue, German and Spanish say it with the same names, and a companion chip's line
carries its own translated piece."""
from companion.games.errors import Message
from companion.games.obscurio import new_game
from companion.games.obscurio.movelog import chip_holder, move_line
from companion.games.obscurio.randplay import random_game
from companion.i18n.extract import rules_msgids
from companion.i18n.messages import translate_message
from test_obscurio_engine import TWO, game


def templates(message: Message) -> set[str]:
    """The message's template and those of the messages inside it."""
    inner = {t for v in message.params.values() if isinstance(v, Message) for t in templates(v)}
    return {message.template} | inner


def test_every_line_of_random_games_is_a_translated_template():
    ids, met = rules_msgids(), set()
    for seed, players in ((1, 2), (2, 3), (3, 5), (4, 7)):
        setup, actions = random_game(seed, players)
        s = new_game(setup)
        for action in actions:
            after = s.apply(action)
            line = move_line(s, action, after)
            for template in templates(line):
                assert template in ids, template
                met.add(template)
            english = translate_message(line, "en")
            assert english == str(line)
            for value in line.params.values():  # players' names stay as they are in every language
                if isinstance(value, str):
                    assert value in translate_message(line, "de") and value in translate_message(line, "es")
            s = after
    assert len(met) > 12


def test_the_companion_chips_line_nests_its_holder():
    setup = game(TWO, companion="red").setup
    name = setup.name_of("red")
    holder = chip_holder(setup, "red")
    assert isinstance(holder, Message)
    line = Message("{name}: door {door}", {"name": holder, "door": 3})
    assert translate_message(line, "en") == f"{name}'s companion: door 3"
    for lang in ("de", "es"):
        said = translate_message(line, lang)
        assert name in said and "3" in said and "{" not in said and "companion" not in said
