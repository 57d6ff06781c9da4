"""Celery tasks: thin and idempotent; each opens its own transaction through the service."""

from __future__ import annotations

import logging

from celery.signals import worker_init

from adjudicator import service, store

from .celery_app import celery
from .enqueue import enqueue
from .mailer import MAX_ATTEMPTS, TemporaryFailure, deliver

log = logging.getLogger(__name__)


@celery.task(name="workers.tasks.reveal_group")
def reveal_group(game_id: str, group: str) -> None:
    with store.transaction() as s:
        tasks = service.reveal(s, game_id, group)
    enqueue(tasks)


@celery.task(name="workers.tasks.sweep_deadlines")
def sweep_deadlines() -> None:
    """The beat's sweep only lists the due games and fans out one task per game, so every worker
    process takes a share and no transaction holds more than one game's work."""
    with store.transaction(write=False) as s:
        due = service.due_games(s)
    enqueue([("sweep", game_id) for game_id in due])


@celery.task(name="workers.tasks.sweep_game")
def sweep_game(game_id: str) -> None:
    """One game's deadline, reminder or lost reveal (idempotent: re-checked under the game's lock)."""
    with store.transaction() as s:
        tasks = service.sweep_game(s, game_id)
    enqueue(tasks)


@celery.task(name="workers.tasks.deliver_outbox", bind=True, max_retries=MAX_ATTEMPTS)
def deliver_outbox(self, outbox_id: int) -> None:  # type: ignore[no-untyped-def]
    try:
        deliver(outbox_id)
    except TemporaryFailure as exc:
        if self.request.called_directly or self.request.is_eager:
            log.warning("delivery of outbox %s failed: %s", outbox_id, exc)
            return
        raise self.retry(countdown=min(3600, 30 * 2 ** self.request.retries), exc=exc) from None


@worker_init.connect
def _create_tables(**_kwargs: object) -> None:
    store.init_db()  # idempotent; a fresh embedded install needs no separate step


@celery.task(name="workers.tasks.ingest_message")
def ingest_message(inbox_id: int) -> None:
    """One stored inbound message through the service (idempotent: a done message is skipped)."""
    with store.transaction() as s:
        tasks = service.process_mail(s, inbox_id)
    enqueue(tasks)


@celery.task(name="workers.tasks.send_digests")
def send_digests() -> None:
    with store.transaction() as s:
        tasks = service.send_digests(s)
    enqueue(tasks)


@celery.task(name="workers.tasks.poll_imap")
def poll_imap() -> int:
    from .imap import poll_once

    return poll_once()
