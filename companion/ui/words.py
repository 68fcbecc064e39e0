"""An engine's sentence in the players' language: a refusal (IllegalAction) or a move log line (a narration).

Both are an English template of the `rules` catalogue plus params (companion/games/errors.py IllegalAction.of;
e.g. companion/games/obscurians/narrate.py): the template is translated there, each game word (a Term) through the
`companion` catalogue, and a tuple of words is translated word by word and joined. Anything else (a plain
exception) is shown as its text.
"""
from __future__ import annotations

from companion.games.errors import Term
from companion.i18n import RULES_DOMAIN, normalise, translations
from companion.i18n.messages import COLOURED_GOOD, term_msgid, translate_word

SEPARATOR = ", "


def english_word(term: Term) -> str:
    """A game word as the English screen shows it: its display name ("Give", "Double Steal", "orange good"),
    where the engine's own English text may be its code ("give", "double_steal")."""
    msgid = term_msgid(term.vocab, term.code)
    if msgid is not None:
        return msgid
    if term.vocab == "good" and term_msgid("colour", term.code):
        return COLOURED_GOOD.format(colour=term_msgid("colour", term.code))
    return term.text


def tell(message, lang: str) -> str:
    template = getattr(message, "template", None)
    params = getattr(message, "params", None)
    if template is None or params is None:
        return str(message)
    lang = normalise(lang)
    text = template if lang == "en" else translations(lang, RULES_DOMAIN).gettext(template)
    if lang != "en" and text == template:  # no translation: the English sentence whole, never a mix
        lang = "en"
    words = {k: _word(v, lang) for k, v in params.items()}
    try:
        return text.format(**words)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the message
        return str(message)


def _word(value, lang: str):
    if isinstance(value, Term):
        return english_word(value) if lang == "en" else translate_word(value, lang)
    if isinstance(value, tuple):
        return SEPARATOR.join(str(_word(v, lang)) for v in value)
    return value
