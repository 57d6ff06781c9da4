"""The worker's broker consumer: back within seconds after a broker outage, and a recovery
wake-up each time it (re)connects.

Celery's consumer retries a lost broker connection at 2, 4, 6 … seconds, up to 30 apart: after a
minute's outage a worker came back 12 s after Redis did (found by `pbem chaos`). Here the retries
are at most RETRY_MAX_SECONDS apart (one connection attempt; nothing else is done meanwhile).

Each start of the consumer (the worker started, or its broker connection re-established) publishes
one `recover` task with `wake=True` (adjudicator/service/upkeep/recovery.py, `wake`): a broker restart may
have lost every queued wake-up, a killed worker the ones it held, and without this their rows
waited for the sweep's grace (two minutes) and backoff. On the embedded broker, whose queue is a
table that a restart does not empty, the wake-up goes to the back of the main queue: by the time it
runs, every message queued before it has been taken, so the rows still waiting are those whose
message was lost (a killed worker's), not a backlog's, which it would double.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from celery import bootsteps
from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)

RETRY_MAX_SECONDS = 2.0


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn: Any) -> Any:
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=RETRY_MAX_SECONDS)
        return super().ensure_connected(conn)


class WakeRecovery(bootsteps.StartStopStep):
    """Publish the recovery wake-up once the consumer's connection is up."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, c: Any) -> None:
        from .sqlitebroker import is_embedded

        try:
            if is_embedded(c.app):  # behind the queue (see the module doc); it may wait out a backlog
                c.app.send_task("workers.tasks.recover", kwargs={"wake": True},
                                queue=c.app.conf.task_default_queue)
            else:
                c.app.send_task("workers.tasks.recover", kwargs={"wake": True}, expires=60)
        except Exception:  # noqa: BLE001 - the broker went away again: the next start sends one
            log.warning("could not publish the recovery wake-up after connecting", exc_info=True)
