"""The figures an operator watches (docs/operations.md, "Watch"), read from the database.

They come from the rows themselves, not from counters in one process, so every web process
answers the same and a restarted worker loses nothing: the database is the queue of record.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from adjudicator.store.models import Game, InboxMessage, OutboxMessage, RecordEntry

from ..common.clock import as_utc, utcnow

# a deadline this far past its time has not been swept: the beat or the workers are behind
LATE_AFTER = timedelta(minutes=2)


@dataclass(frozen=True)
class HealthFigures:
    games: dict[str, int]  # by status
    deadlines_due: int  # running games whose deadline has passed
    deadlines_late: int  # ... by more than LATE_AFTER
    inbox: dict[str, int]  # inbound mail rows by status ("new" is the queue)
    outbox: dict[str, int]  # outbound mail rows by status ("pending" and "sending" are the queue)
    oldest_pending_mail_seconds: float  # 0 when nothing waits
    record_entries_last_hour: dict[str, int]  # by kind: orders, reveals, notes ... (adjudications)


def _by(s: Session, column, where=None) -> dict[str, int]:
    query = select(column, func.count()).group_by(column)
    if where is not None:
        query = query.where(where)
    return {str(key): int(count) for key, count in s.exec(query).all()}


def health_figures(s: Session, now: datetime | None = None) -> HealthFigures:
    now = now or utcnow()
    due = select(func.count()).select_from(Game).where(Game.status == "running", col(Game.due_at) <= now)
    late = due.where(col(Game.due_at) <= now - LATE_AFTER)
    oldest = s.exec(select(func.min(OutboxMessage.created_at)).where(
        col(OutboxMessage.status).in_(("pending", "sending")))).one()
    waited = (now - as_utc(oldest)).total_seconds() if oldest is not None else 0.0
    return HealthFigures(
        games=_by(s, Game.status),
        deadlines_due=int(s.exec(due).one()),
        deadlines_late=int(s.exec(late).one()),
        inbox=_by(s, InboxMessage.status),
        outbox=_by(s, OutboxMessage.status),
        oldest_pending_mail_seconds=max(0.0, waited),
        record_entries_last_hour=_by(s, RecordEntry.kind, RecordEntry.created_at >= now - timedelta(hours=1)),
    )

