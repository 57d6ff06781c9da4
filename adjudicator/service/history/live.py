"""What makes an open page out of date: a short version string per audience, cheap enough for a
page to ask every few seconds (issue 25, live pages).

The public version changes with the record (every move, note and rollback), the sealed orders
received (their receipts are public), the status and the deadline. A seat's version adds the newest
press it sent or received, and nothing of other seats: two seats' versions differ only by their own
press, so a version never tells one seat what another does in private.
"""

from __future__ import annotations

from sqlmodel import Session, col, func, select

from adjudicator.store import Game, Press, SealedOrder, Seat

from ..common.clock import as_utc
from ..common.core import auth_seat, find_game


def public_version(s: Session, g: Game) -> str:
    sealed = s.exec(select(func.count(col(SealedOrder.id))).where(SealedOrder.game_id == g.id)).one()
    due = as_utc(g.due_at)
    thinking = "t" if g.substitute_at is not None else ""  # the substitute's move is on its way
    return f"{g.record_length}.{sealed}.{g.status}.{int(due.timestamp()) if due else 0}{thinking}"


def own_press_mark(s: Session, g: Game, row: Seat) -> int:
    """The newest press the seat sent or received; only press newer than what it has seen is read."""
    newer = s.exec(select(Press.id, Press.sender, Press.recipients).where(
        col(Press.game_id) == g.id, col(Press.id) > row.press_read_id)).all()
    mine = [pid or 0 for pid, sender, recipients in newer if sender == row.seat or row.seat in (recipients or [])]
    return max(mine, default=row.press_read_id)


def seat_version_of(s: Session, g: Game, row: Seat) -> str:
    return f"{public_version(s, g)}.{own_press_mark(s, g, row)}"


def game_version(s: Session, game_id: str) -> str:
    """The public page's version (anybody who knows the game's id)."""
    return public_version(s, find_game(s, game_id))


def seat_version(s: Session, game_id: str, seat: str, seat_token: str) -> str:
    """The seat page's version; needs the seat's link, as the page does."""
    g = find_game(s, game_id)
    return seat_version_of(s, g, auth_seat(s, g, seat, seat_token))
