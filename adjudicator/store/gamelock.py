"""A game's row locked for the transaction, and the rows an order or a deadline works on, read
once the lock is held (issue 27: the locks and their reads live here, the use cases in service/).

Lock order, as everywhere: the game row first (FOR UPDATE; on SQLite the writers' BEGIN IMMEDIATE
already serialises them), then its seats and orders. Those are read by a second statement, sent
once the lock is held: on PostgreSQL the locking statement may wait for the lock, and whatever it
reads besides the locked row (a join, a subquery) is the database as it was before the wait (READ
COMMITTED), so it could miss an order the lock's holder committed; the second statement sees
every committed row, and no other writer can add one for this game until this transaction ends
(every writer locks the game row first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, bindparam, exists, func
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from adjudicator.record import ROLLBACK

from .accounts import PlayerAccount
from .models import Game, ModeratorAction, RecordEntry, SealedOrder, Seat, StandingOrder

# Built once: composing them cost about a fifth of a locked read, and every order reads one.
_GAME = (select(Game, select(RecordEntry.hash)
                .where(RecordEntry.game_id == Game.id, RecordEntry.seq == Game.record_length - 1)
                .scalar_subquery())
         .where(Game.public_id == bindparam("public_id")).with_for_update(of=Game))
# An order's: the state is left to its first use (a step applied, prompts not cached yet); the
# prompts are cached by the state's hash, so a sealed order's replacement never decodes it
_GAME_NO_STATE = _GAME.options(defer(Game.state))  # type: ignore[arg-type]  # sqlmodel types it as Mapped
# The seats, each with its sealed orders (a sealed row names one of the game's seats), whether the
# game has a rollback and standing orders at all (most have neither: no statement for them), and
# per seat whether its address is verified (every mail of a deadline asks). One round trip.
# sqlmodel.select has overloads for up to four columns; this one has five
_SEATS = (select(Seat, SealedOrder,  # type: ignore[call-overload]
                 exists().where(col(ModeratorAction.game_id) == bindparam("game_id"),
                                col(ModeratorAction.action) == ROLLBACK),
                 exists().where(col(StandingOrder.game_id) == bindparam("game_id")),
                 exists().where(col(PlayerAccount.email) == func.lower(Seat.email)))
          .outerjoin(SealedOrder, and_(col(SealedOrder.game_id) == Seat.game_id, col(SealedOrder.seat) == Seat.seat))
          .where(Seat.game_id == bindparam("game_id"))
          .order_by(col(Seat.position), col(SealedOrder.id)))
_STANDING = (select(StandingOrder).where(StandingOrder.game_id == bindparam("game_id"))
             .order_by(col(StandingOrder.id)))
_ENTRIES = (select(RecordEntry)
            .where(RecordEntry.game_id == bindparam("game_id"), RecordEntry.seq >= bindparam("since"))
            .order_by(col(RecordEntry.seq)))


@dataclass
class GameRows:
    """What `game_rows` read: the seats in table order, the sealed and standing orders, whether a
    rollback was ever made, and per address whether it is verified."""
    seats: list[Seat] = field(default_factory=list)
    sealed: list[SealedOrder] = field(default_factory=list)
    standing: list[StandingOrder] = field(default_factory=list)
    had_rollback: bool = True
    verified: dict[str, bool] = field(default_factory=dict)


def lock_game_row(s: Session, public_id: str, state: bool = True) -> tuple[Game, str | None] | None:
    """The game row, locked for this transaction, with the hash of its last record entry.
    `state=False`: the `state` column is read when first used."""
    found = s.exec(_GAME if state else _GAME_NO_STATE, params={"public_id": public_id}).first()
    return None if found is None else (found[0], found[1])


def game_rows(s: Session, game_id: int) -> GameRows:
    """The locked game's seats, sealed and standing orders (see the module doc): one statement,
    two when it has standing orders."""
    out = GameRows()
    has_standing = True  # a game without seats: read them
    seen: set[int] = set()
    for seat, sealed, had_rollback, standing, verified in s.exec(_SEATS, params={"game_id": game_id}):
        out.had_rollback, has_standing = had_rollback, standing
        if id(seat) not in seen:
            seen.add(id(seat))
            out.seats.append(seat)
            if seat.email:
                out.verified[seat.email] = verified
        if sealed is not None:
            out.sealed.append(sealed)
    out.sealed.sort(key=_row_id)
    out.standing = list(s.exec(_STANDING, params={"game_id": game_id})) if has_standing else []
    return out


def entries_since(s: Session, game_id: int, since: int) -> list[RecordEntry]:
    """The game's record entries from `since` on."""
    return list(s.exec(_ENTRIES, params={"game_id": game_id, "since": since}))


def _row_id(row: Any) -> int:
    return row.id or 0
