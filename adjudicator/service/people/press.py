"""Press: private and broadcast messages between seats, by mail and the web.

Stored with the game; while it runs a message is visible only to its sender and recipients. When
the game is over, broadcasts are public and private press too if the game's `publish_press` is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.i18n import _, language
from adjudicator.render.usertext import mail_html, user_text_html
from adjudicator.store import Game, Press, Seat
from adjudicator.store.typed import id_of

from ..common.clock import as_utc, utcnow
from ..common.core import auth_seat, find_game, locked_game, module_of, seats_of
from ..common.errors import Conflict, ServiceError
from ..common.tokens import MailKey
from ..common.types import Task
from ..play import notify
from ..play.pace import seat_spoke
from .pressbounds import check_press

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
    html: str = ""  # the body's sanitised HTML, as stored when sent


def send_press(s: Session, game_id: str, seat: str, seat_token: str | MailKey, to: list[str], text: str,
               via: str = "web", now: datetime | None = None) -> list[Task]:
    """`to`: seat names, or ["all"] for every other seat."""
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    if g.status == "finished":
        raise Conflict(_("game %(game)s is over; press is closed", game=game_id))
    seat_spoke(s, g, row, now)
    text = text.strip()
    if not text:
        raise ServiceError(_("the press message is empty"))
    if len(text) > MAX_PRESS:
        raise ServiceError(_("a press message holds at most %(max)s characters", max=MAX_PRESS))
    seats = {r.seat: r for r in seats_of(s, g)}
    wanted = [t.strip().lower() for t in to if t.strip()]
    broadcast = wanted == ["all"]
    if broadcast:
        recipients = [x for x in seats if x != seat]
    else:
        unknown = [t for t in wanted if t not in seats]
        if unknown or not wanted:
            raise ServiceError(_("no seat %(unknown)s; the seats are %(seats)s (or ALL)",
                                 unknown=", ".join(unknown) or _("(none given)"), seats=", ".join(seats)))
        recipients = [x for x in seats if x in wanted and x != seat]
        if not recipients:
            raise ServiceError(_("a press message needs at least one other seat"))
    now = now or utcnow()
    check_press(s, g, seat, recipients, now, notify.seat_timezone(g, row))
    html = user_text_html(text)  # rendered once, within a bounded time; pages and mails use it as stored
    s.add(Press(game_id=id_of(g), sender=seat, recipients=recipients, broadcast=broadcast, body=text, html=html,
                via=via, created_at=now))
    title = g.title or module_of(g).info.title
    tasks: list[Task] = []
    for name in recipients:
        row = seats[name]
        with language(notify.seat_language(g, row)):  # each recipient reads it in their own language
            kind = _("to everybody") if broadcast else _("to %(seats)s", seats=", ".join(recipients))
            head = "\n".join(["# " + _("Press in %(title)s (%(game)s)", title=title, game=g.public_id), "",
                              _("From **%(seat)s** (%(kind)s):", seat=seat, kind=kind)])
            tail = _("To answer %(seat)s alone, reply to this mail: everything you write (above the quoted text, up "
                     "to SIGNOFF) goes to %(seat)s as press, and **nothing in it is read as an order or command**. "
                     "Orders go to your reply address %(address)s; there `PRESS TO %(seat)s` ... `ENDPRESS` works "
                     "too.", seat=seat, address=notify.reply_address(g, row))
            subject = _("[%(game)s] press from %(seat)s", game=g.public_id, seat=seat)
        tasks += notify.to_seat(s, g, row, subject, "\n".join([head, "", text, "", tail]), "press",
                                reply_to=notify.press_reply_address(g, row, seat), html=mail_html(head, html, tail))
    return tasks


def _lines(rows: list[Press], reader: Seat | None = None) -> list[PressLine]:
    return [PressLine(r.sender, list(r.recipients), r.broadcast, r.body, as_utc(r.created_at), r.id or 0,
                      new=reader is not None and r.sender != reader.seat and (r.id or 0) > reader.press_read_id,
                      html=r.html if r.html is not None else user_text_html(r.body))  # older rows: rendered now
            for r in rows]


def _rows(s: Session, g: Game) -> list[Press]:
    return list(s.exec(select(Press).where(Press.game_id == g.id).order_by(col(Press.id))).all())


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
