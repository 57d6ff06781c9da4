"""Deadlines are columns on the game row, swept by one periodic task (no long ETA tasks).

`due_games` lists the games whose deadline or reminder has come; `sweep_game` handles one of
them in its own transaction (the worker fans them out, so no writer waits for more than one
game's work). Both are idempotent: applying defaults opens a new deadline in the future and a sent
reminder sets `reminded`, so a second run at the same moment finds nothing to do.
`sweep_deadlines` does all of it in the caller's transaction (tests, single-process tools).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import literal_column
from sqlmodel import Session, col, select

from adjudicator.i18n import _
from adjudicator.store import Game, SealedOrder, Seat

from ..common import snapshot
from ..common.clock import as_utc, utcnow
from ..common.core import append_note, sealed_groups
from ..common.errors import NotFound
from ..common.snapshot import Table
from ..common.types import Task
from . import notify, outboxrows
from .absence import extend_for_absence
from .pace import advance, settle, waiting_seats
from .reveal import complete_groups
from .steps import apply_group, record_orders, sealed_of

log = logging.getLogger(__name__)


def due_games(s: Session, now: datetime | None = None) -> list[str]:
    """Public ids of running games with a deadline or reminder due, or a complete sealed group
    whose reveal may have been lost between a commit and the broker."""
    due: set[str] = set()
    for query in due_queries(now or utcnow()):
        due |= set(s.exec(query).all())
    return sorted(due)


def due_queries(now: datetime) -> list[Any]:
    """The listing's three selects: deadlines come, reminders come, games holding sealed orders
    (that one's cost follows the sealed rows waiting, not the games running). 'running' is
    inline, not a bound parameter: the planners match it to the partial indexes'
    predicates (ix_games_running_due / _reminder, index-only on PostgreSQL), which a generic
    plan's $1 could not prove."""
    running = col(Game.status) == literal_column("'running'")
    return [
        select(Game.public_id).where(running, col(Game.due_at) <= now),
        select(Game.public_id).where(running, col(Game.reminded) == False, col(Game.reminder_at) <= now),  # noqa: E712
        # driven by the sealed rows (IN, not a join): SQLite's join walked every game instead
        select(Game.public_id).where(running, col(Game.id).in_(select(SealedOrder.game_id))),
    ]


def sweep_game(s: Session, game_id: str, now: datetime | None = None) -> list[Task]:
    """Everything due for one game: its deadline, its reminder, a complete sealed group."""
    with outboxrows.batch(s) as mails:  # its mails go out in one insert at the end
        return mails.write(s, _sweep_game(s, game_id, now or utcnow()))


def _sweep_game(s: Session, game_id: str, now: datetime) -> list[Task]:
    t = snapshot.open_table(s, game_id)  # locked, with everything the deadline reads
    if t is None:
        raise NotFound(_("there is no game %(game)s; check the link", game=repr(game_id)))
    if t.game.status != "running":
        return []
    tasks = _expire_if_due(s, t, now)
    tasks += _remind_if_due(s, t, now)
    if t.game.status == "running" and complete_groups(t):
        tasks += settle(s, t, now)  # reveals what is complete (a lost reveal task)
    return tasks


def sweep_deadlines(s: Session, now: datetime | None = None) -> list[Task]:
    now = now or utcnow()
    tasks: list[Task] = []
    for game_id in due_games(s, now):
        tasks += _guarded(s, game_id, now)
    return tasks


def _guarded(s: Session, game_id: str, now: datetime) -> list[Task]:
    """One game's failure (a bug in a game module) must not stop the sweep for the others."""
    try:
        with s.begin_nested():
            return sweep_game(s, game_id, now)
    except Exception:
        log.exception("deadline sweep failed for game %s", game_id)
        return []


def _expire_if_due(s: Session, t: Table, now: datetime) -> list[Task]:
    g = t.game
    due = as_utc(g.due_at)
    # re-checked under the lock: another sweeper may have handled it meanwhile
    if g.status != "running" or due is None or now < due + timedelta(minutes=g.grace_minutes):
        return []
    if advance(s, t, now):  # automatic decisions left over (a long civil-disorder run)
        return settle(s, t, now)
    waiting = waiting_seats(t)
    if extend_for_absence(s, t, waiting, now) is not None:
        return []  # a waiting seat is away: its deadline moved to the end of the absence
    apply_defaults(s, t, now)
    tasks = missed_deadline(s, t, waiting, now)
    return tasks + settle(s, t, now, fresh=waiting)


def missed_deadline(s: Session, t: Table, seats: Iterable[str], now: datetime) -> list[Task]:
    """Count a missed deadline for each seat defaulted at it; N in a row is civil disorder."""
    g = t.game
    tasks: list[Task] = []
    names = set(seats)
    for row in t.rows[Seat]:  # (a deadline's table holds the seats as ORM objects)
        if row.seat not in names:
            continue
        row.missed += 1
        s.add(row)
        if g.disorder_after > 0 and row.missed >= g.disorder_after and not row.disorder:
            row.disorder = True
            append_note(s, g, "civil_disorder", now, seat=row.seat, missed=row.missed)
            tasks += notify.disorder_mail(s, g, t.module, row)
    return tasks


def apply_defaults(s: Session, t: Table, now: datetime) -> list[Task]:
    """Default every seat waiting now: sealed groups keep their submitted orders and only missing
    members are defaulted; open prompts are defaulted one seat at a time. The caller settles."""
    g, game = t.game, t.module
    prompts = t.prompts
    for group, members in sealed_groups(prompts).items():
        if g.status == "running" and set(members) <= set(t.prompts):
            apply_group(s, t, group, members, sealed_of(t, group), now)
    for seat, prompt in prompts.items():
        if prompt.sealed or g.status != "running":
            continue
        current = t.prompts.get(seat)
        if current is not None and not current.sealed:
            order = game.default_order(g.state or {}, seat)
            record_orders(s, t, {seat: order}, defaulted=[seat], now=now)
    return []


def _remind_if_due(s: Session, t: Table, now: datetime) -> list[Task]:
    g = t.game
    at = as_utc(g.reminder_at)
    if g.status != "running" or g.reminded or at is None or at > now:
        return []
    g.reminded = True
    s.add(g)
    waiting = set(waiting_seats(t))
    reminded = []
    for seat in t.rows[Seat]:  # (a deadline's table holds the seats as ORM objects)
        if seat.seat not in t.prompts or seat.seat not in waiting:
            continue
        started, acted = as_utc(seat.wait_started_at), as_utc(seat.acted_at)
        if started is not None and acted is not None and acted >= started:
            continue  # the seat is answering this wait (a follow-up is open): it needs no reminder
        reminded.append(seat)
    return notify.seat_mails(s, t, "reminder", reminded)
