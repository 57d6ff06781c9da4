"""Applying a sealed group: all its orders at once, with the salts that prove the receipts."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from adjudicator.engine import GameModule
from adjudicator.store import Game, SealedOrder

from .clock import utcnow
from .core import current_prompts, locked_game, module_of, record_orders, sealed_groups, sealed_rows
from .types import Task


def reveal(s: Session, game_id: str, group: str, now: datetime | None = None) -> list[Task]:
    """Apply the group if every member has a sealed order; otherwise (or if it was already
    revealed, or the game is paused) do nothing. Safe to call any number of times."""
    g = locked_game(s, game_id)
    if g.status != "running":
        return []
    members = sealed_groups(current_prompts(g)).get(group)
    if not members:
        return []
    rows = sealed_rows(s, g, group)
    if not set(members) <= set(rows):
        return []
    from .pace import settle

    now = now or utcnow()
    apply_group(s, g, module_of(g), group, members, rows, now)
    return settle(s, g, now)


def apply_group(
    s: Session,
    g: Game,
    game: GameModule,
    group: str,
    members: list[str],
    rows: dict[str, SealedOrder],
    now: datetime,
) -> list[Task]:
    """Submitted orders stand; members without a (still legal) order get their default. Orders a
    seat's standing orders or civil disorder sealed are recorded as such."""
    prompts = current_prompts(g)
    orders: dict[str, object] = {}
    salts: dict[str, str] = {}
    defaulted: list[str] = []
    standing: list[str] = []
    for seat in members:
        row = rows.get(seat)
        if row is not None and prompts[seat].allows(row.order):
            orders[seat] = row.order
            salts[seat] = row.salt
            if row.origin == "default":
                defaulted.append(seat)
            elif row.origin == "standing":
                standing.append(seat)
        else:
            orders[seat] = game.default_order(g.state or {}, seat)
            defaulted.append(seat)
    for row in rows.values():  # the record entry publishes them now
        s.delete(row)
    s.flush()
    return record_orders(s, g, orders, defaulted=defaulted, salts=salts, now=now, standing=standing)


def complete_groups(s: Session, g: Game) -> list[Task]:
    """Reveal tasks for every open sealed group whose orders are all in (after resume)."""
    tasks: list[Task] = []
    for group, members in sealed_groups(current_prompts(g)).items():
        if set(members) <= set(sealed_rows(s, g, group)):
            tasks.append(("reveal", g.public_id, group))
    return tasks
