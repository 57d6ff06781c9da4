"""Draining the inbox: every stored mail not yet processed, in arrival order, a chunk of rows per
transaction (issue 16).

One task per mail paid a broker message, a transaction and a commit (a disk sync on SQLite) for
each mail; a drain pays them once per chunk. Each row is still processed exactly as
`inbound.process` does it (the same function, under the same locks), in its own savepoint, so a
mail that fails is rolled back alone and the others of its chunk stay applied.

Safe to run twice at once: the games the chunk's mails name are locked first, then the rows,
re-read under their lock and skipped unless still `new` (FOR UPDATE SKIP LOCKED on PostgreSQL;
SQLite's BEGIN IMMEDIATE serialises the drains), as `inbound.process` does for one. On SQLite a
chunk is the oldest rows, their games locked in sorted order. On PostgreSQL a drain locks games
without waiting (drainclaim.py) and takes the oldest rows of the games it got, a game's rows in
arrival order: two workers' drains work on different games at once instead of queueing on the
same game locks; it waits (holding no game) only for the oldest mail's games, when it can take
nothing else or shares that mail's games with another drain.
Each row's savepoint is the one `inbound.process_locked` works in (mailunit.py): one per mail.
A row that failed outside the service's own error handling keeps `new` with its `last_error`:
drains pass it by and the recovery sweep hands it on by itself (recovery.py), so one bad row
cannot stall every drain.

On SQLite the worker's `drain` parses a chunk's mails before its write transaction (mailprep.py:
signals, MIME parse, commands), so the one write lock that the listener's commits and the
replies' delivery queue on is not held meanwhile; rows changed or stored in between are read and
parsed again under the lock, as before. Drains of all processes take turns on a file lock beside
the database, so two of them never parse the same mails. On PostgreSQL the parse stays in the
transaction (the drain holds only its own games meanwhile, so nobody waits for it).
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from adjudicator import store
from adjudicator.store import InboxMessage, is_transient
from adjudicator.store.typed import table_of

from ..common import snapshot
from ..common.clock import utcnow
from ..common.types import Task
from . import drainclaim, mailprep, mailunit
from .inbound import addressed_games, process_locked

log = logging.getLogger(__name__)

CHUNK = 25  # mails per transaction: the commit is shared, the write lock is not held for long


@dataclass
class Drained:
    tasks: list[Task] = field(default_factory=list)  # to enqueue after the commit
    processed: list[int] = field(default_factory=list)  # inbox ids handled by this chunk
    full: bool = False  # the chunk was full: more rows may be waiting


_T = table_of(InboxMessage)
# the columns mailprep reads, of the rows the next chunk takes (drain_chunk's first query)
_NEW = (core_select(_T.c.id, _T.c.raw, _T.c.source, _T.c.envelope_from, _T.c.peer, _T.c.envelope_to, _T.c.auth)
        .where(_T.c.status == "new", _T.c.last_error == "").order_by(_T.c.id).limit(bindparam("limit")))
# the same rows as ORM objects, under the write lock (SQLite's drain_chunk); built once, not per chunk
_NEW_ROWS = (select(InboxMessage).where(InboxMessage.status == "new", InboxMessage.last_error == "")
             .order_by(col(InboxMessage.id)).limit(bindparam("limit")))


def drain(limit: int = CHUNK) -> Drained:
    """One chunk in a transaction of its own (the worker's call; not inside a transaction). On a
    SQLite file its mails are parsed first, before the write lock (see the module doc)."""
    path = store.sqlite_file()
    if path is None:
        return store.run_in_transaction(lambda s: drain_chunk(s, limit))
    with _one_drain_at_a_time(path):
        rows = store.run_in_transaction(lambda s: _next_rows(s, limit), write=False)
        if not rows:
            # Nothing waits: no turn of the write lock. A row committed after this read asked for a
            # drain after its commit (workers/drainwake.py), which finds it. A third to a half of
            # the bench's drains found the rows taken by the other worker's drain.
            return Drained()
        prepared = _prepared(rows)
        return store.run_in_transaction(lambda s: drain_chunk(s, limit, prepared=prepared))


def prepare(s: Session, limit: int = CHUNK) -> dict[int, mailprep.Prepared]:
    """The next chunk's rows as mailprep prepares them, by row id (no write: no write lock)."""
    return _prepared(_next_rows(s, limit))


def _next_rows(s: Session, limit: int) -> Sequence[Any]:
    return s.connection().execute(_NEW, {"limit": limit}).all()


def _prepared(rows: Sequence[Any]) -> dict[int, mailprep.Prepared]:
    return {row.id: found for row in rows if (found := mailprep.prepare(row)) is not None}


@contextmanager
def _one_drain_at_a_time(path: str) -> Iterator[None]:
    """A file lock beside the database, held from a drain's parse to its commit: a second drain
    waits here, then reads the rows the first left (instead of parsing the same ones)."""
    fd = os.open(f"{path}-drain", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def drain_chunk(s: Session, limit: int = CHUNK, now: datetime | None = None,
                prepared: dict[int, mailprep.Prepared] | None = None) -> Drained:
    """Process up to `limit` of the oldest `new` rows in the caller's transaction. `prepared`:
    mailprep's work on some of them, done before; used only for a row it still matches. On
    PostgreSQL: the oldest rows of the games no other transaction holds (`_by_games`)."""
    now = now or utcnow()
    if s.get_bind().dialect.name != "sqlite":
        return _by_games(s, limit, now, prepared or {})
    found = s.exec(_NEW_ROWS, params={"limit": limit}).all()
    result = Drained(full=len(found) >= limit)
    if not found:
        return result
    ready = {row.id or 0: p for row in found
             if (p := (prepared or {}).get(row.id or 0)) is not None and p.key == mailprep.key_of(row)}
    games = {row.id or 0: ready[row.id].games if row.id in ready else addressed_games(row) for row in found}
    for game in sorted({g for names in games.values() for g in names}):
        snapshot.load(s, game)  # game rows first (locked), then the inbox rows (inbound.py's lock order)
    # the rows as read above: under BEGIN IMMEDIATE nothing else wrote them since (no re-read)
    _process(s, [r.id or 0 for r in found], games, ready, now, result, found)
    return result


WINDOW = 4  # a PostgreSQL drain looks this many chunks ahead for rows of games nobody holds


def _by_games(s: Session, limit: int, now: datetime, prepared: dict[int, mailprep.Prepared]) -> Drained:
    """PostgreSQL: lock games without waiting (drainclaim.py) and process the rows of the games
    got, so two drains work on different games at once. Only when none of the oldest rows can be
    taken, or the oldest mail's games were split with another drain (a mail naming several games),
    does the drain let go of its games and wait for the oldest mail's, in order: never starved."""
    window = s.connection().execute(_NEW, {"limit": limit * WINDOW}).all()
    if not window:
        return Drained()
    order = [row.id for row in window]
    ready, games = _games(window, prepared)
    claims = s.begin_nested()
    held: set[str] = set()
    taken, refused = drainclaim.claim(s, order, games, limit, held)
    head = set(games[order[0]])
    if order[0] not in taken and (not taken or (head & held and head & refused)):
        claims.rollback()  # lets go of every game claimed (and so waits holding none)
        held = drainclaim.wait_for(s, head)
        taken, _refused = drainclaim.claim(s, order, games, limit, held)
    else:
        claims.commit()  # a savepoint released: the locks stay
    result = Drained(full=len(taken) >= limit or len(taken) < len(order))
    for game in sorted({g for row in taken for g in games[row]}):
        snapshot.load(s, game)  # held already: the snapshot, without a wait
    if _process(s, taken, games, ready, now, result):
        result.full = True  # a game's later rows were left: drain again
    return result


# The games of the last window's rows, by row id, with the row's inputs they were read from (and a
# gameless row's preparation): the next chunk's window is mostly the same rows (reading a mail's
# headers again cost ~2 ms a chunk)
_seen: dict[int, tuple[tuple[Any, ...], list[str], mailprep.Prepared | None]] = {}


def _games(window: Sequence[Any], prepared: dict[int, mailprep.Prepared]) -> tuple[dict[int, mailprep.Prepared],
                                                                            dict[int, list[str]]]:
    """(the preparations that match their rows; every row's games). A mail that names no game by
    its addresses is parsed here: a SIGNON in its body names the game it acts on, to be locked
    like the others, so it keeps its place among that game's mails."""
    global _seen
    seen = _seen
    found: dict[int, tuple[tuple[Any, ...], list[str], mailprep.Prepared | None]] = {}
    for row in window:
        key = mailprep.key_of(row)
        if (p := prepared.get(row.id)) is not None and p.key == key:
            found[row.id] = (key, p.games or mailprep.signon_games(p), p)
        elif (hit := seen.get(row.id)) is not None and hit[0] == key:
            found[row.id] = hit
        elif names := mailprep.games_of(bytes(row.raw), list(row.envelope_to or [])):
            found[row.id] = (key, names, None)
        else:
            p = mailprep.prepare(row)
            found[row.id] = (key, mailprep.signon_games(p) if p is not None else [], p)
    _seen = found
    ready = {row_id: p for row_id, (_key, _names, p) in found.items() if p is not None}
    return ready, {row_id: names for row_id, (_key, names, _p) in found.items()}


def _process(s: Session, ids: list[int], games: dict[int, list[str]], ready: dict[int, mailprep.Prepared],
             now: datetime, result: Drained, read: Sequence[InboxMessage] | None = None) -> bool:
    """The rows `ids`, their games locked: each locked in turn (SKIP LOCKED), re-read, and
    processed if still `new`, in its own unit. A row locked elsewhere (the recovery sweep, which
    hands it on itself; or a gameless row another drain has) is passed by, and stops its games'
    later rows, so a game's mails stay in arrival order. Whether rows of a game were left.
    `read`: the rows, read already in this write transaction on SQLite (nothing to lock there)."""
    rows = read if read is not None else (
        s.exec(select(InboxMessage).where(col(InboxMessage.id).in_(ids))
               .order_by(col(InboxMessage.id)).with_for_update(skip_locked=True)
               .execution_options(populate_existing=True)).all())
    by_id = {row.id: row for row in rows}
    with mailunit.rows_together(s):  # the rows' UPDATEs as one statement, after the chunk's last mail
        return _each(s, ids, by_id, games, ready, now, result)


def _each(s: Session, ids: list[int], by_id: dict[int | None, InboxMessage], games: dict[int, list[str]],
          ready: dict[int, mailprep.Prepared], now: datetime, result: Drained) -> bool:
    stopped: set[str] = set()
    for row_id in ids:
        row, names = by_id.get(row_id), games.get(row_id, [])
        if row is None or stopped.intersection(names):
            stopped.update(names)
            continue
        if row.status != "new":  # processed meanwhile by another drain
            continue
        for game in names:
            if snapshot.locked(s, game) is None:  # a rollback (a mail's failed command) dropped it
                snapshot.load(s, game)
        try:
            with mailunit.unit(s, row.id):  # the mail's one savepoint: process_locked takes it
                result.tasks += process_locked(s, row, now, ready.get(row_id))
        except Exception as exc:
            if is_transient(exc):  # a deadlock or a lost connection: the caller runs the chunk again
                raise
            log.exception("inbound message %s failed in a drain; left to the recovery sweep", row.message_id)
            mailunit.note_error(s, row, f"{type(exc).__name__}: {exc}")
        result.processed.append(row_id)
    return bool(stopped)
