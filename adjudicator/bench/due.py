"""`pbem bench due [--games 1000,100000] [--backend postgres|sqlite] [--due 20]`: the beat's due-games
listing (service.due_games) at rising numbers of running games.

Each size: a fresh database (a private schema on PostgreSQL, PBEM_TEST_PG_URL; or a SQLite file)
holding that many running games whose deadlines and reminders lie ahead, as on a live server,
plus `--due` games whose deadline has come and as many whose reminder has; the listing's median
and p90 over 30 calls, beside the plan PostgreSQL chose for its deadline query. The target: flat
from 1k to 100k (index-only scans on ix_games_running_due / ix_games_running_reminder).
Games holding sealed orders are listed by a third query that reads the sealed_orders rows; there
are none here. Prints `name: value unit` lines.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from .openloop import percentile
from .schemas import fresh_schema

PG_URL_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
CHUNK = 5000


def fill_games(count: int, due: int, now: Any) -> None:
    """`count` running games with their deadline and reminder ahead (1 to 72 hours), then `due`
    games whose deadline has come and `due` whose reminder has; a tenth as many finished games.
    Core inserts in chunks, the rows as the model's defaults make them."""
    from adjudicator.store import Game

    template = Game().model_dump(exclude={"id"})
    rows: list[dict[str, Any]] = []

    def row(n: int, status: str, due_at: Any, reminder_at: Any) -> dict[str, Any]:
        return {**template, "public_id": f"b{n:07d}", "game_type": "doge", "status": status,
                "due_at": due_at, "reminder_at": reminder_at, "created_at": now, "updated_at": now}

    for n in range(count + 2 * due + count // 10):
        ahead = timedelta(hours=1 + n % 72)
        if n < count:
            rows.append(row(n, "running", now + ahead + timedelta(hours=24), now + ahead))
        elif n < count + due:
            rows.append(row(n, "running", now - timedelta(minutes=1), None))
        elif n < count + 2 * due:
            rows.append(row(n, "running", now + ahead, now - timedelta(minutes=1)))
        else:
            rows.append(row(n, "finished", None, None))
        if len(rows) == CHUNK:
            _insert(rows)
            rows = []
    if rows:
        _insert(rows)


def _insert(rows: list[dict[str, Any]]) -> None:
    from sqlalchemy import insert

    from adjudicator import store
    from adjudicator.store import Game

    with store.get_engine().begin() as conn:
        conn.execute(insert(Game.__table__), rows)  # type: ignore[arg-type]


def analyze() -> None:
    """Statistics and the visibility map up to date (VACUUM cannot run in a transaction)."""
    from adjudicator import store

    engine = store.get_engine()
    if engine.dialect.name == "sqlite":
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE games")


def explain(statement: Any) -> str:
    """PostgreSQL's plan of a select, with its parameters bound as the service binds them."""
    from adjudicator import store

    engine = store.get_engine()
    compiled = statement.compile(dialect=engine.dialect)
    with engine.connect() as conn:
        return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + str(compiled), compiled.params))


@contextmanager
def _database(backend: str, tmp: Path, pg_url: str) -> Iterator[str]:
    if backend == "sqlite":
        path = tmp / f"due-{secrets.token_hex(4)}.sqlite"
        yield f"sqlite:///{path}"
        return
    with fresh_schema(pg_url, "bench_due") as url:
        yield url


def main(argv: list[str]) -> int:
    import os

    parser = argparse.ArgumentParser(prog="pbem bench due", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="1000,100000", help="running games at each size, comma-separated")
    parser.add_argument("--due", type=int, default=20, help="games due at each size (deadline; as many reminders)")
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--pg-url", default=os.environ.get("PBEM_TEST_PG_URL", PG_URL_DEFAULT))
    args = parser.parse_args(argv)
    from adjudicator import service, store
    from adjudicator.service.play.deadlines import due_queries

    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-due-"))
    print(f"due backend: {args.backend}")
    for count in [int(part) for part in args.games.split(",") if part.strip()]:
        with _database(args.backend, tmp, args.pg_url) as url:
            store.configure(url)
            store.init_db()
            now = service.utcnow()
            fill_games(count, args.due, now)
            analyze()
            with store.transaction(write=False) as s:
                listed = service.due_games(s, now)
            times = []
            for _ in range(30):
                with store.transaction(write=False) as s:
                    started = time.perf_counter()
                    service.due_games(s, now)
                    times.append(time.perf_counter() - started)
            print(f"due listing at {count} running games: {statistics.median(times) * 1000:.2f} ms "
                  f"(p90 {percentile(times, 0.9) * 1000:.2f} ms, {len(listed)} due)")
            if args.backend == "postgres":
                plan = explain(due_queries(now)[0]).splitlines()[0].strip()
                print(f"due plan at {count} running games: {plan.split('  (')[0]}")
            store.configure(None)
    return 0
