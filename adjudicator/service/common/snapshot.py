"""The locked table: one game as a use case holds it, read once per transaction.

When a use case takes a game's lock (an order, a deadline, a reveal, an inbox drain's chunk) it
builds one `Table`: the game's row, its `GameModule`, its seats (rows), its sealed and standing
orders, and the open prompts of its state, each computed once. The order and deadline flows
(service/play) are handed the table and read these attributes; the prompts are refreshed when a
step is appended (`core.append_entry`), and the sealed rows when one is written by key.

Why: a deadline used to read the game's seats, sealed orders, standing orders and the previous
record hash again and again (advance, waiting seats, defaults, settle, every mail's news): about
19 to 32 statements, and every read in between flushed the writes one by one. `open_table` reads
them once, in two to four statements that do not grow with the record; the writes go out
together at the end (one record insert, one game update, one multi-row outbox insert).

A registered table is never stale: rows added (`s.add`) or deleted (`s.delete`) in the session are
merged in when read (`merged`), and merged into the table when flushed; a rollback drops it.
Code that changes these tables behind the session's back (bulk UPDATE/DELETE) must not run while
a table is loaded; none in the service does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlmodel import Session

from adjudicator.engine import GameModule, Prompt
from adjudicator.store import Game, RecordEntry, SealedOrder, Seat, StandingOrder, gamelock

from . import verified
from .prompts import current_prompts, module_of
from .tokens import mail_token

KEY = "pbem_snapshot"
HASH_KEY = "pbem_last_hash"


@dataclass(eq=False)
class Table:
    """One locked game (see the module doc). `rows`: Seat (plain `gamelock.SeatRow`s for an order,
    ORM objects otherwise, see `seat_objects`), SealedOrder (plain rows) and StandingOrder."""
    game_id: int
    game: Game
    public_id: str
    module: GameModule
    prompts: dict[str, Prompt]  # the open prompts of the game's state now (refreshed by `core.append_entry`)
    rows: dict[type, list[Any]] = field(default_factory=dict)
    entries: list[RecordEntry] = field(default_factory=list)  # record entries from `entries_from` on
    entries_from: int = 0
    undone: set[int] | None = None  # record indices a rollback undid ({} without one; None: not read yet)
    kept: bool = False  # kept for the transaction (`open_table`): written rows and entries are merged in
    # the reply-address token of each seat a deadline's table may mail, by (seat, its token hash): a
    # replaced seat's new hash finds none (`notify.seat_mails` derives it then)
    mail_tokens: dict[tuple[str, str], str] = field(default_factory=dict)


def open_table(s: Session, public_id: str, entries: bool = True) -> Table | None:
    """Lock the game row and read everything a deadline needs (`gamelock.read_locked`), kept as its
    table for the transaction (`keep`). `entries=False` (an order): no record entries nor reply
    tokens; a mail's news then reads its own (`entries_since` answers only for entries appended in
    the transaction), and the game's state is read when first used."""
    read = gamelock.read_locked(s, public_id, entries)
    return None if read is None else keep(s, read, mail=entries)


def keep(s: Session, read: gamelock.LockedGame, mail: bool = True) -> Table:
    """The table of a game the store has just locked and read (`gamelock.read_locked`), kept for the
    transaction; no statement. `mail` (a deadline's): with the reply tokens of the seats it may
    mail."""
    g = read.game
    if read.last_hash is not None:
        remember_hash(s, g, read.last_hash)
    # a deadline changes its seats (waits, missed deadlines, mails): ORM objects; an order's are
    # read as plain rows, and `seat_objects` turns them into ORM objects if a use case needs them
    t = _new_table(s, g, read.rows, kept=True)
    t.entries_from, t.entries = read.entries_from, read.entries
    if mail:
        t.mail_tokens = {(r.seat, r.seat_token_hash): mail_token(r.seat_token_hash, g.public_id, r.seat)
                         for r in read.rows.seats if r.seat_token_hash and (r.email or r.chat_webhook)}
    s.info.setdefault(KEY, {})[t.game_id] = t
    return t


def load(s: Session, public_id: str, entries: bool = True) -> Game | None:
    """`open_table`, answered with the game row."""
    t = open_table(s, public_id, entries)
    return None if t is None else t.game


def table_of(s: Session, g: Game) -> Table:
    """The table of a game this transaction has locked: the one loaded with the lock, else one read
    now (for the use cases that lock the row alone: a moderator's action, an undo). Such a table is
    not kept for the transaction: its caller hands it on."""
    t = _table(s, g)
    if t is not None:
        return t
    t = _new_table(s, g, gamelock.game_rows(s, g.id or 0, objects=True), kept=False)
    t.entries_from = g.record_length
    return t


def _new_table(s: Session, g: Game, read: gamelock.GameRows, kept: bool) -> Table:
    """A locked game's table of its rows as the store read them (store/gamelock.py)."""
    t = Table(g.id or 0, g, g.public_id, module_of(g), current_prompts(g),
              undone=None if read.had_rollback else set(), kept=kept)
    t.rows[Seat], t.rows[SealedOrder], t.rows[StandingOrder] = read.seats, read.sealed, read.standing
    verified.remember(s, read.verified)
    return t


def locked(s: Session, public_id: str) -> Game | None:
    """The game row if this transaction holds it locked with a snapshot (no statement: an inbox
    drain reads the same game for every mail of its chunk)."""
    t = locked_table(s, public_id)
    return None if t is None else t.game


def locked_table(s: Session, public_id: str) -> Table | None:
    """The table of `public_id` if this transaction holds it loaded."""
    for t in s.info.get(KEY, {}).values():
        if t.public_id == public_id:
            return t
    return None


def kept_table(s: Session, g: Game) -> Table | None:
    """The table of `g` this transaction keeps (`open_table`), if any."""
    return _table(s, g)


def _table(s: Session, g: Game) -> Table | None:
    return s.info.get(KEY, {}).get(g.id)


def active(s: Session, g: Game | None) -> bool:
    """Whether this transaction works on `g` from a snapshot (the deadline sweep)."""
    return g is not None and _table(s, g) is not None


def rows(s: Session, g: Game, kind: type) -> list[Any] | None:
    """The game's rows of `kind` as the session sees them now, or None without a snapshot."""
    snap = _table(s, g)
    if snap is None or kind not in snap.rows:
        return None
    return merged(s, snap.game_id, kind, snap.rows[kind])


def merged(s: Session, game_id: int, kind: type[Any], cached: list[Any]) -> list[Any]:
    """`cached` (rows of game `game_id`) less the rows deleted in the session, plus the game's rows
    of `kind` added to it."""
    if not s.new and not s.deleted:
        return list(cached)
    kept = [r for r in cached if r not in s.deleted]
    known = {id(r) for r in kept}
    return kept + [o for o in s.new if isinstance(o, kind) and o.game_id == game_id and id(o) not in known]


def seat_objects(s: Session, g: Game) -> list[Seat] | None:
    """The game's seats as ORM objects, or None without a loaded table (`table_seats`)."""
    t = _table(s, g)
    if t is None or Seat not in t.rows:
        return None
    return table_seats(s, t)


def table_seats(s: Session, t: Table) -> list[Seat]:
    """The table's seats as ORM objects. An order's table holds plain rows (gamelock.SeatRow): they
    are read again as ORM objects, with what was written by key since, and the table holds those
    from then on."""
    cached = t.rows[Seat]
    if any(isinstance(row, gamelock.SeatRow) for row in cached):
        t.rows[Seat] = cached = gamelock.seat_objects(s, t.game_id)
    return merged(s, t.game_id, Seat, cached)


def entries_since(s: Session, g: Game, since: int) -> list[RecordEntry] | None:
    """Record entries from `since` on (the snapshot's and those appended since), or None when the
    snapshot does not reach back that far."""
    snap = _table(s, g)
    if snap is None or since < snap.entries_from:
        return None
    return [e for e in snap.entries if e.seq >= since]


def undone(s: Session, g: Game, read: Callable[[], set[int]]) -> set[int]:
    """The record indices a rollback undid (`read()` once per snapshot; without one, every call)."""
    snap = _table(s, g)
    if snap is None:
        return read()
    if snap.undone is None:
        snap.undone = read()
    return snap.undone


def appended(s: Session, g: Game, entry: RecordEntry) -> None:
    """A record entry was appended in this transaction (core.append_entry)."""
    remember_hash(s, g, entry.hash, length=entry.seq + 1)
    snap = _table(s, g)
    if snap is not None:
        snap.entries.append(entry)
        snap.prompts = current_prompts(g)  # the new state's


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
            snap.rows[kind] = merged(session, snap.game_id, kind, cached)


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
