"""Cheap checks of the mail intake that come before any costly work on a body.

`addressed_to_seat` reads only the header block (already capped) and the SMTP envelope and checks
the recipient tokens (one HMAC each): a mail that carries a seat's reply token may get the careful
HTML conversion; anything else (a stranger, a SIGNON fallback) only the linear one.
"""

from __future__ import annotations

from sqlmodel import Session

from adjudicator.mail.body import Command
from adjudicator.mail.parse import ParsedMail, headers_only

from .mailauth import identify

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")


def addressed_to_seat(s: Session, raw: bytes, envelope_to: list[str]) -> bool:
    try:
        msg = headers_only(raw)
        recipients = [" ".join(str(v).split()) for n in RECIPIENT_HEADERS for v in (msg.get_all(n) or [])][:20]
        sender = str(msg.get("From") or "")
    except Exception:  # headers the tolerant parser rejects carry no token we can read
        return False
    return identify(s, recipients + list(envelope_to), None, sender) is not None


def structure_error(mail: ParsedMail) -> list[Command]:
    """The one command of a mail whose body was not read: an error the reply explains."""
    return [Command("error", line="(your mail)", text=mail.problem)]
