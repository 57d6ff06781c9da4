"""Draining the inbox: every stored mail not yet processed, in arrival order, a chunk of rows per
transaction (issue 16).

One task per mail paid a broker message, a transaction and a commit (a disk sync on SQLite) for
each mail; a drain pays them once per chunk. Each row is still processed exactly as
`inbound.process` does it (the same function, under the same locks), in its own savepoint, so a
mail that fails is rolled back alone and the others of its chunk stay applied.

Safe to run twice at once: the games the chunk's mails name are locked first (sorted), then the
rows, re-read under their lock and skipped unless still `new` (FOR UPDATE SKIP LOCKED on
PostgreSQL; SQLite's BEGIN IMMEDIATE serialises the drains), as `inbound.process` does for one.
Each row's savepoint is the one `inbound.process_locked` works in (mailunit.py): one per mail.
A row that failed outside the service's own error handling keeps `new` with its `last_error`:
drains pass it by and the recovery sweep hands it on by itself (recovery.py), so one bad row
cannot stall every drain.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, select

from adjudicator.store import InboxMessage, is_transient

from . import mailunit, snapshot
from .clock import utcnow
from .inbound import addressed_games, process_locked
from .types import Task

log = logging.getLogger(__name__)

CHUNK = 25  # mails per transaction: the commit is shared, the write lock is not held for long


@dataclass
class Drained:
    tasks: list[Task] = field(default_factory=list)  # to enqueue after the commit
    processed: list[int] = field(default_factory=list)  # inbox ids handled by this chunk
    full: bool = False  # the chunk was full: more rows may be waiting


def drain_chunk(s: Session, limit: int = CHUNK, now: datetime | None = None) -> Drained:
    """Process up to `limit` of the oldest `new` rows in the caller's transaction."""
    now = now or utcnow()
    found = s.exec(select(InboxMessage).where(InboxMessage.status == "new", InboxMessage.last_error == "")
                   .order_by(InboxMessage.id).limit(limit)).all()  # type: ignore[arg-type]
    result = Drained(full=len(found) >= limit)
    if not found:
        return result
    games = {row.id: addressed_games(row) for row in found}
    for game in sorted({g for names in games.values() for g in names}):
        snapshot.load(s, game)  # game rows first (locked), then the inbox rows (inbound.py's lock order)
    rows = s.exec(select(InboxMessage).where(InboxMessage.id.in_([r.id for r in found]),  # type: ignore[union-attr]
                                             InboxMessage.status == "new")
                  .order_by(InboxMessage.id).with_for_update(skip_locked=True)  # type: ignore[arg-type]
                  .execution_options(populate_existing=True)).all()
    for row in rows:
        for game in games.get(row.id, []):
            if snapshot.locked(s, game) is None:  # a rollback (a mail's failed command) dropped it
                snapshot.load(s, game)
        row_id = row.id or 0
        try:
            with mailunit.unit(s, row.id):  # the mail's one savepoint: process_locked takes it
                result.tasks += process_locked(s, row, now)
        except Exception as exc:
            if is_transient(exc):  # a deadlock or a lost connection: the caller runs the chunk again
                raise
            log.exception("inbound message %s failed in a drain; left to the recovery sweep", row.message_id)
            mailunit.note_error(s, row, f"{type(exc).__name__}: {exc}")
        result.processed.append(row_id)
    return result
