"""Inbound mail, one code path for SMTP, IMAP and the webhook.

`receive` stores the raw message (one row per Message-ID: the same message twice is applied
once) and returns an ("ingest", inbox_id) task; `process` handles one stored message in the
caller's transaction: every message ends with exactly one reply or one logged drop, and the inbox
row records which, with the DKIM/SPF signals for the moderator.

A message stored but not yet processed (its task was lost, the broker was down) is not a
duplicate: receiving it again hands it to `process` again, and the recovery sweep
(recovery.py) does the same for rows nobody sends again. Lock order: the addressed game rows
first, then the inbox row (as every order takes the game row first), so two mails for one game
queue on the game row instead of deadlocking on PostgreSQL.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import Message
from typing import Any

from sqlmodel import Session, col, func, select

from adjudicator.i18n import _, language
from adjudicator.mail import addresses, config
from adjudicator.mail.body import Command, press_reply
from adjudicator.mail.parse import ParsedMail, auto_reason, headers_only, message_id_of
from adjudicator.store import Game, InboxMessage, OutboxMessage, is_transient, lock_game
from adjudicator.store.rows import insert_many_unless_exist

from ..common import verified
from ..common.clock import utcnow
from ..common.core import find_game, module_of, seat_row
from ..common.tokens import MailKey
from ..common.types import Task
from ..people.mailauth import NOT_VALID, Speaker, identify, registered_seats
from ..play import notify, outboxrows
from ..play.pace import seat_spoke
from ..upkeep import retention
from . import mailprep, mailunit
from .bounces import record_bounce
from .intake import addressed_to_seat, also_addressed, help_over_limit, note_duplicate
from .mailcommands import run, status_footer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Arrived:
    """A mail as `receive` stores it, its headers read before the transaction (no database)."""
    message_id: str
    raw: bytes  # only the headers of an oversized message
    values: dict[str, Any]  # the inbox row's columns


def arrived(raw: bytes, source: str, envelope_from: str | None = None, envelope_to: list[str] | None = None,
            peer: str = "") -> Arrived:
    """The row `receive` stores for this message. Oversized messages keep only their headers."""
    oversized = 0
    try:
        parsed_headers = headers_only(raw)
        mid = message_id_of(parsed_headers, raw)
        from_addr = str(parsed_headers.get("From") or "")[:998]
        subject = str(parsed_headers.get("Subject") or "")[:998]
    except Exception:  # headers that even the tolerant parser rejects
        mid, from_addr, subject = message_id_of(Message(), raw), "", ""
    if len(raw) > config.max_message_bytes():
        oversized, raw = len(raw), raw[: config.max_header_bytes()]
    return Arrived(mid, raw, {
        "message_id": mid, "raw": raw, "source": source, "envelope_from": (envelope_from or "")[:998],
        "envelope_to": [t[:320] for t in (envelope_to or [])][:20], "peer": peer[:64], "from_addr": from_addr,
        "subject": subject, "auth": {"oversized": oversized} if oversized else {}})


def receive(s: Session, raw: bytes, source: str, envelope_from: str | None = None,
            envelope_to: list[str] | None = None, peer: str = "") -> list[Task]:
    """Store one message; [] for a duplicate Message-ID. Oversized messages keep only their headers."""
    return receive_many(s, [arrived(raw, source, envelope_from, envelope_to, peer)])[0]


def receive_many(s: Session, mails: Sequence[Arrived]) -> list[list[Task]]:
    """Store `mails` in the caller's transaction, each as `receive` stores it after the ones before
    it (a second copy of a Message-ID in the batch is handed on like a stored, unprocessed one), in
    one read and one INSERT for them all: the SMTP listener stores a group of mails at a time, and
    on SQLite each statement is a turn of the writers' lock its committer thread holds (issue 31).
    Core statements, not ORM objects: the listener stores every mail (the ORM was half its cost)."""
    mids = list(dict.fromkeys(m.message_id for m in mails))
    known = {mid: (row_id, status) for row_id, status, mid in s.connection().execute(
        select(InboxMessage.id, InboxMessage.status, InboxMessage.message_id)
        .where(col(InboxMessage.message_id).in_(mids)))}
    fresh: dict[str, Arrived] = {}  # the first copy of each new Message-ID, in arrival order (the drain's)
    for mail in mails:
        if mail.message_id not in known:
            fresh.setdefault(mail.message_id, mail)
    ids = insert_many_unless_exist(s, InboxMessage, [m.values for m in fresh.values()], unique="message_id")
    out: list[list[Task]] = []
    for mail in mails:
        mid = mail.message_id
        if mid in known:
            row_id, status = known[mid]
            if status == "new":  # stored before, never processed (e.g. a retry after a 4xx): process it
                log.info("Message-ID %s received again before it was processed: handing it on", mid)
                out.append([("ingest", row_id)])
            else:
                note_duplicate(s, mid, mail.raw)
                out.append([])
            continue
        row_id = ids.get(mid)
        if row_id is None:  # two receivers racing on one Message-ID: the second one loses here
            log.info("duplicate Message-ID %s ignored (concurrent)", mid)
            out.append([])
            continue
        known[mid] = (row_id, "new")  # a later copy in this batch finds it stored
        out.append([("ingest", row_id)])
    return out


def process(s: Session, inbox_id: int, now: datetime | None = None) -> list[Task]:
    """Handle a stored message once (a second run finds it done and does nothing)."""
    now = now or utcnow()
    row = s.exec(select(InboxMessage).where(InboxMessage.id == inbox_id)).first()
    if row is None or row.status != "new":
        return []
    for game in addressed_games(row):  # game rows first (see the module doc), then the inbox row
        lock_game(s, game)
    row = s.exec(select(InboxMessage).where(InboxMessage.id == inbox_id).with_for_update()
                 .execution_options(populate_existing=True)).first()
    if row is None or row.status != "new":  # processed meanwhile by a concurrent run
        return []
    return process_locked(s, row, now)


def process_locked(s: Session, row: InboxMessage, now: datetime,
                   prepared: mailprep.Prepared | None = None) -> list[Task]:
    """Handle a `new` row the caller holds locked, after the games it names (`addressed_games`),
    in one savepoint: the caller's unit for this row (mailunit.py, the drain), else its own.
    `prepared`: what the caller computed from the row's bytes before (used only if it matches)."""
    if prepared is not None and prepared.key != mailprep.key_of(row):
        prepared = None  # computed from other bytes: nothing of it is used
    found = mailunit.claim(s, row.id)
    if found is not None:
        return _process(s, row, now, found, prepared)
    with mailunit.unit(s, row.id) as own:
        return _process(s, row, now, own, prepared)


def _process(s: Session, row: InboxMessage, now: datetime, unit: mailunit.MailUnit,
             prepared: mailprep.Prepared | None) -> list[Task]:
    learnt: dict[str, Any] = {}  # the row's columns the service filled in (written with its status)
    try:
        with outboxrows.batch(s) as mails:  # the mail's outbox rows: one prebuilt INSERT, not the ORM's
            tasks, status, outcome = _handle(s, row, now, learnt, prepared)
            tasks = mails.write(s, tasks)
    except Exception as exc:  # a bug must not crash the worker or leave the message half-done
        if is_transient(exc):  # a deadlock or a lost connection: the caller runs it all again
            raise
        log.exception("inbound message %s could not be processed", row.message_id)
        unit.restart()  # none of its writes stay, nor what it learnt about the row
        tasks, status, outcome, learnt = [], "dropped", f"internal error: {type(exc).__name__}", {}
    if status == "dropped":
        log.warning("inbound mail %s from %r dropped: %s", row.message_id, learnt.get("from_addr", row.from_addr),
                    outcome)
        raw = bytes(row.raw)
        if len(short := retention.trimmed(raw)) < len(raw):  # a dropped mail keeps its headers and a start
            learnt["raw"] = short
    mailunit.write_row(s, row, {**learnt, "status": status, "outcome": outcome[:2000], "processed_at": now})
    return tasks


def addressed_games(row: InboxMessage) -> list[str]:
    """The games named by the message's seat addresses, sorted: the caller locks them (not yet
    authenticated: locking a game costs nothing but waiting), in this one order, before anything
    writes a row referring to them. A SIGNON-only mail names its game in the body; the store's
    retry covers that case."""
    return mailprep.games_of(bytes(row.raw), list(row.envelope_to or []))


def _handle(s: Session, row: InboxMessage, now: datetime, learnt: dict[str, Any],
            prepared: mailprep.Prepared | None = None) -> tuple[list[Task], str, str]:
    """The mail's tasks, status and outcome; `learnt` takes the row's columns to update (the row
    object itself is left as read: the caller writes them with the status). `prepared`: the
    row's signals and parse computed before (mailprep.py); what it lacks is computed here."""
    raw = bytes(row.raw)
    envelope_from = mailprep.envelope_sender(row)
    signals = prepared.signals if prepared is not None else mailprep.signals(raw, row)
    learnt["auth"] = {**row.auth, "dkim": signals.dkim, "spf": signals.spf}
    if signals.bounced:  # never answered (no loops); a failure of our own mail is noted on its outbox row
        return [], "dropped", record_bounce(s, raw, list(row.envelope_to or []))
    if row.auth.get("oversized"):
        return _oversized(s, row, raw, envelope_from, now)
    by_token = addressed_to_seat(s, raw, list(row.envelope_to or []))
    body = prepared.body if prepared is not None else None
    if body is None or body.trusted != (by_token is not None):  # the guess was wrong: parse as it is
        body = mailprep.body(raw, envelope_from, trusted=by_token is not None)
    mail, commands = body.mail, body.commands
    if mail is None:
        return [], "dropped", f"too big: {body.too_big}"
    learnt["from_addr"], learnt["subject"] = mail.from_addr, mail.subject
    if mail.auto_reason:
        return [], "dropped", f"not answered ({mail.auto_reason}): no mail loops"
    signon = next((c.args for c in commands if c.name == "signon"), None)
    # a reply token found in the headers decides (tokens come before SIGNON), so it is not checked twice
    if by_token is not None:
        sender = addresses.plain(mail.from_addr)  # the decoded From, as identify() would read it
        who: Speaker | None = replace(by_token, from_registered=bool(sender) and sender == by_token.registered.lower())
    else:
        who = identify(s, mail.recipients + list(row.envelope_to or []), signon, mail.from_addr)
    if who is None:
        return _unidentified(s, row, mail.from_addr, mail.message_id, mail.subject, now)
    learnt["auth"] = {**learnt["auth"], "via": who.via, "from_registered": who.from_registered}
    g = find_game(s, who.game_id)
    learnt["game_id"], learnt["seat"] = g.id, who.seat
    released = _verify_sender(s, who, learnt["auth"], now)
    # the reply, and every message of the service on the way, in the seat's language
    with language(notify.seat_language(g, seat_row(s, g, who.seat))):
        tasks, status, outcome = _answer(s, row, mail, commands, who, g, now)
    return released + tasks, status, outcome


def _verify_sender(s: Session, who: Speaker, auth: dict[str, Any], now: datetime) -> list[Task]:
    """A mail from the seat's registered address that carries the seat's token (mailed only to that
    address) shows its owner reads it: the address is verified, and what waited for it goes out.
    Not when the sender's domain says the From is forged (DKIM or SPF fail)."""
    if not who.from_registered or "fail" in (auth.get("dkim"), auth.get("spf")):
        return []
    if not verified.is_verified(s, who.registered):
        verified.verify_address(s, who.registered, now)
        return verified.release_held(s, who.registered)
    return []


def _answer(s: Session, row: InboxMessage, mail: ParsedMail, commands: list[Command], who: Speaker, g: Game,
            now: datetime) -> tuple[list[Task], str, str]:
    """Run the identified seat's commands and compose its one reply (in the caller's language)."""
    if who.via == "press":  # a reply to a press mail is press to its sender, whole: never orders
        commands = [press_reply(mail.text, who.press_to)]
    result = run(s, who, commands, now)
    if not result.changed and _over_limit(s, who.registered, now):
        # a mail that only reads (STATUS, HELP, an error, an autoresponder's text) past the hourly
        # reply limit gets no reply: that breaks mail loops. A mail that acts is always answered.
        return result.tasks, "dropped", f"reply limit reached for {who.registered}; nothing in the mail acted"
    seat = seat_row(s, g, who.seat)
    if who.via != "press" or result.summary:
        seat_spoke(s, g, seat, now)  # any mail from the seat ends its civil disorder
    notice = also_addressed(s, mail.recipients + list(row.envelope_to or []), who)
    if not who.from_registered:
        sender = addresses.plain(mail.from_addr) or _("an unknown sender")
        notice = (notice + "\n\n" if notice else "") + (
            _("**Notice:** this mail came from %(sender)s, not from the address registered for your seat. It was "
              "accepted because it carried your seat's private reply address. If it was not you, tell the "
              "moderator at once.", sender=sender) if who.via == "token" else
            _("**Notice:** this mail came from %(sender)s, not from the address registered for your seat. It was "
              "accepted because it carried your seat's SIGNON password. If it was not you, tell the moderator "
              "at once.", sender=sender))
    game = module_of(g)
    news = notify.news_lines(s, g, game, seat) if seat.email else []
    sections = result.sections + (["## " + _("Since your last mail"), "", *news, ""] if news else [])
    body = notify.compose.reply_body(g.title or game.info.title, g.public_id, who.seat, sections,
                                     status_footer(s, who), notice)
    subject = _re(mail.subject, _("[%(game)s] result of your mail", game=g.public_id))
    tasks = notify.to_seat(s, g, seat, subject, body, "reply",
                           in_reply_to=mail.message_id, auto="auto-replied", force_mail=True)
    outcome = f"{who.seat}@{g.public_id} via {who.via}: {', '.join(result.summary) or 'nothing'}"
    if result.stopped:
        outcome += " (stopped at an error)"
    if not tasks:
        return result.tasks, "dropped", outcome + "; no registered address to reply to"
    return result.tasks + tasks, "done", outcome


def _re(subject: str, fallback: str) -> str:
    subject = " ".join(subject.split())[:200]
    if not subject:
        return fallback
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _over_limit(s: Session, address: str, now: datetime) -> bool:
    if not address:
        return False
    since = now - timedelta(hours=1)
    count = s.exec(select(func.count(col(OutboxMessage.id))).where(
        OutboxMessage.to == address, OutboxMessage.kind == "reply", OutboxMessage.created_at >= since)).one()
    return count >= config.replies_per_hour()


def _plain_reply(s: Session, to: str, subject: str, body: str, in_reply_to: str) -> list[Task]:
    hdrs = notify.compose.headers(None, in_reply_to=in_reply_to, auto="auto-replied")
    task = notify.queue_mail(s, None, to, subject, body, kind="reply", **hdrs)
    return [task] if task else []


def _unidentified(s: Session, row: InboxMessage, from_addr: str, message_id: str, subject: str,
                  now: datetime) -> tuple[list[Task], str, str]:
    """Help goes only to an address that is registered for some seat (so never to a forged
    stranger: no backscatter); anything else is a logged drop."""
    sender = addresses.plain(from_addr)
    if not sender or not registered_seats(s, sender):
        return [], "dropped", "sender not identified (no valid reply address or SIGNON) and not registered"
    if _over_limit(s, sender, now) or help_over_limit(s, sender, now):
        return [], "dropped", f"help limit reached for {sender}"
    seats = registered_seats(s, sender)
    # the stranger mail names no seat: answer in the language of the sender's first registered seat
    with language(notify.seat_language(*seats[0])):
        body = "\n".join(["# " + _("Your mail was not applied"), "", _(NOT_VALID), "",
                          notify.compose.help_text(notify.rules_url())])
        # a subject is someone's words: echoed only to a verified address (the From may be forged)
        subject = _re(subject if verified.is_verified(s, sender) else "", _("your mail to pbem"))
    return _plain_reply(s, sender, subject, body, message_id), "done", "help: not identified"


def _oversized(s: Session, row: InboxMessage, raw: bytes, envelope_from: str | None,
               now: datetime) -> tuple[list[Task], str, str]:
    size = row.auth.get("oversized")
    msg = headers_only(raw)
    if auto_reason(msg, envelope_from):
        return [], "dropped", f"oversized ({size} bytes) automatic mail"
    recipients = [str(v) for n in ("To", "Cc", "Delivered-To") for v in (msg.get_all(n) or [])]
    who: Speaker | None = identify(s, recipients + list(row.envelope_to or []), None, str(msg.get("From") or ""))
    if who is None or not who.registered:
        return [], "dropped", f"oversized ({size} bytes), sender not identified"
    g = find_game(s, who.game_id)
    seat = seat_row(s, g, who.seat)
    with language(notify.seat_language(g, seat)):
        body = _("Your mail had %(size)s bytes; at most %(max)s are read. Nothing in it was applied. Send your "
                 "orders as plain text, without attachments.", size=size, max=config.max_message_bytes())
        subject = _re(row.subject, _("your mail was too big"))
    tasks = notify.to_seat(s, g, seat, subject, body, "reply", in_reply_to=message_id_of(msg, raw),
                           auto="auto-replied", force_mail=True)
    return tasks, "done", f"oversized ({size} bytes): told {who.seat}"


__all__ = ["MailKey", "addressed_games", "process", "process_locked", "receive"]
