"""A seat's private notes: free text its player keeps on the seat page (plans, what an opponent
said). Only that seat's link reads or writes them; no other output carries them (not the public
pages, the record or its export, other seats' pages or mails). A replaced player's notes stay with
the player who wrote them: a seat's new player starts with none (the seat's generation)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from adjudicator.i18n import _
from adjudicator.store import Game, Seat, SeatNote
from adjudicator.store.typed import id_of

from ..common.clock import utcnow
from ..common.core import auth_seat, find_game
from ..common.errors import ServiceError

MAX_NOTES = 5_000  # characters: a page of plans, not a diary


def _row(s: Session, g: Game, seat: Seat) -> SeatNote | None:
    return s.exec(select(SeatNote).where(SeatNote.game_id == g.id, SeatNote.seat == seat.seat)).first()


def seat_notes(s: Session, game_id: str, seat: str, seat_token: str) -> str:
    """The seat's notes ("" when it has none, or they were its previous player's)."""
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    note = _row(s, g, row)
    return note.text if note is not None and note.generation == row.generation else ""


def save_notes(s: Session, game_id: str, seat: str, seat_token: str, text: str,
               now: datetime | None = None) -> None:
    """Replace the seat's notes; too long a text is refused whole (the page keeps it to shorten)."""
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    text = text.replace("\x00", "").replace("\r\n", "\n").strip()
    if len(text) > MAX_NOTES:
        raise ServiceError(_("Your notes hold at most %(max)s characters (these have %(count)s); shorten them "
                             "and save again.", max=MAX_NOTES, count=len(text)))
    note = _row(s, g, row)
    if note is None:
        note = SeatNote(game_id=id_of(g), seat=row.seat)
    note.text, note.generation, note.updated_at = text, row.generation, now or utcnow()
    s.add(note)
