"""The app's own .po reader (companion/i18n/po.py) translates exactly as babel's reading did: every msgid of every
real catalogue, and the parts of the .po format the catalogues do not use yet (plural forms, msgctxt, fuzzy and
obsolete entries, escapes, an untranslated entry)."""
from __future__ import annotations

import gettext
from io import BytesIO

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po as babel_read_po

from companion.i18n import DOMAIN, LANGUAGES, RULES_DOMAIN, po_path, translations
from companion.i18n.po import PoError, read_po


def by_babel(path, lang: str, domain: str):
    """The catalogue as the app read it before: babel's catalogue compiled to a .mo in memory."""
    with open(path, "rb") as f:
        catalog = babel_read_po(f, locale=lang, domain=domain)
    buf = BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf), catalog


@pytest.mark.parametrize("domain", [DOMAIN, RULES_DOMAIN])
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES])
def test_every_msgid_of_the_real_catalogues_reads_as_babel_read_it(lang, domain):
    reference, catalog = by_babel(po_path(lang, domain), lang, domain)
    ours = read_po(po_path(lang, domain))
    msgids = [m.id for m in catalog if m.id]
    assert len(msgids) > 250
    differ = {m: (reference.gettext(m), ours.gettext(m)) for m in msgids if reference.gettext(m) != ours.gettext(m)}
    assert differ == {}
    if lang != "en":  # the translated catalogues really are translated (not both falling back to the msgids)
        assert sum(ours.gettext(m) != m for m in msgids) > len(msgids) // 2
    assert ours.info().get("plural-forms") == reference.info().get("plural-forms")


def test_the_app_translates_through_the_new_reader():
    german = translations("de")
    assert german.gettext("Finished games") != "Finished games"
    assert german.gettext("Finished games") == read_po(po_path("de")).gettext("Finished games")


SAMPLE = r'''# A catalogue with what the app's catalogues do not use yet.
msgid ""
msgstr ""
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\n"
"Content-Type: text/plain; charset=utf-8\n"

#, fuzzy
msgid "a guess"
msgstr "eine Vermutung"

msgctxt "menu"
msgid "Open"
msgstr "Öffnen (Menü)"
msgid "Open"
msgstr "Öffnen"

#, python-brace-format
msgid "{n} chip"
msgid_plural "{n} chips"
msgstr[0] "{n} Chip"
msgstr[1] ""
msgstr[2] "{n} Chips"

#, fuzzy, python-brace-format
msgid "{n} die"
msgid_plural "{n} dice"
msgstr[0] "{n} Würfel"
msgstr[1] "{n} Würfel"

msgid "a \"quoted\"\tline\n"
"next \\ back \q"
msgstr "eine \"zitierte\"\tZeile\n"
"weiter \\ zurück \q"

msgid "left empty"
msgstr ""

#~ msgid "obsolete"
#~ msgstr "veraltet"
'''


@pytest.fixture()
def sample(tmp_path):
    path = tmp_path / "sample.po"
    path.write_text(SAMPLE, encoding="utf-8")
    return by_babel(path, "de", "sample")[0], read_po(path)


@pytest.mark.parametrize("call, args", [
    ("gettext", ("a guess",)),                          # fuzzy: not used
    ("gettext", ("Open",)),                             # the same msgid without a context
    ("pgettext", ("menu", "Open")),                     # with one
    ("pgettext", ("other", "Open")),                    # a context it does not have
    ("gettext", ("left empty",)),
    ("gettext", ("obsolete",)),
    ("gettext", ('a "quoted"\tline\nnext \\ back \\q',)),
    *[("ngettext", ("{n} chip", "{n} chips", n)) for n in (0, 1, 2, 3, 7)],  # the empty form 1 falls back
    *[("ngettext", ("{n} die", "{n} dice", n)) for n in (1, 2, 3)],          # a fuzzy plural entry
])
def test_the_rest_of_the_format_reads_as_babel_read_it(sample, call, args):
    reference, ours = sample
    assert getattr(ours, call)(*args) == getattr(reference, call)(*args)


def test_the_sample_is_really_translated(sample):
    _, ours = sample
    assert ours.pgettext("menu", "Open") == "Öffnen (Menü)" and ours.gettext("Open") == "Öffnen"
    assert [ours.ngettext("{n} chip", "{n} chips", n) for n in (1, 2, 3)] == ["{n} Chip", "{n} chips", "{n} Chips"]
    assert ours.gettext('a "quoted"\tline\nnext \\ back \\q') == 'eine "zitierte"\tZeile\nweiter \\ zurück \\q'


def test_a_broken_line_is_named(tmp_path):
    path = tmp_path / "broken.po"
    path.write_text('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr oops\n', encoding="utf-8")
    with pytest.raises(PoError, match="line 5"):
        read_po(path)
