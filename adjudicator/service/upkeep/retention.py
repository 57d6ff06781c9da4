"""What the server keeps, and for how long (docs/security.md, "What is kept"): dropped mail keeps
its headers and the first KEEP_BYTES of its body (trimmed when it is dropped) and goes after
DROPPED_DAYS; a sent mail's body goes after OUTBOX_BODY_DAYS, its row and Message-ID stay (they
make a repeated delivery recognisable); mail held for an address nobody confirmed goes after
HELD_DAYS; the counts of the bounds per network after a day. `prune` does all of it: `pbem prune`
and the beat, daily."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from adjudicator.store import ClientAction, InboxMessage, OutboxMessage

from ..common.clock import utcnow
from ..common.verified import HELD

KEEP_BYTES = 4096
DROPPED_DAYS = int(os.environ.get("PBEM_DROPPED_MAIL_DAYS", "30"))
OUTBOX_BODY_DAYS = int(os.environ.get("PBEM_OUTBOX_BODY_DAYS", "90"))
HELD_DAYS = 30
FINAL = ("sent", "bounced", "digested")  # a failed row keeps its body: `pbem mail retry` may send it
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_BATCH = 500


def trimmed(raw: bytes) -> bytes:
    """The message's headers and the first KEEP_BYTES of what follows them."""
    end = _BLANK_LINE.search(raw)
    cut = (end.end() if end else 0) + KEEP_BYTES
    return raw[:cut]


@dataclass
class Pruned:
    trimmed_inbox: int = 0
    deleted_inbox: int = 0
    pruned_outbox: int = 0
    deleted_held: int = 0
    deleted_counts: int = 0

    def __str__(self) -> str:
        return (f"dropped mail: {self.trimmed_inbox} trimmed, {self.deleted_inbox} deleted; sent mail: "
                f"{self.pruned_outbox} bodies removed; {self.deleted_held} mails held for unconfirmed addresses "
                f"deleted; {self.deleted_counts} client counts deleted")


def prune(s: Session, now: datetime | None = None, outbox_days: int | None = None,
          dropped_days: int | None = None) -> Pruned:
    now = now or utcnow()
    out = Pruned()
    dropped_before = now - timedelta(days=DROPPED_DAYS if dropped_days is None else dropped_days)
    out.deleted_inbox = s.exec(delete(InboxMessage).where(
        col(InboxMessage.status) == "dropped", col(InboxMessage.received_at) < dropped_before)).rowcount
    out.trimmed_inbox = _trim_dropped(s)
    body_before = now - timedelta(days=OUTBOX_BODY_DAYS if outbox_days is None else outbox_days)
    out.pruned_outbox = s.exec(update(OutboxMessage).where(
        col(OutboxMessage.status).in_(FINAL), col(OutboxMessage.created_at) < body_before,
        col(OutboxMessage.body) != "").values(body="", html=None)).rowcount  # the stored HTML part too
    out.deleted_held = s.exec(delete(OutboxMessage).where(
        col(OutboxMessage.status) == HELD, col(OutboxMessage.created_at) < now - timedelta(days=HELD_DAYS))).rowcount
    out.deleted_counts = s.exec(delete(ClientAction).where(
        col(ClientAction.at) < now - timedelta(days=1))).rowcount
    return out


def _trim_dropped(s: Session) -> int:
    """Dropped rows kept whole (dropped before trimming existed): trimmed in batches."""
    count, after = 0, 0
    while True:
        rows = s.exec(select(InboxMessage.id, InboxMessage.raw).where(
            col(InboxMessage.status) == "dropped", col(InboxMessage.id) > after,
            func.length(col(InboxMessage.raw)) > KEEP_BYTES).order_by(col(InboxMessage.id)).limit(_BATCH)).all()
        for row_id, raw in rows:
            short = trimmed(bytes(raw))
            if len(short) < len(raw):
                s.exec(update(InboxMessage).where(col(InboxMessage.id) == row_id).values(raw=short))
                count += 1
        if len(rows) < _BATCH:
            return count
        after = rows[-1][0] or 0
