"""The reveal task: a sealed group whose orders are all in is applied (steps.apply_group: all its
orders at once, with the salts that prove the receipts)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from adjudicator.store import Game

from ..common.clock import utcnow
from ..common.core import current_prompts, locked_game, module_of, sealed_groups, sealed_rows
from ..common.types import Task
from .pace import settle
from .steps import apply_group


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
    now = now or utcnow()
    apply_group(s, g, module_of(g), group, members, rows, now)
    return settle(s, g, now)


def complete_groups(s: Session, g: Game) -> list[Task]:
    """Reveal tasks for every open sealed group whose orders are all in (after resume)."""
    tasks: list[Task] = []
    for group, members in sealed_groups(current_prompts(g)).items():
        if set(members) <= set(sealed_rows(s, g, group)):
            tasks.append(("reveal", g.public_id, group))
    return tasks
