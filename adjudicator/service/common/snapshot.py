"""One locked game's rows, read once per transaction (the deadline sweep's snapshot).

A deadline used to read the game's seats, sealed orders, standing orders and the previous record
hash again and again (advance, waiting seats, defaults, settle, every mail's news): about 19 to
32 statements, and every read in between flushed the writes one by one. `load` reads them once,
in two to four statements that do not grow with the record; `core.seats_of`, `core.sealed_rows`,
`core.last_hash`, `pace` (standing orders) and the mails' news then answer from the snapshot for
the rest of the transaction, so the writes go out together at the end (one record insert, one
game update, one multi-row outbox insert).

A cached answer is never stale: rows added (`s.add`) or deleted (`s.delete`) in the session are
merged in when read, and merged into the snapshot when flushed; a rollback drops the snapshot.
Code that changes these tables behind the session's back (bulk UPDATE/DELETE) must not run while
a snapshot is loaded; none in the service does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlmodel import Session

from adjudicator.store import Game, RecordEntry, SealedOrder, Seat, StandingOrder, gamelock

from . import verified

KEY = "pbem_snapshot"
HASH_KEY = "pbem_last_hash"


@dataclass
class Snapshot:
    game_id: int
    game: Game | None = None  # the locked row itself (`locked`)
    # Seat (plain rows or ORM objects, see `seat_objects`), SealedOrder (plain rows), StandingOrder
    rows: dict[type, list[Any]] = field(default_factory=dict)
    entries: list[RecordEntry] = field(default_factory=list)  # record entries from `entries_from` on
    entries_from: int = 0
    undone: set[int] | None = None  # record indices a rollback undid ({} without one; None: not read yet)


def load(s: Session, public_id: str, entries: bool = True) -> Game | None:
    """Lock the game row and read everything a deadline needs (store/gamelock.py): the game with
    its last record hash, its seats with their sealed orders, its standing orders if it has any,
    and the record entries its seats have not been mailed yet. `entries=False` (an order): no
    record entries; a mail's news then reads its own (`entries_since` answers only for entries
    appended in the transaction), and the game's state is read when first used."""
    found = gamelock.lock_game_row(s, public_id, state=entries)
    if found is None:
        return None
    g, last = found
    if last is not None:
        remember_hash(s, g, last)
    # a deadline changes its seats (waits, missed deadlines, mails): ORM objects; an order's are
    # read as plain rows, and `seat_objects` turns them into ORM objects if a use case needs them
    read = gamelock.game_rows(s, g.id or 0, objects=entries)
    snap = Snapshot(g.id or 0, g, undone=None if read.had_rollback else set())
    snap.rows[Seat], snap.rows[SealedOrder], snap.rows[StandingOrder] = read.seats, read.sealed, read.standing
    verified.remember(s, read.verified)
    # a mail's news covers the entries after the seat's last mail: read those once for every seat
    mailed = [r.mailed_seq for r in read.seats if r.email or r.chat_webhook] if entries else []
    snap.entries_from = min(mailed, default=g.record_length)
    if entries:
        snap.entries = gamelock.entries_since(s, g.id or 0, snap.entries_from)
    s.info.setdefault(KEY, {})[snap.game_id] = snap
    return g


def locked(s: Session, public_id: str) -> Game | None:
    """The game row if this transaction holds it locked with a snapshot (no statement: an inbox
    drain reads the same game for every mail of its chunk)."""
    for snap in s.info.get(KEY, {}).values():
        if snap.game is not None and snap.game.public_id == public_id:
            return snap.game
    return None


def _snapshot(s: Session, g: Game) -> Snapshot | None:
    return s.info.get(KEY, {}).get(g.id)


def active(s: Session, g: Game | None) -> bool:
    """Whether this transaction works on `g` from a snapshot (the deadline sweep)."""
    return g is not None and _snapshot(s, g) is not None


def rows(s: Session, g: Game, kind: type) -> list[Any] | None:
    """The game's rows of `kind` as the session sees them now, or None without a snapshot."""
    snap = _snapshot(s, g)
    if snap is None or kind not in snap.rows:
        return None
    return _merged(s, snap, kind, snap.rows[kind])


def _merged(s: Session, snap: Snapshot, kind: type[Any], cached: list[Any]) -> list[Any]:
    """`cached` less the rows deleted in the session, plus the game's rows added to it."""
    if not s.new and not s.deleted:
        return list(cached)
    kept = [r for r in cached if r not in s.deleted]
    known = {id(r) for r in kept}
    return kept + [o for o in s.new if isinstance(o, kind) and o.game_id == snap.game_id and id(o) not in known]


def seat_objects(s: Session, g: Game) -> list[Seat] | None:
    """The game's seats as ORM objects, or None without a snapshot. An order's snapshot holds
    plain rows (gamelock.SeatRow): they are read again as ORM objects, with what was written by
    key since, and the snapshot holds those from then on."""
    snap = _snapshot(s, g)
    if snap is None or Seat not in snap.rows:
        return None
    cached = snap.rows[Seat]
    if any(isinstance(row, gamelock.SeatRow) for row in cached):
        snap.rows[Seat] = cached = gamelock.seat_objects(s, snap.game_id)
    return _merged(s, snap, Seat, cached)


def sealed_added(s: Session, g: Game, row: gamelock.SealedRow) -> None:
    """A sealed order was inserted by key (steps.seal)."""
    snap = _snapshot(s, g)
    if snap is not None and SealedOrder in snap.rows:
        snap.rows[SealedOrder].append(row)


def sealed_deleted(s: Session, g: Game, row: gamelock.SealedRow) -> None:
    """A sealed order was deleted by key (steps.apply_group)."""
    snap = _snapshot(s, g)
    if snap is not None and SealedOrder in snap.rows:
        snap.rows[SealedOrder] = [r for r in snap.rows[SealedOrder] if r is not row]


def entries_since(s: Session, g: Game, since: int) -> list[RecordEntry] | None:
    """Record entries from `since` on (the snapshot's and those appended since), or None when the
    snapshot does not reach back that far."""
    snap = _snapshot(s, g)
    if snap is None or since < snap.entries_from:
        return None
    return [e for e in snap.entries if e.seq >= since]


def undone(s: Session, g: Game, read: Callable[[], set[int]]) -> set[int]:
    """The record indices a rollback undid (`read()` once per snapshot; without one, every call)."""
    snap = _snapshot(s, g)
    if snap is None:
        return read()
    if snap.undone is None:
        snap.undone = read()
    return snap.undone


def appended(s: Session, g: Game, entry: RecordEntry) -> None:
    """A record entry was appended in this transaction (core.append_entry)."""
    remember_hash(s, g, entry.hash, length=entry.seq + 1)
    snap = _snapshot(s, g)
    if snap is not None:
        snap.entries.append(entry)


def remember_hash(s: Session, g: Game, value: str, length: int | None = None) -> None:
    s.info.setdefault(HASH_KEY, {})[g.id] = (g.record_length if length is None else length, value)


def known_hash(s: Session, g: Game) -> str | None:
    """The hash of the game's last record entry if this transaction has seen it."""
    length, value = s.info.get(HASH_KEY, {}).get(g.id, (None, ""))
    return value if length == g.record_length else None


@event.listens_for(Session, "after_flush")
def _merge_flushed(session: Session, _context: Any) -> None:
    """The session's new and deleted lists still hold what this flush wrote: merge it in."""
    for snap in session.info.get(KEY, {}).values():
        for kind, cached in snap.rows.items():
            snap.rows[kind] = _merged(session, snap, kind, cached)


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    """A savepoint released (SQLAlchemy reports it as a commit too) changes nothing the snapshot
    holds: only the end of the transaction drops it."""
    if not session.in_nested_transaction():
        _forget(session)


@event.listens_for(Session, "after_soft_rollback")
def _forget(session: Session, *_args: Any) -> None:
    session.info.pop(KEY, None)
    session.info.pop(HASH_KEY, None)
