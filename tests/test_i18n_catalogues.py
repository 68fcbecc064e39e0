"""The English catalogues hold no translation: English is the msgids themselves, so the app reads no catalogue for
it (companion/i18n translations: an English Home's first frame parses nothing). A msgstr written into an English
.po would be ignored: this test says so before anyone relies on one."""
from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from companion.i18n import DOMAIN, RULES_DOMAIN, SOURCE, po_path, translations


@pytest.mark.parametrize("domain", [DOMAIN, RULES_DOMAIN])
def test_the_english_catalogues_translate_nothing(domain):
    with po_path(SOURCE, domain).open("rb") as f:
        catalog = read_po(f, locale=SOURCE, domain=domain)
    ids = [m.id for m in catalog if m.id]
    assert len(ids) > 100
    written = [m.id for m in catalog if m.id and (any(m.string) if isinstance(m.string, tuple) else m.string)]
    assert written == [], f"English msgstr in {domain}.po: {written[:3]}"
    english = translations(SOURCE, domain)
    assert all(english.gettext(i if isinstance(i, str) else i[0]) == (i if isinstance(i, str) else i[0])
               for i in ids)


def test_other_languages_are_read_from_their_catalogues():
    assert translations("de").gettext("Resume") == "Fortsetzen"
    assert translations("es", RULES_DOMAIN).gettext("Each Secure puts 1 or 2 goods into the vault") \
        == "Cada Proteger guarda 1 o 2 mercancías en la cámara"


@pytest.mark.parametrize("lang", [SOURCE, "de", "es"])
@pytest.mark.parametrize("domain", [DOMAIN, RULES_DOMAIN])
def test_every_msgid_has_its_msgstr_as_gettexts_tools_require(lang, domain):
    """A msgid with no msgstr line after it is read by our reader and by babel, but `msgfmt` (what a translator runs)
    refuses the whole file; merges that append to the catalogues' ends left such entries."""
    lines = po_path(lang, domain).read_text(encoding="utf-8").splitlines()
    bare = []
    for i, line in enumerate(lines):
        if line.startswith("msgid ") or line.startswith("msgid_plural "):
            j = i + 1
            while j < len(lines) and lines[j].startswith('"'):
                j += 1
            if j >= len(lines) or not lines[j].startswith(("msgstr", "msgid_plural")):
                bare.append(f"line {i + 1}: {line}")
    assert bare == [], f"{lang}/{domain}.po: {bare[:3]}"
