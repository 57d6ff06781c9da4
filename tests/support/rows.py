"""Reading what a transaction wrote, for tests that run one change two ways and compare."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, select
from sqlmodel import Session, SQLModel


def table_rows(s: Any, tables: Iterable[str], left_out: set[str]) -> dict[str, list[tuple]]:
    """Every row of `tables` as sorted tuples of reprs, without the columns `left_out` (ids,
    wall clocks): two databases that took the same steps compare equal."""
    s.flush()
    conn, out = s.connection(), {}
    for name in tables:
        table = SQLModel.metadata.tables[name]
        columns = [c for c in table.c if c.name not in left_out]
        out[name] = sorted(tuple(repr(v) for v in row) for row in conn.execute(select(*columns)))
    return out


@contextmanager
def flushed_objects() -> Iterator[list[str]]:
    """The class names of the objects every Session flushes meanwhile (new and dirty ones)."""
    flushed: list[str] = []

    def before_flush(session: Session, *_args: Any) -> None:
        flushed.extend(type(o).__name__ for o in [*session.new, *session.dirty])

    event.listen(Session, "before_flush", before_flush)
    try:
        yield flushed
    finally:
        event.remove(Session, "before_flush", before_flush)
