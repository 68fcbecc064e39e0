"""What a list of tables shows (Home, `companion tables`) without replaying every game: each table's summary.

The summary is the game's own (`Game.summary`: status, round or turn, whose turn, winners, totals) plus the
players' names. A table keeps it with its row, replaced in the same transaction as every log entry
(Table._change), so listing costs what is shown. A table from before summaries were kept (a migrated schema-1
file) gets its summary computed once, by replaying its log, when it is first listed, and kept if the store can
write.
"""
from __future__ import annotations

import logging

from companion.session.store import StoreError, StoreReadOnly, TableRecord, TableStore

log = logging.getLogger(__name__)


def summary_of(store: TableStore, record: TableRecord) -> dict:
    """`record`'s summary: the stored one, or computed from its log (and kept). An unreadable table's summary says
    why in its status, so one damaged table never hides the others."""
    if record.problem:  # whatever the summary says, the table itself cannot be opened: say so
        return _unreadable(record.problem)
    if record.summary is not None:
        return record.summary
    from companion.session.table import Table, summarize

    try:
        table = Table.open(store, record.id)
    except (ValueError, StoreError) as err:  # ValueError covers InvalidInput and IllegalAction
        return _unreadable(str(err))
    summary = summarize(table.adapter, table.state)
    if not store.read_only:
        try:
            store.set_summary(record.id, summary)
        except (StoreReadOnly, StoreError):
            log.info("summary of table %s not kept", record.id, exc_info=True)
    return summary


def _unreadable(why: str) -> dict:
    return {"status": f"unreadable: {why}", "turn": None, "active": None, "winners": [], "totals": {},
            "players": []}

