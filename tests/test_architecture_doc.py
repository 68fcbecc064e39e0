"""docs/architecture.md explains the house to a clone with nothing beside it: its table of layers names the same
layers, in the same order, as tests/test_layers.py enforces, and every folder it names exists."""
from __future__ import annotations

import re
from pathlib import Path

from tests.test_layers import BELOW_THE_UI, KNOW_NO_GAME, LAYERS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def layer_rows() -> list[tuple[str, str]]:
    """(folder, what it may import) of each row of the doc's layers table, top to bottom."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith("`"):
            rows.append((cells[1].strip("`"), cells[2]))
    return rows


def test_the_doc_lists_the_enforced_layers_in_order():
    assert [folder for folder, _ in layer_rows()] == list(LAYERS)


def test_every_folder_the_doc_names_exists():
    for folder, _ in layer_rows():
        path = ROOT / folder.replace("<game>", "obscurians")
        assert path.is_dir(), folder


def test_the_doc_says_what_the_test_forbids():
    rows = dict(layer_rows())
    for layer in BELOW_THE_UI:
        assert re.search(r"the UI or Kivy|nothing outside|nothing of", rows[layer]), layer
    for layer in KNOW_NO_GAME:
        assert "nothing of `companion`" in rows[layer], layer


def test_the_code_points_to_the_doc_not_to_files_a_clone_lacks():
    stale = []
    for path in list(ROOT.glob("companion/**/*.py")) + list(ROOT.glob("companion/**/*.kv")) \
            + list(ROOT.glob("firmware_bridge/**/*.py")) + list(ROOT.glob("vision/**/*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"ARCHITECTURE(\.md)? (convention|\")|TABLE_UX", line):
                stale.append(f"{path.relative_to(ROOT)}:{n}")
    assert stale == []
