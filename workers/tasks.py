"""Celery tasks: thin and idempotent; each runs one service call in its own transaction, run again
from the start on a deadlock, serialization failure or lost connection (store.run_in_transaction).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery.signals import worker_init, worker_process_init
from sqlmodel import Session, select

from adjudicator import service, store

from .celery_app import celery, is_embedded
from .enqueue import coalesced, enqueue
from .mailer import TemporaryFailure, deliver, deliver_many
from .sqlitebroker import prune_taken

log = logging.getLogger(__name__)


def _run(fn: Callable[..., Any], *args: Any) -> None:
    """`fn(session, *args)` in a retried transaction, then enqueue the tasks it returned."""
    result = store.run_in_transaction(lambda s: fn(s, *args))
    enqueue(getattr(result, "tasks", result) or [])


@celery.task(name="workers.tasks.reveal_group")
def reveal_group(game_id: str, group: str) -> None:
    _run(service.reveal, game_id, group)


@celery.task(name="workers.tasks.sweep_deadlines")
def sweep_deadlines() -> None:
    """The beat's sweep only lists the due games and fans them out in chunks, so every worker
    process takes a share and no transaction holds more than one game's work. Lobby games whose
    fill time came get the substitute in their free seats and start first."""
    _run(service.fill_due_lobby_games)
    with store.transaction(write=False) as s:
        due = service.due_games(s)
    # Games go out in chunks, one task per chunk, so a burst of due games costs the broker one
    # message per SWEEP_CHUNK games (1,000 single publishes took a minute on the embedded
    # broker); each game is still its own transaction. A game still due is listed again at the
    # next run, so a chunk still queued by then is only a repeat: it expires unrun. Without
    # that, a backlog (a deadline burst, two beats) grew at every run (both found by `pbem chaos`).
    enqueue([("sweeps", due[i:i + SWEEP_CHUNK]) for i in range(0, len(due), SWEEP_CHUNK)],
            expires=sweep_expiry())


SWEEP_CHUNK = 25
WAKE_ROUNDS = 40  # batches one wake-up hands on (service/upkeep/recovery.py's BATCH rows of each kind each)


def sweep_expiry() -> float:
    return max(3 * float(os.environ.get("PBEM_SWEEP_SECONDS", "60")), 10.0)


@celery.task(name="workers.tasks.sweep_game")
def sweep_game(game_id: str) -> None:
    """One game's deadline, reminder or lost reveal (idempotent: re-checked under the game's lock)."""
    _run(service.sweep_game, game_id)


@celery.task(name="workers.tasks.sweep_games")
def sweep_games(game_ids: list[str]) -> None:
    """A chunk of due games, each in its own transaction; one game's failure (logged) does not
    stop the others (the next sweep lists it again). The chunk's tasks (its notifications, in
    batches) are enqueued once at its end: one broker message per batch, not one per mail. A
    worker killed mid-chunk loses only those wake-ups: the rows are committed, and the recovery
    sweep sends them. On PostgreSQL a few games run at once (PBEM_SWEEP_THREADS, default 2),
    each on its own connection: one game's round trips and commit wait while another computes,
    so a worker keeps its core busy (SQLite takes one writer at a time: one game at a time). The
    substitute's moves the deadlines lead to are left to the recovery sweep (see below)."""
    threads = 1 if store.is_sqlite() else sweep_threads()
    if threads <= 1 or len(game_ids) < 2:
        done = [_sweep_one(g) for g in game_ids]
    else:
        with ThreadPoolExecutor(max_workers=min(threads, len(game_ids)), thread_name_prefix="sweep") as pool:
            done = list(pool.map(_sweep_one, game_ids))
    # The substitute's moves after a deadline (half a second of CPU each) are left to the recovery
    # sweep, which hands them on a short while later (service/play/substitutes.py): enqueued here, they
    # came between the burst's chunks (the embedded broker reads its queues in turn) and slowed the
    # burst's adjudication several times over. The game row marks them, so none is lost.
    enqueue([task for tasks in done for task in tasks if task[0] != "substitute"])


def sweep_threads() -> int:
    try:
        return max(1, int(os.environ.get("PBEM_SWEEP_THREADS", "2")))
    except ValueError:
        return 1


def _sweep_one(game_id: str) -> list[Any]:
    try:
        return store.run_in_transaction(lambda s: service.sweep_game(s, game_id))
    except Exception:
        log.exception("deadline sweep failed for game %s", game_id)
        return []


@celery.task(name="workers.tasks.play_substitutes")
def play_substitutes(game_id: str, record_length: int) -> None:
    """The substitute's next move in a game (service/play/substitutes.py): it thinks with no lock held,
    then applies under the game's lock and enqueues the move after it. Safe to run twice."""
    enqueue(service.play_substitutes(game_id, record_length))


@celery.task(name="workers.tasks.recover")
def recover(wake: bool = False, follow_up: bool = True) -> None:
    """The recovery sweep (adjudicator/service/upkeep/recovery.py): hand on rows whose task was lost;
    `wake`: the sweep after a worker (re)connected to the broker (workers/consumer.py). If the
    wake-ups cannot be published, the rows are due again at once rather than after the backoff.

    A wake-up hands on every waiting row, batch after batch (a burst's thousands of notifications
    lost with a broker restart), and asks for one more wake-up `recovery_wake_grace()` later
    (`follow_up`): the rows stored or woken just before the reconnection, which a wake-up leaves
    alone as possibly still on their way, are handed on then, seconds after the broker is back
    instead of after the sweep's grace."""
    if is_embedded(celery) and "sqlite" in str(celery.conf.broker_url):
        prune_taken(str(celery.conf.broker_url))
    after = (0, 0)
    for _ in range(WAKE_ROUNDS if wake else 1):
        result = store.run_in_transaction(
            (lambda s, after=after: service.recovery_wake(s, after=after)) if wake else service.recovery_sweep)
        after = result.after
        try:
            enqueue(result.tasks)
        except Exception:
            store.run_in_transaction(lambda s, result=result: service.not_handed_on(s, result))
            raise
        if not result.more:
            break
    if wake and follow_up:
        try:
            recover.apply_async(kwargs={"wake": True, "follow_up": False},
                                countdown=service.recovery_wake_grace().total_seconds() + 1, expires=600)
        except Exception:  # noqa: BLE001 - the broker went away again: its next connection wakes anew
            log.warning("could not publish the follow-up recovery wake-up", exc_info=True)


@celery.task(name="workers.tasks.deliver_batch")
def deliver_batch(outbox_ids: list[int]) -> None:
    """A batch of outbox rows over one connection (failures are recorded per row, with their
    retry time: the recovery sweep sends them again)."""
    deliver_many(outbox_ids)


@celery.task(name="workers.tasks.deliver_outbox")
def deliver_outbox(outbox_id: int) -> None:
    try:
        deliver(outbox_id)
    except TemporaryFailure as exc:  # recorded with a due time: the recovery sweep tries again
        log.warning("delivery of outbox %s failed, to be retried: %s", outbox_id, exc)


@worker_init.connect
def _create_tables(**_kwargs: object) -> None:
    store.init_db()  # idempotent; a fresh embedded install needs no separate step


@worker_process_init.connect
def _fresh_connections(**_kwargs: object) -> None:
    """A prefork child must not use the connections its parent opened (store.reset_after_fork
    also runs on every fork; this makes the Celery case explicit)."""
    store.reset_after_fork()


@celery.task(name="workers.tasks.drain_inbox")
def drain_inbox() -> None:
    """Every stored mail not yet processed, a chunk per transaction (service/mail/inboxdrain.py): the
    listener wakes one drain for many mails. After DRAIN_SECONDS with rows still waiting, the rest
    goes to a fresh drain at the back of the queue, so other tasks are not held up. A chunk that
    cannot be processed leaves its rows `new`: the recovery sweep hands them on one by one.

    The replies and notifications of the chunks are sent by this task once the inbox is empty
    (`deliver_here`), not published as `deliver_batch` tasks (issue 31): a drain that found no
    more rows has nothing more urgent to do, and a publish, a worker's take of it from the broker
    and the wake-up of every worker cost about as much as the batch's claim and record. A drain
    that stops at DRAIN_SECONDS publishes them, as before."""
    started = time.monotonic()
    deliveries: list[Any] = []
    while True:
        try:
            drained = service.drain_inbox()  # a chunk in its own transaction
        except Exception:
            log.exception("inbox drain failed; the recovery sweep processes its rows")
            break
        enqueue([task for task in drained.tasks if task[0] not in DELIVERIES])
        deliveries += [task for task in drained.tasks if task[0] in DELIVERIES]
        if not drained.full:
            break
        if time.monotonic() - started >= DRAIN_SECONDS:
            enqueue([*deliveries, ("drain",)])
            return
    deliver_here(deliveries)


DRAIN_SECONDS = 2.0
DELIVERIES = ("deliver", "deliver_batch")


def deliver_here(tasks: list[Any]) -> None:
    """The outbox rows of these ("deliver", row) and ("deliver_batch", rows) tasks, sent here, a
    batch (`deliver_many`: one claim, one record of the sent mails) per DELIVER_BATCH rows, as the
    `deliver_batch` tasks they would have become. The rows are committed: a worker that dies here,
    or a batch that fails, leaves them to the recovery sweep, as a lost `deliver_batch` message
    does; a failure is logged, not raised (the rows' own work is done)."""
    for _kind, ids in coalesced(tasks):
        try:
            deliver_many([ids] if isinstance(ids, int) else ids)
        except Exception:  # noqa: BLE001 - committed rows: the recovery sweep sends them
            log.exception("delivery of a drain's replies failed; the recovery sweep sends them")


@celery.task(name="workers.tasks.ingest_message")
def ingest_message(inbox_id: int) -> None:
    """One stored inbound message through the service (idempotent: a done message is skipped).
    If it cannot be processed now the row stays `new`, with the error, for the recovery sweep."""
    try:
        _run(service.process_mail, inbox_id)
    except Exception as exc:
        _note_error(inbox_id, f"{type(exc).__name__}: {exc}")
        raise


def _note_error(inbox_id: int, error: str) -> None:
    from adjudicator.store import InboxMessage

    def note(s: Session) -> None:
        row = s.exec(select(InboxMessage).where(InboxMessage.id == inbox_id)).first()
        if row is not None and row.status == "new":
            row.last_error = error[:1000]
            s.add(row)

    try:
        store.run_in_transaction(note)
    except Exception:  # the database itself is away: the sweep retries the row all the same
        log.exception("could not note the error of inbox row %s", inbox_id)


@celery.task(name="workers.tasks.send_digests")
def send_digests() -> None:
    _run(service.send_digests)


@celery.task(name="workers.tasks.prune")
def prune() -> str:
    """Retention, daily (adjudicator/service/upkeep/retention.py); the counts for the worker's log."""
    result = store.run_in_transaction(service.prune)
    log.info("prune: %s", result)
    return str(result)


@celery.task(name="workers.tasks.poll_imap")
def poll_imap() -> int:
    from .imap import poll_once

    return poll_once()
