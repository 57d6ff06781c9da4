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
