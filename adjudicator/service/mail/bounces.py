"""Bounces of our own mail: each outbox row is sent with its own signed envelope sender (VERP),
so a delivery report names the row; a report that lost the envelope is matched by our Message-ID,
which carries a tag signed the same way. A report counts only if a tag verifies: row numbers and
send times are guessable, the server key is not.

A matched failure marks the row `bounced` with the reason (moderator page, and the seat's own
page). A bounce is never answered: that is how mail loops start.
"""

from __future__ import annotations

import hashlib
import hmac

from sqlmodel import Session

from adjudicator.mail.bounce import bounce_address, outbox_message_id, parse_outbox_message_id, read_bounce
from adjudicator.store import OutboxMessage

from ..common.clock import as_utc
from ..common.serverkey import server_key
from ..common.tokens import b32_prefix

NOT_FAILURES = ("delayed", "delivered", "relayed", "expanded")


def _tag(text: str) -> str:
    # 80 bits of HMAC-SHA256 under the server key, in lower-case base32 (safe in addresses and ids)
    digest = hmac.new(server_key().encode(), text.encode(), hashlib.sha256).digest()
    return b32_prefix(digest, 16)


def _signature(outbox_id: int) -> str:
    # signed so that a forged report cannot mark arbitrary rows as bounced
    return _tag(f"bounce|{outbox_id}")


def envelope_sender(outbox_id: int) -> str:
    """MAIL FROM for one outbox row."""
    return bounce_address(outbox_id, _signature(outbox_id))


def message_id_for(outbox_id: int, created_ts: int) -> str:
    """The Message-ID of one outbox row: stable (a repeated delivery is the same message) and
    tagged, so only a report quoting a Message-ID we really sent can name the row."""
    return outbox_message_id(outbox_id, created_ts, _tag(f"mid|{outbox_id}|{created_ts}"))


def _row_by_message_id(s: Session, mid: str) -> OutboxMessage | None:
    parsed = parse_outbox_message_id(mid)
    if parsed is None:
        return None
    outbox_id, created_ts, tag = parsed
    if not hmac.compare_digest(tag, _tag(f"mid|{outbox_id}|{created_ts}")):
        return None
    row = s.get(OutboxMessage, outbox_id)
    created = as_utc(row.created_at) if row is not None else None
    return row if created is not None and int(created.timestamp()) == created_ts else None


def find_bounced(s: Session, raw: bytes, envelope_to: list[str]) -> tuple[OutboxMessage | None, str, str]:
    """(our row or None, the report's action, its reason)."""
    report = read_bounce(raw, envelope_to)
    row: OutboxMessage | None = None
    for outbox_id, signature in report.verp:
        if hmac.compare_digest(signature, _signature(outbox_id)):
            row = s.get(OutboxMessage, outbox_id)
            break
    for mid in report.message_ids if row is None else []:
        row = _row_by_message_id(s, mid)
        if row is not None:
            break
    reason = report.reason + (f" ({report.recipient})" if report.recipient else "")
    return row, report.action, reason


def record_bounce(s: Session, raw: bytes, envelope_to: list[str]) -> str:
    """Mark the outbox row a bounce refers to; returns the line for the inbox log."""
    row, action, reason = find_bounced(s, raw, envelope_to)
    if row is None or row.channel != "mail":
        return f"bounce not matched to any of our messages: {reason}"
    if action in NOT_FAILURES:
        return f"delivery report ({action}) for outbox {row.id}: not a failure"
    row.status, row.last_error = "bounced", f"bounced: {reason}"[:1000]
    s.add(row)
    return f"bounce: outbox {row.id} to {row.to} ({row.seat or 'no seat'}) marked bounced: {reason}"
