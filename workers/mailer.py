"""Delivering one outbox row: an .eml file in var/mail/ (embedded default) or SMTP (SMTP_HOST set);
rows of channel "webhook" are a JSON POST to a chat webhook (Slack/Discord accept the payload).

SMTP settings: SMTP_HOST, SMTP_PORT (587), SMTP_SECURITY (starttls | ssl | none; default
starttls, or ssl on port 465), SMTP_USER, SMTP_PASSWORD, MAIL_FROM (pbem@PBEM_MAIL_DOMAIN),
PBEM_MAIL_DIR (var/mail).

The row is claimed in one transaction (status `sending` until a lease expires: a second task for
the same row finds it claimed and does nothing), sent outside any transaction (no lock held during
network I/O), and its status written in another. A temporary failure leaves it `pending` with a
due time; the recovery sweep (adjudicator/service/recovery.py) sends it again then, and also frees
the claim of a worker that died while sending. Only a worker that died after sending but before
recording it repeats a mail, with the same Message-ID (so the recipient's client can tell): at
least once, and at most once in every other case.
"""

from __future__ import annotations

import http.client
import json
import os
import smtplib
import socket
import ssl
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from sqlalchemy import and_, or_, update
from sqlmodel import Session, select

from adjudicator.mail import compose, config
from adjudicator.mail.bounce import parse_outbox_message_id
from adjudicator.mail.headers import header_name_ok, header_value
from adjudicator.render import markdown_to_html
from adjudicator.service import utcnow, webhooks
from adjudicator.service.bounces import envelope_sender, message_id_for
from adjudicator.store import OutboxMessage, run_in_transaction

MAX_ATTEMPTS = 5
LEASE = timedelta(minutes=10)  # longer than any one send (SMTP and webhook time out after 30 s)


def lease() -> timedelta:
    """How long a claim holds (PBEM_SEND_LEASE_SECONDS, default LEASE). Only a fault-injection run
    shortens it, so that a row whose sender died is freed within the run."""
    return timedelta(seconds=float(os.environ.get("PBEM_SEND_LEASE_SECONDS", LEASE.total_seconds())))


class TemporaryFailure(Exception):
    """Worth retrying later (the attempt is recorded)."""


def build_message(row: OutboxMessage) -> EmailMessage:
    """The message of one outbox row. Every header value is folded to one line (header_value), so
    no title, name or quoted Message-ID can add a header or make the message unbuildable."""
    msg = EmailMessage()
    msg["From"] = header_value(config.mail_from())
    msg["To"] = _address_header(row.to)
    msg["Subject"] = header_value(row.subject) or "(no subject)"
    msg["Date"] = format_datetime(row.created_at)
    # stable per row, so a repeated delivery is recognisably the same message (and a bounce that
    # returns its headers names the row)
    msg["Message-ID"] = message_id_for(row.id or 0, int(row.created_at.timestamp()))
    for name, value in (row.headers or {}).items():
        if not header_name_ok(name) or name.lower() in ("from", "to", "subject", "date", "message-id",
                                                        "bcc", "cc", "sender", "return-path"):
            continue
        try:
            msg[name] = header_value(value)
        except (ValueError, TypeError, IndexError):  # a value the header class cannot parse: leave it out
            continue
    msg.set_content(row.body)
    msg.add_alternative(f"<html><body>{markdown_to_html(row.body)}</body></html>", subtype="html")
    return msg


def _address_header(to: str) -> str:
    """One address only: a To that smuggles a second line or a list is cut to its first address."""
    return header_value(to).split(",")[0].strip()


def retry_delay(attempts: int) -> timedelta:
    """Wait after the `attempts`-th failed delivery: 30 s, 1, 2, 4 … minutes, at most an hour."""
    return timedelta(seconds=min(3600, 30 * 2 ** max(attempts - 1, 0)))


def claim(outbox_id: int) -> tuple[OutboxMessage | None, bool]:
    """Take the row for sending (compare-and-set: pending, or a claim whose lease expired).
    Returns the row and whether this caller holds it now."""
    def take(s: Session) -> tuple[OutboxMessage | None, bool]:
        now = utcnow()
        taken = s.connection().execute(
            update(OutboxMessage).where(
                OutboxMessage.id == outbox_id,  # type: ignore[arg-type]
                or_(OutboxMessage.status == "pending",  # type: ignore[arg-type]
                    and_(OutboxMessage.status == "sending", OutboxMessage.lease_until < now)),  # type: ignore[arg-type,operator]
            ).values(status="sending", lease_until=now + lease())).rowcount
        row = s.exec(select(OutboxMessage).where(OutboxMessage.id == outbox_id)).first()
        return row, bool(taken)

    return run_in_transaction(take)


def deliver(outbox_id: int) -> str:
    """Send one row; returns its final status. A row not pending (sent, claimed by another
    worker, failed, held for a digest) is skipped: running this twice sends once."""
    row, mine = claim(outbox_id)
    if row is None or not mine:
        return row.status if row else "missing"
    try:
        msg = build_message(row) if row.channel != "webhook" else None
        hook = (row.to, compose.chat_payload(row.subject, row.body)) if msg is None else None
    except Exception as exc:  # a row we cannot even build: record it rather than hold the claim
        return _record(outbox_id, error=f"{type(exc).__name__}: {exc}", permanent=True)
    try:
        if hook is not None:
            post_webhook(*hook)
        elif os.environ.get("SMTP_HOST"):
            send_smtp(msg)
        else:
            write_eml(outbox_id, msg)
    except WebhookRefused as exc:
        return _record(outbox_id, error=str(exc), permanent=True)
    except (OSError, smtplib.SMTPException, http.client.HTTPException) as exc:
        permanent = isinstance(exc, smtplib.SMTPRecipientsRefused | smtplib.SMTPSenderRefused)
        return _record(outbox_id, error=f"{type(exc).__name__}: {exc}", permanent=permanent)
    return _record(outbox_id)


def _record(outbox_id: int, error: str | None = None, permanent: bool = False) -> str:
    def write(s: Session) -> str:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.id == outbox_id).with_for_update()).one()
        row.attempts += 1
        row.lease_until = None
        if error is None:
            row.sent_at, row.last_error = utcnow(), ""
            if row.status == "sending":  # not if a bounce for it already arrived meanwhile
                row.status = "sent"
        else:
            row.last_error = error[:1000]
            if row.status == "sending":
                row.status = "failed" if permanent or row.attempts >= MAX_ATTEMPTS else "pending"
                row.next_attempt_at = utcnow() + retry_delay(row.attempts)  # the recovery sweep's cue
        s.add(row)
        return row.status

    status = run_in_transaction(write)
    if error is not None and status == "pending":
        raise TemporaryFailure(error)
    return status


class WebhookRefused(Exception):
    """A 4xx answer (other than 429): retrying would not help."""


def post_webhook(url: str, payload: dict[str, object]) -> None:
    """POST to a seat's chat webhook: the host is resolved and checked here, at connect time, and
    the connection goes to the checked address (webhooks.resolve); no redirect is followed, the
    answer is read up to a cap, and every step has a timeout."""
    try:
        target = webhooks.resolve(url)
    except webhooks.WebhookUrlError as exc:
        raise WebhookRefused(f"webhook refused: {exc}") from None
    conn = _pinned_connection(target)
    try:
        conn.request("POST", target.path, body=json.dumps(payload).encode(), headers={
            "Content-Type": "application/json", "User-Agent": "pbem", "Host": _host_header(target)})
        resp = conn.getresponse()
        resp.read(webhooks.MAX_RESPONSE_BYTES)
    finally:
        conn.close()
    if 300 <= resp.status < 400:
        raise WebhookRefused(f"webhook answered {resp.status} (a redirect); redirects are not followed: "
                             "give the final URL")
    if 400 <= resp.status < 500 and resp.status != 429:
        raise WebhookRefused(f"webhook answered {resp.status}")
    if resp.status >= 400:
        raise OSError(f"webhook answered {resp.status}")


def _host_header(target: webhooks.Target) -> str:
    default = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port == default else f"{host}:{target.port}"


def _pinned_connection(target: webhooks.Target) -> http.client.HTTPConnection:
    """A connection to `target.address` (already checked), with TLS verified for `target.host`."""
    timeout = webhooks.TIMEOUT_SECONDS

    class Pinned(http.client.HTTPConnection):
        def connect(self) -> None:
            self.sock = socket.create_connection((target.address, target.port), timeout)

    class PinnedTLS(http.client.HTTPSConnection):
        def connect(self) -> None:
            sock = socket.create_connection((target.address, target.port), timeout)
            self.sock = ssl.create_default_context().wrap_socket(sock, server_hostname=target.host)

    cls = PinnedTLS if target.scheme == "https" else Pinned
    return cls(target.host, target.port, timeout=timeout)


def mail_dir() -> Path:
    return Path(os.environ.get("PBEM_MAIL_DIR", "var/mail"))


def write_eml(outbox_id: int, msg: EmailMessage) -> Path:
    folder = mail_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{outbox_id:08d}.eml"  # one file per row: a repeated delivery overwrites it
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(bytes(msg))
    tmp.replace(path)
    return path


def envelope_of(msg: EmailMessage) -> str | None:
    """The row's VERP address (MAIL FROM), so that its bounce names it; from our Message-ID."""
    parsed = parse_outbox_message_id(str(msg.get("Message-ID") or ""))
    return envelope_sender(parsed[0]) if parsed else None


def send_smtp(msg: EmailMessage) -> None:
    host = os.environ["SMTP_HOST"]
    port = int(os.environ.get("SMTP_PORT", "587"))
    security = os.environ.get("SMTP_SECURITY", "ssl" if port == 465 else "starttls").lower()
    user, password = os.environ.get("SMTP_USER"), os.environ.get("SMTP_PASSWORD", "")
    context = ssl.create_default_context()
    if security == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=30, context=context)
    else:
        client = smtplib.SMTP(host, port, timeout=30)
    with client:
        if security == "starttls":
            client.starttls(context=context)
        if user:
            client.login(user, password)
        client.send_message(msg, from_addr=envelope_of(msg))
