"""Who is speaking in a mail: the seat reply-address token decides; SIGNON <game> <seat>
<password> is the fallback. The From header never authenticates anything: it only decides whether
the registered address gets a notice. Every failure reads the same, whatever was wrong (no game,
no seat, wrong or replaced token), so a reply never tells which part of a guess was right."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from adjudicator.i18n import N_
from adjudicator.mail import addresses
from adjudicator.store import Game, Seat

from ..common import snapshot
from ..common.core import auth_seat
from ..common.errors import ServiceError
from ..common.tokens import MailKey, split_token

NOT_VALID = N_("this mail could not be matched to a seat: the reply address or the SIGNON line is not valid "
               "(a replaced player's address stops working). Reply to the latest mail of your game.")


@dataclass
class Speaker:
    game_id: str
    seat: str
    key: MailKey
    via: str  # "token", "password" or "press" (a reply to a press mail)
    registered: str  # the seat's registered address ("" if none)
    from_registered: bool
    press_to: str = ""  # via "press": the seat whose press this mail answers


def _check(s: Session, game_id: str, seat: str, key: MailKey) -> Seat | None:
    g = snapshot.locked(s, game_id) or s.exec(select(Game).where(Game.public_id == game_id)).first()
    if g is None:
        return None
    try:
        return auth_seat(s, g, seat, key)
    except ServiceError:
        return None


def identify(s: Session, recipients: list[str], signon: list[str] | None, from_addr: str) -> Speaker | None:
    sender = addresses.plain(from_addr)
    for game_id, seat, token in addresses.seat_addresses(recipients)[:5]:
        secret, asked_at = split_token(token)
        key = MailKey("reply", secret, asked_at=asked_at)
        row = _check(s, game_id, seat, key)
        if row is not None:
            return Speaker(game_id, seat, key, "token", row.email, bool(sender) and sender == row.email.lower())
        answer = _press_reply(s, game_id, seat, token)
        if answer is not None:
            row, key = answer
            return Speaker(game_id, seat, key, "press", row.email, bool(sender) and sender == row.email.lower(),
                           press_to=key.press_to)
    if signon and len(signon) == 3:
        game_id, seat, password = signon[0].lower(), signon[1].lower(), signon[2]
        key = MailKey("signon", password)
        row = _check(s, game_id, seat, key)
        if row is not None:
            return Speaker(game_id, seat, key, "password", row.email, bool(sender) and sender == row.email.lower())
    return None


def _press_reply(s: Session, game_id: str, seat: str, token: str) -> tuple[Seat, MailKey] | None:
    """The token of a press mail's Reply-To names the sender it answers: try each other seat."""
    g = s.exec(select(Game).where(Game.public_id == game_id)).first()
    if g is None:
        return None
    others = s.exec(select(Seat.seat).where(Seat.game_id == g.id, col(Seat.seat) != seat)
                    .order_by(col(Seat.position))).all()
    for sender in others[:64]:
        key = MailKey("press", token, sender)
        row = _check(s, game_id, seat, key)
        if row is not None:
            return row, key
    return None


def registered_seats(s: Session, address: str) -> list[tuple[Game, Seat]]:
    """Seats registered to this address (LIST, and where to send 'who are you?' help)."""
    address = addresses.plain(address)
    if not address:
        return []
    rows = s.exec(select(Game, Seat).join(Seat, col(Seat.game_id) == Game.id)
                  .where(Seat.email == address, col(Seat.seat_token_hash).is_not(None))
                  .order_by(col(Game.id))).all()
    return [(g, r) for g, r in rows]
