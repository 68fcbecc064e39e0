"""How the rules engines speak to players: the error family (IllegalAction for a refused move, InvalidInput for bad
input), Message for every other sentence (a move-log line, a question the dice raise), N_ to mark a template for
translation, and Term/Terms for the game words in them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


def N_(template: str) -> str:
    """Marks an English message template for the `rules` catalogue (companion.i18n.extract finds it); returns it."""
    return template


@dataclass(frozen=True)
class Term:
    """A game word inside a message: its vocabulary (see VOCABULARIES), the engine's code and the English text.

    The English message shows `text` ("Steal" for the action kind "steal", "red good" for the good "red"); a
    translation looks the word up by (`vocab`, `code`). Names of players are plain strings, never Terms.
    """
    vocab: str
    code: str
    text: str

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


class Terms(tuple):
    """Several game words in one place of a message ("+2, Dark Night"): shown joined by ", ", each translated."""

    def __str__(self) -> str:
        return ", ".join(str(t) for t in self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


@dataclass(frozen=True)
class Message:
    """A sentence for players: an English `template` (a msgid of the `rules` catalogue, marked N_) and its `params`
    (names and numbers as they are, game words as Term/Terms). companion.i18n.messages translates it like a refusal;
    str() is the English text (a Terms, e.g. the dice, formats as its words joined)."""
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**self.params)


# The vocabularies a Term may name; companion.i18n.messages knows how to translate each (through Game.terms).
VOCABULARIES = ("action", "colour", "good", "mission", "event", "trap", "demon", "land", "scroll", "step")


class IllegalAction(ValueError):
    """An action the rules forbid. The message is written for players, e.g. "Relocate cannot use Wilds".

    ``rule`` names where the rule stands (a rulebook section or a RULINGS.md id) so the UI can show it.
    Raised with ``IllegalAction.of(template, rule, **params)`` it also carries the English ``template`` (a msgid of
    the ``rules`` catalogue with {placeholders}) and its ``params`` (Terms for game words), so the UI can translate
    it (companion.i18n.messages.translate_message); ``str(err)`` is always the English text. Raised with a plain
    message, ``template`` is None.
    """

    template: str | None = None
    params: dict

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.rule = rule
        self.params = {}

    @classmethod
    def of(cls, template: str, /, rule: str = "", **params) -> "IllegalAction":
        """The error whose English message is ``template.format(**params)``; game words as Terms in `params`."""
        for value in params.values():
            for term in (value if isinstance(value, Terms) else (value,)):
                if isinstance(term, Term) and term.vocab not in VOCABULARIES:
                    raise ValueError(f"unknown vocabulary {term.vocab!r}")
        err = cls(template.format(**params), rule)
        err.template = template
        err.params = dict(params)
        return err


class InvalidInput(ValueError):
    """Malformed data (a save file, an END.json, a log line): names the field or line and what is wrong."""
