"""Deadlines are columns on the game row, swept by one periodic task (no long ETA tasks).

`due_games` lists the games whose deadline or reminder has come; `sweep_game` handles one of
them in its own transaction (the worker fans them out, so no writer waits for more than one
game's work). Both are idempotent: applying defaults opens a new deadline in the future and a sent
reminder sets `reminded`, so a second run at the same moment finds nothing to do.
`sweep_deadlines` does all of it in the caller's transaction (tests, single-process tools).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import literal_column
from sqlmodel import Session, col, select

from adjudicator.i18n import _
from adjudicator.store import Game, SealedOrder

from ..common import snapshot
from ..common.clock import as_utc, utcnow
from ..common.core import current_prompts, module_of, sealed_groups, sealed_rows
from ..common.core import seats_of as _seats_of
from ..common.errors import NotFound
from ..common.types import Task
from . import notify, outboxrows
from .absence import extend_for_absence
from .pace import advance, missed_deadline, settle, waiting_seats
from .reveal import complete_groups
from .steps import apply_group, record_orders

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
    g = snapshot.load(s, game_id)  # locked, with everything the deadline reads
    if g is None:
        raise NotFound(_("there is no game %(game)s; check the link", game=repr(game_id)))
    if g.status != "running":
        return []
    tasks = _expire_if_due(s, g, now)
    tasks += _remind_if_due(s, g, now)
    if g.status == "running" and complete_groups(s, g):
        tasks += settle(s, g, now)  # reveals what is complete (a lost reveal task)
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


def _expire_if_due(s: Session, g: Game, now: datetime) -> list[Task]:
    due = as_utc(g.due_at)
    # re-checked under the lock: another sweeper may have handled it meanwhile
    if g.status != "running" or due is None or now < due + timedelta(minutes=g.grace_minutes):
        return []
    if advance(s, g, now):  # automatic decisions left over (a long civil-disorder run)
        return settle(s, g, now)
    waiting = waiting_seats(s, g)
    if extend_for_absence(s, g, waiting, now) is not None:
        return []  # a waiting seat is away: its deadline moved to the end of the absence
    apply_defaults(s, g, now)
    tasks = missed_deadline(s, g, waiting, now)
    return tasks + settle(s, g, now, fresh=waiting)


def apply_defaults(s: Session, g: Game, now: datetime) -> list[Task]:
    """Default every seat waiting now: sealed groups keep their submitted orders and only missing
    members are defaulted; open prompts are defaulted one seat at a time. The caller settles."""
    game = module_of(g)
    prompts = current_prompts(g)
    for group, members in sealed_groups(prompts).items():
        if g.status == "running" and set(members) <= set(current_prompts(g)):
            apply_group(s, g, game, group, members, sealed_rows(s, g, group), now)
    for seat, prompt in prompts.items():
        if prompt.sealed or g.status != "running":
            continue
        current = current_prompts(g).get(seat)
        if current is not None and not current.sealed:
            order = game.default_order(g.state or {}, seat)
            record_orders(s, g, {seat: order}, defaulted=[seat], now=now)
    return []


def _remind_if_due(s: Session, g: Game, now: datetime) -> list[Task]:
    at = as_utc(g.reminder_at)
    if g.status != "running" or g.reminded or at is None or at > now:
        return []
    g.reminded = True
    s.add(g)
    game = module_of(g)
    prompts = current_prompts(g)
    waiting = set(waiting_seats(s, g))
    tasks: list[Task] = []
    for seat in _seats_of(s, g):
        prompt = prompts.get(seat.seat)
        if prompt is None or seat.seat not in waiting or not (seat.email or seat.chat_webhook):
            continue
        started, acted = as_utc(seat.wait_started_at), as_utc(seat.acted_at)
        if started is not None and acted is not None and acted >= started:
            continue  # the seat is answering this wait (a follow-up is open): it needs no reminder
        tasks += notify.reminder_mail(s, g, game, seat, prompt)
    return tasks
