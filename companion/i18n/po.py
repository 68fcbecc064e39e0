"""Read a gettext .po catalogue into a `gettext.GNUTranslations`, with the standard library only.

The app reads its committed .po files at runtime (no build step). This reader turns one into the binary .mo form in
memory and hands that to the standard library's `gettext.GNUTranslations`, so that looking texts up (plural forms
from the Plural-Forms header, msgctxt through pgettext, the charset) is Python's own. What it keeps is what a
compiled catalogue holds (as `msgfmt` and babel's `write_mo` make it):

- the header (msgid ""), as written;
- every translated entry; an entry whose msgstr is empty is left out (its msgid then stands for itself), and so is
  a fuzzy one (`#, fuzzy`: a guess nobody checked) and an obsolete one (`#~`);
- a plural entry is kept even untranslated, and its empty forms are filled with the msgid (form 0) or the
  msgid_plural (the others);
- a msgctxt is joined to its msgid by EOT ("\\x04"), where pgettext looks for it;
- strings are unescaped as babel does: \\n, \\t, \\r, \\" and \\\\ (any other backslash stays as written).

Replaced babel at runtime: importing babel and building its catalogue cost a German or Spanish start ~0.1 s
(bench/bench_startup.py). tests/test_i18n_po.py checks every msgid of every catalogue against babel's reading.
"""
from __future__ import annotations

import gettext
import re
import struct
from io import BytesIO
from pathlib import Path

_ESCAPE = re.compile(r'\\([\\trn"])')
_UNESCAPED = {"n": "\n", "t": "\t", "r": "\r"}


class PoError(ValueError):
    """A .po file this reader cannot follow (line and reason in the message)."""


def unescape(quoted: str) -> str:
    """The text of one quoted .po string ('"a\\nb"' -> 'a', newline, 'b')."""
    return _ESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(1)), quoted[1:-1])


def read_entries(text: str) -> dict[str, str | list[str]]:
    """The entries a compiled catalogue keeps (see the module's doc): key (msgctxt EOT msgid, or the msgid; a
    plural entry's key is msgid NUL msgid_plural) -> msgstr, or the list of the plural forms."""
    entries: dict[str, str | list[str]] = {}
    entry: dict = {}
    field = None       # the field the next continuation line ("...") goes on: ("msgid",) or ("msgstr", 1)
    fuzzy = False

    def finish() -> None:
        nonlocal entry, field, fuzzy
        if "msgid" in entry and (not fuzzy or entry["msgid"] == ""):  # (a fuzzy header is still the header)
            _keep(entry, entries)
        entry, field, fuzzy = {}, None, False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgstr" in entry or "msgstr[]" in entry:  # a comment after an entry starts the next one
                finish()
            if line.startswith("#,") and "fuzzy" in [f.strip() for f in line[2:].split(",")]:
                fuzzy = True
            continue  # other comments (#~ obsolete entries too) carry nothing a compiled catalogue keeps
        try:
            if line.startswith('"'):
                if field is None:
                    raise PoError("a string that belongs to no field")
                name, index = field
                if index is None:
                    entry[name] += unescape(line)
                else:
                    entry[name][index] += unescape(line)
                continue
            keyword, _, rest = line.partition(" ")
            rest = rest.strip()
            if not (rest.startswith('"') and rest.endswith('"') and len(rest) >= 2):
                raise PoError(f"{keyword}: a quoted string expected")
            value = unescape(rest)
            if keyword in ("msgctxt", "msgid") and ("msgstr" in entry or "msgstr[]" in entry):
                finish()  # a new entry begins (entries need not be separated by blank lines or comments)
            if keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
                entry[keyword] = value
                field = (keyword, None)
            elif keyword.startswith("msgstr[") and keyword.endswith("]"):
                index = int(keyword[7:-1])
                forms = entry.setdefault("msgstr[]", [])
                forms.extend([""] * (index + 1 - len(forms)))
                forms[index] = value
                field = ("msgstr[]", index)
            else:
                raise PoError(f"unknown keyword {keyword}")
        except (PoError, ValueError) as err:
            raise PoError(f"line {number}: {err}") from None
    finish()
    return entries


def _keep(entry: dict, entries: dict) -> None:
    msgid = entry["msgid"]
    key = msgid if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{msgid}"
    if "msgid_plural" in entry:
        forms = list(entry.get("msgstr[]") or [""])
        plural = entry["msgid_plural"]
        entries[f"{key}\x00{plural}"] = [f or (msgid if i == 0 else plural) for i, f in enumerate(forms)]
    elif entry.get("msgstr") or (msgid == "" and "msgctxt" not in entry):
        entries[key] = entry.get("msgstr", "")


def mo_bytes(entries: dict[str, str | list[str]]) -> bytes:
    """The entries as a little-endian .mo file (GNU gettext's format, revision 0), keys sorted as it wants."""
    keys = sorted(entries, key=lambda k: k.encode("utf-8"))
    ids = [k.encode("utf-8") for k in keys]
    strs = [("\x00".join(v) if isinstance(v, list) else v).encode("utf-8") for v in (entries[k] for k in keys)]
    count = len(keys)
    ids_table, strs_table = 7 * 4, 7 * 4 + count * 8
    data_start = strs_table + count * 8
    table, data = [], BytesIO()
    for blob in ids + strs:
        table.append((len(blob), data_start + data.tell()))
        data.write(blob + b"\x00")
    header = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    return header + b"".join(struct.pack("<2I", *pair) for pair in table) + data.getvalue()


def read_po(path: Path) -> gettext.GNUTranslations:
    """The catalogue in the .po file `path`, ready to translate."""
    return gettext.GNUTranslations(BytesIO(mo_bytes(read_entries(Path(path).read_text(encoding="utf-8")))))
