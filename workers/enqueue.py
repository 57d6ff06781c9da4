"""Hand the service's tasks to Celery, after the commit. PBEM_EAGER=1 runs them inline (unit
tests, single-process tools), each in its own transaction, exactly as a worker would.

Deliveries are coalesced: the ("deliver", row) tasks of one enqueue go out as batches of up to
DELIVER_BATCH rows per task (`deliver_batch`: one claim, one SMTP connection), so a deadline burst
costs the broker one message per batch instead of one per mail."""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache
from typing import Any

from celery import Celery
from sqlalchemy.orm import object_session

from adjudicator.service import Task

TASK_NAMES = {
    "reveal": "workers.tasks.reveal_group",
    "deliver": "workers.tasks.deliver_outbox",
    "deliver_batch": "workers.tasks.deliver_batch",  # a list of outbox ids
    "ingest": "workers.tasks.ingest_message",
    "drain": "workers.tasks.drain_inbox",  # every stored mail not yet processed (no arguments)
    "sweep": "workers.tasks.sweep_game",
    "sweeps": "workers.tasks.sweep_games",  # a chunk of game ids
    "substitute": "workers.tasks.play_substitutes",  # game id, record length
}

DELIVER_BATCH = 50


def eager() -> bool:
    return os.environ.get("PBEM_EAGER") == "1"


@cache
def eager_task(kind: str) -> Any:
    """The task of `kind`, by name from the app's registry as a worker finds it: the app's loader
    imports its `include` (workers.tasks, which imports this module, so it is not imported here)."""
    from .celery_app import celery

    celery.loader.import_default_modules()
    return celery.tasks[TASK_NAMES[kind]]


def outbox_id(ref: Any) -> int:
    """A deliver task names its row by id, or by a reference to a row written without a flush of
    its own (service/play/notify.py, OutboxRef): its id once the row is written."""
    if isinstance(ref, int):
        return ref
    if ref.id is None:  # enqueued inside the transaction that wrote it: write it now
        session = object_session(ref.row)
        if session is not None:
            session.flush()
    if ref.id is None:
        raise ValueError("an outbox row that was never written cannot be delivered")
    return int(ref.id)


def coalesced(tasks: Iterable[Task]) -> list[Task]:
    """The tasks with every delivery gathered into batches (after the other tasks, in order)."""
    others: list[Task] = []
    ids: list[int] = []
    for kind, *args in tasks:
        if kind == "deliver":
            ids.append(outbox_id(args[0]))
        elif kind == "deliver_batch":
            ids += [outbox_id(a) for a in args[0]]
        else:
            others.append((kind, *args))
    ids = list(dict.fromkeys(ids))
    batches: list[Task] = [("deliver_batch", ids[i:i + DELIVER_BATCH]) for i in range(0, len(ids), DELIVER_BATCH)]
    if len(ids) == 1:
        batches = [("deliver", ids[0])]
    return others + batches


def enqueue(tasks: Iterable[Task], app: Celery | None = None, expires: float | None = None) -> None:
    """Send each task by name (so this module needs no task imports); `app` defaults to the
    module-level `workers.celery_app.celery`. `expires` (seconds): a worker that receives the
    task later discards it unrun (for wake-ups that are sent again anyway)."""
    for kind, *args in coalesced(tasks):
        if kind not in TASK_NAMES:
            raise ValueError(f"unknown task kind {kind!r}")
        if eager():
            eager_task(kind)(*args)  # calling a task object runs it here, synchronously
            continue
        if app is None:
            from .celery_app import celery as app
        app.send_task(TASK_NAMES[kind], args=args, expires=expires)
