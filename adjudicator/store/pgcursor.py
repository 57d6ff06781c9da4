"""psycopg's cursor, with `description` built when it is read instead of at every statement.

psycopg builds a `Column` object for each column of each result as soon as `description` is
asked for, and SQLAlchemy asks after every SELECT. Yet for a statement it has run before (the
compiled cache: every statement of an order POST) SQLAlchemy keeps its own result metadata and
only tests the description for None. An order POST read ~70 columns in its three selects: the
Column objects were about 8 % of its instructions (docs/benchmarks.md, issue 16). Here the
description is a sequence of the same Column objects, built at its first item or iteration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import Column


class _ResultOf:
    """What `Column` reads of a cursor, fixed at one result (the cursor may run another meanwhile)."""

    __slots__ = ("pgresult", "_encoding", "adapters")

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self.pgresult, self._encoding, self.adapters = cursor.pgresult, cursor._encoding, cursor.adapters


class LazyDescription(Sequence[Column]):
    __slots__ = ("_of", "_count", "_columns")

    def __init__(self, cursor: psycopg.Cursor[Any], count: int) -> None:
        self._of, self._count, self._columns = _ResultOf(cursor), count, None

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        if self._columns is None:
            self._columns = [Column(self._of, i) for i in range(self._count)]  # type: ignore[arg-type]
        return self._columns[index]

    def __repr__(self) -> str:
        return repr(list(self))


class LazyDescriptionCursor(psycopg.Cursor[Any]):
    @property
    def description(self) -> Sequence[Column] | None:  # type: ignore[override]
        res = self.pgresult
        if res is not None and res.nfields:
            return LazyDescription(self, res.nfields)
        return super().description  # no columns: None, or psycopg's own answer for "SELECT ;"
