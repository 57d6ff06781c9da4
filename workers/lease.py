"""A sender's claim on the outbox rows it is sending, kept alive while the sender lives.

A claimed row is `sending` until `lease_until`; the recovery sweep frees a row whose lease has
expired, since its sender died (a killed worker, a lost machine). A short lease frees such rows
quickly, but a live sender may take longer than the lease (a slow relay, a large batch), and a
row freed under a live sender is sent twice. So the lease is short (`lease()`, 30 s) and a sender
renews it for its rows every third of it while it works (`kept`): a dead sender's rows are free
within one lease, a live sender's never.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import update

from adjudicator.service import utcnow
from adjudicator.store import OutboxMessage, run_in_transaction

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)


def lease() -> timedelta:
    """How long a claim holds without renewal (PBEM_SEND_LEASE_SECONDS, default LEASE)."""
    return timedelta(seconds=float(os.environ.get("PBEM_SEND_LEASE_SECONDS", LEASE.total_seconds())))


def renew(outbox_ids: list[int]) -> int:
    """Push the lease of those rows still `sending` to a full lease from now; returns how many."""
    def write(s):  # type: ignore[no-untyped-def]
        return s.connection().execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(outbox_ids),  # type: ignore[union-attr]
                                        OutboxMessage.status == "sending")  # type: ignore[arg-type]
            .values(lease_until=utcnow() + lease())).rowcount

    return run_in_transaction(write, lazy=True)


@contextmanager
def kept(outbox_ids: list[int]) -> Iterator[None]:
    """While the block runs, renew the rows' lease every third of a lease (in a thread; a failed
    renewal is logged and tried again at the next turn)."""
    if not outbox_ids:
        yield
        return
    done = threading.Event()
    period = lease().total_seconds() / 3

    def keep() -> None:
        while not done.wait(period):
            try:
                renew(outbox_ids)
            except Exception:  # noqa: BLE001 - the database is away: the next turn tries again
                log.warning("could not renew the send lease of %d rows", len(outbox_ids), exc_info=True)

    keeper = threading.Thread(target=keep, name="send-lease", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        done.set()
        keeper.join(timeout=period + 5)
