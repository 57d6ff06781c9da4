"""A web form's sealed order in its common case, without the ORM (issue 16).

Most order POSTs seal a seat's order (or replace it) while the group waits for others: the writes
are the sealed row, the seat's `acted_at` and at most the game's `waiting_on`. Through the ORM
that POST loaded ~70 columns into objects and wrote through the unit of work, about 2.6 M of its
8.4 M instructions (callgrind). `submit` does the same with prebuilt Core statements reading only
the columns it needs, and writes its rows directly.

It answers only when the outcome is certainly that case, decided before anything is written; in
every other case it returns None and the caller runs the general path (`orders._submit`) in the
same transaction, which then reads the rows again under the lock it already holds. So every
error (a wrong link, a stale page, a finished game, an illegal order) and every step that is not
a sealed order's replacement (a reveal, standing orders, civil disorder, a new wait and its
mails, a cold prompt cache, content not loaded yet) stays with the general path. What it decides
mirrors `steps.seal` and `pace.settle` for that case; tests/service/test_quick_order.py holds
the database rows and the answers equal to the general path's.

Lock order as everywhere: the game row first (FOR UPDATE), then its seats and sealed orders,
read after the lock so that they include what the lock's previous holder committed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, bindparam, exists, select
from sqlmodel import Session, col

from adjudicator.engine import canonical_json, get_game
from adjudicator.record import commitment
from adjudicator.store import Game, SealedOrder, Seat, StandingOrder
from adjudicator.store.typed import table_of

from . import snapshot
from .clock import as_utc
from .content import content_known
from .core import cached_prompts, check_prompt_token, sealed_groups, token_for
from .errors import StaleOrder
from .tokens import new_salt, seat_token_matches
from .types import Receipt, Submission

_games, _seats, _sealed = table_of(Game), table_of(Seat), table_of(SealedOrder)
_g, _s, _o = _games.c, _seats.c, _sealed.c

_GAME = (select(_g.id, _g.public_id, _g.game_type, _g.options, _g.status, _g.state_hash, _g.record_length,
                _g.due_at, _g.waiting_on)
         .where(_g.public_id == bindparam("public_id")).with_for_update())
# the seats, each with its sealed orders (a sealed row names one of the game's seats), in one
# statement after the lock: one round trip fewer than two
_SEATS = (select(_s.id, _s.seat, _s.seat_token_hash, _s.missed, _s.disorder, _s.resigned,
                 exists().where(col(StandingOrder.game_id) == bindparam("game_id")).label("standing"),
                 _o.id.label("sealed_id"), _o.group, _o.order, _o.origin, _o.commitment, _o.submitted_at)
          .select_from(_seats.outerjoin(_sealed, and_(_o.game_id == _s.game_id, _o.seat == _s.seat)))
          .where(_s.game_id == bindparam("game_id")).order_by(_s.position, _o.id))
_INSERT_SEALED = _sealed.insert()
_UPDATE_SEALED = _sealed.update().where(_o.id == bindparam("row_id"))
_UPDATE_WAITING = _games.update().where(_g.id == bindparam("row_id"))
_UPDATE_ACTED = _seats.update().where(_s.id == bindparam("row_id"))


def submit(s: Session, game_id: str, seat: str, seat_token: str, order: Any, prompt_token: str | None,
           now: datetime) -> Submission | None:
    """`orders.submit_order` for a sealed order that completes no group and starts no wait; None
    (nothing written) for anything else."""
    if s.identity_map or s.new or s.deleted or snapshot.locked(s, game_id) is not None:
        return None  # ORM objects of this transaction would not see rows written here
    if isinstance(order, str) or not isinstance(seat_token, str):
        return None  # a standing-order line, or a mail's key
    conn = s.connection()
    g: Any = conn.execute(_GAME, {"public_id": game_id}).first()  # a row with the Game's columns
    if g is None or g.status != "running" or not content_known(g):
        return None
    prompts = cached_prompts(g)
    prompt = prompts.get(seat) if prompts is not None else None
    if prompts is None or prompt is None or not prompt.sealed or prompt.group is None:
        return None
    joined = conn.execute(_SEATS, {"game_id": g.id}).all()
    row = next((r for r in joined if r.seat == seat), None)
    if (row is None or not seat_token_matches(row.seat_token_hash, g.public_id, seat, seat_token)
            or row.missed or row.standing or any(r.disorder or r.resigned for r in joined)):
        return None  # a refusal, `seat_spoke`'s note, standing orders or automatic decisions
    try:
        check_prompt_token(g, seat, prompt, prompt_token)
    except StaleOrder:
        return None
    if not prompt.allows(order):  # looked at only once the link and the page are good, as there
        return None
    sealed = [r for r in joined if r.sealed_id is not None]
    mine = next((r for r in sealed if r.group == prompt.group and r.seat == seat), None)
    sealed_in: set[str] = {seat}
    for group, members in sealed_groups(prompts).items():
        rows = {r.seat for r in sealed if r.group == group} | ({seat} if group == prompt.group else set())
        if set(members) <= rows:
            return None  # a complete group is revealed
        sealed_in |= rows
    waiting = sorted(other for other in prompts if other not in sealed_in)
    previous = set(g.waiting_on or [])
    if any(other not in previous for other in waiting) or (waiting and as_utc(g.due_at) is None):
        return None  # a new wait: its deadline and its mail
    receipt = _seal(conn, g, seat, prompt.group, order, mine, now)
    if waiting != g.waiting_on:
        conn.execute(_UPDATE_WAITING, {"row_id": g.id, "waiting_on": waiting})
    conn.execute(_UPDATE_ACTED, {"row_id": row.id, "acted_at": now})
    text = get_game(g.game_type).format_order(order)
    return Submission(applied=[text], receipts=[Receipt(receipt[0], text, seat, prompt.group, receipt[1])],
                      prompt_token=token_for(g, seat, prompt))


def _seal(conn: Connection, g: Any, seat: str, group: str, order: Any, mine: Any,
          now: datetime) -> tuple[str, datetime]:
    """`steps.seal` with origin "": the row inserted, replaced, or left as it is. Returns the
    row's commitment and time for the receipt."""
    if mine is not None and canonical_json(mine.order) == canonical_json(order):
        if mine.origin != "":
            conn.execute(_UPDATE_SEALED, {"row_id": mine.sealed_id, "origin": ""})
        return mine.commitment, mine.submitted_at
    salt = new_salt()
    values = {"order": order, "salt": salt, "commitment": commitment(order, salt), "submitted_at": now,
              "origin": ""}
    if mine is None:
        conn.execute(_INSERT_SEALED, {"game_id": g.id, "group": group, "seat": seat, **values})
    else:
        conn.execute(_UPDATE_SEALED, {"row_id": mine.sealed_id, **values})
    return values["commitment"], now
