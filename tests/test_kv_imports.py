"""Kivy puts every `#:import NAME module` of every loaded .kv file into one global namespace: when two files give
one name two different modules, whichever file loaded last wins, and the other game's rules then read the wrong
module (a new Obscurians table after an Obelisk one once crashed on `look.RGBA`). So one name, one module."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMPORT = re.compile(r"^#:import\s+(\w+)\s+(\S+)", re.M)


def kv_imports() -> dict[str, dict[str, list[str]]]:
    """name -> module -> the .kv files that import it under that name."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for kv in sorted((ROOT / "companion").rglob("*.kv")):
        for name, module in IMPORT.findall(kv.read_text(encoding="utf-8")):
            found[name][module].append(str(kv.relative_to(ROOT)))
    return found


def test_the_kv_files_import_something():
    assert kv_imports(), "no #:import found: the pattern no longer matches the .kv files"


def test_one_kv_import_name_stands_for_one_module_in_every_kv_file():
    clashes = {name: dict(modules) for name, modules in kv_imports().items() if len(modules) > 1}
    assert not clashes, f"one #:import name for several modules (Kivy keeps only the last one loaded): {clashes}"


def test_a_kv_file_uses_the_names_it_imports():
    unused = []
    for kv in sorted((ROOT / "companion").rglob("*.kv")):
        text = kv.read_text(encoding="utf-8")
        for name, _module in IMPORT.findall(text):
            body = IMPORT.sub("", text)
            if not re.search(rf"(?<![\w.]){name}\b", body):
                unused.append(f"{kv.relative_to(ROOT)}: {name}")
    assert not unused, unused
