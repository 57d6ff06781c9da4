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

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import and_, bindparam, exists, func
from sqlalchemy.orm import defer
from sqlmodel import Session, SQLModel, col, select

from adjudicator.record import ROLLBACK

from .accounts import PlayerAccount
from .models import Game, ModeratorAction, RecordEntry, SealedOrder, Seat, StandingOrder
from .typed import table_of

# Built once: composing them cost about a fifth of a locked read, and every order reads one.
_GAME = (select(Game, select(RecordEntry.hash)
                .where(RecordEntry.game_id == Game.id, RecordEntry.seq == Game.record_length - 1)
                .scalar_subquery())
         .where(Game.public_id == bindparam("public_id")).with_for_update(of=Game))
# An order's: the state is left to its first use (a step applied, prompts not cached yet); the
# prompts are cached by the state's hash, so a sealed order's replacement never decodes it
_GAME_NO_STATE = _GAME.options(defer(Game.state))  # type: ignore[arg-type]  # sqlmodel types it as Mapped


@dataclass(slots=True, eq=False)
class SeatRow:
    """A seat as an order reads it: the columns its checks and bookkeeping use, as a plain object.
    An ORM object of a seat costs more than the statement that reads it (four seats: about 90 µs a
    POST); `core.seats_of` builds the ORM objects when a use case needs to change a seat in ways
    `store.update_row` does not write (a new wait, its mail). Compared by identity, like ORM rows."""
    id: int
    game_id: int
    seat: str
    position: int
    email: str
    chat_webhook: str
    seat_token_hash: str | None
    missed: int
    disorder: bool
    resigned: bool
    mailed_seq: int
    acted_at: datetime | None
    model: ClassVar[type[SQLModel]] = Seat


@dataclass(slots=True, eq=False)
class SealedRow:
    """A sealed order's row, plain: sealed orders are read, replaced, inserted and deleted by key
    (`update_row`, `insert_row`, `delete_row`), never through ORM objects."""
    id: int
    game_id: int
    group: str
    seat: str
    order: Any
    salt: str
    commitment: str
    submitted_at: datetime
    origin: str
    model: ClassVar[type[SQLModel]] = SealedOrder


_seats, _sealed = table_of(Seat), table_of(SealedOrder)
_SEAT_COLUMNS = [_seats.c[f.name] for f in fields(SeatRow)]
_SEALED_FIELDS = [f.name for f in fields(SealedRow)]
_SEALED_COLUMNS = [_sealed.c[name].label(f"sealed_{name}") for name in _SEALED_FIELDS]
# The seats, each with its sealed orders (a sealed row names one of the game's seats), whether the
# game has a rollback and standing orders at all (most have neither: no statement for them), and
# per seat whether its address is verified (every mail of a deadline asks). One round trip. Two
# shapes: the seats as plain rows (an order's) or as ORM objects (a deadline's, which writes them)
_FLAGS = [exists().where(col(ModeratorAction.game_id) == bindparam("game_id"), col(ModeratorAction.action) == ROLLBACK),
          exists().where(col(StandingOrder.game_id) == bindparam("game_id")),
          exists().where(col(PlayerAccount.email) == func.lower(Seat.email))]
_JOIN = and_(_sealed.c.game_id == _seats.c.game_id, _sealed.c.seat == _seats.c.seat)
_SEAT_ROWS = (select(*_SEAT_COLUMNS, *_SEALED_COLUMNS, *_FLAGS)
              .select_from(_seats.outerjoin(_sealed, _JOIN))
              .where(_seats.c.game_id == bindparam("game_id")).order_by(_seats.c.position, _sealed.c.id))
_SEAT_OBJECTS = (select(Seat, *_SEALED_COLUMNS, *_FLAGS)
                 .outerjoin(_sealed, _JOIN)
                 .where(Seat.game_id == bindparam("game_id")).order_by(col(Seat.position), _sealed.c.id))
_SEATS_ONLY = (select(Seat).where(Seat.game_id == bindparam("game_id")).order_by(col(Seat.position))
               .execution_options(populate_existing=True))
_SEALED = (select(*_SEALED_COLUMNS).where(_sealed.c.game_id == bindparam("game_id"))
           .order_by(_sealed.c.id))
_STANDING = (select(StandingOrder).where(StandingOrder.game_id == bindparam("game_id"))
             .order_by(col(StandingOrder.id)))
_ENTRIES = (select(RecordEntry)
            .where(RecordEntry.game_id == bindparam("game_id"), RecordEntry.seq >= bindparam("since"))
            .order_by(col(RecordEntry.seq)))


@dataclass
class GameRows:
    """What `game_rows` read: the seats in table order, the sealed and standing orders, whether a
    rollback was ever made, and per address whether it is verified."""
    seats: list[SeatRow] | list[Seat] = field(default_factory=list)
    sealed: list[SealedRow] = field(default_factory=list)
    standing: list[StandingOrder] = field(default_factory=list)
    had_rollback: bool = True
    verified: dict[str, bool] = field(default_factory=dict)


def lock_game_row(s: Session, public_id: str, state: bool = True) -> tuple[Game, str | None] | None:
    """The game row, locked for this transaction, with the hash of its last record entry.
    `state=False`: the `state` column is read when first used."""
    found = s.exec(_GAME if state else _GAME_NO_STATE, params={"public_id": public_id}).first()
    return None if found is None else (found[0], found[1])


def game_rows(s: Session, game_id: int, objects: bool = False) -> GameRows:
    """The locked game's seats, sealed and standing orders (see the module doc): one statement,
    two when it has standing orders. `objects`: the seats as ORM objects, else as `SeatRow`s."""
    out = GameRows()
    has_standing = True  # a game without seats: read them
    seats: list[Any] = []
    seen: set[int] = set()
    params = {"game_id": game_id}
    found: Iterable[Any] = (s.exec(_SEAT_OBJECTS, params=params) if objects
                            else s.connection().execute(_SEAT_ROWS, params))
    for row in found:
        if objects:
            seat = row[0]
            sealed = row[1:1 + len(_SEALED_FIELDS)]
        else:
            seat = SeatRow(*row[:len(_SEAT_COLUMNS)])
            sealed = row[len(_SEAT_COLUMNS):len(_SEAT_COLUMNS) + len(_SEALED_FIELDS)]
        out.had_rollback, has_standing, verified = row[-3:]
        if seat.id not in seen:
            seen.add(seat.id)
            seats.append(seat)
            if seat.email:
                out.verified[seat.email] = verified
        if sealed[0] is not None:
            out.sealed.append(SealedRow(*sealed))
    out.seats = seats
    out.sealed.sort(key=_row_id)
    out.standing = list(s.exec(_STANDING, params={"game_id": game_id})) if has_standing else []
    return out


def seat_objects(s: Session, game_id: int) -> list[Seat]:
    """The game's seats as ORM objects, in table order, holding the database's values (those
    written by key included)."""
    return list(s.exec(_SEATS_ONLY, params={"game_id": game_id}))


def sealed_of(s: Session, game_id: int) -> list[SealedRow]:
    """The game's sealed orders, oldest first."""
    return [SealedRow(*row) for row in s.connection().execute(_SEALED, {"game_id": game_id})]


@dataclass
class LockedGame:
    """What `read_locked` read under the lock: the game row, the hash of its last record entry, its
    rows (`game_rows`) and, for a deadline, the record entries from `entries_from` on."""
    game: Game
    last_hash: str | None
    rows: GameRows
    entries_from: int
    entries: list[RecordEntry] = field(default_factory=list)


def read_locked(s: Session, public_id: str, entries: bool = True) -> LockedGame | None:
    """The game row locked for this transaction and everything a use case reads of it, in two to
    four statements (the module doc): the row with its last record hash (`lock_game_row`), its
    seats, sealed and standing orders (`game_rows`: ORM seats for a deadline, which writes them)
    and, for a deadline (`entries`), the record entries not mailed yet to every seat that gets
    mail (a mail's news covers the entries after the seat's last mail). An order (`entries=False`)
    leaves the state column to its first use and reads no entries."""
    found = lock_game_row(s, public_id, state=entries)
    if found is None:
        return None
    g, last = found
    rows = game_rows(s, g.id or 0, objects=entries)
    mailed = [r.mailed_seq for r in rows.seats if r.email or r.chat_webhook] if entries else []
    read = LockedGame(g, last, rows, min(mailed, default=g.record_length))
    if entries and read.entries_from < g.record_length:  # else every seat was mailed since the last entry
        read.entries = entries_since(s, g.id or 0, read.entries_from)
    return read


def entries_since(s: Session, game_id: int, since: int) -> list[RecordEntry]:
    """The game's record entries from `since` on."""
    return list(s.exec(_ENTRIES, params={"game_id": game_id, "since": since}))


def _row_id(row: Any) -> int:
    return row.id or 0
