"""What an inbound mail's processing reads from its own bytes and envelope alone: the DKIM/SPF
signals, the bounce check, the games it names, the MIME parse and the body's commands (issue 16).

These are pure functions of the stored row, so the inbox drain computes them before its write
transaction (`prepare`): on SQLite the one write lock is then not held while a chunk's mails are
parsed. `inbound._handle` takes a prepared mail only for the row it was computed from (`matches`:
the same bytes and envelope) and computes whatever it lacks itself, in the same order as before;
the parse's `trusted` (a seat's token in the headers) is a guess here, so a mail whose token does
not verify under the lock is parsed again as the untrusted mail it is. Every cap of the parse is
the parse's own (mail/parse.py); a failure here only means the mail is handled the usual way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from adjudicator.mail import addresses
from adjudicator.mail.body import Command, parse_body
from adjudicator.mail.bounce import is_bounce
from adjudicator.mail.parse import ParsedMail, TooBig, headers_only, parse
from adjudicator.mail.signals import dkim_result, spf_result

from .intake import RECIPIENT_HEADERS, structure_error

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Signals:
    dkim: str
    spf: str
    bounced: bool  # never answered


@dataclass(frozen=True)
class Body:
    trusted: bool  # the parse's `trusted`: addressed with a seat's token
    mail: ParsedMail | None  # None: over a cap (`too_big` says which)
    too_big: str
    commands: list[Command]


@dataclass(frozen=True)
class Prepared:
    key: tuple[Any, ...]  # the row's inputs it was computed from (`key_of`)
    games: list[str]
    signals: Signals
    body: Body | None  # None: a bounce or an oversized mail (their handling reads no body)


def key_of(row: Any) -> tuple[Any, ...]:
    """Everything of an inbox row (an ORM object or a Core row) that the functions here read."""
    return (bytes(row.raw), row.source, row.envelope_from, row.peer, tuple(row.envelope_to or ()),
            bool((row.auth or {}).get("oversized")))


def envelope_sender(row: Any) -> str | None:
    return row.envelope_from if row.source == "smtp" else None


def signals(raw: bytes, row: Any) -> Signals:
    try:
        bounced = is_bounce(headers_only(raw), envelope_sender(row))
    except Exception:  # headers that even the tolerant parser rejects are no bounce we can read
        bounced = False
    return Signals(dkim_result(raw), spf_result(row.peer, row.envelope_from), bounced)


def body(raw: bytes, envelope_from: str | None, trusted: bool) -> Body:
    try:
        mail = parse(raw, envelope_from, trusted=trusted)
    except TooBig as exc:
        return Body(trusted, None, str(exc), [])
    return Body(trusted, mail, "", structure_error(mail) if mail.problem else parse_body(mail.text))


def games_of(raw: bytes, envelope_to: list[str]) -> list[str]:
    """The games named by the message's seat addresses, sorted (see `inbound.addressed_games`)."""
    try:
        msg = headers_only(raw)
        values = [str(v) for n in RECIPIENT_HEADERS for v in (msg.get_all(n) or [])]
    except Exception:  # headers the tolerant parser rejects: nothing to lock
        values = []
    return sorted({game for game, _seat, _token in addresses.seat_addresses(values + envelope_to)[:5]})


def signon_games(prepared: Prepared) -> list[str]:
    """The game a SIGNON command of the body names, as `inbound._handle` reads it ([] if none)."""
    commands = prepared.body.commands if prepared.body is not None else []
    found = next((c.args for c in commands if c.name == "signon"), None)
    return [found[0].lower()] if found and len(found) == 3 else []


def prepare(row: Any) -> Prepared | None:
    """The row's signals, games and (unless a bounce or oversized) its parse, with `trusted`
    guessed from whether it names a seat address at all; None if anything fails (the mail is then
    processed as before, and fails there the same way)."""
    try:
        raw, key = bytes(row.raw), key_of(row)
        found = signals(raw, row)
        games = games_of(raw, list(row.envelope_to or []))
        if found.bounced or key[-1]:
            return Prepared(key, games, found, None)
        return Prepared(key, games, found, body(raw, envelope_sender(row), trusted=_names_a_seat(raw, row)))
    except Exception:
        log.debug("inbound mail %s not prepared", getattr(row, "id", None), exc_info=True)
        return None


def _names_a_seat(raw: bytes, row: Any) -> bool:
    """Whether `intake.addressed_to_seat` may find a token: a seat address among the recipients."""
    try:
        msg = headers_only(raw)
        recipients = [" ".join(str(v).split()) for n in RECIPIENT_HEADERS for v in (msg.get_all(n) or [])][:20]
    except Exception:
        return False
    return bool(addresses.seat_addresses(recipients + list(row.envelope_to or [])))
