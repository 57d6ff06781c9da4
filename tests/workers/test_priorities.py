"""On Redis the tasks that start or recover work are taken before a backlog of mail: a deadline
chunk queued behind thousands of deliveries waited until it expired unrun (issue 15, `pbem chaos`)."""

from __future__ import annotations

import secrets

from tests.support.databases import redis_or_skip
from workers.celery_app import make_celery
from workers.enqueue import enqueue


def test_deadline_and_recovery_tasks_are_taken_before_queued_orders_and_mail() -> None:
    queue = f"priority-test-{secrets.token_hex(4)}"
    app = make_celery({"broker_url": redis_or_skip(), "task_default_queue": queue})
    enqueue([("deliver_batch", [1, 2]), ("deliver", 3)], app=app)
    enqueue([("ingest", 7)], app=app)
    enqueue([("deliver_batch", [4, 5])], app=app)
    enqueue([("sweeps", ["g1", "g2"])], app=app)
    app.send_task("workers.tasks.recover", kwargs={"wake": True})
    taken: list[str] = []
    with app.connection_for_read() as conn:
        simple = conn.SimpleQueue(queue)
        try:
            while len(taken) < 5:
                message = simple.get(timeout=5)
                taken.append(message.headers["task"])
                message.ack()
        finally:
            simple.queue.delete()
            simple.close()
    assert taken[:2] == ["workers.tasks.sweep_games", "workers.tasks.recover"]
    assert taken[2] == "workers.tasks.ingest_message"
    assert taken[3:] == ["workers.tasks.deliver_batch"] * 2


def test_on_the_embedded_broker_a_deadline_chunk_waits_behind_one_task_not_the_mail_backlog(tmp_path) -> None:
    """The embedded broker has no priorities: the urgent tasks have a queue of their own, read in turn
    with the main one, so a chunk published after a backlog of deliveries is among the first taken."""
    from kombu import Consumer

    queue = f"first-test-{secrets.token_hex(4)}"
    app = make_celery({"broker_url": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}", "task_default_queue": queue})
    enqueue([("deliver_batch", [n]) for n in range(20)], app=app)
    enqueue([("sweeps", ["g1", "g2"])], app=app)
    taken: list[str] = []
    with app.connection_for_read() as conn:

        def take(body, message) -> None:
            taken.append(message.headers["task"])
            message.ack()

        queues = list(app.amqp.queues.values())
        assert sorted(q.name for q in queues) == [queue, f"{queue}.first"]
        with Consumer(conn.channel(), queues=queues, callbacks=[take], prefetch_count=1):
            while len(taken) < 2:
                conn.drain_events(timeout=5)
    assert "workers.tasks.sweep_games" in taken, taken  # on one FIFO queue it was 21st


def test_every_task_has_a_priority() -> None:
    """A task without one would go first on Redis (no priority is the first list) and ahead of the deadlines."""
    import workers.tasks  # noqa: F401 - registers the tasks
    from workers.celery_app import PRIORITIES, celery

    tasks = {name for name in celery.tasks if name.startswith("workers.")}
    assert tasks and tasks <= set(PRIORITIES), sorted(tasks - set(PRIORITIES))


def test_every_task_kind_names_a_registered_task() -> None:
    """`enqueue` sends (and with PBEM_EAGER=1 runs) a task kind by its name in the app's registry;
    in a fresh process, where nothing has imported workers.tasks yet."""
    import subprocess
    import sys

    probe = "from workers.enqueue import TASK_NAMES, eager_task; print(sorted(eager_task(k).name for k in TASK_NAMES))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    from workers.enqueue import TASK_NAMES

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(sorted(TASK_NAMES.values()))
