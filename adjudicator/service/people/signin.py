"""Signing in by e-mail, without passwords: a one-time link, signed (itsdangerous, under the server
key), expiring, and single use (a `sign_in_links` row). Opening it verifies the address once; the
address then takes lobby seats and signs up for tournaments.

Nothing here tells whether an address is known: asking for a link answers the same for every
address, and every address may sign in (its home is simply empty)."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from datetime import datetime, timedelta

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import update
from sqlmodel import Session, col, delete, func, select

from adjudicator.i18n import _
from adjudicator.mail import compose
from adjudicator.store import PlayerAccount, SignInLink

from ..common.clientnet import client_network
from ..common.clock import as_utc, utcnow
from ..common.errors import Forbidden, ServiceError
from ..common.serverkey import server_key
from ..common.types import Task
from ..common.verified import calendar_token, token_hash, verify_address
from ..play.notify import queue_mail

LINK_SECONDS = 30 * 60  # a link works for half an hour
LINKS_PER_ADDRESS_HOUR = 3  # more requests in the hour mail nothing (the page says the same)
# links in the hour past which an address that asked already in the hour gets no other: an address
# asking for the first time in the hour is never refused by it, so a flood cannot lock players out
LINKS_PER_SERVER_HOUR = int(os.environ.get("PBEM_SIGNIN_LINKS_PER_HOUR", "300"))
# one client network (IPv4 /24, IPv6 /56: clientnet.py) asking for links to many addresses; a club
# behind one router signs in a few dozen players at most in an hour
LINKS_PER_CLIENT_HOUR = int(os.environ.get("PBEM_SIGNIN_LINKS_PER_CLIENT_HOUR", "30"))
_SALT = "pbem-sign-in"
_ADDRESS = re.compile(r"[^@\s<>,;\"]{1,64}@[^@\s<>,;\"]{1,255}\.[^@\s<>,;\".]{2,63}")


class SignInRefused(Forbidden):
    """A sign-in link that cannot be used; `reason` is "expired", "used" or "invalid"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def normal_address(email: str) -> str:
    """The address as a player identity (lower case, no spaces), or a ServiceError that says what to
    type. Only the form is checked: whether anyone reads it is what the link finds out."""
    address = (email or "").strip().lower()
    if len(address) > 320 or not _ADDRESS.fullmatch(address):
        raise ServiceError(_("'%(address)s' is not an e-mail address; type one like name@example.org",
                             address=address[:80]))
    return address


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server_key(), salt=_SALT)


def _since(s: Session, column, value, after: datetime) -> int:
    query = select(func.count()).select_from(SignInLink).where(SignInLink.created_at >= after)
    if column is not None:
        query = query.where(column == value)
    return s.exec(query).one()


def client_tag(client: str) -> str:
    """A short keyed hash of the asking client's network (IPv4 /24, IPv6 /56: one attacker holds
    many addresses of one; the address itself is not stored). "" if unknown."""
    network = client_network(client)
    if not network:
        return ""
    return hmac.new(server_key().encode(), f"sign-in client {network}".encode(), hashlib.sha256).hexdigest()[:12]


def _over_bounds(s: Session, address: str, tag: str, hour_ago: datetime) -> bool:
    asked = _since(s, SignInLink.email, address, hour_ago)
    if asked >= LINKS_PER_ADDRESS_HOUR:
        return True
    if tag:
        # the network's tag prefixes the nonce of each link it asked for (no column of its own needed)
        from_client = (select(func.count()).select_from(SignInLink)
                       .where(SignInLink.created_at >= hour_ago, col(SignInLink.nonce).startswith(tag + ".")))
        if s.exec(from_client).one() >= LINKS_PER_CLIENT_HOUR:
            return True
    # the server-wide bound holds back only addresses that asked already: whatever others asked
    # for in the hour, a player's first request gets its link
    return asked > 0 and _since(s, None, None, hour_ago) >= LINKS_PER_SERVER_HOUR


def request_sign_in(s: Session, email: str, now: datetime | None = None, base_url: str = "",
                    client: str = "") -> list[Task]:
    """Mail a sign-in link to `email` (through the outbox). Past the hourly bounds (per address,
    per asking client, per server), nothing is mailed and nothing is said: the answer must not
    depend on the address. `base_url`: the site's address (default PBEM_BASE_URL); `client`: the
    asking IP address (web requests)."""
    now = now or utcnow()
    address = normal_address(email)
    tag = client_tag(client)
    if _over_bounds(s, address, tag, now - timedelta(hours=1)):
        return []
    # rows of links long expired are needed neither for single use (the signature's age refuses
    # them first) nor for the hourly bounds: the table stays small
    s.exec(delete(SignInLink).where(col(SignInLink.created_at) < now - timedelta(days=1)))
    nonce = (f"{tag}." if tag else "") + secrets.token_urlsafe(24)
    s.add(SignInLink(nonce=nonce, email=address, created_at=now))
    s.flush()
    token = _serializer().dumps(nonce)
    base = (base_url or os.environ.get("PBEM_BASE_URL", "")).rstrip("/")
    link = f"{base}/signin/{token}"
    minutes = LINK_SECONDS // 60
    body = "\n".join([
        _("Someone (we hope you) asked to sign in to this game server with this address."), "",
        _("Open this link within %(minutes)d minutes to sign in; it works once:", minutes=minutes), "",
        f"<{link}>", "",
        _("If you did not ask for it, ignore this mail: nothing happens without the link."),
    ])
    task = queue_mail(s, None, address, _("Your sign-in link"), body, kind="signin", **compose.headers(None))
    return [task] if task else []


def _link_row(s: Session, token: str, now: datetime) -> SignInLink:
    try:
        nonce, signed_at = _serializer().loads(token, max_age=LINK_SECONDS, return_timestamp=True)
    except SignatureExpired:
        raise SignInRefused("expired") from None
    except BadSignature:
        raise SignInRefused("invalid") from None
    row = s.exec(select(SignInLink).where(SignInLink.nonce == str(nonce))).first()
    if row is None:
        raise SignInRefused("invalid")
    if row.used_at is not None:
        raise SignInRefused("used")
    if now - max(as_utc(signed_at), as_utc(row.created_at)) > timedelta(seconds=LINK_SECONDS):
        raise SignInRefused("expired")
    return row


def check_sign_in(s: Session, token: str, now: datetime | None = None) -> None:
    """Refuse an expired, used or tampered link before the player presses the button (opening the
    link does not use it: mail scanners open links too)."""
    _link_row(s, token, now or utcnow())


def redeem_sign_in(s: Session, token: str, now: datetime | None = None) -> str:
    """Use the link: it never works again, even pressed in several browsers at once. Returns the
    verified address."""
    now = now or utcnow()
    row = _link_row(s, token, now)
    # one conditional update marks it used: of requests racing on one link, PostgreSQL lets the
    # first change the row and the others, waiting on its lock, find it used (SQLite writes one
    # at a time); the row read above may be stale, this cannot be
    taken = s.connection().execute(
        update(SignInLink).where(col(SignInLink.id) == row.id, col(SignInLink.used_at).is_(None))
        .values(used_at=now)).rowcount
    if taken != 1:
        raise SignInRefused("used")
    verify_address(s, row.email, now)  # the caller then sends what was held for it (release_held)
    return row.email


def session_generation(s: Session, email: str) -> int | None:
    """The generation a signed-in session of `email` must carry to count (None: no account)."""
    return s.exec(select(PlayerAccount.session_generation).where(PlayerAccount.email == email)).first()


def end_sessions(s: Session, email: str) -> None:
    """Sign out everywhere: every session cookie of the address, copies too, stops counting (its
    generation is left behind). One atomic update: two sign-outs at once both count."""
    s.connection().execute(update(PlayerAccount).where(col(PlayerAccount.email) == email)
                           .values(session_generation=PlayerAccount.session_generation + 1))


def account_of(s: Session, email: str) -> PlayerAccount:
    """The verified account of a signed-in address (refused if it never opened a link)."""
    account = s.exec(select(PlayerAccount).where(PlayerAccount.email == (email or "").strip().lower())).first()
    if account is None:
        raise Forbidden(_("sign in first: ask for a sign-in link with your e-mail address"))
    return account


def account_by_calendar(s: Session, token: str) -> PlayerAccount:
    account = s.exec(select(PlayerAccount).where(PlayerAccount.calendar_hash == token_hash(token or ""))).first()
    if account is None or not hmac.compare_digest(calendar_token(account.email).encode(), token.encode()):
        raise Forbidden(_("this calendar link is not valid"))
    return account
