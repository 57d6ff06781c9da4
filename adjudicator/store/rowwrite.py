"""A loaded row's UPDATE as one prebuilt Core statement instead of a flush of the unit of work
(issue 16; the one way the service writes a changed row it holds, issue 27).

An order changes one or two loaded rows (its sealed order, its seat's `acted_at`), and a flush
of the unit of work cost more than the statements themselves (its bookkeeping: about a fifth of
an order mail's drain). `update_row` sends the same UPDATE directly, of the columns whose value
changes (as the flush would: none, no statement), and leaves the object as a flush would:
holding the values, not dirty, and noted as written in the session's innermost transaction, so
that a rollback of that savepoint (a mail's failed command, a mail unit's restart) or of any
transaction around it expires it, and the next read loads the database's row again, exactly as
after a flush. The note is kept with SQLAlchemy's public session events (`after_soft_rollback`,
`after_transaction_end`) and transaction attributes (`parent`); `written_in` answers from it.

Only for a persistent row with no change pending: otherwise the attributes are set and the flush
writes them all in one statement. A plain row (gamelock's `SeatRow`, `SealedRow`: no ORM object,
its class naming its table model as `model`) is written the same way by its key, and an ORM
object of the same row in the session, if any, is given the values too. `insert_row` and
`delete_row` insert and delete a plain row by key.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Table, bindparam, delete, event, insert, inspect, update
from sqlalchemy.orm import SessionTransaction
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, SQLModel

from .rows import row_values
from .typed import table_of

WRITTEN = "pbem_core_written"  # Session.info: [(the innermost transaction at the write, the row or None)]


@lru_cache(maxsize=16)
def _statement(table: Table) -> Any:
    """The table's UPDATE by primary key, built once; its SET clause names the parameters given."""
    (key,) = table.primary_key.columns
    return update(table).where(key == bindparam("pbem_row_key"))


def update_row(s: Session, row: Any, values: dict[str, Any]) -> None:
    """Write `values` into the loaded `row` of this session (see the module doc)."""
    model = getattr(type(row), "model", None)
    if model is not None:  # a plain row
        _update_plain(s, model, row, values)
        return
    state = inspect(row)
    if not state.persistent or state.modified or state.session is not s:
        for name, value in values.items():
            setattr(row, name, value)
        s.add(row)
        return
    loaded = state.dict
    changed = {name: value for name, value in values.items() if name not in loaded or loaded[name] != value}
    if not changed:
        return
    (key,) = state.identity
    s.connection().execute(_statement(table_of(type(row))), {**changed, "pbem_row_key": key})
    _written(s, row, changed)


def _written(s: Session, row: Any, changed: dict[str, Any]) -> None:
    for name, value in changed.items():
        set_committed_value(row, name, value)
    _note(s, row)


def _note(s: Session, row: Any) -> None:
    """A Core write in the innermost transaction (`row`: the ORM object to expire if it is rolled
    back; None for a plain row, which the snapshot's drop on a rollback reads again)."""
    s.info.setdefault(WRITTEN, []).append((s.get_nested_transaction() or s.get_transaction(), row))


def _update_plain(s: Session, model: type[SQLModel], row: Any, values: dict[str, Any]) -> None:
    # a column the plain row does not hold is written whatever its value
    changed = {name: value for name, value in values.items()
               if not hasattr(row, name) or getattr(row, name) != value}
    if not changed:
        return
    for name, value in changed.items():
        if hasattr(row, name):
            setattr(row, name, value)
    loaded = s.identity_map.get(identity_key(model, row.id))
    if loaded is not None and inspect(loaded).modified:  # its flush writes these with its other changes
        for name, value in changed.items():
            setattr(loaded, name, value)
        return
    s.connection().execute(_statement(table_of(model)), {**changed, "pbem_row_key": row.id})
    if loaded is not None:
        _written(s, loaded, changed)
    else:
        _note(s, None)


def insert_row(s: Session, model: type[SQLModel], values: dict[str, Any]) -> int:
    """Insert one row of `model` (`rows.row_values`: defaults filled as the ORM fills them) and
    return its id."""
    row = row_values(model, values)
    found = s.connection().execute(_insert(table_of(model)), row).scalar()
    assert found is not None
    _note(s, None)
    return int(found)


def delete_row(s: Session, row: Any) -> None:
    """Delete a plain row by its key (an ORM object: `Session.delete`)."""
    model = getattr(type(row), "model", None)
    if model is None:
        s.delete(row)
        return
    loaded = s.identity_map.get(identity_key(model, row.id))
    if loaded is not None:
        s.expunge(loaded)
    s.connection().execute(_delete(table_of(model)), {"pbem_row_key": row.id})
    _note(s, None)


@lru_cache(maxsize=16)
def _insert(table: Table) -> Any:
    return insert(table).returning(table.c.id)


@lru_cache(maxsize=16)
def _delete(table: Table) -> Any:
    (key,) = table.primary_key.columns
    return delete(table).where(key == bindparam("pbem_row_key"))


def written_in(s: Session, transaction: SessionTransaction) -> bool:
    """Whether `update_row` wrote a row in `transaction` or in a savepoint inside it."""
    return any(_within(inner, transaction) for inner, _row in s.info.get(WRITTEN, ()))


def _within(inner: SessionTransaction | None, outer: SessionTransaction) -> bool:
    """`inner` is `outer` or was opened inside it (a released savepoint keeps its `parent`)."""
    while inner is not None:
        if inner is outer:
            return True
        inner = inner.parent
    return False


@event.listens_for(Session, "after_soft_rollback")
def _expire_rolled_back(s: Session, rolled_back: SessionTransaction) -> None:
    """As a rollback expires the rows a flush wrote in it: those written here, in it or in a
    savepoint released into it, load the database's values at their next read."""
    written = s.info.get(WRITTEN)
    if not written:
        return
    kept = []
    for transaction, row in written:
        if _within(transaction, rolled_back):
            if row is not None and inspect(row).persistent:
                s.expire(row)
        else:
            kept.append((transaction, row))
    s.info[WRITTEN] = kept


@event.listens_for(Session, "after_transaction_end")
def _forget_at_the_end(s: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the outermost ended: a later rollback cannot undo these
        s.info.pop(WRITTEN, None)
