"""The embedded broker (workers/sqlitebroker.py): kombu's SQLAlchemy transport, set up through
documented settings and public methods only: a waiting consumer woken by a publish, the file's
journal mode, taken messages pruned, queues declared once, and publishing that works again after
the file was locked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue
from kombu.transport import sqlalchemy as sqla

from workers import sqlitebroker
from workers.celery_app import make_celery
from workers.sqlitebroker import Transport, wake, wake_dir

HOUR = 3600.0


@pytest.mark.parametrize("from_env", [False, True])
def test_sqla_urls_use_the_embedded_transport(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              from_env: bool) -> None:
    """Through the `broker_transport` setting, for the URL of the configuration and for a worker's
    CELERY_BROKER_URL (which wins over the configuration's, its `sqla+` prefix included)."""
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    if from_env:
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        app = make_celery({"broker_url": "redis://127.0.0.1:1/0"})
    else:
        monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
        app = make_celery({"broker_url": url})
    for open_connection in (app.connection_for_write, app.connection_for_read, app.connection):
        with open_connection() as conn:
            assert isinstance(conn.transport, Transport)
            assert conn.as_uri() == url.removeprefix("sqla+")
    with Connection(url) as plain:  # kombu's own alias table is left as it is
        assert type(plain.transport) is sqla.Transport


def _app(broker: Path, **options: object):  # noqa: ANN202 - a Celery app
    return make_celery({"broker_url": f"sqla+sqlite:///{broker}", "task_default_queue": "broker-test",
                        "broker_transport_options": options})


def test_a_waiting_consumer_is_woken_by_a_task_published_after_it_started_waiting(tmp_path: Path) -> None:
    """By the publisher's `after_task_publish` signal: with a polling interval of an hour, a
    message that arrives at all was delivered by a wake-up."""
    import threading
    import time

    broker = tmp_path / "broker.sqlite"
    app = _app(broker)
    sqlitebroker.declare_queues(app)
    queue = app.amqp.queues["broker-test"]
    received: list[object] = []
    with app.connection_for_read() as conn:
        conn.transport.polling_interval = HOUR
        with conn.Consumer(queue, callbacks=[lambda body, msg: (received.append(body), msg.ack())]):

            def publish() -> None:
                time.sleep(0.5)  # the consumer is waiting by now (if not, it finds the message at once)
                _app(broker).send_task("workers.tasks.deliver_batch", args=[[1]])  # the main queue

            thread = threading.Thread(target=publish)
            thread.start()
            conn.drain_events(timeout=60)  # an hour's poll would time out here
            thread.join()
    assert len(received) == 1


def test_drain_events_times_out_as_kombus_does(tmp_path: Path) -> None:
    """Celery's worker loop calls drain_events with a timeout and expects socket.timeout."""
    import socket

    app = _app(tmp_path / "broker.sqlite")
    sqlitebroker.declare_queues(app)
    with app.connection_for_read() as conn:
        with conn.Consumer(app.amqp.queues["broker-test"], callbacks=[]), pytest.raises(socket.timeout):
            conn.drain_events(timeout=0.3)


def test_a_socket_left_by_a_dead_consumer_is_removed(tmp_path: Path) -> None:
    directory = wake_dir(f"sqlite:///{tmp_path / 'broker.sqlite'}")
    directory.mkdir(mode=0o700, exist_ok=True)
    stale = directory / "12345-dead"
    stale.write_bytes(b"")  # not a bound socket: nobody listens there
    wake(directory)
    assert not stale.exists()


def test_the_broker_file_is_in_wal_mode(tmp_path: Path) -> None:
    broker = tmp_path / "broker.sqlite"
    _app(broker).send_task("workers.tasks.recover")
    with sqlite3.connect(str(broker)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_message_is_delivered_and_taken_messages_are_pruned(tmp_path: Path) -> None:
    broker = tmp_path / "broker.sqlite"
    app = _app(broker)
    queue = Queue("prune-test", Exchange("prune-test"), routing_key="prune-test")
    received: list[object] = []
    with app.connection_for_write() as conn:
        with conn.Consumer(queue, callbacks=[lambda body, msg: (received.append(body), msg.ack())]):
            for n in range(3):
                conn.Producer().publish({"n": n}, exchange=queue.exchange, routing_key="prune-test", declare=[queue])
            for _ in range(3):
                conn.drain_events(timeout=10)
    assert received == [{"n": 0}, {"n": 1}, {"n": 2}]

    def rows() -> list[tuple[int]]:
        with sqlite3.connect(str(broker)) as db:
            return db.execute("SELECT visible FROM kombu_message").fetchall()

    assert rows() == [(0,)] * 3  # kombu keeps a taken message, invisible
    assert sqlitebroker.prune_taken(f"sqla+sqlite:///{broker}") == 3
    assert rows() == []


def test_prune_leaves_waiting_messages(tmp_path: Path) -> None:
    broker = tmp_path / "broker.sqlite"
    app = _app(broker)
    app.send_task("workers.tasks.recover")
    assert sqlitebroker.prune_taken(str(app.conf.broker_url)) == 0
    with sqlite3.connect(str(broker)) as db:
        assert db.execute("SELECT visible FROM kombu_message").fetchall() == [(1,)]


def test_queues_are_declared_and_a_second_declaration_finds_them(tmp_path: Path) -> None:
    broker = tmp_path / "broker.sqlite"
    app = _app(broker)
    sqlitebroker.declare_queues(app)
    sqlitebroker.declare_queues(_app(broker))  # another worker: the rows exist, nothing is inserted
    with sqlite3.connect(str(broker)) as db:
        names = sorted(name for (name,) in db.execute("SELECT name FROM kombu_queue"))
    assert names == ["broker-test", "broker-test.first"]


def test_publishing_works_again_at_once_after_the_broker_file_was_locked(tmp_path: Path) -> None:
    """Many threads publish while the broker file is locked (the SMTP listener during a broker
    outage): their failed statements must not keep the pool's connections, or every publish after
    the lock waits for a connection and fails (issue 15, `pbem chaos`)."""
    from concurrent.futures import ThreadPoolExecutor

    broker = tmp_path / "broker.sqlite"
    app = _app(broker, connect_args={"timeout": 0.3}, pool_timeout=3)  # a held pool fails fast

    def send(_n: int) -> str:
        try:
            app.send_task("workers.tasks.recover")
        except Exception as exc:  # noqa: BLE001 - the outcome is the result
            return type(exc).__name__
        return "ok"

    with ThreadPoolExecutor(8) as threads:
        assert set(threads.map(send, range(16))) == {"ok"}
        lock = sqlite3.connect(str(broker), isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")  # the broker is "down"
        assert "ok" not in set(threads.map(send, range(40)))
        lock.execute("ROLLBACK")
        lock.close()
        assert set(threads.map(send, range(16))) == {"ok"}
