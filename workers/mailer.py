"""Delivering one outbox row: an .eml file in var/mail/ (embedded default) or SMTP (SMTP_HOST set);
rows of channel "webhook" are a JSON POST to a chat webhook (Slack/Discord accept the payload).

SMTP settings: SMTP_HOST, SMTP_PORT (587), SMTP_SECURITY (starttls | ssl | none; default
starttls, or ssl on port 465), SMTP_USER, SMTP_PASSWORD, MAIL_FROM (pbem@PBEM_MAIL_DOMAIN),
PBEM_MAIL_DIR (var/mail).

The row is claimed in one transaction (status `sending` until a lease expires: a second task for
the same row finds it claimed and does nothing), sent outside any transaction (no lock held during
network I/O), and its status written in another. A temporary failure leaves it `pending` with a
due time; the recovery sweep (adjudicator/service/upkeep/recovery.py) sends it again then, and also frees
the claim of a worker that died while sending. Only a worker that died after sending but before
recording it repeats a mail, with the same Message-ID (so the recipient's client can tell): at
least once, and at most once in every other case.

`deliver_many` does the same for a batch of rows (a deadline burst's notifications): one claim
for all of them, their mails over a few SMTP connections at once (PBEM_SMTP_CONNECTIONS, default
3; one for a small batch), each connection in its own thread with its share of the rows in id
order, and each mail recorded `sent` as soon as the relay accepted it (one short transaction per
mail). The step from the end of a mail's data to its record is taken by one connection at a time
(`_ACCEPTING`), so a worker killed mid-batch repeats at most one mail, never the batch. On the
embedded default the batch's .eml files are written first and recorded in one
transaction: a repeat there overwrites the same file. A batch's messages are built
with the email package (workers/mime.py), which keeps what a burst's mails repeat.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import and_, bindparam, case, or_, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from adjudicator.mail import compose
from adjudicator.mail.bounce import parse_outbox_message_id
from adjudicator.service import (
    WEBHOOK_MAX_RESPONSE_BYTES,
    WEBHOOK_TIMEOUT_SECONDS,
    WebhookTarget,
    WebhookUrlError,
    envelope_sender,
    resolve_webhook,
    utcnow,
)
from adjudicator.store import OutboxMessage, run_in_transaction
from adjudicator.store.db import begin as store_begin
from adjudicator.store.db import connection as store_connection

from .lease import kept, lease
from .mime import address_header, build_message, message_bytes, plain

__all__ = ["build_message", "message_bytes"]  # kept here for the callers of the mailer

MAX_ATTEMPTS = 5


def record_patience() -> float:
    """Seconds a sender keeps trying to record a mail the relay accepted: well inside the lease,
    so that no other sender takes the row meanwhile."""
    return min(30.0, lease().total_seconds() / 3)


class TemporaryFailure(Exception):
    """Worth retrying later (the attempt is recorded)."""


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

    return run_in_transaction(take, lazy=True)  # as a batch's claim (`claim_many`)


def claim_many(outbox_ids: list[int]) -> list[OutboxMessage]:
    """Take every row of `outbox_ids` that is free (see `claim`) in one transaction; returns the
    rows this caller holds now, in id order."""
    def take(s: Session) -> list[OutboxMessage]:
        now = utcnow()
        # the rows taken, as ORM objects, from the UPDATE's RETURNING (no second read of them)
        taken = s.scalars(
            update(OutboxMessage).where(OutboxMessage.id.in_(outbox_ids), _claimable(now))  # type: ignore[union-attr]
            .values(status="sending", lease_until=now + lease()).returning(OutboxMessage),
            execution_options={"synchronize_session": False}).all()
        return sorted(taken, key=lambda row: row.id or 0)

    # Lazy (on SQLite the commit does not wait for the disk, and the writers' lock is not held
    # through a sync): a claim lost in a power cut leaves its rows free, so they are sent again,
    # the same mails under the same Message-IDs, as when their lazy `sent` record is lost.
    return run_in_transaction(take, lazy=True)


def _claimable(now: datetime) -> Any:
    return or_(OutboxMessage.status == "pending",  # type: ignore[arg-type]
               and_(OutboxMessage.status == "sending", OutboxMessage.lease_until < now))  # type: ignore[arg-type,operator]


def deliver(outbox_id: int) -> str:
    """Send one row; returns its final status. A row not pending (sent, claimed by another
    worker, failed, held for a digest) is skipped: running this twice sends once."""
    row, mine = claim(outbox_id)
    if row is None or not mine:
        return row.status if row else "missing"
    with kept([outbox_id]):
        return _deliver_claimed(row)


def deliver_many(outbox_ids: list[int]) -> dict[int, str]:
    """Send a batch of rows (see the module doc); returns the status of each row this call held.
    Rows not free are skipped, as in `deliver`; a temporary failure is recorded, not raised."""
    claimed = claim_many(outbox_ids)
    with kept([row.id or 0 for row in claimed]):
        return _deliver_claimed_rows(claimed)


def _deliver_claimed_rows(claimed: list[OutboxMessage]) -> dict[int, str]:
    results: dict[int, str] = {}
    rows: list[OutboxMessage] = []
    for row in claimed:
        if row.channel == "webhook":
            try:
                results[row.id or 0] = _deliver_claimed(row)
            except TemporaryFailure:
                results[row.id or 0] = "pending"
            continue
        rows.append(row)
    if os.environ.get("SMTP_HOST"):
        results.update(_send_smtp_batch(rows))
    else:
        results.update(_write_eml_batch([m for m in map(_built, rows) if m is not None]))
    return results


def _built(row: OutboxMessage) -> tuple[int, bytes] | None:
    """The row's .eml bytes, or None when it cannot even be built (recorded failed rather than
    holding the claim)."""
    try:
        return row.id or 0, message_bytes(row)
    except Exception as exc:
        _write(row.id or 0, f"{type(exc).__name__}: {exc}", permanent=True)
        return None


# A mail the relay may have accepted but that is not recorded `sent` yet is the one a killed
# worker repeats: held by one connection at a time, so however many connections a worker sends
# over, a worker killed repeats at most one mail. The connections overlap everything else
# (building a message, its envelope's round trips), and each records its mail inside the window.
_ACCEPTING = threading.Lock()

Send = Callable[[smtplib.SMTP, Callable[[], None]], None]


def _smtp_send(row: OutboxMessage) -> Send:
    """Sends the row's mail over a connection, then calls `accepted` while it still holds the
    window above: its bytes written directly (`message_bytes`), to the address of its To header,
    from its VERP address, as `smtplib.sendmail` would; `send_message(build_message(row))` sends
    it when an address is not plain ASCII (SMTPUTF8)."""
    to, envelope = address_header(row.to), envelope_sender(row.id or 0)
    if plain("To", to) and envelope.isascii():
        raw = message_bytes(row, "\r\n", mangle_from=True)
        size, data = len(raw), _data_bytes(raw)

        def send(client: smtplib.SMTP, accepted: Callable[[], None]) -> None:
            _envelope(client, envelope, to, size)
            _open_data(client)
            with _ACCEPTING:
                client.send(data)
                code, resp = client.getreply()
                if code != 250:
                    _reset(client, code)
                    raise smtplib.SMTPDataError(code, resp)
                accepted()

        return send
    msg = build_message(row)

    def send_message(client: smtplib.SMTP, accepted: Callable[[], None]) -> None:
        with _ACCEPTING:
            client.send_message(msg, from_addr=envelope_of(msg))
            accepted()

    return send_message


# `smtplib.SMTP.data` in its two halves: the DATA command and its 354 outside the window above
# (the relay cannot accept a message before its final dot), the message and its 250 inside it. In
# one call the command's round trip was inside too, a third of the window that holds every lane
# of the worker.
def _open_data(client: smtplib.SMTP) -> None:
    code, resp = client.docmd("data")
    if code != 354:
        _reset(client, code)
        raise smtplib.SMTPDataError(code, resp)


def _data_bytes(raw: bytes) -> bytes:
    """What `smtplib.SMTP.data(raw)` sends after the 354: every line starting with a dot gets
    another (as smtplib quotes them), then CRLF if missing, then the final dot."""
    quoted = (b"." + raw if raw.startswith(b".") else raw).replace(b"\n.", b"\n..")
    if not quoted.endswith(b"\r\n"):
        quoted += b"\r\n"
    return quoted + b".\r\n"


def _envelope(client: smtplib.SMTP, sender: str, to: str, size: int) -> None:
    """MAIL FROM and RCPT TO, as `smtplib.sendmail` sends them and fails on their answers."""
    client.ehlo_or_helo_if_needed()
    options = [f"size={size}"] if client.does_esmtp and client.has_extn("size") else []
    code, resp = client.mail(sender, options)
    if code != 250:
        _reset(client, code)
        raise smtplib.SMTPSenderRefused(code, resp, sender)
    code, resp = client.rcpt(to)
    if code not in (250, 251):
        _reset(client, code)
        raise smtplib.SMTPRecipientsRefused({to: (code, resp)})


def _reset(client: smtplib.SMTP, code: int) -> None:
    """After a refusal: RSET for the next mail, or close on 421 (the relay is going away)."""
    if code == 421:
        client.close()
        return
    with contextlib.suppress(smtplib.SMTPServerDisconnected):
        client.rset()


MIN_PER_LANE = 10  # a smaller batch goes over one connection (a connection costs a greeting)


def smtp_lanes() -> int:
    """Connections one batch may use at once (PBEM_SMTP_CONNECTIONS, default 3). Each waits on
    the relay's answers and on its rows' records; in parallel those waits overlap, so a burst is
    sent faster than one connection could (a relay that limits connections per client: set 1)."""
    try:
        return max(1, int(os.environ.get("PBEM_SMTP_CONNECTIONS", "3")))
    except ValueError:
        return 1


def _send_smtp_batch(rows: list[OutboxMessage]) -> dict[int, str]:
    """The batch split into lanes (round robin, so each lane keeps id order), each over its own
    connection in its own thread (see `_send_smtp_lane`)."""
    lanes = min(smtp_lanes(), len(rows) // MIN_PER_LANE) or 1
    if lanes == 1:
        return _send_smtp_lane(rows)
    results: dict[int, str] = {}
    with ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="smtp-lane") as pool:
        for done in pool.map(_send_smtp_lane, [rows[n::lanes] for n in range(lanes)]):
            results.update(done)
    return results


def _send_smtp_lane(rows: list[OutboxMessage]) -> dict[int, str]:
    """Every row's mail over one connection, each built just before it is sent (so one lane
    builds while the others wait) and recorded as soon as the relay took it. A refused recipient
    fails its row only; a lost connection releases the rows not tried yet."""
    results: dict[int, str] = {}
    client: smtplib.SMTP | None = None
    log = _SentLog()
    try:
        for n, row in enumerate(rows):
            row_id = row.id or 0
            try:
                send = _smtp_send(row)
            except Exception as exc:  # a row we cannot even build: record it rather than hold the claim
                results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=True)
                continue
            try:
                client = client or smtp_client()
                send(client, lambda row_id=row_id: results.update(log.record(row_id)))
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as exc:
                results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=True)
                continue
            except (OSError, smtplib.SMTPException) as exc:
                results[row_id] = _write(row_id, f"{type(exc).__name__}: {exc}", permanent=False)
                if isinstance(exc, smtplib.SMTPResponseException) and exc.smtp_code != 421:
                    continue  # a 4xx/5xx for this message only: the session goes on
                _release([r.id or 0 for r in rows[n + 1:]])  # the connection is gone
                break
    finally:
        log.close()
        if client is not None:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                client.quit()
    return results


def _write_eml_batch(mails: list[tuple[int, bytes]]) -> dict[int, str]:
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
        return _run_sent(s.connection(), outbox_ids)

    return run_in_transaction(write, lazy=True)


def _run_sent(conn: Any, outbox_ids: list[int]) -> dict[int, str]:
    """Record a delivery of the rows; returns (id, status) of each."""
    if len(outbox_ids) == 1:  # one mail over SMTP: no list to expand into the statement each time
        return dict(conn.execute(_sent(one=True), {"row_id": outbox_ids[0], "now": utcnow()}).all())
    return dict(conn.execute(_sent(), {"ids": outbox_ids, "now": utcnow()}).all())


@lru_cache(maxsize=2)
def _sent(one: bool = False) -> Any:
    """The statement recording a delivery of rows `ids` (`one`: of the row `row_id`) at `now`, built
    once (building it was a third of a mail's recording)."""
    rows = OutboxMessage.id == bindparam("row_id") if one else OutboxMessage.id.in_(bindparam("ids", expanding=True))  # type: ignore[union-attr]
    return (update(OutboxMessage).where(rows)  # type: ignore[arg-type]
            .values(attempts=OutboxMessage.attempts + 1, lease_until=None, sent_at=bindparam("now"), last_error="",
                    status=case((OutboxMessage.status == "sending", "sent"), else_=OutboxMessage.status))
            .returning(OutboxMessage.id, OutboxMessage.status))


class _SentLog:
    """`_mark_sent` for one mail at a time, on one connection held for the batch (a third of the
    cost of a fresh transaction each; on SQLite each behind the writers' lock, as every write). A
    database error falls back to `_mark_sent`, tried again for up to `record_patience()` (a
    database restart takes seconds): the relay has this mail, and every second it stays
    unrecorded is a second in which a fault makes it a resend. If it still fails, the error ends
    the batch: nothing more is sent that could not be recorded."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._conn: Any = None

    def record(self, row_id: int) -> dict[int, str]:
        try:
            if self._conn is None:
                conn = self._stack.enter_context(store_connection(lazy=True))
                if conn.dialect.name == "postgresql":
                    # one statement is its own transaction: one round trip instead of the
                    # statement's and the COMMIT's (the record is the mail's wait inside the window)
                    conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                self._conn = conn
            with store_begin(self._conn):
                return _run_sent(self._conn, [row_id])
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
    the connection goes to the checked address (service/people/webhooks.py, resolve); no redirect is followed, the
    answer is read up to a cap, and every step has a timeout."""
    try:
        target = resolve_webhook(url)
    except WebhookUrlError as exc:
        raise WebhookRefused(f"webhook refused: {exc}") from None
    conn = _pinned_connection(target)
    try:
        conn.request("POST", target.path, body=json.dumps(payload).encode(), headers={
            "Content-Type": "application/json", "User-Agent": "pbem", "Host": _host_header(target)})
        resp = conn.getresponse()
        resp.read(WEBHOOK_MAX_RESPONSE_BYTES)
    finally:
        conn.close()
    if 300 <= resp.status < 400:
        raise WebhookRefused(f"webhook answered {resp.status} (a redirect); redirects are not followed: "
                             "give the final URL")
    if 400 <= resp.status < 500 and resp.status != 429:
        raise WebhookRefused(f"webhook answered {resp.status}")
    if resp.status >= 400:
        raise OSError(f"webhook answered {resp.status}")


def _host_header(target: WebhookTarget) -> str:
    default = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port == default else f"{host}:{target.port}"


def _pinned_connection(target: WebhookTarget) -> http.client.HTTPConnection:
    """A connection to `target.address` (already checked), with TLS verified for `target.host`."""
    timeout = WEBHOOK_TIMEOUT_SECONDS

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


def write_eml(outbox_id: int, msg: EmailMessage | bytes) -> Path:
    folder = mail_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{outbox_id:08d}.eml"  # one file per row: a repeated delivery overwrites it
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(msg if isinstance(msg, bytes) else bytes(msg))
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
    if security == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=30, context=tls_context())
    else:
        client = smtplib.SMTP(host, port, timeout=30)
    try:
        if security == "starttls":
            client.starttls(context=tls_context())
        if user:
            client.login(user, password)
    except BaseException:
        client.close()
        raise
    return client


@lru_cache(maxsize=1)
def tls_context() -> ssl.SSLContext:
    """One verifying TLS context per process, made only when TLS is used: loading the system's
    CA certificates took 80 ms of CPU, at every connection, with or without TLS."""
    return ssl.create_default_context()
