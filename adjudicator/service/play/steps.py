"""A step of play: seats' orders applied to the game's record.

An open order is recorded at once (`record_orders`); a sealed one is kept secret (`seal`: the
receipt commits to it) until every member of its group has one, and the group is then applied
together (`apply_group`, with the salts that prove the receipts). The step that leaves no prompt
finishes the game and rates it. What follows a step (deadlines, waits, mail) is the caller's
`pace.settle`, once per use case. Each function is handed the locked table (common/snapshot.py)
and reads the game, its module, prompts and sealed rows from it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from adjudicator.engine import IllegalOrder, Order, Prompt, canonical_json
from adjudicator.engine.canonical import copy_json
from adjudicator.engine.play import check_orders, hidden_seats
from adjudicator.i18n import _
from adjudicator.record import commitment
from adjudicator.store import SealedOrder, delete_row, insert_row, update_row
from adjudicator.store.gamelock import SealedRow

from ..common.core import append_entry, current_prompts
from ..common.snapshot import Table
from ..common.tokens import new_salt
from ..common.types import Receipt, Task
from ..history import undoable
from ..history.ratings import rate_finished


def sealed_of(t: Table, group: str) -> dict[str, SealedRow]:
    """The sealed orders in for `group`, by seat."""
    return {r.seat: r for r in t.rows[SealedOrder] if r.group == group}


def sealed_seats(t: Table) -> set[str]:
    """The seats with a sealed order in for one of the open sealed groups."""
    groups = {p.group for p in t.prompts.values() if p.sealed and p.group}
    return {r.seat for r in t.rows[SealedOrder] if r.group in groups}


def record_orders(
    s: Session,
    t: Table,
    orders: dict[str, Any],
    defaulted: list[str] | None = None,
    salts: dict[str, str] | None = None,
    now: datetime | None = None,
    standing: list[str] | None = None,
    substitute: list[str] | None = None,
) -> list[Task]:
    """Apply orders (checked by the engine; IllegalOrder propagates before anything is written)
    and append the entry; a game with no prompts left is finished. Deadlines and mail are the
    caller's `pace.settle` (once per use case, not per step). `standing`: seats whose order came
    from their standing orders (the record says so)."""
    g, game, prompts = t.game, t.module, t.prompts
    state = g.state or {}
    step = game.apply(copy_json(state), check_orders(prompts, orders))
    data: dict[str, Any] = {"orders": orders, "defaulted": sorted(defaulted or []), "salts": dict(salts or {})}
    hidden = hidden_seats(prompts, orders)
    if hidden:  # the public export withholds the entry while the game runs (must_withhold)
        data["hidden"] = hidden
    if standing:
        data["standing"] = sorted(standing)
    if substitute:  # the substitute's order stands for the seat's own (replay ignores the mark)
        data["substitute"] = sorted(substitute)
    run = (g.undo_seat, g.undo_from)
    append_entry(s, g, "orders", data, step.state, step.events)
    t.prompts = current_prompts(g)  # the new state's (a registered table has them already)
    own = undoable.own_step(state, step.state, step.events, data)
    if own is not None:  # a step its seat may take back (undoable.py), perhaps one more of a run
        g.undo_seat = own
        g.undo_from = run[1] if run[0] == own and run[1] is not None else g.record_length - 1
    if not t.prompts:
        g.status = "finished"
        g.due_at = g.reminder_at = None
        g.paused_remaining = None
        g.waiting_on = []
        s.add(g)
        rate_finished(s, g)  # here: every game its rules end ends through this step
    _ = now
    return []


def seal(s: Session, t: Table, seat: str, prompt: Prompt, order: Order, now: datetime,
         origin: str = "") -> Receipt:
    """Store (or replace, until the reveal) a seat's sealed order; the receipt commits to it.
    `origin`: "" the seat's own order, "standing", "default" or "substitute" (civil disorder)."""
    if not prompt.allows(order):
        raise IllegalOrder(_("that is not a legal %(kind)s order for %(seat)s now", kind=prompt.kind, seat=seat))
    assert prompt.group is not None
    row = sealed_of(t, prompt.group).get(seat)
    if row is not None and canonical_json(row.order) == canonical_json(order):
        update_row(s, row, {"origin": origin})  # (no statement when it is the same)
    else:
        salt = new_salt()
        values = {"order": order, "salt": salt, "commitment": commitment(order, salt), "submitted_at": now,
                  "origin": origin}
        if row is None:  # sealed orders are written by key, never as ORM objects (gamelock.SealedRow)
            key = insert_row(s, SealedOrder, {"game_id": t.game_id, "group": prompt.group, "seat": seat, **values})
            row = SealedRow(key, t.game_id, prompt.group, seat, **values)
            t.rows[SealedOrder].append(row)
        else:
            update_row(s, row, values)
    return Receipt(row.commitment, t.module.format_order(order), seat, prompt.group, row.submitted_at)


def apply_group(
    s: Session,
    t: Table,
    group: str,
    members: list[str],
    rows: dict[str, SealedRow],
    now: datetime,
) -> list[Task]:
    """Submitted orders stand; members without a (still legal) order get their default. Orders a
    seat's standing orders or civil disorder sealed are recorded as such."""
    g, game, prompts = t.game, t.module, t.prompts
    orders: dict[str, object] = {}
    salts: dict[str, str] = {}
    defaulted: list[str] = []
    standing: list[str] = []
    substitute: list[str] = []
    for seat in members:
        row = rows.get(seat)
        if row is not None and prompts[seat].allows(row.order):
            orders[seat] = row.order
            salts[seat] = row.salt
            if row.origin == "default":
                defaulted.append(seat)
            elif row.origin == "standing":
                standing.append(seat)
            elif row.origin == "substitute":
                substitute.append(seat)
        else:
            orders[seat] = game.default_order(g.state or {}, seat)
            defaulted.append(seat)
    for row in rows.values():  # the record entry publishes them now
        delete_row(s, row)
    t.rows[SealedOrder] = [r for r in t.rows[SealedOrder] if r not in rows.values()]
    return record_orders(s, t, orders, defaulted=defaulted, salts=salts, now=now, standing=standing,
                         substitute=substitute)
