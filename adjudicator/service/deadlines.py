"""Deadlines are columns on the game row, swept by one periodic task (no long ETA tasks).

`sweep_deadlines` is idempotent: applying defaults opens a new deadline in the future and a sent
reminder sets `reminded`, so a second run at the same moment finds nothing to do.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlmodel import Session, select

from adjudicator.store import Game, SealedOrder

from . import notify
from .absence import extend_for_absence
from .clock import as_utc, utcnow
from .core import (
    current_prompts,
    find_game,
    locked_game,
    module_of,
    open_deadline,
    record_orders,
    sealed_groups,
    sealed_rows,
)
from .core import seats_of as _seats_of
from .reveal import apply_group, complete_groups
from .types import Task

log = logging.getLogger(__name__)


def sweep_deadlines(s: Session, now: datetime | None = None) -> list[Task]:
    now = now or utcnow()
    tasks: list[Task] = []
    due = s.exec(select(Game.public_id).where(Game.status == "running", Game.due_at <= now)).all()
    for game_id in due:
        tasks += _guarded(s, game_id, lambda g: _expire_if_due(s, g, now))
    remind = s.exec(
        select(Game.public_id).where(Game.status == "running", Game.reminded == False,  # noqa: E712
                                     Game.reminder_at <= now)
    ).all()
    for game_id in remind:
        tasks += _guarded(s, game_id, lambda g: _remind_if_due(s, g, now))
    # A reveal task lost between the commit and the broker would stall a game for good; the
    # sweep re-issues reveals for every complete sealed group (reveal itself is idempotent).
    waiting = s.exec(
        select(Game.public_id).distinct().join(SealedOrder, SealedOrder.game_id == Game.id)
        .where(Game.status == "running")
    ).all()
    for game_id in waiting:
        tasks += complete_groups(s, find_game(s, game_id))
    return tasks


def _guarded(s: Session, game_id: str, work) -> list[Task]:  # type: ignore[no-untyped-def]
    """One game's failure (a bug in a game module) must not stop the sweep for the others."""
    try:
        with s.begin_nested():
            return work(locked_game(s, game_id))
    except Exception:
        log.exception("deadline sweep failed for game %s", game_id)
        return []


def _expire_if_due(s: Session, g: Game, now: datetime) -> list[Task]:
    due = as_utc(g.due_at)
    # re-checked under the lock: another sweeper may have handled it meanwhile
    if g.status != "running" or due is None or now < due + timedelta(minutes=g.grace_minutes):
        return []
    if extend_for_absence(s, g, waiting_seats(s, g), now) is not None:
        return []  # a waiting seat is away: its deadline moved to the end of the absence
    return apply_defaults(s, g, now)


def waiting_seats(s: Session, g: Game) -> list[str]:
    """Seats with a decision that have not answered it yet (a sealed order in counts as answered)."""
    prompts = current_prompts(g)
    done: set[str] = set()
    for group in sealed_groups(prompts):
        done |= set(sealed_rows(s, g, group))
    return [seat for seat in prompts if seat not in done]


def apply_defaults(s: Session, g: Game, now: datetime) -> list[Task]:
    """Default every seat waiting now: sealed groups keep their submitted orders and only missing
    members are defaulted; open prompts are defaulted one seat at a time."""
    game = module_of(g)
    tasks: list[Task] = []
    prompts = current_prompts(g)
    for group, members in sealed_groups(prompts).items():
        if g.status == "running" and set(members) <= set(current_prompts(g)):
            tasks += apply_group(s, g, game, group, members, sealed_rows(s, g, group), now)
    for seat, prompt in prompts.items():
        if prompt.sealed or g.status != "running":
            continue
        current = current_prompts(g).get(seat)
        if current is not None and not current.sealed:
            order = game.default_order(g.state or {}, seat)
            tasks += record_orders(s, g, {seat: order}, defaulted=[seat], now=now)
    if g.status == "running" and as_utc(g.due_at) is not None and as_utc(g.due_at) <= now:  # type: ignore[operator]
        open_deadline(g, now)  # nothing could be defaulted: do not expire again at once
        s.add(g)
    return tasks


def _remind_if_due(s: Session, g: Game, now: datetime) -> list[Task]:
    at = as_utc(g.reminder_at)
    if g.status != "running" or g.reminded or at is None or at > now:
        return []
    g.reminded = True
    s.add(g)
    game = module_of(g)
    prompts = current_prompts(g)
    tasks: list[Task] = []
    for seat in _seats_of(s, g):
        prompt = prompts.get(seat.seat)
        if prompt is None or not (seat.email or seat.chat_webhook):
            continue
        if prompt.sealed and prompt.group and seat.seat in sealed_rows(s, g, prompt.group):
            continue  # already sealed an order
        tasks += notify.reminder_mail(s, g, game, seat, prompt)
    return tasks
