"""Which msgids the UI uses: string literals passed to `N_()`, `t()`/`self.t()` (.py) and `app.t()` (.kv) under
companion/ui, plus the scorer's English line templates (the end screen translates them through the catalogue).

    python -m companion.i18n.extract        # print the msgids, one per line (for updating the .po files)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "ui"
_KV_CALL = re.compile(r"""app\.t\(\s*(?P<q>['"])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
_CALLEES = {"N_", "t"}


def _from_py(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in _CALLEES:
                out.add(node.args[0].value)
    return out


def _from_kv(path: Path) -> set[str]:
    return {ast.literal_eval(m.group("q") + m.group("s") + m.group("q"))
            for m in _KV_CALL.finditer(path.read_text(encoding="utf-8"))}


def _template_strings(v) -> set[str]:
    if isinstance(v, str):
        return {v}
    if isinstance(v, dict):
        return set().union(*(_template_strings(x) for x in v.values())) if v else set()
    if isinstance(v, (tuple, list)):
        return set().union(*(_template_strings(x) for x in v)) if v else set()
    return set()


def ui_msgids() -> set[str]:
    ids: set[str] = set()
    for path in sorted(UI.glob("*.py")):
        ids |= _from_py(path)
    for path in sorted(UI.glob("*.kv")):
        ids |= _from_kv(path)
    from companion.games.obscurians.scoring import TEMPLATES_EN

    ids |= _template_strings(TEMPLATES_EN)
    return {i for i in ids if i.strip()}


if __name__ == "__main__":
    for msgid in sorted(ui_msgids()):
        print(msgid)
