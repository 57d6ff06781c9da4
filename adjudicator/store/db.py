"""Engine, schema creation, transactions and game-row locking.

SQLite (the default) runs in WAL mode with a busy timeout. The pysqlite driver's own transaction
handling is switched off and we emit BEGIN ourselves: a write transaction starts with
``BEGIN IMMEDIATE`` so concurrent writers queue on the database lock instead of failing when a
deferred read lock cannot be upgraded. On PostgreSQL the game row is locked with
``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import fcntl
import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.sql.compiler import InsertmanyvaluesSentinelOpts
from sqlmodel import Session, create_engine, select

from . import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from .models import Game
from .schema import ensure_schema

DEFAULT_URL = "sqlite:///var/pbem.sqlite"
BUSY_TIMEOUT_MS = 30_000
PING_IDLE_SECONDS = 2.0  # PostgreSQL: a pooled connection idle this long is tried before use

_lock = threading.Lock()
_engine: Engine | None = None
_url: str | None = None


def database_url() -> str:
    return _url or os.environ.get("DATABASE_URL") or DEFAULT_URL


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return _ping_when_idle(create_engine(url))
    if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000})
    # Rows of one table flushed together go out as one multi-row INSERT ... RETURNING (a
    # deadline's notifications), as on PostgreSQL. SQLAlchemy does this only where it may match
    # the returned ids to the rows by their order; on SQLite it may: an integer primary key left
    # out is max(rowid) + 1, given row by row in VALUES order, under the write lock.
    engine.dialect.insertmanyvalues_implicit_sentinel = InsertmanyvaluesSentinelOpts.ANY_AUTOINCREMENT

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (see module doc)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        record.info["synchronous"] = sqlite_synchronous()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        options = conn.get_execution_options()
        # the safety level can only change between transactions (see `transaction(lazy=...)`)
        synchronous = "NORMAL" if options.get("pbem_lazy") else sqlite_synchronous()
        if conn.info.get("synchronous") != synchronous:
            conn.exec_driver_sql(f"PRAGMA synchronous={synchronous}")
            conn.info["synchronous"] = synchronous
        conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get("pbem_write", True) else "BEGIN")

    return engine


def _ping_when_idle(engine: Engine) -> Engine:
    """A pooled connection idle for PING_IDLE_SECONDS or more is tried (SELECT 1) before use, and
    replaced if the server dropped it (a restart, an idle timeout). pool_pre_ping tried every
    checkout: a round trip and ~15 % of an order POST's CPU under load, when connections are
    reused within milliseconds. A connection that died while in steady use is found by its first
    statement instead: SQLAlchemy then drops the whole pool (every connection older than the
    error), and the web's writes and reads run the transaction again once (web/backend.py)."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_conn: Any, record: Any) -> None:
        record.info["pbem_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("pbem_idle_since")
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except engine.dialect.loaded_dbapi.Error as exc:
            # the pool reconnects, and drops its connections older than this one (all gone too)
            raise InvalidatePoolError(f"pooled connection is gone: {exc}") from exc

    return engine


def sqlite_synchronous() -> str:
    """PBEM_SQLITE_SYNCHRONOUS: FULL (the default) syncs the log at every commit, so a commit
    survives a power cut; NORMAL syncs it at checkpoints only: a commit still survives any crash of
    the processes, but the last ones before a power cut or an OS crash may be rolled back (the
    file stays consistent). On a slow disk NORMAL makes a commit several times cheaper
    (`pbem bench burst` measures both; docs/benchmarks.md)."""
    value = os.environ.get("PBEM_SQLITE_SYNCHRONOUS", "FULL").strip().upper()
    if value not in ("FULL", "NORMAL"):
        raise ValueError(f"PBEM_SQLITE_SYNCHRONOUS must be FULL or NORMAL, not {value!r}")
    return value


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
    _forget_other_threads_hold()
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


def sqlite_file(engine: Engine | None = None) -> str | None:
    """The path of the SQLite file behind the engine; None for PostgreSQL or an in-memory database.
    A URI filename (`sqlite:///file:/x.db?mode=ro&uri=true`) names the file after its scheme."""
    engine = engine or get_engine()
    path = engine.url.database if is_sqlite(engine) else None
    if not path or path == ":memory:" or path.startswith("file::memory:"):
        return None
    return path.removeprefix("file:")


def init_db(engine: Engine | None = None) -> None:
    """Bring the database to the current schema (see schema.py); safe to run any number of times."""
    ensure_schema(engine or get_engine())


@dataclass
class _Hold:
    """This process's hold of the writers' lock: one thread at a time (each write opens the file
    anew, and an flock excludes other open files of the same process too)."""

    thread: int | None = None
    fd: int = -1
    collector_was_on: bool = False


_hold = _Hold()


@contextmanager
def _sqlite_writers_queue(engine: Engine) -> Iterator[None]:
    """On a SQLite file, writers of every process queue on an flock of a file beside the database
    before BEGIN IMMEDIATE. SQLite's own busy handler sleeps and retries (up to 100 ms a time), so
    under load the lock was often free while every writer slept: order POSTs saturated at ~65/s.
    The kernel wakes an flock waiter as soon as the lock is free. Reentrant per thread (a nested
    write meets SQLite's busy timeout as before); a process that dies releases it.

    While it is held, Python's cyclic garbage collector does not start. A full collection of a
    web worker's heap took 70-90 ms of CPU; started by an allocation inside a write transaction,
    it held every writer of every process behind it (the 200 ms p99 of order POSTs at 200/s). The
    collection that fell due runs at the first allocation after the release. It stays off if
    something else had switched it off."""
    if sqlite_file(engine) is None or _hold.thread == threading.get_ident():
        yield
        return
    path = sqlite_file(engine)
    try:
        fd = os.open(f"{path}-writers", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # a read-only volume: SQLite itself reports what it cannot do
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _hold.thread, _hold.fd, _hold.collector_was_on = threading.get_ident(), fd, gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            _let_go()
    finally:
        os.close(fd)  # closing releases the flock (once no forked child has it open either)


def _let_go() -> None:
    if _hold.collector_was_on:
        gc.enable()
    _hold.thread, _hold.fd, _hold.collector_was_on = None, -1, False


def _forget_other_threads_hold() -> None:
    """In a child forked while another thread held the writers' lock: that thread is not in the
    child, so nothing would close the child's copy of the lock file (keeping every writer out
    while the child lives) or switch the collector on again."""
    if _hold.thread is not None and _hold.thread != threading.get_ident():
        os.close(_hold.fd)
        _let_go()


@contextmanager
def transaction(write: bool = True, lazy: bool = False) -> Iterator[Session]:
    """A session in one database transaction: committed on success, rolled back on error.

    ``write=False`` is for pages that only read (on SQLite it does not take the write lock).
    ``lazy=True``: on SQLite the commit does not wait for the disk (synchronous=NORMAL: it
    survives any crash of the processes, only a power cut or an OS crash may roll it back). Only
    for writes whose loss merely repeats idempotent work: the outbox's record that a mail was sent
    (a lost record sends the same message again; it never loses one). PostgreSQL commits as
    usual: its asynchronous commit would lose the last commits in every crash or immediate
    restart of the server (`pbem chaos` restarts it three times), and so repeat mails. Objects
    stay usable after the commit (no expiry).
    """
    engine = get_engine()
    with _sqlite_writers_queue(engine) if write else nullcontext(), engine.connect() as conn:
        conn = conn.execution_options(pbem_write=write, pbem_lazy=lazy)
        with conn.begin():
            session = Session(bind=conn, expire_on_commit=False, autoflush=True)
            try:
                yield session
                session.flush()
            finally:
                session.close()


@contextmanager
def connection(lazy: bool = False) -> Iterator[Connection]:
    """One pooled connection for several short transactions (`with begin(conn): ...` each), for
    a loop that commits often; `lazy` as in `transaction`. No
    retry: the caller falls back to `run_in_transaction` when a statement fails."""
    with get_engine().connect() as conn:
        yield conn.execution_options(pbem_write=True, pbem_lazy=lazy)


@contextmanager
def begin(conn: Connection) -> Iterator[Connection]:
    """One write transaction on a `connection()`: on SQLite behind the writers' flock, as every
    `transaction` (a bare `conn.begin()` met SQLite's busy handler, which sleeps up to 100 ms a
    time while the lock may be free)."""
    with _sqlite_writers_queue(conn.engine), conn.begin():
        yield conn


def lock_game(session: Session, public_id: str) -> Game | None:
    """Load a game row locked for this transaction (FOR UPDATE; a no-op clause on SQLite, whose
    BEGIN IMMEDIATE already serialises writers)."""
    stmt = select(Game).where(Game.public_id == public_id).with_for_update()
    return session.exec(stmt).first()
