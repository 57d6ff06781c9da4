"""Engine, schema creation, transactions and game-row locking.

SQLite (the default) runs in WAL mode with a busy timeout. The pysqlite driver's own transaction
handling is switched off and we emit BEGIN ourselves: a write transaction starts with
``BEGIN IMMEDIATE`` so concurrent writers queue on the database lock instead of failing when a
deferred read lock cannot be upgraded. On PostgreSQL the game row is locked with
``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine, select

from . import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from .models import Game
from .schema import ensure_schema

DEFAULT_URL = "sqlite:///var/pbem.sqlite"
BUSY_TIMEOUT_MS = 30_000

_lock = threading.Lock()
_engine: Engine | None = None
_url: str | None = None


def database_url() -> str:
    return _url or os.environ.get("DATABASE_URL") or DEFAULT_URL


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (see module doc)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("pbem_write", True)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def configure(url: str | None) -> Engine | None:
    """Point the store at another database (tests, CLI); None goes back to DATABASE_URL."""
    global _engine, _url
    with _lock:
        if _engine is not None:
            _engine.dispose()
        _engine, _url = None, url
    return get_engine() if url else None


def reset_after_fork() -> None:
    """In a forked child (a Celery prefork child, a gunicorn worker): forget the parent's pooled
    connections without closing them (they still belong to the parent), so this process opens its
    own. Sharing one connection across processes interleaves their protocol streams (on
    PostgreSQL: DuplicatePreparedStatement, ResourceClosedError, lost work)."""
    global _lock
    _lock = threading.Lock()  # a lock held by another parent thread at fork time stays held
    if _engine is not None:
        _engine.dispose(close=False)


os.register_at_fork(after_in_child=reset_after_fork)


def get_engine() -> Engine:
    global _engine
    with _lock:
        if _engine is None:
            _engine = make_engine(database_url())
        return _engine


def is_sqlite(engine: Engine | None = None) -> bool:
    return (engine or get_engine()).dialect.name == "sqlite"


def init_db(engine: Engine | None = None) -> None:
    """Bring the database to the current schema (see schema.py); safe to run any number of times."""
    ensure_schema(engine or get_engine())


_held = threading.local()


@contextmanager
def _sqlite_writers_queue(engine: Engine) -> Iterator[None]:
    """On a SQLite file, writers of every process queue on an flock of a file beside the database
    before BEGIN IMMEDIATE. SQLite's own busy handler sleeps and retries (up to 100 ms a time), so
    under load the lock was often free while every writer slept: order POSTs saturated at ~65/s.
    The kernel wakes an flock waiter as soon as the lock is free. Reentrant per thread (a nested
    write meets SQLite's busy timeout as before); a process that dies releases it."""
    path = engine.url.database
    if not is_sqlite(engine) or not path or path == ":memory:" or getattr(_held, "depth", 0):
        yield
        return
    fd = os.open(f"{path}-writers", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _held.depth = 1
        try:
            yield
        finally:
            _held.depth = 0
    finally:
        os.close(fd)  # closing releases the flock


@contextmanager
def transaction(write: bool = True) -> Iterator[Session]:
    """A session in one database transaction: committed on success, rolled back on error.

    ``write=False`` is for pages that only read (on SQLite it does not take the write lock).
    Objects stay usable after the commit (no expiry).
    """
    engine = get_engine()
    with _sqlite_writers_queue(engine) if write else nullcontext(), engine.connect() as conn:
        conn = conn.execution_options(pbem_write=write)
        with conn.begin():
            session = Session(bind=conn, expire_on_commit=False, autoflush=True)
            try:
                yield session
                session.flush()
            finally:
                session.close()


def lock_game(session: Session, public_id: str) -> Game | None:
    """Load a game row locked for this transaction (FOR UPDATE; a no-op clause on SQLite, whose
    BEGIN IMMEDIATE already serialises writers)."""
    stmt = select(Game).where(Game.public_id == public_id).with_for_update()
    return session.exec(stmt).first()
