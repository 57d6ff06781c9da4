"""Beat goes on sending after a broker error (the embedded SQLite broker locked for a moment):
Celery's scheduler alone kept its broken channel and sent nothing more."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from workers.beat import ReconnectingScheduler
from workers.celery_app import make_celery


def queued(app) -> int:
    """Messages waiting in every queue of the app (the recovery task goes to the first queue)."""
    with app.connection_for_read() as conn:
        return sum(conn.SimpleQueue(name).qsize() for name in app.amqp.queues)


def test_beat_sends_again_after_the_broker_was_locked(tmp_path: Path) -> None:
    broker = tmp_path / "broker.sqlite"
    app = make_celery({
        "broker_url": f"sqla+sqlite:///{broker}", "task_default_queue": "beat-test",
        "broker_transport_options": {"connect_args": {"timeout": 0.5}},  # fail fast while locked
        "beat_schedule": {"recover": {"task": "workers.tasks.recover", "schedule": 60.0}},
    })
    # (Celery's PersistentScheduler in its place: 1 message at the end, every later send fails
    # with "channel disconnected")
    beat = ReconnectingScheduler(app=app, schedule_filename=str(tmp_path / "schedule"))
    entry = beat.schedule["recover"]
    beat.apply_entry(entry, producer=beat.producer)
    assert queued(app) == 1

    lock = sqlite3.connect(str(broker), isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")  # the broker is "down"
    beat.apply_entry(entry, producer=beat.producer)  # fails, logged (beat runs on)
    lock.execute("ROLLBACK")
    lock.close()

    beat.apply_entry(entry, producer=beat.producer)  # the broker is back
    beat.apply_entry(entry, producer=beat.producer)
    assert queued(app) == 3


def test_beat_retries_a_lost_broker_at_most_two_seconds_apart(tmp_path: Path, caplog) -> None:
    """Celery's own retries grow to 30 s apart; beat's producer here retries every 1, then 2 s."""
    import logging
    import socket

    import pytest

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = make_celery({"broker_url": f"redis://127.0.0.1:{port}/0", "broker_connection_max_retries": 3})
    beat = ReconnectingScheduler(app=app, schedule_filename=str(tmp_path / "schedule"))
    with caplog.at_level(logging.ERROR, logger="workers.beat"), pytest.raises(Exception):  # noqa: B017, PT011
        _ = beat.producer
    waits = [float(r.getMessage().split("trying again in ")[1].split()[0]) for r in caplog.records
             if "trying again in" in r.getMessage()]
    assert waits == [1, 2, 2]
