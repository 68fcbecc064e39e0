"""Engine refusals are translatable: IllegalAction.of carries an English template, rules.po translates it.

See companion/i18n/messages.py. English (str(err)) stays exactly as the engine always wrote it.
"""
import pickle
import random
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games.errors import IllegalAction, Term
from companion.games.obscurians import (
    Choose, Donate, EndTurn, PlaceChip, RevealEvent, RevealMissions, Roll, Secure, Setup, Steal, new_game,
)
from companion.games.obscurians.constants import ACTION_KINDS, COLOURS, EVENTS, MISSIONS, SANDSTORM, UNCOLOURED
from companion.games.obscurians.randplay import random_action, random_setup
from companion.i18n import RULES_DOMAIN, po_path, translations
from companion.i18n.extract import plain_illegal_actions_in, rules_msgids
from companion.games.obscurians.vocabulary import TERMS as VOCABULARY
from companion.i18n.messages import translate_message, translate_word

GAMES = Path(__file__).resolve().parent.parent / "companion" / "games"
PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))


def fields(s: str) -> set:
    return {(name, conv, spec) for _, name, spec, conv in string.Formatter().parse(s) if name is not None}


def catalogue(lang: str) -> dict:
    with po_path(lang, RULES_DOMAIN).open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale=lang) if m.id}


def refusal(state, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    return info.value


def physical(card="no_swap"):
    """Round 1 of a physical-deck game, Anna to roll after revealing `card`."""
    return new_game(Setup(players=PLAYERS, deck="physical")).apply(RevealEvent(card))


# ----------------------------------------------------------------- the engine raises only translatable refusals

@pytest.mark.parametrize("path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES)))
def test_engine_raises_illegal_action_only_through_templates(path):
    assert plain_illegal_actions_in(path.read_text(encoding="utf-8"), str(path)) == []


def test_extractor_finds_the_templates():
    ids = rules_msgids()
    assert "{name}'s goods are secured until their next turn" in ids
    assert "No {kind} this round (event card)" in ids
    assert "{name} has no free {good}" in ids  # one branch of a conditional template
    assert "Roll the dice before you flip dice" in ids  # marked with N_
    assert "Expected {n} missions, one per player, got {got}" in ids  # setup.py, marked with N_
    assert len(ids) > 70


def _candidates(state):
    goods = COLOURS + UNCOLOURED
    yield from (RevealEvent(c) for c in EVENTS + (SANDSTORM, "bogus"))
    yield from (PlaceChip(c, m) for c in COLOURS for m in MISSIONS)
    yield Roll(("steal",) * 5)
    yield from (Choose(k, w) for k in ACTION_KINDS + ("wild",) for w in (0, 1, 3))
    yield from (Steal(c, g) for c in COLOURS for g in goods)
    yield from (Donate(c, g) for c in COLOURS[:3] for g in goods)
    yield from (Secure(gs) for gs in ((), ("red",), ("lamp", "lamp"), ("red", "blue", "green")))
    yield EndTurn()
    yield RevealMissions(MISSIONS[:state.n_players - 1])
    yield RevealMissions(("keep",) * state.n_players)


def test_every_refusal_met_in_play_is_a_known_template():
    """Random games, and at each state a battery of actions: each refusal's template is extracted and its params
    rebuild the English message."""
    ids, met = rules_msgids(), set()
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(random_setup(rng, seed, 4 + seed % 4, "app" if seed % 2 else "physical", seed % 3 != 0))
        while state.phase != "over":
            for action in _candidates(state):
                try:
                    state.apply(action)
                except IllegalAction as err:
                    assert err.template in ids, err.template
                    assert str(err) == err.template.format(**err.params)
                    for value in err.params.values():
                        if isinstance(value, Term):
                            assert value.vocab in VOCABULARY
                    met.add(err.template)
            state = state.apply(random_action(state, rng))
    assert len(met) > 30


# ----------------------------------------------------------------- the catalogues

@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_template_has_a_translation_with_the_same_placeholders(lang):
    cat = catalogue(lang)
    for msgid in sorted(rules_msgids()):
        assert cat.get(msgid), f"{lang}: no translation for {msgid!r}"
        assert fields(cat[msgid]) == fields(msgid), f"{lang}: {msgid!r} -> {cat[msgid]!r}"


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_rules_po_has_no_stale_entries(lang):
    assert set(catalogue(lang)) == rules_msgids()


def test_every_game_word_has_a_companion_msgid():
    assert set(VOCABULARY["action"]) >= set(ACTION_KINDS)
    assert set(VOCABULARY["colour"]) >= set(COLOURS)
    assert set(VOCABULARY["mission"]) == set(MISSIONS)
    assert set(VOCABULARY["event"]) == set(EVENTS) | {SANDSTORM}
    assert set(VOCABULARY["good"]) == set(UNCOLOURED)  # coloured goods: the "{colour} good" phrase


def test_the_companion_domain_is_unchanged():
    assert translations("de").gettext("Steal") == "Rauben"
    assert translations("de", "companion") is not translations("de", RULES_DOMAIN)
    assert translations("de").gettext("Relocate cannot use Wilds") == "Relocate cannot use Wilds"
    rules = translations("de", RULES_DOMAIN)
    assert rules.gettext("Relocate cannot use Wilds") == "Verschieben kann keine Joker nutzen"


# ----------------------------------------------------------------- real refusals

def test_banned_action_names_the_action_in_each_language():
    state = physical("no_steal").apply(Roll(("steal", "steal", "swap", "donate", "wild")))
    err = refusal(state, Choose("steal"))
    assert str(err) == "No Steal this round (event card)"
    assert err.rule == "Event Cards: No Steal"
    assert translate_message(err, "en") == "No Steal this round (event card)"
    assert translate_message(err, "de") == "Diese Runde kein Rauben (Rundenkarte)"
    assert translate_message(err, "es") == "Esta ronda no se puede Robar (carta de evento)"


def test_mission_chip_and_player_name():
    state = physical().apply(PlaceChip("blue", "keep"))
    err = refusal(state, PlaceChip("green", "keep"))
    assert str(err) == "Anna has no keep chip left to place"
    assert translate_message(err, "de") == "Anna hat keinen Behalt-Chip mehr zum Setzen"
    assert translate_message(err, "es") == "A Anna no le queda ninguna ficha de Conservar para colocar"


def test_goods_missing_and_secured():
    state = physical().apply(Roll(("secure", "secure", "steal", "donate", "swap"))).apply(Choose("secure"))
    state = state.apply(Secure(("lamp", "red"))).apply(Secure(("red", "red")))
    state = state.apply(EndTurn())  # Ben's turn
    state = state.apply(Roll(("steal", "steal", "steal", "donate", "swap"))).apply(Choose("steal"))

    err = refusal(state, Steal("red", "lamp"))
    assert str(err) == "Anna's magic lamp is secured in the vault and cannot be stolen"
    assert translate_message(err, "de") == "Bei Anna im Safe, Rauben nicht möglich: Wunderlampe"
    assert translate_message(err, "es") == "Anna guarda lámpara mágica en la cámara: no se puede robar"

    err = refusal(state, Steal("green", "pink"))
    assert str(err) == "Chris has no pink good"
    assert translate_message(err, "de") == "Bei Chris nicht vorhanden: Ware pink"
    assert translate_message(err, "es") == "Chris no tiene mercancía de color rosa"

    err = refusal(state, Donate("green", "blue"))
    assert str(err) == "Ben chose Steal this turn, not Donate"
    assert translate_message(err, "de") == "Ben hat in diesem Zug Rauben gewählt, nicht Schenken"
    assert translate_message(err, "es") == "Ben ha elegido Robar en este turno, no Donar"


def test_event_cards_are_translated():
    setup = Setup(players=PLAYERS, deck="app", seed=3)
    state = new_game(setup)
    top = state.revealable()[0]
    other = next(c for c in EVENTS if c != top)
    err = refusal(state, RevealEvent(other))
    assert str(err) == f"The app's shuffled deck shows {top} next, not {other}"
    de, es = translations("de"), translations("es")
    from companion.games.obscurians.vocabulary import EVENT
    assert translate_message(err, "de") == f"Im Stapel der App kommt als Nächstes {de.gettext(EVENT[top])}, " \
                                         f"nicht {de.gettext(EVENT[other])}"
    assert translate_message(err, "es") == f"En el mazo de la app sale ahora {es.gettext(EVENT[top])}, " \
                                         f"no {es.gettext(EVENT[other])}"


def test_plural_templates():
    state = physical().apply(Roll(("steal", "wild", "swap", "donate", "secure")))
    err = refusal(state, Choose("steal", 2))
    assert str(err) == "Anna has only 1 Wild"
    assert translate_message(err, "es") == "Anna solo tiene 1 comodín"
    state = physical().apply(Roll(("steal", "wild", "wild", "donate", "secure")))
    err = refusal(state, Choose("steal", 3))
    assert str(err) == "Anna has only 2 Wilds"
    assert translate_message(err, "es") == "Anna solo tiene 2 comodines"
    assert translate_message(err, "de") == "Anna hat nur 2 Joker"


# ----------------------------------------------------------------- fallbacks and compatibility

def test_template_missing_from_rules_po_falls_back_to_english():
    err = IllegalAction.of("{name} may not {kind} on a Tuesday", "House rule", name="Anna",
                           kind=Term("action", "steal", "Steal"))
    assert str(err) == "Anna may not Steal on a Tuesday"
    for lang in ("en", "de", "es", "fr", None):
        assert translate_message(err, lang) == "Anna may not Steal on a Tuesday"  # no half-translated mix


def test_plain_message_falls_back_to_str():
    err = IllegalAction("Nothing to undo", "Undo")
    assert (str(err), err.rule, err.template, err.params) == ("Nothing to undo", "Undo", None, {})
    assert translate_message(err, "de") == "Nothing to undo"
    assert translate_message(ValueError("boom"), "es") == "boom"


def test_unknown_game_word_keeps_its_english_form():
    state = physical().apply(Roll(("steal", "wild", "swap", "donate", "secure")))
    err = refusal(state, Choose("bogus"))
    assert str(err) == "bogus is not a henchmen action"
    assert translate_message(err, "de") == "bogus ist keine Handlanger-Aktion"
    assert translate_word(Term("colour", "purple", "purple"), "es") == "purple"  # no game has purple
    assert translate_word(Term("good", "red", "red good"), "de") == "Ware rot"
    assert translate_word(Term("good", "artifact", "cursed artifact"), "es") == "artefacto maldito"


def test_language_codes_are_normalised():
    err = refusal(physical("no_steal").apply(Roll(("steal",) * 5)), Choose("steal"))
    assert translate_message(err, "de_DE.UTF-8") == "Diese Runde kein Rauben (Rundenkarte)"


def test_illegal_action_of_keeps_rule_and_params():
    term = Term("action", "swap", "Swap")
    err = IllegalAction.of("No {kind} this round (event card)", "Event Cards: No Swap", kind=term)
    assert (str(err), err.rule, err.params) == ("No Swap this round (event card)", "Event Cards: No Swap",
                                                {"kind": term})
    assert isinstance(err, ValueError)
    again = pickle.loads(pickle.dumps(err))
    assert (str(again), again.rule, again.template) == (str(err), err.rule, err.template)
    with pytest.raises(ValueError):
        IllegalAction.of("{x}", x=Term("weather", "rain", "rain"))
