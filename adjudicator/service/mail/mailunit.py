"""One inbound mail's unit of rollback: a single savepoint that holds the mail's work and nothing
else, and its inbox row's one Core UPDATE (issue 16).

A drained mail used to nest three savepoints (the drain's, the service's and the command's),
each with its own flushes. The drain's and the service's are one here: the drain opens the unit
for the row (`unit`); `inbound.process_locked` takes it (`claim`), and if the service fails it
rolls the unit back and starts it again (`MailUnit.restart`), so the mail's failure is recorded
without any of its writes, as the inner savepoint did. If processing fails outside the service,
the drain's `with` rolls the whole unit back, as the drain's savepoint did.

The inbox row's status, outcome and what the service learnt (sender, signals, seat) go out in one
prebuilt UPDATE of the columns that changed (`write_row`), not through an ORM flush. In a drain
(`rows_together`) the rows of a chunk go out together when its last mail is done: one executemany
of that UPDATE for the rows whose units were released (a unit rolled back drops its row's values;
nothing in a mail's processing reads inbox rows), instead of a statement per mail under the lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import bindparam, event, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from adjudicator.store import InboxMessage
from adjudicator.store.rowwrite import written_in
from adjudicator.store.typed import table_of

KEY = "pbem_mail_unit"
ROWS_KEY = "pbem_mail_unit_rows"  # Session.info: the released units' row values, by row id (`rows_together`)
_TABLE = table_of(InboxMessage)
# Built once; its SET clause names the columns of the parameters given (compiled once per set)
_UPDATE = update(_TABLE).where(_TABLE.c.id == bindparam("row_id"))


class MailUnit:
    """The savepoint of one inbox row's processing."""

    def __init__(self, s: Session, inbox_id: int | None) -> None:
        self.s, self.inbox_id, self.claimed = s, inbox_id, False
        self.savepoint = s.begin_nested()
        self.written = False  # a flush went out in the savepoint (`written_in`: the Core writes)
        self.row_values: dict[str, Any] | None = None  # `write_row`'s, held for `rows_together`

    def restart(self) -> None:
        """Undo everything the mail wrote so far and go on in a fresh savepoint."""
        self.savepoint.rollback()
        self.savepoint = self.s.begin_nested()
        self.written = False
        self.row_values = None

    def open(self) -> bool:
        """The savepoint is still among the session's transactions (active, or deactivated by a
        failed flush), not closed: public attributes only (`get_nested_transaction`, `parent`)."""
        transaction = self.s.get_nested_transaction()
        while transaction is not None:
            if transaction is self.savepoint:
                return True
            transaction = transaction.parent
        return False

    def pristine(self) -> bool:
        """Nothing written in the savepoint yet, nor waiting in the session to be flushed."""
        s = self.s
        return (not self.written and s.get_nested_transaction() is self.savepoint
                and not (s.new or s.dirty or s.deleted) and not written_in(s, self.savepoint))


@contextmanager
def unit(s: Session, inbox_id: int | None) -> Iterator[MailUnit]:
    """A unit for one row: released when the block ends, rolled back if it raises."""
    outer = s.info.get(KEY)
    found = s.info[KEY] = MailUnit(s, inbox_id)
    try:
        yield found
    except BaseException:
        # as `with s.begin_nested()` does: also a savepoint a failed flush deactivated, not a closed one
        if found.open():
            found.savepoint.rollback()
        raise
    else:
        found.savepoint.commit()
        held = s.info.get(ROWS_KEY)
        if found.row_values is not None and held is not None:
            held[inbox_id] = found.row_values  # written with the chunk's other rows
    finally:
        if outer is None:
            s.info.pop(KEY, None)
        else:
            s.info[KEY] = outer


@contextmanager
def command(s: Session, first: bool) -> Iterator[None]:
    """A mail command's unit of rollback (mailcommands.py). Its own savepoint, except for the
    mail's first command while the mail's unit holds no write: rolling the mail's savepoint back
    and starting it again (`restart`) then undoes exactly what the command's would have, with one
    savepoint fewer per mail. (Not for a later command: an earlier one may have written Core rows
    that `pristine` does not see.)"""
    found: MailUnit | None = s.info.get(KEY)
    if not first or found is None or not found.pristine():
        with s.begin_nested():
            yield
        return
    try:
        yield
    except BaseException:
        found.restart()
        raise


def claim(s: Session, inbox_id: int | None) -> MailUnit | None:
    """The unit the caller opened for this row, once (None: the row has no unit yet)."""
    found: MailUnit | None = s.info.get(KEY)
    if found is None or found.claimed or found.inbox_id != inbox_id:
        return None
    found.claimed = True
    return found


def write_row(s: Session, row: InboxMessage, values: dict[str, Any]) -> None:
    """One UPDATE of these columns of the row; the object takes the values as written (not dirty:
    no flush writes them again). In `rows_together`, the row's own unit holds the values until it
    is released, and the drain writes them with the chunk's other rows."""
    found: MailUnit | None = s.info.get(KEY)
    if ROWS_KEY in s.info and found is not None and found.inbox_id == row.id:
        found.row_values = {**(found.row_values or {}), **values}
    else:
        s.connection().execute(_UPDATE, {**values, "row_id": row.id})
    _written(s)
    for name, value in values.items():
        set_committed_value(row, name, value)


@contextmanager
def rows_together(s: Session) -> Iterator[None]:
    """The inbox rows that `write_row` writes in the block, each in its unit, go out when the block
    ends: one executemany of the UPDATE per set of columns (a chunk's mails mostly write the same
    ones). If the block raises, nothing is written (the caller's transaction is rolled back)."""
    if ROWS_KEY in s.info:  # a drain inside a drain: the outer one writes them
        yield
        return
    held: dict[int | None, dict[str, Any]] = {}
    s.info[ROWS_KEY] = held
    try:
        yield
    finally:
        s.info.pop(ROWS_KEY, None)
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row_id, values in held.items():
        by_columns.setdefault(tuple(sorted(values)), []).append({**values, "row_id": row_id})
    for params in by_columns.values():
        s.connection().execute(_UPDATE, params)


def note_error(s: Session, row: InboxMessage, error: str) -> None:
    """A row whose unit was rolled back keeps `new`, with the error (the recovery sweep's cue);
    the object is expired: what `write_row` gave it was rolled back."""
    row_id = row.id
    s.expire(row)
    s.connection().execute(_UPDATE, {"last_error": error[:1000], "row_id": row_id})


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context: Any) -> None:
    _written(session)


def _written(s: Session) -> None:
    found: MailUnit | None = s.info.get(KEY)
    if found is not None:
        found.written = True
