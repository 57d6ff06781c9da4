"""Verified addresses: the `player_accounts` rows. An address is verified once its owner showed
they read it: a sign-in link opened, a confirmation link opened (and its button pressed), or a
mail sent from it carrying a seat's reply token (only ever mailed to that address).

Until then the server mails the address nothing written by another person (a game's title, a
player's name, press, a moderator's message): `notify` holds such mails (outbox status
`unconfirmed`) and sends instead, at most CONFIRM_REQUESTS_PER_DAY times a day, the fixed
confirmation request composed here. Confirming releases the held mails (docs/security.md,
"Confirmed addresses").
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import event
from sqlmodel import Session, col, func, select

from adjudicator.i18n import _
from adjudicator.store import OutboxMessage, PlayerAccount, Seat

from .clock import as_utc, utcnow
from .errors import Forbidden
from .serverkey import server_key
from .types import Task, written_id

HELD = "unconfirmed"  # the outbox status of a mail waiting for its address to be confirmed
CONFIRM_KIND = "confirm"  # the outbox kind of the confirmation request
CONFIRM_REQUESTS_PER_DAY = int(os.environ.get("PBEM_CONFIRM_REQUESTS_PER_DAY", "2"))
CONFIRM_SPACING = timedelta(hours=6)
CONFIRM_DAYS = 14  # a confirmation link works this long
_SALT = "pbem-confirm-address"
_CACHE = "pbem_verified"  # Session.info key: the addresses looked up in this transaction


def _normal(address: str) -> str:
    return (address or "").strip().lower()


def is_verified(s: Session, address: str, among: Iterable[str] = ()) -> bool:
    """Whether the address's owner has verified it. One query per transaction for the address and
    `among` (the other addresses the caller will ask about: a deadline mails every seat)."""
    address = _normal(address)
    known: dict[str, bool] = s.info.setdefault(_CACHE, {})
    if address not in known:
        asked = {address} | {_normal(a) for a in among if a and _normal(a) not in known}
        found = set(s.exec(select(PlayerAccount.email).where(col(PlayerAccount.email).in_(sorted(asked)))).all())
        known.update({a: a in found for a in asked})
    return bool(address) and known[address]


@event.listens_for(Session, "after_soft_rollback")
def _forget(session: Session, _previous: Any) -> None:
    """A rollback (a mail's savepoint too) may undo a verification: ask the database again."""
    session.info.pop(_CACHE, None)


def remember(s: Session, found: dict[str, bool]) -> None:
    """What the caller read already (a deadline's snapshot reads its seats' addresses' state)."""
    s.info.setdefault(_CACHE, {}).update({_normal(a): bool(v) for a, v in found.items()})


def calendar_token(email: str) -> str:
    """The secret of an address's calendar feed address: fixed for the address on this server."""
    return hmac.new(server_key().encode(), f"calendar|{email}".encode(), hashlib.sha256).hexdigest()[:32]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def verify_address(s: Session, address: str, now: datetime | None = None) -> None:
    """The owner showed they read `address`: its account exists from now on (`release_held` then
    sends what waited for it)."""
    address = _normal(address)
    if s.exec(select(PlayerAccount.id).where(PlayerAccount.email == address)).first() is None:
        s.add(PlayerAccount(email=address, verified_at=now or utcnow(),
                            calendar_hash=token_hash(calendar_token(address))))
        s.flush()
    s.info.setdefault(_CACHE, {})[address] = True


def release_held(s: Session, address: str) -> list[Task]:
    """Held mails of a verified address: a digest seat's go into its digest, the rest out."""
    address = _normal(address)
    if not is_verified(s, address):
        return []
    held = s.exec(select(OutboxMessage).where(OutboxMessage.status == HELD,
                                              func.lower(OutboxMessage.to) == address)
                  .order_by(col(OutboxMessage.id))).all()
    tasks: list[Task] = []
    for row in held:
        seat = s.exec(select(Seat.mail_mode).where(Seat.game_id == row.game_id, Seat.seat == row.seat)).first()
        row.status = "held" if seat == "digest" and row.kind != "reply" else "pending"
        s.add(row)
        if row.status == "pending":
            s.flush()
            tasks.append(("deliver", written_id(row.id)))
    return tasks


def requests_left(s: Session, address: str, now: datetime) -> bool:
    """Whether the address may get one more confirmation request now: at most
    CONFIRM_REQUESTS_PER_DAY in a day, CONFIRM_SPACING apart (joining and the game's first mail
    right after it ask once)."""
    sent = s.exec(select(OutboxMessage.created_at).where(
        OutboxMessage.to == _normal(address), OutboxMessage.kind == CONFIRM_KIND,
        OutboxMessage.created_at >= now - timedelta(days=1))).all()
    return len(sent) < CONFIRM_REQUESTS_PER_DAY and all(as_utc(at) < now - CONFIRM_SPACING for at in sent)


# the confirmation link ---------------------------------------------------------------------------

def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server_key(), salt=_SALT)


def confirm_link(address: str) -> str:
    base = os.environ.get("PBEM_BASE_URL", "").rstrip("/")
    return f"{base}/confirm/{_serializer().dumps(_normal(address))}"


def _address_of(token: str) -> str:
    try:
        return str(_serializer().loads(token, max_age=CONFIRM_DAYS * 24 * 3600))
    except SignatureExpired:
        raise Forbidden(_("this confirmation link has expired; the next mail of your game brings a new one")) from None
    except BadSignature:
        raise Forbidden(_("this confirmation link is not valid")) from None


def confirmed_address(s: Session, token: str) -> str:
    """The address a confirmation link names, or Forbidden (expired or not ours)."""
    return _address_of(token)


def confirm_by_link(s: Session, token: str, now: datetime | None = None) -> list[Task]:
    """The owner pressed the button of a confirmation link: verified, and its held mails go out."""
    address = _address_of(token)
    verify_address(s, address, now)
    return release_held(s, address)


def request_text(game_id: str, seat: str, address: str) -> tuple[str, str]:
    """(subject, Markdown body) of the confirmation request: the server's own words only (no title,
    no name, nothing another person wrote), in the caller's language."""
    body = "\n".join([
        _("Someone took seat %(seat)s of game %(game)s on this game server and gave this address for the "
          "seat's mail.", seat=seat, game=game_id), "",
        _("The server sends this address nothing written by other players until its owner confirms it. If it "
          "was you, open this link (it works for %(days)s days) and press its button:", days=CONFIRM_DAYS), "",
        f"<{confirm_link(address)}>", "",
        _("Or reply to this mail from this address: the reply confirms it too."), "",
        _("If it was not you, ignore this mail: this address gets at most %(count)s of these a day and "
          "nothing else.", count=CONFIRM_REQUESTS_PER_DAY),
    ])
    return _("Confirm your address for game %(game)s", game=game_id), body
