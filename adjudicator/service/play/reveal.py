"""The reveal task: a sealed group whose orders are all in is applied (steps.apply_group: all its
orders at once, with the salts that prove the receipts)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..common.clock import utcnow
from ..common.core import locked_game, sealed_groups
from ..common.snapshot import Table, table_of
from ..common.types import Task
from .pace import settle
from .steps import apply_group, sealed_of


def reveal(s: Session, game_id: str, group: str, now: datetime | None = None) -> list[Task]:
    """Apply the group if every member has a sealed order; otherwise (or if it was already
    revealed, or the game is paused) do nothing. Safe to call any number of times."""
    t = table_of(s, locked_game(s, game_id))
    if t.game.status != "running":
        return []
    members = sealed_groups(t.prompts).get(group)
    if not members:
        return []
    rows = sealed_of(t, group)
    if not set(members) <= set(rows):
        return []
    now = now or utcnow()
    apply_group(s, t, group, members, rows, now)
    return settle(s, t, now)


def complete_groups(t: Table) -> list[Task]:
    """Reveal tasks for every open sealed group whose orders are all in (after resume)."""
    tasks: list[Task] = []
    for group, members in sealed_groups(t.prompts).items():
        if set(members) <= set(sealed_of(t, group)):
            tasks.append(("reveal", t.public_id, group))
    return tasks
