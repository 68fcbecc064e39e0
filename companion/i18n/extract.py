"""Which msgids the UI uses: string literals passed to `N_()`, `t()`/`self.t()` (.py) and `app.t()` (.kv) under
companion/ui, plus every registered game's words: its vocabulary, score line templates, rulings and effect texts.

The `rules` domain (the engines' refusals, see companion/i18n/messages.py) is extracted separately: the literal
templates passed to `IllegalAction.of(...)` (a string, or `a if cond else b` of strings) and to `N_()` in
companion/games, plus the phrase messages.py composes coloured goods with.

    python -m companion.i18n.extract          # print the UI's msgids, one per line (for updating companion.po)
    python -m companion.i18n.extract rules    # print the engines' templates (for updating rules.po)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "ui"
GAMES = Path(__file__).resolve().parents[1] / "games"
SESSION = Path(__file__).resolve().parents[1] / "session"  # undo/redo refusals come from the table's history
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


def game_words() -> set[str]:
    """Every registered game's words, read through the registry: titles, vocabulary, score line templates,
    rulings, effect texts. They belong to the `companion` catalogue, even where an engine marks them with N_()."""
    from companion.session import games

    ids = set(games.COMING.values())  # games announced on Home
    for name in games.names():
        game = games.get(name)
        ids.add(game.title)
        ids |= _template_strings(game.terms) | set(game.msgids) | _template_strings(game.line_templates)
        ids |= {text for r in game.rulings for text in (r.title, r.summary)}
    return ids


def ui_msgids() -> set[str]:
    """Every msgid of the `companion` catalogue: the UI's own texts and every registered game's words."""
    ids = game_words()
    for path in sorted(UI.rglob("*.py")):
        ids |= _from_py(path)
    for path in sorted(UI.rglob("*.kv")):
        ids |= _from_kv(path)
    return {i for i in ids if i.strip()}


def _literals(node) -> set[str]:
    """The strings an expression can evaluate to when it is a literal or a conditional of literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _literals(node.body) | _literals(node.orelse)
    return set()


def _is_illegal_of(func) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "of" and isinstance(func.value, ast.Name)
            and func.value.id == "IllegalAction")


def rules_templates_in(source: str) -> set[str]:
    """Templates in one module: first arguments of IllegalAction.of(...) and arguments of N_(...)."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            if _is_illegal_of(f) or (isinstance(f, ast.Name) and f.id == "N_"):
                out |= _literals(node.args[0])
    return out


def plain_illegal_actions_in(source: str, filename: str = "<src>") -> list[str]:
    """'file:line' of every IllegalAction(...) raised with a plain message (not translatable)."""
    return [f"{filename}:{node.lineno}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction"]


def rules_msgids() -> set[str]:
    """Every msgid of the `rules` catalogue: the engines' refusal templates and messages.py's phrases."""
    ids: set[str] = set()
    for path in sorted([*GAMES.rglob("*.py"), *SESSION.rglob("*.py")]):
        ids |= rules_templates_in(path.read_text(encoding="utf-8"))
    from companion.i18n.messages import PHRASES

    ids |= set(PHRASES)
    return {i for i in ids if i.strip()} - game_words()  # one catalogue per msgid: words are `companion`'s


if __name__ == "__main__":
    import sys

    for msgid in sorted(rules_msgids() if sys.argv[1:] == ["rules"] else ui_msgids()):
        print(msgid)
