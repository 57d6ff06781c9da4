"""Hand the service's tasks to Celery, after the commit. PBEM_EAGER=1 runs them inline (unit
tests, single-process tools), each in its own transaction, exactly as a worker would."""

from __future__ import annotations

import os
from collections.abc import Iterable

from celery import Celery

from adjudicator.service import Task

TASK_NAMES = {
    "reveal": "workers.tasks.reveal_group",
    "deliver": "workers.tasks.deliver_outbox",
    "ingest": "workers.tasks.ingest_message",
    "sweep": "workers.tasks.sweep_game",
    "sweeps": "workers.tasks.sweep_games",  # a chunk of game ids
}


def eager() -> bool:
    return os.environ.get("PBEM_EAGER") == "1"


def enqueue(tasks: Iterable[Task], app: Celery | None = None, expires: float | None = None) -> None:
    """Send each task by name (so this module needs no task imports); `app` defaults to the
    module-level `workers.celery_app.celery`. `expires` (seconds): a worker that receives the
    task later discards it unrun (for wake-ups that are sent again anyway)."""
    for kind, *args in tasks:
        if kind not in TASK_NAMES:
            raise ValueError(f"unknown task kind {kind!r}")
        if eager():
            from . import tasks as t

            job = {"reveal": t.reveal_group, "deliver": t.deliver_outbox, "ingest": t.ingest_message,
                   "sweep": t.sweep_game, "sweeps": t.sweep_games}[kind]
            job(*args)  # calling a task object runs it here, synchronously
            continue
        if app is None:
            from .celery_app import celery as app
        app.send_task(TASK_NAMES[kind], args=args, expires=expires)
