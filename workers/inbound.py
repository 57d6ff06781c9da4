"""The adapters' shared step: store one raw message through the service, then wake the inbox
drain (coalesced: one broker message for the mails of a burst, workers/drainwake.py; with
PBEM_EAGER=1 the message's own ingest task runs inline).

The database is the queue of record: once the row is committed the message is accepted, whatever
happens to the broker. If no drain can be published the recovery sweep hands the row on later
(adjudicator/service/upkeep/recovery.py), so the sender is told "accepted", not "try again".
"""

from __future__ import annotations

import logging

from celery import Celery

from adjudicator import service, store
from adjudicator.service import Task

from .drainwake import request_drain
from .enqueue import eager, enqueue

log = logging.getLogger(__name__)


def accept(raw: bytes, source: str, envelope_from: str | None = None, envelope_to: list[str] | None = None,
           peer: str = "", app: Celery | None = None) -> bool:
    """True if stored or handed on again (False: a duplicate of a processed message). Raises only
    when the message could not be stored (the database is down): the caller answers "try later"."""
    tasks = store.run_in_transaction(
        lambda s: service.receive_mail(s, raw, source, envelope_from, envelope_to, peer))
    hand_on([tasks], app)
    return bool(tasks)


def hand_on(stored: list[list[Task]], app: Celery | None = None) -> None:
    """After the commit of one or more mails (`receive`'s tasks for each): one drain request for
    them all; with PBEM_EAGER=1 each mail's own tasks, inline."""
    if not eager():
        if any(stored):
            request_drain(app)  # one drain for the mails of a burst (workers/drainwake.py)
        return
    for tasks in stored:
        try:
            enqueue(tasks, app=app)
        except Exception:  # the broker is down: the row is stored, the recovery sweep processes it
            log.exception("inbound message stored but its task not enqueued (the recovery sweep will): %r", tasks)
