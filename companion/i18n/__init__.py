"""Gettext catalogues of the app (en, de, es), read from the committed .po files at runtime.

No build step: ``po.read_po`` (the standard library only) reads ``<lang>/LC_MESSAGES/<domain>.po`` and compiles it
in memory into a ``gettext.GNUTranslations``. English is the source language, so its catalogue may leave msgstr empty.
Domains: ``companion`` (the UI's texts, the default) and ``rules`` (the engines' refusals, see messages.py).
"""
from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

DOMAIN = "companion"
RULES_DOMAIN = "rules"
LANGUAGES = ("en", "de", "es")
SOURCE = "en"  # the language of the msgids
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "Español"}
HERE = Path(__file__).resolve().parent


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return HERE / lang / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=None)
def translations(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The `domain` catalogue for `lang`; unknown languages or a missing file fall back to the msgids (English)."""
    path = po_path(lang, domain)
    if lang not in LANGUAGES or lang == SOURCE or not path.exists():
        # English is the msgids themselves (its catalogues hold no translation: tests/test_i18n_catalogues.py),
        # so nothing is parsed for it: an English Home's first frame needs no catalogue (bench/bench_startup.py).
        return gettext.NullTranslations()
    from companion.i18n.po import read_po

    return read_po(path)


def normalise(lang: str | None) -> str:
    """'de_DE.UTF-8' -> 'de'; anything we do not ship -> 'en'."""
    code = (lang or "en").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else "en"
