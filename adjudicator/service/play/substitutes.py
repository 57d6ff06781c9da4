"""The substitute's moves, played by a worker's task, never inside a request or a deadline
(issue 28, docs/bots.md).

A use case that leaves a seat in civil disorder (or held by the substitute) with a decision to
make does not think for it: `pace.settle` marks the game (`Game.substitute_at`) and returns a
("substitute", game, record length) task, enqueued after the commit. The task:

1. reads the game without a lock and, outside any transaction, lets the substitute choose for
   every seat it owes a move at this position (about half a second of CPU a decision: no lock is
   held meanwhile, so neither the game's players nor, on SQLite, any other writer wait for it);
2. locks the game and, if the record is still where it thought (same length, same last hash),
   applies those moves through `settle`, which plays on whatever else needs nobody and hands the
   next owed move to a new task (one decision per task: the seat pages show each move as it
   comes, and a burst of such games shares the workers fairly with everything else).

A deadline sweep's chunk does not enqueue its games' tasks (workers/tasks.py, sweep_games): in a
burst of a thousand games in civil disorder their thinking would come between the chunks and hold
up the adjudication of the others; the recovery sweep hands them on a short while later
(`grace`, a minute by default: nothing in correspondence play).

Safe to run twice: a task whose record length is not the game's any more does nothing (whoever
moved the game on enqueued its own task), and of two tasks thinking at once only the first to
lock applies its moves. The database is the queue of record: a lost task leaves `substitute_at`
set and the recovery sweep hands the game on again (recovery.py).
"""

from __future__ import annotations

import copy
import logging
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session

from adjudicator import store
from adjudicator.engine import GameModule, Order

from ..common import snapshot
from ..common.clock import utcnow
from ..common.core import find_game, last_hash, module_of
from ..common.snapshot import table_of
from ..common.types import Task
from . import outboxrows
from .pace import Chosen, owed_seats, settle, substitute_order

log = logging.getLogger(__name__)


def grace() -> timedelta:
    """How long a game may owe the substitute's move before the recovery sweep hands it on (again)."""
    return timedelta(seconds=float(os.environ.get("PBEM_SUBSTITUTE_GRACE_SECONDS", "60")))


@dataclass
class Position:
    """What the substitute thought about: the record's length and last hash, and its moves."""

    length: int
    hash: str
    moves: dict[str, tuple[Order, str]] = field(default_factory=dict)


def play_substitutes(game_id: str, record_length: int, now: datetime | None = None) -> list[Task]:
    """The task (module doc): read, think without a transaction, apply under the game's lock.
    Returns the next tasks."""
    found = store.run_in_transaction(lambda s: _owed_at(s, game_id, record_length), write=False)
    if found is None:
        return []
    position, game, state, seats = found
    for seat in seats:  # the search: CPU, no lock, no transaction open
        position.moves[seat] = substitute_order(game, state, seat, position.hash, game_id)
    return store.run_in_transaction(lambda s: apply_moves(s, game_id, position, now or utcnow()))


def _owed_at(s: Session, game_id: str, record_length: int) -> tuple[Position, GameModule, dict, list[str]] | None:
    g = find_game(s, game_id)
    if g.substitute_at is None or g.record_length != record_length or g.status != "running":
        return None  # nothing owed, or the game moved on since (its mover enqueued its own task)
    # no seat owed (a standing order answers it now...): the apply step's settle clears the mark
    seats = owed_seats(table_of(s, g))
    return Position(g.record_length, last_hash(s, g)), module_of(g), copy.deepcopy(g.state or {}), seats


def apply_moves(s: Session, game_id: str, position: Position, now: datetime) -> list[Task]:
    """Under the game's lock: the moves thought out at `position`, if the game is still there."""
    with outboxrows.batch(s) as mails:  # the human seat's "your move" mail, in one insert
        t = snapshot.open_table(s, game_id, entries=False)
        if t is None or t.game.status != "running" or t.game.substitute_at is None:
            return []
        g = t.game
        if g.record_length != position.length or last_hash(s, g) != position.hash:
            return []  # another task (or a player) moved the game on first
        chosen: Chosen = {seat: (position.length, order, origin) for seat, (order, origin) in position.moves.items()}
        return mails.write(s, settle(s, t, now, chosen=chosen))


def run_substitutes(tasks: list[Task], limit: int = 10_000, now: datetime | None = None) -> list[Task]:
    """Play the "substitute" tasks among `tasks` and those they lead to, here, one after another
    (a single-process tool, tests; `now`: the time they play at); returns the other tasks met on
    the way."""
    others: list[Task] = []
    queue = list(tasks)
    for _ in range(limit):
        if not queue:
            return others
        task = queue.pop(0)
        if task[0] == "substitute":
            queue += play_substitutes(task[1], task[2], now)
        else:
            others.append(task)
    raise RuntimeError("the substitute went on past the limit of moves")
