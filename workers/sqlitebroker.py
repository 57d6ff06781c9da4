"""The embedded broker: kombu's SQLAlchemy transport on a SQLite file, as kombu ships it, set up
through documented settings and public methods only (issue 27: no private part of kombu is read,
written or overridden, so a kombu release cannot change it under us unnoticed).

- Woken, not polled: kombu's virtual transports look at the queues, and after a look that found
  them empty sleep `polling_interval` (one second) before the next. An order mail waited ~0.5 s on
  average for that look (issue 16), and a short interval costs an idle worker a look of each queue
  (kombu takes the write lock for it) many times a second. So each consuming process binds a Unix
  datagram socket in a directory named after the broker file, and its transport's `drain_events`
  (kombu's public method, which Celery's worker loop calls) waits on that socket between looks;
  every process that publishes a task sends one byte to each socket there, from Celery's
  documented `after_task_publish` signal (sent after the message is stored). The wake-up is a
  hint: a lost datagram, a full socket buffer, a message that is not a Celery task (kombu putting
  back an unacknowledged one) only leaves the worker to its polling interval, and a message is
  never anything but a wake-up for a row the database keeps (the recovery sweep finds the rest).
  The transport is named in Celery's `broker_transport` setting ("the fully qualified path to your
  own transport implementation").
- The file in WAL mode with synchronous=NORMAL (`connect`): through the `creator` argument of
  `sqlalchemy.create_engine`, which kombu documents as a transport option.
- Taken messages: kombu's take only marks a row invisible, so the file would keep every message
  ever sent, and every look would step over them; `prune_taken` deletes them (the recovery task
  runs it): an invisible row is never read again (an unacknowledged message is put back from the
  worker's memory, as a new row).
- Queues are created before the workers start (`declare_queues`, by `pbem run` and `pbem chaos`):
  two workers that started at once on a new file both found no queue row and both inserted one,
  and the loser's unique-key error killed it (a supervisor's restart finds the row). Not in the
  worker itself: a connection opened there before `-B` forks its beat would be shared by both
  processes, which SQLite does not survive ("locking protocol").
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import select
import socket
import sqlite3
import tempfile
from functools import lru_cache
from pathlib import Path
from time import monotonic
from typing import Any

from celery import Celery
from celery.signals import after_task_publish
from kombu.transport import sqlalchemy as sqla
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError

log = logging.getLogger(__name__)

MESSAGE_TABLE = "kombu_message"  # kombu's default `message_tablename`
SQLALCHEMY_PREFIXES = ("sqla+", "sqlalchemy+")


def is_embedded(app: Celery) -> bool:
    """The broker is a database table (kombu's SQLAlchemy transport)."""
    return str(app.conf.broker_url).startswith(SQLALCHEMY_PREFIXES)


@lru_cache(maxsize=16)
def wake_dir(url: str) -> Path:
    """One directory per broker file (short, under the temp dir: socket paths are limited to
    about 100 bytes)."""
    key = hashlib.sha256(os.path.abspath(database_path(url)).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"pbem-wake-{key}"


def wake(directory: Path) -> None:
    """Tell every listening worker that a message is waiting; a socket nobody listens on any more
    (its worker is gone) is removed."""
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
                    path.unlink()
            except OSError:  # a full buffer: a wake-up is pending there already
                pass


class Transport(sqla.Transport):
    """kombu's SQLAlchemy transport, whose consumer waits on its wake-up socket between looks
    (the polling interval, one second, is the fallback)."""

    wake_socket: socket.socket | None = None
    wake_path: Path | None = None
    wake_pid = 0  # a forked child binds its own socket

    def listen(self) -> socket.socket | None:
        """The socket this process is woken on, bound before its first look at the queues (so a
        message put after an empty look always finds it); None if it cannot be bound."""
        if self.wake_socket is not None and self.wake_pid == os.getpid():
            return self.wake_socket
        directory = wake_dir(self.client.hostname)
        path = directory / f"{os.getpid()}-{id(self):x}"
        try:
            directory.mkdir(mode=0o700, exist_ok=True)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            sock.bind(str(path))
            sock.setblocking(False)
        except OSError:  # no wake-ups here: kombu's polling as it is
            return None
        self.wake_socket, self.wake_path, self.wake_pid = sock, path, os.getpid()
        return sock

    def drain_events(self, connection: Any, timeout: float | None = None) -> None:
        """kombu's, one look at a time (`timeout=0`: a look, then `socket.timeout` if every queue
        was empty), waiting on the wake-up socket between looks, at most the polling interval."""
        listener = self.listen()
        if listener is None:
            return super().drain_events(connection, timeout)
        started = monotonic()
        while True:
            # the look below serves every wake-up so far (each was sent after its message was
            # stored), among them those that came while this worker ran its last task: without
            # this, each of them cost a second, empty look after the one that follows the task
            with contextlib.suppress(OSError):
                while listener.recv(64):
                    pass
            try:
                return super().drain_events(connection, timeout=0)
            except TimeoutError:
                waited = monotonic() - started
                if timeout is not None and waited >= timeout:
                    raise
                pause = self.polling_interval or 1.0
                if timeout is not None:
                    pause = min(pause, timeout - waited)
                select.select([listener], [], [], pause)

    def close_connection(self, connection: Any) -> None:
        if self.wake_socket is not None and self.wake_pid == os.getpid():
            self.wake_socket.close()
            if self.wake_path is not None:
                with contextlib.suppress(OSError):
                    self.wake_path.unlink()
            self.wake_socket = None
        super().close_connection(connection)


def wake_after_publish(url: str) -> None:
    """Make every task published in this process wake the consumers of the broker at `url`
    (Celery's `after_task_publish` signal, sent once the message is stored)."""
    directory = wake_dir(url)
    if directory in _waking:
        return
    _waking.add(directory)

    def woken(**_kwargs: object) -> None:
        wake(directory)

    after_task_publish.connect(woken, weak=False)


_waking: set[Path] = set()


def database_path(url: str) -> str:
    """The SQLite file of a broker URL (`sqla+sqlite:///var/broker.sqlite` or without `sqla+`)."""
    return make_url(url.split("+", 1)[1] if url.startswith(("sqla+", "sqlalchemy+")) else url).database or ""


def connect(path: str, timeout: float = 5.0) -> sqlite3.Connection:
    """A connection to the broker file, in WAL mode (a look reads while a put writes) with
    synchronous=NORMAL (a commit does not wait for the disk: a message survives any crash of the
    processes; an OS crash may lose the last ones, which the recovery sweep hands on again). The
    journal mode stays in the file; while another process holds the file locked it is set by a
    later connection. Shared between the threads of a publisher by SQLAlchemy's pool."""
    conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False)
    with contextlib.suppress(sqlite3.OperationalError):
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def transport_options(url: str, timeout: float = 5.0) -> dict[str, Any]:
    """`broker_transport_options` for a SQLite broker URL (create_engine's `creator`)."""
    path = database_path(url)

    def creator() -> sqlite3.Connection:
        return connect(path, timeout)

    return {"creator": creator}


def prune_taken(url: str) -> int:
    """Delete the messages kombu has marked taken (invisible); returns how many. It waits a
    second at most for a lock (the recovery task that runs it has more urgent work)."""
    conn = connect(database_path(url), timeout=1.0)
    try:
        with conn:
            return conn.execute(f"DELETE FROM {MESSAGE_TABLE} WHERE visible = 0").rowcount  # noqa: S608 - a constant
    except sqlite3.OperationalError:  # the file is locked, or has no table yet: the next run prunes
        return 0
    finally:
        conn.close()


def declare_queues(app: Celery, attempts: int = 3) -> None:
    """Create the app's queues through kombu's public `Queue.declare` (before starting workers);
    a queue another process created at the same moment is found on the next attempt (a new
    connection: the failed one's session is spent)."""
    for attempt in range(attempts):
        try:
            with app.connection_for_write() as conn:
                for queue in app.amqp.queues.values():
                    queue(conn.default_channel).declare()
            return
        except (IntegrityError, OperationalError):
            if attempt == attempts - 1:
                log.warning("could not declare the broker's queues; the worker declares them itself", exc_info=True)
