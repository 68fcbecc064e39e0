"""The house's layers (docs/architecture.md, "Layers"), checked on every import statement of
every module, lazy imports inside functions included.

    companion/ui (shell)  ── may use ──▶ session, i18n, games' contract and registry; never a game package
    companion/ui/<game>/  ── the game's plug-in: its engine, the shell's widgets
    companion/commands    ── the CLI: session and the registry; never a game package
    companion/session     ── games (through the registry), firmware_bridge's observations; never the UI or Kivy
    companion/i18n        ── games' vocabularies; never the UI or Kivy
    companion/games       ── nothing outside companion/games (and the standard library)
    firmware_bridge, vision ── never a game engine, the session or the UI: a die reports faces, not moves
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The layers, top to bottom, as this file enforces them (docs/architecture.md's table lists the same, in the same
# order: tests/test_architecture_doc.py). Everything below the UI never imports it; the last two know no game.
LAYERS = ("companion/ui", "companion/ui/<game>", "companion/commands", "companion/session", "companion/i18n",
          "companion/games", "firmware_bridge", "vision")
BELOW_THE_UI = tuple(layer for layer in LAYERS if not layer.startswith("companion/ui"))
KNOW_NO_GAME = ("firmware_bridge", "vision")
STDLIB = set(sys.stdlib_module_names)
GAME_PACKAGES = {p.name for p in (ROOT / "companion" / "games").iterdir() if (p / "__init__.py").exists()}


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            # `from companion.games import obscurians` imports the game package too
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names
                      if module in ("companion.games", "companion.ui")]
    return found


def modules(*folders: str, exclude: tuple[str, ...] = ()) -> list[Path]:
    out = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not any(rel.startswith(e) for e in exclude):
                out.append(path)
    return out


def under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def is_game_package(module: str) -> bool:
    parts = module.split(".")
    return len(parts) >= 3 and parts[:2] == ["companion", "games"] and parts[2] in GAME_PACKAGES


def is_game_ui(module: str) -> bool:
    parts = module.split(".")
    return len(parts) >= 3 and parts[:2] == ["companion", "ui"] and parts[2] in GAME_PACKAGES


def check(paths, forbidden) -> list[str]:
    return [f"{p.relative_to(ROOT)}:{line}: imports {m}" for p in paths for line, m in imports(p) if forbidden(m)]


def test_engines_import_nothing_outside_companion_games():
    def forbidden(m):
        top = m.split(".")[0]
        return not (top in STDLIB or under(m, "companion.games"))
    assert check(modules("companion/games"), forbidden) == []


def test_one_game_engine_never_imports_another():
    problems = []
    for game in GAME_PACKAGES:
        problems += check(modules(f"companion/games/{game}"),
                          lambda m, game=game: is_game_package(m) and m.split(".")[2] != game)
    assert problems == []


@pytest.mark.parametrize("layer", BELOW_THE_UI)
def test_lower_layers_never_import_the_ui_or_kivy(layer):
    assert check(modules(layer), lambda m: under(m, "companion.ui", "kivy")) == []


@pytest.mark.parametrize("layer", KNOW_NO_GAME)
def test_devices_and_vision_know_no_game_session_or_app(layer):
    assert check(modules(layer), lambda m: under(m, "companion")) == []


def test_the_ui_shell_imports_no_game_package():
    shell = modules("companion/ui", exclude=tuple(f"companion/ui/{g}/" for g in GAME_PACKAGES))
    assert check(shell, lambda m: is_game_package(m) or is_game_ui(m)) == []


def test_the_cli_and_the_session_reach_games_only_through_the_registry():
    assert check(modules("companion/commands", "companion/session", "companion/i18n"), is_game_package) == []


def test_a_game_ui_plugin_never_imports_another_games_ui():
    problems = []
    for game in GAME_PACKAGES:
        folder = ROOT / "companion" / "ui" / game
        if folder.exists():
            problems += check(modules(f"companion/ui/{game}"),
                              lambda m, game=game: (is_game_ui(m) or is_game_package(m)) and m.split(".")[2] != game)
    assert problems == []


@pytest.mark.parametrize("source, bad", [
    ("import kivy", "kivy"), ("from companion.ui import app", "companion.ui"),
    ("from companion.games import obscurians", "companion.games.obscurians"),
])
def test_the_checker_sees_imports(tmp_path, source, bad):
    path = ROOT / "companion" / "session" / "_layer_probe.py"
    path.write_text(f"def f():\n    {source}\n")
    try:
        assert any(m.startswith(bad) for _, m in imports(path))
    finally:
        path.unlink()
