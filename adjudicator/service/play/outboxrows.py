"""A deadline's outbox rows as plain values, written in one prebuilt multi-row INSERT.

Building an `OutboxMessage` (SQLModel validates and tracks every attribute) and letting the ORM's
unit of work insert it cost about a fifth of a deadline's CPU for its four mails; the deadline
sweep needs neither: nothing reads its outbox rows back before the commit. Inside `batch` (the
sweep, one game), `notify.queue_mail` hands its row here; `Batch.write` inserts all of them at
the end of the game's work, with every column the ORM would write and the same values (the
model's defaults, `created_at` taken when the mail is queued, as the ORM row takes it when
built), in the caller's transaction, and gives each ("deliver", ...) task its row's id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Dialect, insert
from sqlmodel import Session

from adjudicator.store import OutboxMessage
from adjudicator.store.rows import row_values
from adjudicator.store.typed import table_of

from ..common.types import Task, written_id

KEY = "pbem_outbox_batch"
_TABLE = table_of(OutboxMessage)
# Built once. sort_by_parameter_order: the ids come back in the rows' order (on SQLite, too: the
# engine's implicit sentinel, store/db.py), so each task gets its own row's id.
_INSERT = insert(_TABLE).returning(_TABLE.c.id, sort_by_parameter_order=True)
# Every column but the id, each row naming all of them: the rows of one multi-row insert must
# name the same columns, and `row_values` leaves out a None (one row's game_id, another's not).
_COLUMNS = dict.fromkeys(c.name for c in _TABLE.columns if not c.primary_key)
_SQLITE_ROWS = 50  # rows per statement on SQLite: 16 columns each, within its 999 parameters


class PendingRow:
    """An outbox row queued in a batch: its column values, and its id once written."""

    __slots__ = ("id", "values")

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.id: int | None = None  # set by Batch.write


class Batch:
    def __init__(self) -> None:
        self.rows: list[PendingRow] = []

    def write(self, s: Session, tasks: list[Task]) -> list[Task]:
        """Insert the queued rows (one statement) and return `tasks` with each queued row
        named by its id."""
        if self.rows:
            ids = _insert(s.connection(), [r.values for r in self.rows])
            for row, row_id in zip(self.rows, ids, strict=True):
                row.id = row_id
            self.rows = []
        return [("deliver", written_id(t[1].id)) if t[0] == "deliver" and isinstance(t[1], PendingRow) else t
                for t in tasks]


def _insert(conn: Connection, rows: list[dict[str, Any]]) -> list[int]:
    """The rows' ids, in the rows' order."""
    if conn.dialect.name != "sqlite":
        return list(conn.execute(_INSERT, rows).scalars().all())
    # SQLite: the statement's text and each column's bind processor, ready for the driver. The
    # prebuilt insert's insertmanyvalues (VALUES expanded, a sentinel column, the rows sorted
    # back) cost more CPU than SQLite's own work. The ids come back sorted, which is the rows'
    # order: an integer primary key left out is max(rowid) + 1, given row by row in VALUES order
    # under the write lock (what SQLAlchemy's implicit sentinel relies on too, store/db.py).
    columns = _sqlite_columns(conn.dialect)
    ids: list[int] = []
    for first in range(0, len(rows), _SQLITE_ROWS):
        chunk = rows[first:first + _SQLITE_ROWS]
        params = tuple(row[name] if process is None else process(row[name])
                       for row in chunk for name, process in columns)
        ids += sorted(conn.exec_driver_sql(_sqlite_insert(len(chunk)), params).scalars().all())
    return ids


@lru_cache(maxsize=4)
def _sqlite_columns(dialect: Dialect) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """(name, bind processor) of each column, in `_COLUMNS` order (the statement's)."""
    return tuple((name, _TABLE.c[name].type.dialect_impl(dialect).bind_processor(dialect)) for name in _COLUMNS)


@lru_cache(maxsize=_SQLITE_ROWS)
def _sqlite_insert(count: int) -> str:
    from sqlalchemy.dialects import sqlite

    quote = sqlite.dialect().identifier_preparer.quote
    values = "(" + ", ".join("?" * len(_COLUMNS)) + ")"
    return (f"INSERT INTO {quote(_TABLE.name)} ({', '.join(quote(name) for name in _COLUMNS)}) "
            f"VALUES {', '.join([values] * count)} RETURNING {quote(_TABLE.c.id.name)}")


@contextmanager
def batch(s: Session) -> Iterator[Batch]:
    """Outbox rows queued in the block go to the returned batch; the caller writes it before the
    block ends (rows left unwritten are dropped with the batch: the caller failed)."""
    found, outer = Batch(), s.info.get(KEY)
    s.info[KEY] = found
    try:
        yield found
    finally:
        if outer is None:
            s.info.pop(KEY, None)
        else:  # a batch inside another: the outer one takes the rows queued after this block
            s.info[KEY] = outer


def queued(s: Session, values: dict[str, Any]) -> PendingRow | None:
    """The row of `OutboxMessage(**values)`, queued in the session's batch with the model's own
    defaults for the columns not given; None without a batch (the caller adds an ORM row)."""
    found: Batch | None = s.info.get(KEY)
    if found is None:
        return None
    row = PendingRow({**_COLUMNS, **row_values(OutboxMessage, values)})
    found.rows.append(row)
    return row
