"""The embedded broker, woken directly: kombu's SQLAlchemy transport (the same tables, the same
messages), except that an idle worker does not sleep a whole polling interval (one second) before
it looks again. Each consuming process binds a Unix datagram socket in a directory named after
the broker database; whoever publishes a message sends one byte to every socket there after the
commit, so a waiting worker takes the message at once. Why: on the embedded default an order
mail waited ~0.5 s on average for the next poll (issue 16).

Nothing depends on the wake-up: it is a hint. A lost datagram, a full socket buffer or a
publisher in another machine only leaves the worker to its polling interval, as before; the
stored message is what counts. A socket left by a dead worker is removed by the next publisher
that finds nobody listening.

`workers/celery_app.py` makes this the transport of `sqla+` broker URLs.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import socket
import sqlite3
import tempfile
from collections.abc import Iterator
from functools import cached_property, lru_cache
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.transport import sqlalchemy as sqla
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import dumps, loads
from sqlalchemy import bindparam, delete, event, insert, literal, text
from sqlalchemy import select as sql_select
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError


@lru_cache(maxsize=16)
def wake_dir(hostname: str) -> Path:
    """One directory per broker database (short, under the temp dir: socket paths are limited to
    about 100 bytes)."""
    database = make_url(hostname).database or ""
    key = hashlib.sha256(os.path.abspath(database).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"pbem-wake-{key}"


def wake(directory: Path) -> None:
    """Tell every listening worker that a message is waiting."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.setblocking(False)
        for name in names:
            path = directory / name
            try:
                sock.sendto(b"!", str(path))
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):
                    path.unlink()  # its worker is gone
            except OSError:  # a full buffer: a wake-up is pending there already
                pass


class Channel(sqla.Channel):
    """kombu's channel keeps one SQLAlchemy session, whose transaction holds a pooled connection
    until its next commit: after a failed statement (the broker file locked) nobody rolls it back,
    and a declared queue's lookup is never committed. In the SMTP listener, whose threads publish
    through many channels, the pool (15) was soon all held: every publish then waited 30 s for a
    connection and failed, for minutes after the lock was gone (found by `pbem chaos`). Here a
    failed operation drops the session (rolled back, its connection returned), a declaration ends
    its transaction, and closing the channel closes the session.

    What a look and a put cost (issue 16: 18 % of a worker's CPU under `pbem bench mail`, most of
    it SQLite's commits): a look at an empty queue is one plain read (kombu's look takes the write
    lock with BEGIN IMMEDIATE, runs an ORM query and commits, twice per wake-up, the worker's two
    queues); only a queue with a visible message is looked at under the lock, where its oldest
    message is taken with two prebuilt statements (kombu's ORM: a query of the queue, one of the
    message, and the unit of work's flush). A put is one prebuilt INSERT of the row kombu's ORM
    writes, into the queue whose id was looked up once (kombu never deletes a queue's row). And
    the file is in WAL mode with synchronous=NORMAL (`_broker_pragmas`)."""

    def _engine_from_config(self) -> Engine:
        engine = super()._engine_from_config()
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _broker_pragmas)
        return engine

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        with self._dropped_on_error():
            self.session.execute(self._insert, {"queue_id": self._queue_id(queue), "payload": dumps(payload)})
            self.session.commit()  # the message is stored
        wake(wake_dir(self.connection.client.hostname))

    def _get(self, queue: str) -> Any:
        with self._dropped_on_error():
            waiting = self.session.execute(self._waiting, {"queue": queue}).first()
            self.session.commit()  # a read only: it ends the session's transaction
            if waiting is None:
                raise Empty()
            return self._take(queue)

    def _take(self, queue: str) -> Any:
        """kombu's `_get` in prebuilt statements: under the write lock (another worker may have
        been first), the oldest visible message of the queue is taken. kombu's ORM only marks a
        taken message invisible and never deletes it, so the broker file grew with every message
        ever sent; here the row is deleted (nothing reads an invisible row again)."""
        session = self.session
        if session.bind.name == "sqlite":
            session.execute(text("BEGIN IMMEDIATE TRANSACTION"))
        try:
            row = session.execute(self._oldest, {"queue_id": self._queue_id(queue)}).first()
            if row is None:
                raise Empty()
            session.execute(self._taken, {"taken_id": row.id, "taken_version": row.version})
            return loads(bytes_to_str(row.payload))
        finally:
            session.commit()

    def _get_or_create(self, queue: str) -> Any:
        """kombu's, safe against another process creating the same queue at once: two workers
        starting together both found no row and both inserted it, and the loser's unique-key
        error killed it at start-up (kombu's mutex is per process)."""
        try:
            return super()._get_or_create(queue)
        except IntegrityError:
            self.session.rollback()
            return self.session.query(self.queue_cls).filter(self.queue_cls.name == queue).one()

    def _queue_id(self, queue: str) -> int:
        ids: dict[str, int] = self.__dict__.setdefault("_queue_ids", {})
        if queue not in ids:
            ids[queue] = self._get_or_create(queue).id
            self._prune(ids[queue])
        return ids[queue]

    def _prune(self, queue_id: int) -> None:
        """Messages kombu's own take left behind, invisible (a file from before takes deleted),
        deleted once per queue and channel."""
        table = self.message_cls.__table__
        self.session.execute(delete(table).where(table.c.queue_id == queue_id, table.c.visible == False))  # noqa: E712
        self.session.commit()

    @cached_property
    def _insert(self) -> Any:
        """kombu's Message row (visible, version 1, no timestamp yet), as its ORM inserts it."""
        table = self.message_cls.__table__
        return insert(table).values(queue_id=bindparam("queue_id"), payload=bindparam("payload"))

    @cached_property
    def _oldest(self) -> Any:
        message = self.message_cls.__table__
        return (sql_select(message.c.id, message.c.payload, message.c.version).with_for_update()
                .where(message.c.queue_id == bindparam("queue_id"), message.c.visible != False)  # noqa: E712
                .order_by(message.c.timestamp, message.c.id).limit(1))

    @cached_property
    def _taken(self) -> Any:
        message = self.message_cls.__table__
        return delete(message).where(message.c.id == bindparam("taken_id"),
                                     message.c.version == bindparam("taken_version"))

    @cached_property
    def _waiting(self) -> Any:
        """Whether the queue named `queue` has a message to take (kombu's filter in `_get`)."""
        message, queue = self.message_cls.__table__, self.queue_cls.__table__
        return (sql_select(literal(1)).select_from(message.join(queue, message.c.queue_id == queue.c.id))
                .where(queue.c.name == bindparam("queue"), message.c.visible != False).limit(1))  # noqa: E712

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        with self._dropped_on_error():
            super()._new_queue(queue, **kwargs)
            self.session.commit()  # end the lookup's transaction: its connection goes back

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._drop_session()

    @contextlib.contextmanager
    def _dropped_on_error(self) -> Iterator[None]:
        try:
            yield
        except Empty:  # an empty queue is no error (its transaction is committed)
            raise
        except Exception:
            self._drop_session()
            raise

    def _drop_session(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            with contextlib.suppress(Exception):  # the database may still be locked: close anyway
                session.rollback()
            with contextlib.suppress(Exception):
                session.close()


def _broker_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL, so that a look reads without waiting for a put, and synchronous=NORMAL, so that a
    commit does not wait for the disk: kombu's default (a rollback journal created, synced and
    deleted at every commit) was most of a put's and a look's cost. A message survives any crash
    of the processes; only an OS crash or a power cut may lose the last ones, and a message here
    is a wake-up for a row the database keeps (the recovery sweep hands it on). The mode stays
    in the file; while another process holds the file locked it is set by a later connection."""
    cur = dbapi_conn.cursor()
    try:
        with contextlib.suppress(sqlite3.OperationalError):
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
    finally:
        cur.close()


class Transport(sqla.Transport):
    Channel = Channel

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self._listener: socket.socket | None = None
        self._listener_path: Path | None = None
        self._listener_pid = 0  # a forked child binds its own socket

    def _listen(self) -> socket.socket | None:
        """The socket this process is woken on (bound before the first look at the queue, so a
        message put after an empty look always finds it)."""
        if self._listener is not None and self._listener_pid == os.getpid():
            return self._listener
        directory = wake_dir(self.client.hostname)
        path = directory / f"{os.getpid()}-{id(self):x}"
        try:
            directory.mkdir(mode=0o700, exist_ok=True)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            sock.bind(str(path))
            sock.setblocking(False)
        except OSError:  # no wake-ups here: polling as before
            return None
        self._listener, self._listener_path, self._listener_pid = sock, path, os.getpid()
        return sock

    def drain_events(self, connection: Any, timeout: float | None = None) -> None:
        listener = self._listen()
        if listener is None:
            return super().drain_events(connection, timeout)
        started = monotonic()
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                waited = monotonic() - started
                if timeout is not None and waited >= timeout:
                    raise TimeoutError() from None
                pause = self.polling_interval or 1.0
                if timeout is not None:
                    pause = min(pause, timeout - waited)
                readable, _w, _x = select.select([listener], [], [], pause)
                if readable:
                    with contextlib.suppress(OSError):
                        while listener.recv(64):  # drain: one look serves every wake-up so far
                            pass

    def close_connection(self, connection: Any) -> None:
        if self._listener is not None and self._listener_pid == os.getpid():
            self._listener.close()
            if self._listener_path is not None:
                with contextlib.suppress(OSError):
                    self._listener_path.unlink()
            self._listener = None
        super().close_connection(connection)
