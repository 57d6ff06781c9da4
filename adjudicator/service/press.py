"""Press: private and broadcast messages between seats, by mail and the web.

Stored with the game; while it runs a message is visible only to its sender and recipients. When
the game is over, broadcasts are public and private press too if the game's `publish_press` is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from adjudicator.store import Game, Press, Seat

from . import notify
from .clock import as_utc, utcnow
from .core import auth_seat, find_game, locked_game, module_of, seats_of
from .errors import Conflict, ServiceError
from .tokens import MailKey
from .types import Task

MAX_PRESS = 10_000


@dataclass
class PressLine:
    sender: str
    recipients: list[str]
    broadcast: bool
    body: str
    created_at: datetime
    id: int = 0
    new: bool = False  # to this seat, and newer than what it has seen on its pages


def send_press(s: Session, game_id: str, seat: str, seat_token: str | MailKey, to: list[str], text: str,
               via: str = "web", now: datetime | None = None) -> list[Task]:
    """`to`: seat names, or ["all"] for every other seat."""
    from .pace import seat_spoke

    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    if g.status == "finished":
        raise Conflict(f"game {game_id} is over; press is closed")
    seat_spoke(s, g, row, now)
    text = text.strip()
    if not text:
        raise ServiceError("the press message is empty")
    if len(text) > MAX_PRESS:
        raise ServiceError(f"a press message holds at most {MAX_PRESS} characters")
    seats = {r.seat: r for r in seats_of(s, g)}
    wanted = [t.strip().lower() for t in to if t.strip()]
    broadcast = wanted == ["all"]
    if broadcast:
        recipients = [x for x in seats if x != seat]
    else:
        unknown = [t for t in wanted if t not in seats]
        if unknown or not wanted:
            raise ServiceError(f"no seat {', '.join(unknown) or '(none given)'}; the seats are "
                               f"{', '.join(seats)} (or ALL)")
        recipients = [x for x in seats if x in wanted and x != seat]
        if not recipients:
            raise ServiceError("a press message needs at least one other seat")
    s.add(Press(game_id=g.id, sender=seat, recipients=recipients, broadcast=broadcast, body=text, via=via,
                created_at=now or utcnow()))
    title = g.title or module_of(g).info.title
    kind = "to everybody" if broadcast else "to " + ", ".join(recipients)
    tasks: list[Task] = []
    for name in recipients:
        row = seats[name]
        body = "\n".join([
            f"# Press in {title} ({g.public_id})", "", f"From **{seat}** ({kind}):", "", text, "",
            f"To answer {seat} alone, reply to this mail: everything you write (above the quoted text, up to "
            f"SIGNOFF) goes to {seat} as press, and **nothing in it is read as an order or command**. "
            f"Orders go to your reply address {notify.reply_address(g, row)}; there `PRESS TO {seat}` ... "
            "`ENDPRESS` works too.",
        ])
        tasks += notify.to_seat(s, g, row, f"[{g.public_id}] press from {seat}", body, "press",
                                reply_to=notify.press_reply_address(g, row, seat))
    return tasks


def _lines(rows: list[Press], reader: Seat | None = None) -> list[PressLine]:
    return [PressLine(r.sender, list(r.recipients), r.broadcast, r.body, as_utc(r.created_at), r.id or 0,  # type: ignore[arg-type]
                      new=reader is not None and r.sender != reader.seat and (r.id or 0) > reader.press_read_id)
            for r in rows]


def _rows(s: Session, g: Game) -> list[Press]:
    return list(s.exec(select(Press).where(Press.game_id == g.id).order_by(Press.id)).all())


def press_for(s: Session, game_id: str, seat: str, seat_token: str | MailKey) -> list[PressLine]:
    """The press a seat sent or received."""
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    return _lines([r for r in _rows(s, g) if r.sender == seat or seat in r.recipients], row)


def mark_press_read(s: Session, game_id: str, seat: str, seat_token: str | MailKey, upto: int) -> None:
    """The seat has seen its press up to `upto` (a press id) on its page; it no longer counts as new."""
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    if upto > row.press_read_id:
        row.press_read_id = upto
        s.add(row)


def public_press(s: Session, game_id: str) -> list[PressLine]:
    """Nothing while the game runs; at the end broadcasts, and private press if the game says so."""
    g = find_game(s, game_id)
    if g.status != "finished":
        return []
    return _lines([r for r in _rows(s, g) if r.broadcast or g.publish_press])
