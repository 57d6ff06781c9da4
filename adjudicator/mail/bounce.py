"""Bounces: is an inbound message a delivery report, and which of our messages does it name?

A bounce is a DSN (`multipart/report; report-type=delivery-status`, RFC 3464), or any mail with
a null sender (envelope or Return-Path `<>`) or from a MAILER-DAEMON/postmaster. It is matched to
our outbox row by (1) the VERP envelope sender we sent with, `pbem-bounce+<id>-<sig>@<domain>`,
to which the report is addressed, or (2) our Message-ID `<pbem-<id>-<time>-<tag>@<domain>>` found
in the returned headers, In-Reply-To or References. Both carry an HMAC tag under the server key,
so a forger who guesses a row number and its second cannot make a report count. Pure: bytes in,
values out; the service checks the tags and the row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses

from . import config
from .mime import check_shape

MAX_REASON = 300


@dataclass
class Bounce:
    action: str = "failed"  # the DSN's Action (failed / delayed / delivered / ...); failed if unknown
    reason: str = ""  # Diagnostic-Code or Status, else the subject
    recipient: str = ""  # Final-Recipient (the address that failed), if stated
    message_ids: list[str] = field(default_factory=list)  # Message-IDs the report names
    verp: list[tuple[int, str]] = field(default_factory=list)  # (outbox id, signature) from our envelope


def bounce_address(outbox_id: int, signature: str) -> str:
    """The envelope sender (MAIL FROM) of one outbox row, so that its bounce names it."""
    return f"pbem-bounce+{outbox_id}-{signature}@{config.domain()}"


def parse_bounce_address(addr: str) -> tuple[int, str] | None:
    m = re.fullmatch(r"pbem-bounce\+(\d{1,12})-([a-z0-9]{8,64})@(\S+)", addr.strip().lower())
    if m is None or m.group(3) != config.domain().lower():
        return None
    return int(m.group(1)), m.group(2)


def outbox_message_id(outbox_id: int, created_ts: int, tag: str) -> str:
    """Our Message-ID of one outbox row; `tag` is the service's HMAC of (id, time)."""
    return f"<pbem-{outbox_id}-{created_ts}-{tag}@{config.domain()}>"


def parse_outbox_message_id(mid: str) -> tuple[int, int, str] | None:
    """(outbox id, creation time, tag) of one of our Message-IDs; None for anything else, including
    the untagged ids of older releases (they were guessable, so they never count)."""
    m = re.fullmatch(r"<pbem-(\d{1,12})-(\d{1,12})-([a-z0-9]{16,64})@([^<>\s]+)>", mid.strip().lower())
    if m is None or m.group(4) != config.domain().lower():
        return None
    return int(m.group(1)), int(m.group(2)), m.group(3)


def _h(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
        return " ".join(str(value).split())[:998] if value is not None else ""
    except Exception:  # a malformed encoded word must not stop us
        return ""


def is_bounce(msg: Message, envelope_from: str | None) -> bool:
    if msg.get_content_type() == "multipart/report" and \
            (msg.get_param("report-type") or "").lower() == "delivery-status":  # type: ignore[union-attr]  # a str here
        return True
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return True
    if _h(msg, "Return-Path").strip() == "<>":
        return True
    return bool(re.search(r"mailer-daemon|postmaster@", _h(msg, "From").lower()))


def _ids(text: str) -> list[str]:
    return re.findall(r"<[^<>\s]{1,900}>", text)


def _status_fields(part: Message) -> list[Message]:
    """The field blocks of a message/delivery-status part (per message, then per recipient)."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    text = payload if isinstance(payload, str) else ""
    return [HeaderParser().parsestr(block.strip() + "\n") for block in re.split(r"\r?\n\s*\r?\n", text)
            if block.strip()]


def _returned_headers(part: Message) -> Message | None:
    """The headers of our original message, returned as message/rfc822 or text/rfc822-headers."""
    if part.get_content_type() == "message/rfc822":
        payload = part.get_payload()
        inner = payload[0] if isinstance(payload, list) and payload else None
        return inner if isinstance(inner, Message) else None
    raw = part.get_payload(decode=True)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(part.get_payload())
    return HeaderParser().parsestr(text, headersonly=True)


def _parts(msg: Message, limit: int = 50) -> list[Message]:
    """Every part (containers too), breadth first, without recursion, at most `limit`."""
    out: list[Message] = []
    queue = [msg]
    while queue and len(out) < limit:
        part = queue.pop(0)
        out.append(part)
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            queue.extend(p for p in payload[:limit] if isinstance(p, Message))
    return out


def read_bounce(raw: bytes, envelope_to: list[str]) -> Bounce:
    """What a bounce says; never raises (a report we cannot read still names what it can)."""
    out = Bounce()
    try:
        check_shape(raw)  # a report is parsed whole: never a hostile tree
        msg = message_from_bytes(raw, policy=policy.default)
    except Exception:
        return out
    recipients = [_h(msg, n) for n in ("To", "Delivered-To", "X-Original-To")] + list(envelope_to)
    for _name, addr in getaddresses([r for r in recipients if r]):
        parsed = parse_bounce_address(addr)
        if parsed and parsed not in out.verp:
            out.verp.append(parsed)
    out.message_ids += _ids(_h(msg, "In-Reply-To") + " " + _h(msg, "References"))
    try:
        for part in _parts(msg):
            ctype = part.get_content_type()
            if ctype in ("message/delivery-status", "message/global-delivery-status"):
                for block in _status_fields(part):
                    action, diag, status = (_h(block, "Action").lower(), _h(block, "Diagnostic-Code"),
                                            _h(block, "Status"))
                    if action:
                        out.action = action.split()[0]
                    if diag or status:
                        out.reason = out.reason or diag or f"status {status}"
                    if _h(block, "Final-Recipient"):
                        out.recipient = out.recipient or _h(block, "Final-Recipient").split(";")[-1].strip()
            elif ctype in ("message/rfc822", "text/rfc822-headers", "message/global-headers"):
                original = _returned_headers(part)
                if original is not None:
                    out.message_ids = _ids(_h(original, "Message-ID")) + out.message_ids
    except Exception:  # a broken report: keep what was read so far
        pass
    out.reason = (out.reason or _h(msg, "Subject") or "delivery failed")[:MAX_REASON]
    out.message_ids = list(dict.fromkeys(out.message_ids))[:20]
    return out
