"""Which decision an order mail answers.

Every mail to a seat carries, in its reply address, the record's length when it was written
(`tokens.tagged_token`): the mail asks about the seat's decision open then. Orders sent to that
address answer that decision only. If an order of the seat has been applied since (its own, a
default at a deadline or in civil disorder, a standing order, a sealed order revealed), the
decision the mail asked about is closed: its order lines are not applied to the decision open
now, and the reply says what became of the old one. Standing-order lines (LATER, ALWAYS,
STANDING) answer no particular decision and are kept as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.engine import GameModule
from adjudicator.i18n import _
from adjudicator.store import Game, RecordEntry, Seat

from ..common.clock import format_deadline

PAGE = 200  # record entries read at a time while looking for the seat's next order


@dataclass(frozen=True)
class Answered:
    """What closed the decision a mail asked about. `seq` -1: the game was rolled back since."""

    seq: int
    at: datetime | None
    order: str
    how: str  # "own", "default", "standing" or "rolled back"


def answered_since(s: Session, g: Game, game: GameModule, seat: str, asked_at: int) -> Answered | None:
    """The first order of `seat` applied at or after record entry `asked_at` (None: none, the
    decision the mail asked about is still the one open, or the seat had none then)."""
    if asked_at == g.record_length:
        return None
    if asked_at > g.record_length:  # a rollback cut the record the mail was written against
        return Answered(-1, None, "", "rolled back")
    start = asked_at
    while start < g.record_length:
        rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.kind == "orders",
                                                RecordEntry.seq >= start)
                      .order_by(col(RecordEntry.seq)).limit(PAGE)).all()
        for row in rows:
            orders = row.data.get("orders") or {}
            if seat in orders:
                how = ("default" if seat in (row.data.get("defaulted") or [])
                       else "standing" if seat in (row.data.get("standing") or []) else "own")
                return Answered(row.seq, row.created_at, game.format_order(orders[seat]), how)
        if len(rows) < PAGE:
            return None
        start = rows[-1].seq + 1
    return None


def stale_text(g: Game, seat: Seat, answered: Answered) -> str:
    """Markdown for the reply: the mail's orders were not applied, and why."""
    zone = seat.timezone or g.timezone
    when = format_deadline(answered.at, zone)
    if answered.how == "rolled back":
        what = _("The moderator has rolled the game back since the mail you answered was written.")
    elif answered.how == "default":
        what = _("The decision that mail asked about was defaulted at %(when)s with `%(order)s` (its deadline had "
                 "passed).", when=when, order=answered.order)
    elif answered.how == "standing":
        what = _("The decision that mail asked about was answered at %(when)s by your standing order "
                 "`%(order)s`.", when=when, order=answered.order)
    else:
        what = _("You already answered the decision that mail asked about, at %(when)s, with `%(order)s`.",
                 when=when, order=answered.order)
    return "\n\n".join([
        "## " + _("Not applied: your mail answers an earlier decision"),
        _("You replied to an older mail of this game."),
        what,
        _("So the order lines of your mail were not applied to the decision open now (below): reply to this "
          "mail to answer it."),
    ])
