"""One live table: game engine + append-only event log in SQLite (docs/persistence.md).

The UI uses `TableStore` (the database) and `Table` (one game in progress).
"""
from companion.session.store import AlreadyImported, StoreBusy, StoreError, StoreReadOnly, TableStore
from companion.session.table import Table

__all__ = ["AlreadyImported", "StoreBusy", "StoreError", "StoreReadOnly", "Table", "TableStore"]
