"""Which steps a player may take back (issue 25), as Rally the Troops allows it at the table: their
own last steps, as long as no other seat has acted since and nothing hidden was revealed or drawn.

`record_orders` asks `own_step` of every step it records; a run of such steps by one seat is kept
on the game (`Game.undo_seat`, `Game.undo_from`) until any other entry is appended, so a page
knows what may be taken back without replaying anything. The undo itself is undo.py.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from adjudicator.i18n import _
from adjudicator.record import ROLLBACK
from adjudicator.store import Game, RecordEntry

from ..common.core import current_prompts, sealed_groups, sealed_rows
from .gamelog import undone_seqs


def own_step(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]],
             data: dict[str, Any]) -> str | None:
    """The seat that may take this orders entry back, or None. A step qualifies when one seat
    gave it itself (not a default, not a standing order, not a sealed group's reveal, not a
    hidden order) and it changed nothing hidden: the secret part (decks, the bag, the PRNG: a
    draw, a shuffle, a die) and the other seats' private parts are as they were, and no event
    told anyone something privately."""
    orders = data.get("orders") or {}
    if (len(orders) != 1 or data.get("defaulted") or data.get("standing") or data.get("substitute")
            or data.get("salts") or data.get("hidden")):
        return None
    [seat] = orders
    if any(ev.get("audience") is not None for ev in events):
        return None
    if before.get("secret") != after.get("secret"):
        return None
    mine = {k: v for k, v in (before.get("private") or {}).items() if k != seat}
    theirs = {k: v for k, v in (after.get("private") or {}).items() if k != seat}
    return seat if mine == theirs else None


def steps_to_take_back(s: Session, g: Game, seat: str) -> tuple[list[RecordEntry], list[RecordEntry]]:
    """The record entries in force from the one before the seat's run of steps (`Game.undo_from`)
    on, and among them the seat's steps it may take back, both oldest first; ([], []) for none."""
    if g.status != "running" or g.undo_seat != seat or g.undo_from is None:
        return [], []
    rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.seq >= g.undo_from - 1)
                  .order_by(col(RecordEntry.seq)))
    undone = undone_seqs(s, g)
    in_force = [r for r in rows if r.seq not in undone]
    own = [r for r in in_force if r.kind == "orders" and r.seq >= g.undo_from]
    return (in_force, own) if own else ([], [])


def sealed_by_others(s: Session, g: Game, seat: str) -> list[str]:
    """The other seats that sent a sealed order for the open decision (they acted since)."""
    rows = sealed_groups(current_prompts(g))
    return sorted({other for group in rows for other in sealed_rows(s, g, group) if other != seat})


def why_not(s: Session, g: Game, seat: str, own_only: bool = False) -> str:
    """Why the seat has no step to take back now, in words; "" when `own_only` and its last step
    is not the newest entry (a page says nothing then)."""
    if g.status != "running":
        return _("steps can be taken back only while the game runs")
    last = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id)
                  .order_by(col(RecordEntry.seq).desc()).limit(1)).first()
    data = last.data if last is not None else {}
    orders = data.get("orders") or {} if last is not None and last.kind == "orders" else {}
    if seat not in orders:
        if own_only:
            return ""
        if orders:
            return _("%(seats)s acted after your last step, so it stands", seats=", ".join(sorted(orders)))
        if last is not None and last.kind == "note" and data.get("action") == ROLLBACK and data.get("seat") == seat:
            return _("you have taken back every step you may")
        return _("you have no step of your own to take back since the last thing the game recorded")
    if set(orders) != {seat} or data.get("salts"):
        return _("sealed orders were revealed since, so your step stands")
    if data.get("defaulted"):
        return _("that step was your default order (the deadline passed), so it stands")
    if data.get("standing"):
        return _("that step came from your standing orders, so it stands")
    if data.get("substitute"):
        return _("that step was the substitute's, played while you were in civil disorder, so it stands")
    return _("your last step revealed or drew something hidden (a card, a die, the bag), so it stands")
