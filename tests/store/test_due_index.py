"""The beat's due-games listing reads partial indexes of the running games' deadlines and reminders
(migration 0019): index-only on PostgreSQL, so it stays flat however many games run."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator import service, store
from adjudicator.bench.due import analyze, explain, fill_games
from adjudicator.service.play.deadlines import due_queries
from tests.support.databases import postgres_database, sqlite_database

RUNNING, DUE = 3000, 5


@pytest.fixture
def filled(request: pytest.FixtureRequest, tmp_path: Path):
    context = postgres_database() if request.param == "postgres" else sqlite_database(tmp_path)
    with context as database:
        store.configure(database.url)
        try:
            store.init_db()
            now = service.utcnow()
            fill_games(RUNNING, DUE, now)
            analyze()
            yield now
        finally:
            store.configure(None)


@pytest.mark.parametrize("filled", ["postgres", "sqlite"], indirect=True)
def test_due_games_lists_exactly_the_games_whose_deadline_or_reminder_came(filled) -> None:
    with store.transaction(write=False) as s:
        listed = service.due_games(s, filled)
    # fill_games numbers the deadline-due games right after the running ones, then the reminders
    assert listed == [f"b{n:07d}" for n in range(RUNNING, RUNNING + 2 * DUE)]


@pytest.mark.postgres
@pytest.mark.parametrize("filled", ["postgres"], indirect=True)
def test_due_listing_is_an_index_only_scan_on_postgresql(filled) -> None:
    deadlines, reminders, _sealed = due_queries(filled)
    for query, index in ((deadlines, "ix_games_running_due"), (reminders, "ix_games_running_reminder")):
        plan = explain(query)
        assert f"Index Only Scan using {index} on games" in plan, plan
        assert "Seq Scan" not in plan and "Filter" not in plan, plan  # no running game read and dropped


@pytest.mark.parametrize("filled", ["sqlite"], indirect=True)
def test_due_listing_uses_the_partial_indexes_on_sqlite(filled) -> None:
    deadlines, reminders, sealed = due_queries(filled)
    for query, index in ((deadlines, "ix_games_running_due"), (reminders, "ix_games_running_reminder")):
        assert f"USING INDEX {index}" in _sqlite_plan(query)
    # the games holding sealed orders: found from the sealed rows, not by walking every game
    assert "SCAN games" not in _sqlite_plan(sealed)


def _sqlite_plan(query) -> str:
    engine = store.get_engine()
    compiled = query.compile(dialect=engine.dialect)
    with engine.connect() as conn:
        return " ".join(str(row[-1]) for row in conn.exec_driver_sql(
            "EXPLAIN QUERY PLAN " + str(compiled), tuple(compiled.params[name] for name in compiled.positiontup)))
