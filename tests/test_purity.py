"""Convention 1 of docs/architecture.md: rules engines are pure.

companion/games/ may not import Kivy, serial, bleak or cv2, may not read the clock and may not use the global
`random` functions: chance comes in as data or from an injected random.Random(seed), so a replay is exact.
"""
import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent.parent / "companion" / "games"
FORBIDDEN_MODULES = {"kivy", "serial", "bleak", "cv2", "time", "datetime", "asyncio", "threading", "socket"}
CLOCK_CALLS = {("os", "times"), ("os", "getpid")}


def violations(source: str, filename: str = "<src>") -> list[str]:
    """Every impure import or call in `source`, as 'file:line: what'."""
    found = []
    tree = ast.parse(source, filename)
    random_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    found.append(f"{filename}:{node.lineno}: imports {alias.name}")
                if top == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top in FORBIDDEN_MODULES:
                found.append(f"{filename}:{node.lineno}: imports from {node.module}")
            if top == "random":
                for alias in node.names:
                    if alias.name != "Random":
                        found.append(f"{filename}:{node.lineno}: imports random.{alias.name} (global random)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in random_aliases and node.attr != "Random":
                found.append(f"{filename}:{node.lineno}: uses global random.{node.attr}")
            if (node.value.id, node.attr) in CLOCK_CALLS:
                found.append(f"{filename}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return found


def engine_files():
    return sorted(GAMES.rglob("*.py"))


def test_engines_exist():
    names = {p.name for p in engine_files()}
    assert {"state.py", "actions.py", "scoring.py"} <= names


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(GAMES)))
def test_engine_module_is_pure(path):
    assert violations(path.read_text(), str(path)) == []


@pytest.mark.parametrize("bad", [
    "import kivy",
    "from kivy.app import App",
    "import serial",
    "import bleak",
    "import cv2",
    "import time\nt = time.time()",
    "from datetime import datetime",
    "import random\nx = random.choice([1, 2])",
    "import random as r\nr.shuffle([])",
    "from random import shuffle",
])
def test_checker_catches_impure_code(bad):
    assert violations(bad), bad


@pytest.mark.parametrize("good", [
    "import random\nrng = random.Random(7)",
    "from random import Random\nrng = Random(1)",
    "from dataclasses import dataclass",
])
def test_checker_allows_injected_random(good):
    assert violations(good) == []
