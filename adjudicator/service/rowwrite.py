"""A loaded row's UPDATE as one prebuilt Core statement instead of a flush of the unit of work
(issue 16).

A drained order mail changed two loaded rows, its sealed order and its seat's `acted_at`, and the
savepoint's release flushed them through the ORM: about a fifth of the mail's drain (the flush's
bookkeeping, not the two statements). `update` sends the same UPDATE directly, of the columns
whose value changes (as the flush would: none, no statement), and leaves the object as a flush
would: holding the values, not dirty, and registered with the session's innermost transaction
as written in it, so that a rollback of that savepoint (a mail's failed command, `mailunit`'s
restart) expires it and the next read loads the database's row again, exactly as after a flush.

Only for a persistent row with no change pending: otherwise the attributes are set and the flush
writes them all in one statement, as before. `ENABLED = False` sends every write through the
flush (tests/mail/test_row_write.py compares the two).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Table, bindparam, inspect, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from . import mailunit

ENABLED = True


@lru_cache(maxsize=16)
def _statement(table: Table) -> Any:
    """The table's UPDATE by primary key, built once; its SET clause names the parameters given."""
    (key,) = table.primary_key.columns
    return update(table).where(key == bindparam("pbem_row_key"))


def update_row(s: Session, row: Any, values: dict[str, Any]) -> None:
    """Write `values` into the loaded `row` of this session (see the module doc)."""
    state = inspect(row)
    if not ENABLED or not state.persistent or state.modified or state.session is not s:
        for name, value in values.items():
            setattr(row, name, value)
        s.add(row)
        return
    loaded = state.dict
    changed = {name: value for name, value in values.items() if name not in loaded or loaded[name] != value}
    if not changed:
        return
    (key,) = state.identity
    s.connection().execute(_statement(type(row).__table__), {**changed, "pbem_row_key": key})
    for name, value in changed.items():
        set_committed_value(row, name, value)
    s._register_altered([state])  # as the flush does: a rollback of this savepoint expires the row
    mailunit.wrote(s)
