"""Suite-wide hooks: how `make test` shares the tests among processes (pytest-xdist, `--dist loadgroup`)."""
from __future__ import annotations

import pytest

# A fixture of these scopes is built once per process that runs a test needing it. Many of them start the real app
# for a whole module (a scripted game, a layout tour): run such a module's tests in one process, so the app runs once.
_SHARED_SCOPES = {"module", "package", "class"}


def _reads_shared_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values())


# The app's longest drives (1-2.5 min each on an idle core: layout tours of 7-player games, a whole game by touch).
LONGEST_FIRST = ("tests/ui/test_round_layout.py", "tests/ui/test_play_obscurians.py",
                 "tests/ui/test_obscurio_layout.py", "tests/ui/test_obelisk_sizes.py")


def _start_order(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    if path in LONGEST_FIRST:
        return LONGEST_FIRST.index(path)
    return len(LONGEST_FIRST) + (0 if path.startswith("tests/ui/") else 1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The tests that drive the real app take seconds to minutes each, the others milliseconds: the longest go first,
    # then the app's others, so that the short ones fill the processes' last minutes instead of one process finishing
    # a long tour alone while the other waits. The order within each kind stays as collected.
    items.sort(key=_start_order)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if _reads_shared_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
