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

`deliver_many` does the same for a batch of rows (a deadline burst's notifications): one claim
for all of them, one SMTP connection for all their mails, and each mail recorded `sent` as soon as
the relay accepted it (one short transaction per mail, so a worker killed mid-batch repeats at most
the one mail in flight, never the batch). On the embedded default the batch's .eml files are
written first and recorded in one transaction: a repeat there overwrites the same file.
"""

from __future__ import annotations

import contextlib
import email.policy
import http.client
import json
import os
import smtplib
import socket
import ssl
import time
from datetime import datetime, timedelta
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import and_, case, or_, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from adjudicator.mail import compose, config
from adjudicator.mail.bounce import parse_outbox_message_id
from adjudicator.mail.headers import header_name_ok, header_value
from adjudicator.render.markdown import markdown_blocks_to_html
from adjudicator.service import utcnow, webhooks
from adjudicator.service.bounces import envelope_sender, message_id_for
from adjudicator.store import OutboxMessage, run_in_transaction
from adjudicator.store.db import connection as store_connection

MAX_ATTEMPTS = 5
LEASE = timedelta(minutes=10)  # longer than any one send (SMTP and webhook time out after 30 s)


def lease() -> timedelta:
    """How long a claim holds (PBEM_SEND_LEASE_SECONDS, default LEASE). Only a fault-injection run
    shortens it, so that a row whose sender died is freed within the run."""
    return timedelta(seconds=float(os.environ.get("PBEM_SEND_LEASE_SECONDS", LEASE.total_seconds())))


def record_patience() -> float:
    """Seconds a sender keeps trying to record a mail the relay accepted: well inside the lease,
    so that no other sender takes the row meanwhile."""
    return min(30.0, lease().total_seconds() / 3)


class TemporaryFailure(Exception):
    """Worth retrying later (the attempt is recorded)."""


class _CachedHeaders(HeaderRegistry):
    """Python's header objects, parsed once per (name, value): a burst's mails repeat most of
    theirs (From, the MIME headers, a game's List-Id and References), and parsing them was half
    of building a message. The objects are immutable strings, safe to share between messages."""

    @lru_cache(maxsize=8192)  # noqa: B019 - one registry for the process's life
    def __call__(self, name: str, value: Any) -> Any:
        return super().__call__(name, value)


MAIL_POLICY = email.policy.default.clone(header_factory=_CachedHeaders())


def build_message(row: OutboxMessage) -> EmailMessage:
    """The message of one outbox row. Every header value is folded to one line (header_value), so
    no title, name or quoted Message-ID can add a header or make the message unbuildable."""
    msg = EmailMessage(policy=MAIL_POLICY)
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
    msg.add_alternative(f"<html><body>{markdown_blocks_to_html(row.body)}</body></html>", subtype="html")
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
            update(OutboxMessage).where(OutboxMessage.id == outbox_id, _claimable(now))  # type: ignore[arg-type]
            .values(status="sending", lease_until=now + lease())).rowcount
        row = s.exec(select(OutboxMessage).where(OutboxMessage.id == outbox_id)).first()
        return row, bool(taken)

    return run_in_transaction(take)


def claim_many(outbox_ids: list[int]) -> list[OutboxMessage]:
    """Take every row of `outbox_ids` that is free (see `claim`) in one transaction; returns the
    rows this caller holds now, in id order."""
    def take(s: Session) -> list[OutboxMessage]:
        now = utcnow()
        taken = s.connection().execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(outbox_ids), _claimable(now))  # type: ignore[union-attr]
            .values(status="sending", lease_until=now + lease()).returning(OutboxMessage.id)).scalars().all()
        if not taken:
            return []
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.id.in_(taken))  # type: ignore[union-attr]
                           .order_by(OutboxMessage.id)))  # type: ignore[arg-type]

    return run_in_transaction(take)


def _claimable(now: datetime) -> Any:
    return or_(OutboxMessage.status == "pending",  # type: ignore[arg-type]
               and_(OutboxMessage.status == "sending", OutboxMessage.lease_until < now))  # type: ignore[arg-type,operator]


def deliver(outbox_id: int) -> str:
    """Send one row; returns its final status. A row not pending (sent, claimed by another
    worker, failed, held for a digest) is skipped: running this twice sends once."""
    row, mine = claim(outbox_id)
    if row is None or not mine:
        return row.status if row else "missing"
    return _deliver_claimed(row)


def deliver_many(outbox_ids: list[int]) -> dict[int, str]:
    """Send a batch of rows (see the module doc); returns the status of each row this call held.
    Rows not free are skipped, as in `deliver`; a temporary failure is recorded, not raised."""
    results: dict[int, str] = {}
    mails: list[tuple[int, EmailMessage]] = []
    for row in claim_many(outbox_ids):
        row_id = row.id or 0
        if row.channel == "webhook":
            try:
                results[row_id] = _deliver_claimed(row)
            except TemporaryFailure:
                results[row_id] = "pending"
            continue
        try:
            mails.append((row_id, build_message(row)))
        except Exception as exc:  # a row we cannot even build: record it rather than hold the claim
            results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=True)
    if os.environ.get("SMTP_HOST"):
        results.update(_send_smtp_batch(mails))
    else:
        results.update(_write_eml_batch(mails))
    return results


def _send_smtp_batch(mails: list[tuple[int, EmailMessage]]) -> dict[int, str]:
    """Every mail over one connection, each recorded as soon as the relay took it. A refused
    recipient fails its row only; a lost connection releases the rows not tried yet."""
    results: dict[int, str] = {}
    client: smtplib.SMTP | None = None
    log = _SentLog()
    try:
        for n, (row_id, msg) in enumerate(mails):
            try:
                client = client or smtp_client()
                client.send_message(msg, from_addr=envelope_of(msg))
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as exc:
                results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=True)
                continue
            except (OSError, smtplib.SMTPException) as exc:
                results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=False)
                if isinstance(exc, smtplib.SMTPResponseException) and exc.smtp_code != 421:
                    continue  # a 4xx/5xx for this message only: the session goes on
                _release([i for i, _msg in mails[n + 1:]])  # the connection is gone
                break
            results.update(log.record(row_id))
    finally:
        log.close()
        if client is not None:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                client.quit()
    return results


def _write_eml_batch(mails: list[tuple[int, EmailMessage]]) -> dict[int, str]:
    results: dict[int, str] = {}
    written: list[int] = []
    for row_id, msg in mails:
        try:
            write_eml(row_id, msg)
            written.append(row_id)
        except OSError as exc:
            results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=False)
    results.update(_mark_sent(written))
    return results


def _mark_sent(outbox_ids: list[int]) -> dict[int, str]:
    """Record a delivery of each row in one statement (a row a bounce marked meanwhile keeps
    that status, as in `_write`). On SQLite the commit does not wait for the disk (`lazy`): if a
    power cut lost it, the row would be sent again, the same message with the same Message-ID,
    which is the at-least-once case above, never a lost mail; and a mail sent over SMTP does not
    wait for an fsync."""
    if not outbox_ids:
        return {}

    def write(s: Session) -> dict[int, str]:
        return dict(s.connection().execute(_sent(outbox_ids)).all())  # type: ignore[arg-type]

    return run_in_transaction(write, lazy=True)


def _sent(outbox_ids: list[int]) -> Any:
    """The statement recording a delivery of the rows; it returns (id, status) of each."""
    return (update(OutboxMessage).where(OutboxMessage.id.in_(outbox_ids))  # type: ignore[union-attr]
            .values(attempts=OutboxMessage.attempts + 1, lease_until=None, sent_at=utcnow(), last_error="",
                    status=case((OutboxMessage.status == "sending", "sent"), else_=OutboxMessage.status))
            .returning(OutboxMessage.id, OutboxMessage.status))


class _SentLog:
    """`_mark_sent` for one mail at a time, on one connection held for the batch (a third of the
    cost of a fresh transaction each). A database error falls back to `_mark_sent`, tried again
    for up to `record_patience()` (a database restart takes seconds): the relay has this mail, and
    every second it stays unrecorded is a second in which a fault makes it a resend. If it still
    fails, the error ends the batch: nothing more is sent that could not be recorded."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._conn: Any = None

    def record(self, row_id: int) -> dict[int, str]:
        try:
            if self._conn is None:
                self._conn = self._stack.enter_context(store_connection(lazy=True))
            with self._conn.begin():
                return dict(self._conn.execute(_sent([row_id])).all())
        except DBAPIError:
            self.close()
            deadline = time.monotonic() + record_patience()
            while True:
                try:
                    return _mark_sent([row_id])
                except DBAPIError:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(1)

    def close(self) -> None:
        self._conn = None
        with contextlib.suppress(Exception):  # a broken connection: the pool drops it
            self._stack.close()


def _release(outbox_ids: list[int]) -> None:
    """Claimed rows not tried (the connection failed before them): free again, due after the
    first retry delay, without counting an attempt."""
    if not outbox_ids:
        return
    run_in_transaction(lambda s: s.connection().execute(
        update(OutboxMessage).where(OutboxMessage.id.in_(outbox_ids),  # type: ignore[union-attr]
                                    OutboxMessage.status == "sending")  # type: ignore[arg-type]
        .values(status="pending", lease_until=None, next_attempt_at=utcnow() + retry_delay(1))))


def _deliver_claimed(row: OutboxMessage) -> str:
    outbox_id = row.id or 0
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
    status = _write(outbox_id, error, permanent)
    if error is not None and status == "pending":
        raise TemporaryFailure(error)
    return status


def _write(outbox_id: int, error: str | None = None, permanent: bool = False) -> str:
    """Record one delivery attempt; returns the row's status."""
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

    return run_in_transaction(write)


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
    with smtp_client() as client:
        client.send_message(msg, from_addr=envelope_of(msg))


def smtp_client() -> smtplib.SMTP:
    """A connection to the relay (SMTP_* settings), greeted, secured and logged in."""
    host = os.environ["SMTP_HOST"]
    port = int(os.environ.get("SMTP_PORT", "587"))
    security = os.environ.get("SMTP_SECURITY", "ssl" if port == 465 else "starttls").lower()
    user, password = os.environ.get("SMTP_USER"), os.environ.get("SMTP_PASSWORD", "")
    context = ssl.create_default_context()
    if security == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=30, context=context)
    else:
        client = smtplib.SMTP(host, port, timeout=30)
    try:
        if security == "starttls":
            client.starttls(context=context)
        if user:
            client.login(user, password)
    except BaseException:
        client.close()
        raise
    return client
