"""The embedded broker wakes a waiting consumer when a message is put (workers/wakebroker.py),
instead of leaving it to its polling interval; without a listener it still polls as before."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue

from workers.celery_app import make_celery
from workers.wakebroker import Transport, wake, wake_dir

HOUR = 3600.0


def _open(url: str, **kwargs: object) -> Connection:
    """The broker connection as the Celery app makes it: our transport, the URL without `sqla+`."""
    return Connection(url.removeprefix("sqla+"), transport=Transport, **kwargs)


def _connection(url: str) -> Connection:
    # a polling interval of an hour: a message that arrives at all was delivered by a wake-up
    conn = _open(url)
    conn.transport.polling_interval = HOUR
    return conn


@pytest.mark.parametrize("from_env", [False, True])
def test_sqla_urls_use_the_wake_up_transport(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
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
        assert type(plain.transport) is not Transport


def test_a_waiting_consumer_gets_a_message_put_after_it_started_waiting(tmp_path: Path) -> None:
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    queue = Queue("wake-test", Exchange("wake-test"), routing_key="wake-test")
    received: list[object] = []
    with _connection(url) as consumer_conn:
        with consumer_conn.Consumer(queue, callbacks=[lambda body, msg: (received.append(body), msg.ack())]):

            def publish() -> None:
                time.sleep(0.5)  # the consumer is waiting by now (if not, it finds the message at once)
                with _connection(url) as producer_conn:
                    producer_conn.Producer().publish({"n": 1}, exchange=queue.exchange, routing_key="wake-test",
                                                     declare=[queue])

            thread = threading.Thread(target=publish)
            thread.start()
            consumer_conn.drain_events(timeout=60)  # an hour's poll would time out here
            thread.join()
    assert received == [{"n": 1}]


def test_a_socket_left_by_a_dead_consumer_is_removed(tmp_path: Path) -> None:
    directory = wake_dir(f"sqlite:///{tmp_path / 'broker.sqlite'}")
    directory.mkdir(mode=0o700, exist_ok=True)
    stale = directory / "12345-dead"
    stale.write_bytes(b"")  # not a bound socket: nobody listens there
    wake(directory)
    assert not stale.exists()


def test_publishing_works_again_at_once_after_the_broker_file_was_locked(tmp_path: Path) -> None:
    """Many threads publish while the broker file is locked (the SMTP listener during a broker
    outage): their failed statements must not keep the pool's connections, or every publish after
    the lock waits 30 s for a connection and fails (issue 15, `pbem chaos`)."""
    import sqlite3
    from concurrent.futures import ThreadPoolExecutor

    from workers.celery_app import make_celery

    broker = tmp_path / "broker.sqlite"
    app = make_celery({"broker_url": f"sqla+sqlite:///{broker}", "task_default_queue": "lock-test",
                       "broker_transport_options": {"connect_args": {"timeout": 0.3},
                                                    "pool_timeout": 3}})  # a held pool fails fast

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


def _channel(url: str, **options: object) -> tuple[Connection, object]:
    conn = _open(url, transport_options=options)
    channel = conn.channel()
    channel._new_queue("fast")  # type: ignore[attr-defined]
    return conn, channel


def test_the_broker_file_is_in_wal_mode(tmp_path: Path) -> None:
    import sqlite3

    conn, channel = _channel(f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}")
    with conn:
        channel._put("fast", {"n": 1})  # type: ignore[attr-defined]
    with sqlite3.connect(str(tmp_path / "broker.sqlite")) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_look_at_an_empty_queue_does_not_wait_for_the_write_lock(tmp_path: Path) -> None:
    """kombu's look takes the write lock (BEGIN IMMEDIATE) even when nothing is there; this one
    reads, and takes the lock only to take a message."""
    import sqlite3
    from queue import Empty

    import pytest

    broker = tmp_path / "broker.sqlite"
    conn, channel = _channel(f"sqla+sqlite:///{broker}", connect_args={"timeout": 0.2})
    with conn:
        channel._put("fast", {"n": 1})  # type: ignore[attr-defined]
        assert channel._get("fast") == {"n": 1}  # type: ignore[attr-defined]
        lock = sqlite3.connect(str(broker), isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # another process writing
        try:
            with pytest.raises(Empty):
                channel._get("fast")  # type: ignore[attr-defined]
        finally:
            lock.execute("ROLLBACK")
            lock.close()


def test_a_put_and_a_take_write_the_rows_kombu_writes(tmp_path: Path) -> None:
    import sqlite3
    from queue import Empty

    import pytest
    from kombu.transport import sqlalchemy as sqla

    broker = tmp_path / "broker.sqlite"
    conn, channel = _channel(f"sqla+sqlite:///{broker}")

    def rows() -> list[tuple[object, ...]]:
        with sqlite3.connect(str(broker)) as db:
            return db.execute("SELECT visible, timestamp IS NULL, payload, version, queue_id FROM kombu_message "
                              "ORDER BY id").fetchall()

    with conn:
        sqla.Channel._put(channel, "fast", {"n": 1})  # kombu's own ORM put
        channel._put("fast", {"n": 2})  # type: ignore[attr-defined]
        channel.session.commit()  # type: ignore[attr-defined]
        kombu, ours = rows()
        assert ours[:2] + ours[3:] == kombu[:2] + kombu[3:] == (1, 1, 1, kombu[4])
        assert sqla.Channel._get(channel, "fast") == {"n": 1}  # kombu's own take, the oldest first
        assert channel._get("fast") == {"n": 2}  # type: ignore[attr-defined]
        (kombu,) = rows()  # ours is deleted; kombu's own take only hides its row
        assert kombu[:2] + kombu[3:4] == (0, 0, 2)
        with pytest.raises(Empty):
            channel._get("fast")  # type: ignore[attr-defined]


def test_taken_messages_do_not_stay_in_the_broker_file(tmp_path: Path) -> None:
    """kombu's take only marks a message invisible, so the embedded broker's file grew with every
    message ever sent; a take deletes it, and a queue's invisible leftovers go at its first look."""
    import sqlite3

    from kombu.transport import sqlalchemy as sqla

    broker = tmp_path / "broker.sqlite"

    def count() -> int:
        with sqlite3.connect(str(broker)) as db:
            return db.execute("SELECT count(*) FROM kombu_message").fetchone()[0]

    conn, channel = _channel(f"sqla+sqlite:///{broker}")
    with conn:
        for n in range(3):
            sqla.Channel._put(channel, "fast", {"n": n})  # kombu's own put and take: rows left behind
            assert sqla.Channel._get(channel, "fast") == {"n": n}
        assert count() == 3
    conn, channel = _channel(f"sqla+sqlite:///{broker}")  # a new process's channel
    with conn:
        for n in range(5):
            channel._put("fast", {"n": n})  # type: ignore[attr-defined]
        assert [channel._get("fast") for _ in range(5)] == [{"n": n} for n in range(5)]  # type: ignore[attr-defined]
        assert count() == 0


def test_a_queue_created_by_another_process_meanwhile_is_found_not_an_error(tmp_path: Path) -> None:
    """Two workers starting at once both found no queue row and both inserted one; the loser died
    at start-up on the unique key (seen in `pbem chaos`). Here the loser reads the winner's row."""
    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    first, winner = _channel(broker)
    second, loser = _channel(broker)
    with first, second:
        winner._new_queue("slow")  # type: ignore[attr-defined]
        session = loser.session  # type: ignore[attr-defined]
        real_query, misses = session.query, [2]  # kombu looks twice before it inserts

        class Blind:
            """The query as it was before the winner committed: no row yet."""

            def __init__(self, query: object) -> None:
                self.query = query

            def filter(self, *args: object) -> Blind:
                self.query = self.query.filter(*args)  # type: ignore[attr-defined]
                return self

            def first(self) -> object:
                if misses[0]:
                    misses[0] -= 1
                    return None
                return self.query.first()  # type: ignore[attr-defined]

            def one(self) -> object:
                return self.query.one()  # type: ignore[attr-defined]

        session.query = lambda *args: Blind(real_query(*args))
        try:
            found = loser._get_or_create("slow")  # type: ignore[attr-defined]
        finally:
            session.query = real_query
        assert found.name == "slow" and misses == [0]
        loser._put("slow", {"n": 1})  # type: ignore[attr-defined]
        assert winner._get("slow") == {"n": 1}  # type: ignore[attr-defined]
