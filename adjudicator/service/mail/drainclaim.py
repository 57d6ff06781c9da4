"""Which of the oldest `new` inbox rows a PostgreSQL drain takes: the rows of the games it could
lock without waiting (issue 16).

Two drains that both took the oldest rows queued on the same game locks, so on PostgreSQL the
workers drained nearly one at a time. Here a drain locks games with FOR UPDATE SKIP LOCKED, one
game (or one mail's games) at a time and only as many as it needs to fill its chunk, and takes
the rows of the games it holds: a second drain skips those games and takes the rows of others.

Per-game order: a game's rows are taken in inbox id order and stop at its first row not taken
(`pick`), so a later mail for a game is never processed before an earlier one still `new`. A
mail naming several games is taken only with all of them held. SKIP LOCKED never waits, so
taking games out of their sorted order here cannot deadlock; the one wait (`wait_for`) happens
with no lock held, in sorted order, as every other writer locks games.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import bindparam, select
from sqlmodel import Session

from adjudicator.store import Game
from adjudicator.store.typed import table_of

_G = table_of(Game)
_TRY = (select(_G.c.public_id).where(_G.c.public_id.in_(bindparam("names", expanding=True)))
        .with_for_update(skip_locked=True))
_KNOWN = select(_G.c.public_id).where(_G.c.public_id.in_(bindparam("names", expanding=True)))
_WAIT = select(_G.c.id).where(_G.c.public_id == bindparam("name")).with_for_update()


def pick(order: Iterable[int], games: dict[int, list[str]], held: set[str],
         refused: set[str]) -> tuple[list[int], int | None]:
    """(the rows that can be taken with the games `held`, in id order; the first row not taken
    whose missing games were not `refused` yet: the next to claim games for). A game stops at its
    first row not taken; a row without games needs no game lock."""
    taken: list[int] = []
    stopped: set[str] = set()
    wanted: int | None = None
    for row in order:
        names = games[row]
        if stopped.intersection(names):
            stopped.update(names)
            continue
        if held.issuperset(names):
            taken.append(row)
            continue
        if wanted is None and not refused.intersection(names):
            wanted = row
        stopped.update(names)
    return taken, wanted


def claim(s: Session, order: list[int], games: dict[int, list[str]], limit: int,
          held: set[str]) -> tuple[list[int], set[str]]:
    """Lock games without waiting until `limit` rows can be taken or no row is left to claim for;
    `held` (games this transaction holds) grows. (The rows taken, the games refused: locked by
    another transaction.)"""
    refused: set[str] = set()
    while True:
        taken, wanted = pick(order, games, held, refused)
        if len(taken) >= limit or wanted is None:
            return taken[:limit], refused
        missing = sorted(set(games[wanted]) - held)
        got = set(s.connection().execute(_TRY, {"names": missing}).scalars())
        if len(got) < len(missing):  # locked elsewhere, or no such game (nothing to lock then)
            got |= set(missing) - set(s.connection().execute(_KNOWN, {"names": missing}).scalars())
        held |= got
        refused.update(set(missing) - got)


def wait_for(s: Session, names: Iterable[str]) -> set[str]:
    """Lock these games, waiting for each in sorted order (the caller holds no lock)."""
    for name in sorted(set(names)):
        s.connection().execute(_WAIT, {"name": name})
    return set(names)
