"""Cheap checks of the mail intake that come before any costly work on a body.

`addressed_to_seat` reads only the header block (already capped) and the SMTP envelope and checks
the recipient tokens (one HMAC each): a mail that carries a seat's reply token may get the careful
HTML conversion; anything else (a stranger, a SIGNON fallback) only the linear one.
"""

from __future__ import annotations

import hashlib
import logging
import os
from datetime import datetime, timedelta

from sqlmodel import Session, col, func, select

from adjudicator.i18n import _
from adjudicator.mail import addresses
from adjudicator.mail.body import Command
from adjudicator.mail.parse import ParsedMail, headers_only
from adjudicator.store import InboxMessage, OutboxMessage

from ..people.mailauth import Speaker, identify

log = logging.getLogger(__name__)

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")


def addressed_to_seat(s: Session, raw: bytes, envelope_to: list[str]) -> Speaker | None:
    """The seat whose reply token the headers or the envelope carry (None: no valid token). The
    token decides who speaks, so the caller may take this speaker for the whole mail."""
    try:
        msg = headers_only(raw)
        recipients = [" ".join(str(v).split()) for n in RECIPIENT_HEADERS for v in (msg.get_all(n) or [])][:20]
        sender = str(msg.get("From") or "")
    except Exception:  # headers the tolerant parser rejects carry no token we can read
        return None
    return identify(s, recipients + list(envelope_to), None, sender)


def structure_error(mail: ParsedMail) -> list[Command]:
    """The one command of a mail whose body was not read: an error the reply explains."""
    return [Command("error", line="(your mail)", text=mail.problem)]


def note_duplicate(s: Session, message_id: str, raw: bytes) -> None:
    """A Message-ID we stored already: the same bytes again are a plain duplicate (delivered twice);
    different bytes are a reused or forged Message-ID, which is not applied either but is logged
    and counted on the first message's row, where the moderator's mail log shows it."""
    row = s.exec(select(InboxMessage).where(InboxMessage.message_id == message_id)).first()
    if row is None:
        return
    if hashlib.sha256(bytes(row.raw)).digest() == hashlib.sha256(raw).digest():
        log.info("duplicate Message-ID %s ignored", message_id)
        return
    log.warning("Message-ID %s reused with different content: the new message was not applied", message_id)
    row.auth = {**row.auth, "reused": int(row.auth.get("reused", 0) or 0) + 1}
    s.add(row)


def help_per_hour() -> int:
    """Help mails ("your mail was not applied") to one address per hour. Their From can be forged,
    so they are kept far below the reply limit: a stranger cannot flood a player with them."""
    return int(os.environ.get("PBEM_MAIL_HELP_PER_HOUR", "3"))


def help_over_limit(s: Session, address: str, now: datetime) -> bool:
    since = now - timedelta(hours=1)
    count = s.exec(select(func.count(col(OutboxMessage.id))).where(
        OutboxMessage.to == address, OutboxMessage.kind == "reply",
        col(OutboxMessage.game_id).is_(None), col(OutboxMessage.created_at) >= since)).one()
    return count >= help_per_hour()


def also_addressed(s: Session, recipients: list[str], who: Speaker) -> str:
    """A mail acts for one seat. If it also carried other valid seat addresses, the notice that
    says so (for the reply); "" otherwise. Only addresses whose token verifies are named, so the
    notice tells a stranger nothing."""
    others: list[str] = []
    for game_id, seat, _token in addresses.seat_addresses(recipients)[:5]:
        if (game_id, seat) == (who.game_id, who.seat) or _("%(seat)s in %(game)s", seat=seat, game=game_id) in others:
            continue
        other = identify(s, [addresses.reply_address(game_id, seat, _token)], None, "")
        if other is not None and other.via == "token":
            others.append(_("%(seat)s in %(game)s", seat=seat, game=game_id))
    if not others:
        return ""
    return _("**Notice:** this mail was addressed to more than one seat. It acted for %(seat)s in %(game)s "
             "only; nothing was done for %(others)s. Send a separate mail to each seat's reply address.",
             seat=who.seat, game=who.game_id, others=", ".join(others))
