"""One live table: game engine + append-only event log in SQLite (docs/persistence.md).

The UI uses `TableStore` (the database) and `Table` (one game in progress). Both are looked up when first used
(PEP 562): importing a module of this package (the store, jsontext) must not import the live table and everything
it needs, which the app's first frame does without (bench/bench_startup.py).
"""
from __future__ import annotations

from importlib import import_module

_WHERE = {"AlreadyImported": "store", "StoreBusy": "store", "StoreError": "store", "StoreReadOnly": "store",
          "TableStore": "store", "Table": "table"}

__all__ = ["AlreadyImported", "StoreBusy", "StoreError", "StoreReadOnly", "Table", "TableStore"]


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(import_module(f"companion.session.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
