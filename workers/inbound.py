"""The adapters' shared step: store one raw message through the service, then wake the inbox
drain (coalesced: one broker message for the mails of a burst, workers/drainwake.py; with
PBEM_EAGER=1 the message's own ingest task runs inline).

The database is the queue of record: once the row is committed the message is accepted, whatever
happens to the broker. If no drain can be published the recovery sweep hands the row on later
(adjudicator/service/recovery.py), so the sender is told "accepted", not "try again".
"""

from __future__ import annotations

import logging

from celery import Celery

from adjudicator import service, store

from .drainwake import request_drain
from .enqueue import eager, enqueue

log = logging.getLogger(__name__)


def accept(raw: bytes, source: str, envelope_from: str | None = None, envelope_to: list[str] | None = None,
           peer: str = "", app: Celery | None = None) -> bool:
    """True if stored or handed on again (False: a duplicate of a processed message). Raises only
    when the message could not be stored (the database is down): the caller answers "try later"."""
    tasks = store.run_in_transaction(
        lambda s: service.receive_mail(s, raw, source, envelope_from, envelope_to, peer))
    if tasks and not eager():
        request_drain(app)  # one drain for the mails of a burst (workers/drainwake.py)
        return True
    try:
        enqueue(tasks, app=app)
    except Exception:  # the broker is down: the row is stored, the recovery sweep processes it
        log.exception("inbound message stored but its task not enqueued (the recovery sweep will): %r", tasks)
    return bool(tasks)
