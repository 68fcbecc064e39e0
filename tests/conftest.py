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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if _reads_shared_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
