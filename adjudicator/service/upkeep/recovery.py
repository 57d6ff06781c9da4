"""The recovery sweep: the database is the queue of record, a Celery message only a wake-up.

Every minute (beat) `sweep` hands on again the rows whose wake-up was lost (the broker was down
or restarted, a worker died with the task, the enqueue after a commit failed):

- inbox rows still `new` (received, never processed), and
- outbox rows `pending` (never sent, or a temporary failure whose retry is due) or `sending`
  whose claim expired (the worker sending it died), and
- running games where the substitute has owed a move for longer than its grace (its task was
  lost, or left to this sweep after a deadline: `Game.substitute_at`, service/play/substitutes.py);
  the mark moves to now, so the game is handed on again only after another grace.

A row is due once a short grace has passed since it was stored (so a row whose task is simply in
flight is not doubled), then after each re-enqueue at a growing interval. After `max_attempts`
re-enqueues it is marked `failed` with the reason: the moderator's mail log and
`pbem mail failed` show it, and `pbem mail retry` (`retry_failed`) hands it on again.

Safe to run twice at once: rows are taken with FOR UPDATE SKIP LOCKED on PostgreSQL (SQLite's
BEGIN IMMEDIATE serialises the sweeps) and their due time moves before the commit, so a second
sweep finds them not due. Every task it enqueues is idempotent (processing checks the row's
status under its lock; sending claims the row first), so a doubled wake-up does nothing twice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, or_, update
from sqlmodel import Session, col, select

from adjudicator.mail import addresses
from adjudicator.mail.parse import headers_only
from adjudicator.store import Game, InboxMessage, OutboxMessage

from ..common.clock import as_utc, utcnow
from ..common.types import Task, written_id
from ..people.mailauth import identify
from ..play.substitutes import grace as substitute_grace

log = logging.getLogger(__name__)

BATCH = 500  # rows of each kind per sweep: a backlog drains over a few sweeps, in id order


def grace() -> timedelta:
    """How long a fresh row's own task may take before the sweep wakes it again."""
    return timedelta(seconds=float(os.environ.get("PBEM_RECOVERY_GRACE_SECONDS", "120")))


def max_attempts() -> int:
    return int(os.environ.get("PBEM_RECOVERY_MAX_ATTEMPTS", "8"))


def backoff(attempt: int) -> timedelta:
    """Wait before the next wake-up after the `attempt`-th: 2, 4, 8 … minutes, at most an hour
    (8 attempts span about four hours)."""
    return min(grace() * 2 ** max(attempt - 1, 0), timedelta(hours=1))


def wake_grace() -> timedelta:
    """How long a row's latest wake-up may be on its way before `wake` sends another: a task
    published that long before the broker connection came back was in the broker that failed."""
    return timedelta(seconds=float(os.environ.get("PBEM_RECOVERY_WAKE_SECONDS", "10")))


@dataclass
class SweepResult:
    inbox: list[int] = field(default_factory=list)  # re-enqueued
    outbox: list[int] = field(default_factory=list)
    failed_inbox: list[int] = field(default_factory=list)  # given up
    failed_outbox: list[int] = field(default_factory=list)
    games: list[tuple[str, int]] = field(default_factory=list)  # substitute moves owed: (game, record length)
    more: bool = False  # a query hit its batch: more rows may wait (the caller runs it again)
    after: tuple[int, int] = (0, 0)  # `wake`: the last inbox and outbox ids it looked at

    @property
    def tasks(self) -> list[Task]:
        tasks: list[Task] = [("ingest", i) for i in self.inbox]
        tasks += [("substitute", game, length) for game, length in self.games]
        return tasks + [("deliver", i) for i in self.outbox]


def sweep(s: Session, now: datetime | None = None, batch: int = BATCH) -> SweepResult:
    """Re-enqueue due inbox and outbox rows (see the module doc); enqueue `.tasks` after commit."""
    now = now or utcnow()
    result = SweepResult()
    cutoff = now - grace()
    inbox = s.exec(select(InboxMessage).where(
        InboxMessage.status == "new",
        or_(col(InboxMessage.next_attempt_at) <= now,
            and_(col(InboxMessage.next_attempt_at).is_(None), col(InboxMessage.received_at) <= cutoff)),
    ).order_by(col(InboxMessage.id)).limit(batch).with_for_update(skip_locked=True)).all()
    result.more = len(inbox) == batch
    for row in inbox:
        if row.attempts >= max_attempts():
            _give_up_inbox(s, row, now)
            result.failed_inbox.append(row.id or 0)
        else:
            row.attempts += 1
            row.next_attempt_at = now + backoff(row.attempts)
            result.inbox.append(row.id or 0)
        s.add(row)
    outbox = s.exec(select(OutboxMessage).where(or_(
        and_(col(OutboxMessage.status) == "pending",
             or_(col(OutboxMessage.next_attempt_at) <= now,
                 and_(col(OutboxMessage.next_attempt_at).is_(None), col(OutboxMessage.created_at) <= cutoff))),
        and_(col(OutboxMessage.status) == "sending", col(OutboxMessage.lease_until) <= now),
    )).order_by(col(OutboxMessage.id)).limit(batch).with_for_update(skip_locked=True)).all()
    result.more = result.more or len(outbox) == batch
    for out in outbox:
        if out.status == "sending":  # its sender died after claiming it: free the claim
            out.status, out.lease_until = "pending", None
        if out.requeues >= max_attempts():
            out.status = "failed"
            out.last_error = f"not sent after {out.requeues} re-enqueues" + (
                f"; last error: {out.last_error}" if out.last_error else "")
            result.failed_outbox.append(out.id or 0)
        else:
            out.requeues += 1
            out.next_attempt_at = now + backoff(out.requeues)
            result.outbox.append(out.id or 0)
        s.add(out)
    s.flush()
    result.games = _owed_games(s, now - substitute_grace(), now, batch)
    result.more = result.more or len(result.games) == batch
    if result.inbox or result.outbox or result.failed_inbox or result.failed_outbox or result.games:
        log.warning("recovery sweep: re-enqueued %d inbox and %d outbox rows and %d substitute moves; gave up on "
                    "%d inbox and %d outbox", len(result.inbox), len(result.outbox), len(result.games),
                    len(result.failed_inbox), len(result.failed_outbox))
    return result


def _owed_games(s: Session, cutoff: datetime, now: datetime, batch: int) -> list[tuple[str, int]]:
    """Running games whose substitute move has been owed since before `cutoff` (its task lost or
    still far back in the queue: a second task for the same move does nothing twice)."""
    rows = s.exec(select(Game.id, Game.public_id, Game.record_length).where(
        col(Game.status) == "running", col(Game.substitute_at) <= cutoff,
    ).order_by(col(Game.substitute_at)).limit(batch).with_for_update(skip_locked=True)).all()
    if rows:
        s.connection().execute(update(Game).where(col(Game.id).in_([r[0] for r in rows])).values(substitute_at=now))
    return [(public_id, length) for _id, public_id, length in rows]


def wake(s: Session, now: datetime | None = None, batch: int = BATCH, after: tuple[int, int] = (0, 0)) -> SweepResult:
    """The sweep run when a worker has (re)connected to the broker: a broker restart may have lost
    every queued wake-up (Redis without persistence), a killed worker those it held. So besides the
    due rows (`sweep`), every row still waiting whose last wake-up went out more than `wake_grace`
    ago (or that never had one: stored that long ago) is handed on now, without waiting for the
    grace or the backoff, and without counting an attempt: a fault outside the row is no reason to
    give up on it sooner. Its next due time is set as after that wake-up (so a second worker waking
    at the same moment finds it handed on). Outbox rows with a failed delivery keep the relay's
    retry time. Safe to run twice at once, like `sweep` (rows locked, SKIP LOCKED).

    A backlog larger than `batch` is handed on by calling it again with the result's `after`
    (the last ids it looked at) while the result says `more`."""
    now = now or utcnow()
    result = sweep(s, now, batch)
    handed = set(result.inbox) | set(result.outbox)
    since = now - wake_grace()
    waiting_in = s.exec(select(InboxMessage).where(
        col(InboxMessage.status) == "new", col(InboxMessage.received_at) <= since,
        col(InboxMessage.id) > after[0],
        or_(col(InboxMessage.next_attempt_at).is_(None), col(InboxMessage.next_attempt_at) > now),
    ).order_by(col(InboxMessage.id)).limit(batch).with_for_update(skip_locked=True)).all()
    result.inbox += _hand_on(s, waiting_in, "attempts", handed, since, now)
    waiting_out = s.exec(select(OutboxMessage).where(
        OutboxMessage.status == "pending", OutboxMessage.attempts == 0,  # no relay retry time to keep
        col(OutboxMessage.created_at) <= since, col(OutboxMessage.id) > after[1],
        or_(col(OutboxMessage.next_attempt_at).is_(None), col(OutboxMessage.next_attempt_at) > now),
    ).order_by(col(OutboxMessage.id)).limit(batch).with_for_update(skip_locked=True)).all()
    result.outbox += _hand_on(s, waiting_out, "requeues", handed, since, now)
    result.more = result.more or len(waiting_in) == batch or len(waiting_out) == batch
    result.after = (max((r.id or 0 for r in waiting_in), default=after[0]),
                    max((r.id or 0 for r in waiting_out), default=after[1]))
    s.flush()
    extra = len(result.inbox) + len(result.outbox) - len(handed)
    if extra:
        log.warning("recovery wake-up after a broker (re)connection: handed on %d more rows at once", extra)
    return result


def _hand_on(s: Session, rows: Sequence[InboxMessage] | Sequence[OutboxMessage], count: str, handed: set[int],
             since: datetime, now: datetime) -> list[int]:
    """The rows among `rows` (inbox or outbox, locked) whose last wake-up went out before `since`,
    given their next due time as after a wake-up; `count` names the row's hand-on counter."""
    ids = []
    for row in rows:
        if row.id in handed or _last_wake(row.next_attempt_at, getattr(row, count)) > since:
            continue
        row.next_attempt_at = now + backoff(getattr(row, count))
        s.add(row)
        ids.append(row.id or 0)
    return ids


def _last_wake(next_attempt_at: datetime | None, attempts: int) -> datetime:
    """When a row's latest wake-up went out (by a sweep or `wake`), from its due time; a row that
    never had one from the sweep counts as woken when it was stored (the caller checks that)."""
    due = as_utc(next_attempt_at)
    if due is None:
        return datetime.min.replace(tzinfo=UTC)
    return due - backoff(attempts)


def not_handed_on(s: Session, result: SweepResult, now: datetime | None = None) -> None:
    """The wake-ups of `result` could not be published (the broker went away after the sweep's
    commit): make its rows due again at once, so the next sweep does not wait out the backoff."""
    now = now or utcnow()
    if result.inbox:
        s.connection().execute(update(InboxMessage).where(
            col(InboxMessage.id).in_(result.inbox), col(InboxMessage.status) == "new")
            .values(next_attempt_at=now))
    if result.outbox:
        s.connection().execute(update(OutboxMessage).where(
            col(OutboxMessage.id).in_(result.outbox), col(OutboxMessage.status) == "pending")
            .values(next_attempt_at=now))


def _give_up_inbox(s: Session, row: InboxMessage, now: datetime) -> None:
    row.status, row.processed_at = "failed", now
    row.outcome = (f"failed: not processed after {row.attempts} attempts"
                   + (f"; last error: {row.last_error}" if row.last_error else ""))[:2000]
    if row.game_id is None:  # so that the game's moderator sees it in the mail log
        row.game_id = _addressed_game(s, row)


def _addressed_game(s: Session, row: InboxMessage) -> int | None:
    """The game whose valid seat address the message was sent to (None if none, or unreadable)."""
    try:
        msg = headers_only(bytes(row.raw))
        values = [str(v) for n in ("To", "Cc", "Delivered-To", "X-Original-To") for v in (msg.get_all(n) or [])]
        if not addresses.seat_addresses(values + list(row.envelope_to or [])):
            return None
        who = identify(s, values + list(row.envelope_to or []), None, row.from_addr)
    except Exception:  # noqa: BLE001 - best effort: the row is failed and listed either way
        log.exception("could not tell the game of failed inbound message %s", row.message_id)
        return None
    if who is None:
        return None
    return s.exec(select(Game.id).where(Game.public_id == who.game_id)).first()


@dataclass
class FailedRow:
    kind: str  # "inbox" or "outbox"
    id: int
    game_id: int | None
    when: datetime
    who: str  # sender (inbox) or recipient (outbox)
    subject: str
    attempts: int
    error: str


def failed_rows(s: Session, limit: int = 200) -> list[FailedRow]:
    """The operator's list: inbox and outbox rows given up on, newest first."""
    inbox = s.exec(select(InboxMessage).where(InboxMessage.status == "failed")
                   .order_by(col(InboxMessage.id).desc()).limit(limit)).all()
    outbox = s.exec(select(OutboxMessage).where(OutboxMessage.status == "failed")
                    .order_by(col(OutboxMessage.id).desc()).limit(limit)).all()
    return ([FailedRow("inbox", m.id or 0, m.game_id, m.received_at, m.from_addr, m.subject, m.attempts,
                       m.outcome) for m in inbox]
            + [FailedRow("outbox", m.id or 0, m.game_id, m.created_at, m.to, m.subject, m.attempts,
                         m.last_error) for m in outbox])


def retry_failed(s: Session, kind: str, ids: list[int] | None = None) -> list[Task]:
    """Hand failed rows on again (all of `kind` when `ids` is None), with fresh attempt counts;
    returns the tasks to enqueue after the commit."""
    if kind == "inbox":
        stmt = select(InboxMessage).where(InboxMessage.status == "failed")
        if ids is not None:
            stmt = stmt.where(col(InboxMessage.id).in_(ids))
        tasks: list[Task] = []
        for row in s.exec(stmt.with_for_update()).all():
            row.status, row.attempts, row.next_attempt_at, row.processed_at = "new", 0, None, None
            row.outcome = ""
            s.add(row)
            tasks.append(("ingest", written_id(row.id)))
        return tasks
    if kind == "outbox":
        ostmt = select(OutboxMessage).where(OutboxMessage.status == "failed")
        if ids is not None:
            ostmt = ostmt.where(col(OutboxMessage.id).in_(ids))
        tasks = []
        for out in s.exec(ostmt.with_for_update()).all():
            out.status, out.attempts, out.requeues, out.next_attempt_at, out.lease_until = "pending", 0, 0, None, None
            s.add(out)
            tasks.append(("deliver", written_id(out.id)))
        return tasks
    raise ValueError(f"unknown kind {kind!r}: use inbox or outbox")
