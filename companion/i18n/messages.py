"""The engines' sentences in the players' language: refusals, move-log lines, the questions the dice raise.

The rules engine stays free of gettext: it raises ``IllegalAction.of(template, rule, **params)`` or returns a
``Message(template, params)`` with an English template and its params (companion/games/errors.py). Here the
template is translated through the ``rules`` catalogue (``<lang>/LC_MESSAGES/rules.po``) and every param that
is a game word (a ``Term``: an action, colour, good, mission or event card) through the ``companion`` catalogue,
by the display names each game gives its words (``Game.terms``, e.g. companion/games/obscurians/vocabulary.py).
Names of players are plain params and stay as they are.

    translate_message(err, app.lang)   # the banner text for an IllegalAction (or any exception), a move-log line

Fallbacks: errors raised with a plain message give ``str(err)``; a template without a translation gives the English
sentence with the English display names (never a mix); a game word without a translation keeps its English form.
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
    """A game word in `lang`: its display name (Game.terms) translated. In English too the display name ("Double
    Steal", "Give", "orange good"), where the engine's own text may be its code; a word no game names keeps it."""
    lang = normalise(lang)
    if term.vocab == "good" and term_msgid("good", term.code) is None and term_msgid("colour", term.code):
        phrase = COLOURED_GOOD if lang == "en" else translations(lang, RULES_DOMAIN).gettext(COLOURED_GOOD)
        if lang != "en" and phrase == COLOURED_GOOD:
            return term.text
        return phrase.format(colour=translate_word(Term("colour", term.code, term.code), lang))
    msgid = term_msgid(term.vocab, term.code)
    if msgid is None:
        return term.text
    return msgid if lang == "en" else translations(lang, DOMAIN).gettext(msgid)


def _translated(value, lang: str):
    if isinstance(value, Term):
        return translate_word(value, lang)
    if getattr(value, "template", None) is not None and hasattr(value, "params"):
        return translate_message(value, lang)  # a sentence inside a sentence (a Message): translated on its own
    if isinstance(value, tuple):  # several words in one place (Terms): each translated, joined as Terms joins them
        return str(Terms(_translated(v, lang) for v in value))
    return value


def translate_message(message, lang: str) -> str:
    """An engine's sentence in `lang` (en, de, es; others fall back to English): a refusal (IllegalAction) or any
    message built the same way (a template and params, e.g. a move-log line from companion/games/<game>/movelog.py;
    a param that is a message itself is translated the same way).
    A template with no translation gives the English sentence whole, never a mix; a plain exception its text."""
    template = getattr(message, "template", None)
    params = getattr(message, "params", None)
    if template is None or params is None:
        return str(message)
    lang = normalise(lang)
    text = template if lang == "en" else translations(lang, RULES_DOMAIN).gettext(template)
    if text == template:  # English, or not in rules.po (or left empty there)
        lang = "en"
    try:
        return text.format(**{k: _translated(v, lang) for k, v in params.items()})
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the message
        return str(message)

