"""The end of an Obscurio game as the table reads it, in English, German and Spanish: the headline and why (the end
screen), the Exit's result, the Traitor's reveal, the accusation's result, every player's part (the end screen's
roles and `companion replay`'s lines). Read through companion/ui/obscurio/texts.py and the catalogues, Kivy-free."""
import pytest

from companion.games.obscurio import Unmask
from companion.games.obscurio.vocabulary import ROLE
from companion.i18n import translations
from companion.ui.obscurio import texts
from test_obscurio_engine import FIVE, TWO, accusation, doors, escape, game, gauge, play


def t(lang: str):
    return translations(lang).gettext


def escaped():
    """The wizards escape with all 18 tokens left; Rita (red) turns out to be the Traitor."""
    before = escape(game())
    return before, play(before, "traitor red")


def traitor_won():
    s = gauge(doors(game(loyalty="app", seed=1)), normal=0, dark=2)
    return play(s, "chip blue 1", "chip green 2", "chip red 3", "chip yellow 4", "done", "exit 6")


def nobody_won():
    s = gauge(doors(game(TWO, companion="red")), normal=0, dark=2)
    return play(s, "chip blue 1", "chip red 1", "done", "exit 2")


HEADLINE = {
    "wizards": {"en": "The wizards escape!", "de": "Die Zauberer entkommen!", "es": "¡Los magos escapan!"},
    "traitor": {"en": "The Traitor wins!", "de": "Der Verräter gewinnt!", "es": "¡Gana el Traidor!"},
    "nobody": {"en": "Lost in the Library: nobody wins", "de": "Verloren in der Bibliothek: niemand gewinnt",
               "es": "Perdidos en la Biblioteca: nadie gana"},
}
WHY = {  # words each language's sentence says, whatever its grammar around them
    "wizards": {"en": ("escape the Library", "the loyal wizards and the Grimoire win"),
                "de": ("entkommen der Bibliothek", "die loyalen Zauberer und das Grimoire gewinnen"),
                "es": ("escapan de la Biblioteca", "ganan los magos leales y el Grimorio")},
    "traitor": {"en": ("from the dark area", "the Traitor wins alone"),
                "de": ("aus dem dunklen Bereich", "der Verräter gewinnt allein"),
                "es": ("del área oscura", "el Traidor gana solo")},
    "nobody": {"en": ("With 2 or 3 players there is no Traitor", "nobody wins"),
               "de": ("Mit 2 oder 3 Personen gibt es keinen Verräter", "gewinnt niemand"),
               "es": ("Con 2 o 3 jugadores no hay Traidor", "nadie gana")},
}
END_TITLE = {"en": "End of the game", "de": "Spielende", "es": "Fin de la partida"}


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_escape_is_announced_with_the_tokens_left_in_each_language(lang):
    _, s = escaped()
    headline, why = texts.ending(s, t(lang))
    assert headline == HEADLINE["wizards"][lang]
    assert s.cohesion_left == 18 and " 18 " in why
    for words in WHY["wizards"][lang]:
        assert words in why, why
    assert texts.title(s, t(lang)) == END_TITLE[lang]
    assert texts.exit_headline(s, lang) == {"en": "the wizards escape the Library!",
                                               "de": "die Zauberer entkommen der Bibliothek!",
                                               "es": "¡los magos escapan de la Biblioteca!"}[lang]


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("side, finished", [("traitor", traitor_won), ("nobody", nobody_won)])
def test_a_lost_game_says_who_won_and_why_in_each_language(lang, side, finished):
    s = finished()
    assert s.is_over and s.side == side
    headline, why = texts.ending(s, t(lang))
    assert headline == HEADLINE[side][lang]
    for words in WHY[side][lang]:
        assert words in why, why
    assert texts.title(s, t(lang)) == END_TITLE[lang]
    assert headline not in {HEADLINE[other][lang] for other in HEADLINE if other != side}


def test_the_traitors_reveal_and_the_last_accusation_are_said_by_name():
    before, s = escaped()
    assert texts.move(before, Unmask("red"), s, "en") == "The Traitor was Rita"
    assert texts.move(before, Unmask("red"), s, "de") == "Der Verräter war Rita"
    assert texts.move(before, Unmask("red"), s, "es") == "El Traidor era Rita"
    exposed = play(accusation(), "sand", "votes blue:red green:red red:blue yellow:red", "loyalty red")
    assert texts.accusation_result(exposed, t("en"), "en") == "Accused: Rita: the Traitor!"
    assert texts.accusation_result(exposed, t("de"), "de") == "Angeklagt: Rita: der Verräter!"
    cleared = play(accusation(), "sand", "votes blue:red green:red red:blue yellow:red", "loyalty none")
    assert texts.accusation_result(cleared, t("es"), "es") == "Acusados: Rita: leal, −2 a la caja"


def test_every_players_part_names_their_role_and_what_it_cost_them():
    _, s = escaped()
    out = s.outcome()
    parts = {p.name: [line.rule for line in p.lines] for p in out.players}
    assert parts["Gala"] == ["The Grimoire wins", "Rooms crossed: 6 of 6"]
    assert parts["Rita"][0] == "The Traitor loses"
    assert parts["Bea"][0] == "Loyal wizard wins"
    assert parts["Bea"][1].startswith("Wrong or missing doors: 0 cohesion token") and "the blue card" in parts["Bea"][1]
    # The end screen names each role in the table's language.
    roles = {p.name: p.extra["role"] for p in out.players}
    assert roles == {"Gala": "grimoire", "Bea": "loyal", "Gus": "loyal", "Rita": "traitor", "Yago": "loyal"}
    assert [t("de")(ROLE[roles[n]]) for n in ("Gala", "Bea", "Rita")] == ["Grimoire", "Loyal", "Verräter"]
    assert [t("es")(ROLE[roles[n]]) for n in ("Gala", "Bea", "Rita")] == ["Grimorio", "Leal", "Traidor"]


def test_a_wizard_cleared_by_an_accusation_and_an_exposed_traitor_have_it_on_their_line():
    cleared = play(accusation(), "sand", "votes blue:red green:red red:blue yellow:red", "loyalty none")
    cleared = gauge(cleared, normal=0, dark=1)
    over = play(cleared, "sand", "votes blue:green green:blue red:green yellow:green", "loyalty none", "traitor yellow")
    parts = {p.name: [line.rule for line in p.lines] for p in over.outcome().players}
    assert "Accused, showed a Loyal card" in parts["Rita"] and "Accused, showed a Loyal card" in parts["Gus"]
    assert parts["Yago"][0] == "The Traitor wins" and "Exposed by an accusation" not in parts["Yago"]
    exposed = play(accusation(), "sand", "votes blue:red green:red red:blue yellow:red", "loyalty red")
    exposed = play(replace_progress(exposed, 5), "end", "draw dark_night", "riddle", "decoys 0",
                   "chip blue 1", "chip green 2", "chip yellow 3", "done", "exit 1")
    parts = {p.name: [line.rule for line in p.lines] for p in exposed.outcome().players}
    assert parts["Rita"][0] == "The Traitor loses" and parts["Rita"][-1] == "Exposed by an accusation"


def replace_progress(state, progress):
    from dataclasses import replace

    return replace(state, progress=progress)


def test_the_two_player_companion_chip_has_its_own_line():
    s = nobody_won()
    parts = {p.name: [line.rule for line in p.lines] for p in s.outcome().players}
    assert parts["Bea"][0] == "Wizard loses"
    assert any(r.startswith("Companion chip: ") and "the red card" in r for r in parts["Bea"])
    assert FIVE[0][0] == "Gala" and parts["Gala"][0] == "The Grimoire loses"
