"""Every text the UI shows has a German and a Spanish translation in the committed .po catalogues."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from companion.i18n import LANGUAGES, po_path, translations
from companion.i18n.extract import ui_msgids

FIELD = re.compile(r"\{[^{}]*\}")


@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_ui_msgid_is_translated(lang):
    with po_path(lang).open("rb") as f:
        catalog = {m.id: m.string for m in read_po(f) if m.id}
    missing = sorted(i for i in ui_msgids() if not catalog.get(i))
    assert not missing, f"{lang}: untranslated: {missing}"


@pytest.mark.parametrize("lang", ["de", "es"])
def test_translations_keep_the_placeholders(lang):
    tr = translations(lang)
    for msgid in ui_msgids():
        assert sorted(FIELD.findall(tr.gettext(msgid))) == sorted(FIELD.findall(msgid)), msgid


def test_mission_names_as_printed():
    from companion.games.obscurians.vocabulary import MISSION

    de = [translations("de").gettext(MISSION[m]) for m in MISSION]
    es = [translations("es").gettext(MISSION[m]) for m in MISSION]
    assert de == ["Behalt", "Nimm", "Sammel", "Gib", "Selektier", "Verlier", "Control"]
    assert es == ["Conservar", "Tomar", "Coleccionar", "Dar", "Seleccionar", "Perder", "Control"]
    assert set(LANGUAGES) == {"en", "de", "es"}


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_companion_po_has_no_stale_entries(lang):
    """A text the app no longer shows is not kept translated (and a word lives in one catalogue only)."""
    with po_path(lang).open("rb") as f:
        catalog = {m.id for m in read_po(f) if m.id}
    assert catalog == ui_msgids()


def test_the_simulated_devices_are_named_in_the_players_language():
    from companion.session.devices import SIMULATED
    from companion.ui.devices import SIMULATED_TITLES

    assert [label for _, label in SIMULATED] == list(SIMULATED_TITLES)
    assert translations("de").gettext(SIMULATED_TITLES[0]) == "Simulierte Würfel (5 GoDice)"
