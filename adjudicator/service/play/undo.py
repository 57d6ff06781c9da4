"""A player takes back their own last steps (issue 25; which steps: undoable.py).

It is the moderator's rollback (rollback.py, `return_to`), written by the player: the record keeps
every entry and its `rollback` note says `"by": "seat"` and which seat, so `pbem verify` replays it
like any other. Unlike the moderator's, nobody else's wait starts afresh: the deadline stays (at
least the follow-up period), and a seat the game had begun waiting on is told the move is not
theirs after all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from adjudicator.i18n import _, language
from adjudicator.store import Game

from ..common.clock import utcnow
from ..common.core import auth_seat, locked_game, module_of, require_running, seats_of
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import table_of
from ..common.types import Task
from ..history.undoable import sealed_by_others, steps_to_take_back, why_not
from . import notify
from .pace import seat_spoke, settle
from .rollback import return_to

MAX_STEPS = 20  # steps one undo takes back at most (a page offers each of them)


@dataclass
class Undone:
    taken_back: list[str]  # the orders taken back, newest first, in the game's words
    tasks: list[Task] = field(default_factory=list)


def undo(s: Session, game_id: str, seat: str, seat_token: str, steps: int = 1,
         now: datetime | None = None) -> Undone:
    """Take back the seat's last `steps` steps; refused, with the reason, when the rules of
    undoable.py do not allow it (another seat acted, something hidden was revealed or drawn)."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    require_running(g)
    if not 1 <= steps <= MAX_STEPS:
        raise ServiceError(_("take back from 1 to %(most)s steps", most=MAX_STEPS))
    in_force, own = steps_to_take_back(s, g, seat)
    if not own:
        raise Conflict(_("Your last step cannot be taken back: %(reason)s.", reason=why_not(s, g, seat)))
    others = sealed_by_others(s, g, seat)
    if others:
        raise Conflict(_("Your last step cannot be taken back: %(reason)s.", reason=_(
            "%(seats)s sent a sealed order since, so your step stands", seats=", ".join(others))))
    if steps > len(own):
        raise Conflict(_("you may take back at most %(n)s steps now", n=len(own)))
    oldest = own[-steps]
    target = max(r.seq for r in in_force if r.seq < oldest.seq)
    run_from = g.undo_from
    game = module_of(g)
    taken = [game.format_order(r.data["orders"][seat]) for r in reversed(own[-steps:])]
    waited = set(g.waiting_on or []) - {seat}
    return_to(s, g, target, {"by": "seat", "seat": seat, "steps": steps}, now)
    if steps < len(own):  # the steps before the ones taken back may still be taken back
        g.undo_seat, g.undo_from = seat, run_from
    seat_spoke(s, g, row, now)
    tasks = settle(s, table_of(s, g), now, actors={seat})
    tasks += _not_your_move(s, g, waited - set(g.waiting_on or []), seat)
    return Undone(taken, tasks)


def _not_your_move(s: Session, g: Game, seats: set[str], by: str) -> list[Task]:
    """A short mail to seats the game had begun waiting on: the step that gave them the move is
    taken back, so there is nothing for them to do yet."""
    tasks: list[Task] = []
    title = g.title or module_of(g).info.title
    for row in seats_of(s, g):
        if row.seat not in seats:
            continue
        with language(notify.seat_language(g, row)):
            body = _("%(seat)s took back their last step in %(title)s (%(game)s), so you have nothing to decide "
                     "for now; you will get a mail when you do.\n\nGame page: %(url)s", seat=by, title=title,
                     game=g.public_id, url=notify.public_url(g))
            subject = _("[%(game)s] %(title)s: not your move yet", game=g.public_id, title=title)
        tasks += notify.to_seat(s, g, row, subject, body, "moderator")
    return tasks
