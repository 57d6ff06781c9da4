"""The PostgreSQL cursor's lazy `description` (store/pgcursor.py): the same columns as psycopg's own,
fixed at the result it came with, and not built at all for a statement SQLAlchemy has cached."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from sqlalchemy import literal, select

from adjudicator import store
from adjudicator.store.pgcursor import LazyDescriptionCursor
from tests.support.databases import postgres_database


@pytest.fixture
def pg() -> Any:
    with postgres_database() as database:
        store.configure(database.url)
        try:
            yield database
        finally:
            store.configure(None)


def _columns(description: Any) -> list[tuple[Any, ...]]:
    return [tuple(column) for column in description]


def test_description_equals_psycopgs_and_stays_with_its_result(pg: Any) -> None:
    raw = store.get_engine().raw_connection()
    try:
        cur = raw.cursor()
        assert isinstance(cur, LazyDescriptionCursor)
        query = "SELECT 1 AS a, 'x'::text AS b, now() AS c, '{}'::json AS d"
        cur.execute(query)
        lazy = cur.description
        plain = psycopg.Cursor(raw.driver_connection)
        plain.execute(query)
        assert len(lazy) == 4
        cur.execute("SELECT 2 AS other")  # the first description still describes the first result
        assert _columns(lazy) == _columns(plain.description)
        assert [c.name for c in lazy] == ["a", "b", "c", "d"] and lazy[-1].name == "d"
        cur.execute("CREATE TEMP TABLE t (x int)")
        assert cur.description is None
    finally:
        raw.close()


def test_cached_statements_build_no_columns(pg: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    built = []
    original = psycopg.Column.__init__

    def counting(self: Any, cursor: Any, index: int) -> None:
        built.append(index)
        original(self, cursor, index)

    monkeypatch.setattr(psycopg.Column, "__init__", counting)
    query = select(literal(1).label("a"), literal("x").label("b"), literal(3).label("c"))
    with store.transaction() as s:
        first = s.connection().execute(query).all()
        assert built  # SQLAlchemy read the columns once, for its cached result metadata
        del built[:]
        again = [s.connection().execute(query).all() for _ in range(3)]
    assert again == [first] * 3 and first == [(1, "x", 3)]
    assert built == []
