"""The engines' refusals in the players' language.

The rules engine stays free of gettext: it raises ``IllegalAction.of(template, rule, **params)`` with an English
template and its params (companion/games/errors.py). Here the template is translated through the ``rules``
catalogue (``<lang>/LC_MESSAGES/rules.po``) and every param that is a game word (a ``Term``: an action, colour,
good, mission or event card) through the ``companion`` catalogue, by the display names each game gives its words
(``Game.terms``, e.g. companion/games/obscurians/vocabulary.py).
Names of players are plain params and stay as they are.

    translate_error(err, app.lang)   # the banner text for an IllegalAction (or any exception)

Fallbacks: English (or an unknown language) and errors raised with a plain message give ``str(err)``; a template
without a translation gives ``str(err)`` too (English sentence, English words, never a mix); a game word without
a translation keeps its English form.
"""
from __future__ import annotations

from companion.games.errors import Term, Terms
from companion.i18n import DOMAIN, RULES_DOMAIN, normalise, translations

# Phrases of the `rules` catalogue used to build game words the companion catalogue has no msgid for.
COLOURED_GOOD = "{colour} good"  # a good of a player colour, e.g. "red good"
PHRASES = (COLOURED_GOOD,)


def term_msgid(vocab: str, code: str) -> str | None:
    """The display name (a msgid) a registered game gives the word `code` of vocabulary `vocab` (Game.terms)."""
    from companion.session import games

    for name in games.names():
        msgid = games.get(name).terms.get(vocab, {}).get(code)
        if msgid is not None:
            return msgid
    return None


def translate_word(term: Term, lang: str) -> str:
    """A game word in `lang`; its English text when no game's vocabulary or the catalogue knows it."""
    lang = normalise(lang)
    if lang == "en":
        return term.text
    if term.vocab == "good" and term_msgid("good", term.code) is None and term_msgid("colour", term.code):
        phrase = translations(lang, RULES_DOMAIN).gettext(COLOURED_GOOD)
        if phrase == COLOURED_GOOD:
            return term.text
        return phrase.format(colour=translate_word(Term("colour", term.code, term.code), lang))
    msgid = term_msgid(term.vocab, term.code)
    if msgid is None:
        return term.text
    return translations(lang, DOMAIN).gettext(msgid)


def _translated(value, lang: str):
    if isinstance(value, Term):
        return translate_word(value, lang)
    if isinstance(value, Terms):
        return ", ".join(translate_word(t, lang) if isinstance(t, Term) else str(t) for t in value)
    return value


def translate_error(err: BaseException, lang: str) -> str:
    """The message of `err` in `lang` (en, de, es; others fall back to English), for a banner."""
    template = getattr(err, "template", None)
    lang = normalise(lang)
    if template is None or lang == "en":
        return str(err)
    text = translations(lang, RULES_DOMAIN).gettext(template)
    if text == template:  # not in rules.po (or left empty there)
        return str(err)
    params = {k: _translated(v, lang) for k, v in err.params.items()}
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the refusal
        return str(err)
