"""An outbox row's message: `email.message.EmailMessage`, plain text and its HTML as
multipart/alternative, flattened by the email package's own generator.

A deadline burst sends thousands of notifications, so what the email package would compute again
for every mail is kept, through its public hooks (a policy's `header_store_parse`, `fold_binary`
and `header_max_count`, a header factory):

- a header whose value is plain (printable ASCII on one short line, nothing a header parser would
  rewrite) is stored as the string it is, which the policy writes unchanged: the same bytes a
  parsed header folds to, without the parse (an address's was a third of a message's cost);
- other headers are parsed once per value (CachedHeaders) and folded once per header object;
- the MIME part of a text is built once (a few texts repeat: a digest, a broadcast);
- the boundary is drawn once per process, so the multipart headers repeat and are parsed once;
  a message one of whose parts holds it gets a fresh one (the generator's own rule).
"""

from __future__ import annotations

import email.policy
import io
import random
import re
import sys
import threading
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.utils import format_datetime
from functools import lru_cache
from typing import Any

from adjudicator.mail import config
from adjudicator.mail.headers import CachedHeaders, header_name_ok, header_value
from adjudicator.render.markdown import markdown_blocks_to_html
from adjudicator.service import message_id_for
from adjudicator.store import OutboxMessage

_ADDRESS = frozenset({"from", "to", "cc", "bcc", "reply-to", "sender", "resent-from", "resent-to", "resent-cc",
                      "resent-bcc", "resent-sender"})
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")
_PLAIN_IDS = re.compile(r"<[A-Za-z0-9.+=_-]+@[A-Za-z0-9.-]+>( <[A-Za-z0-9.+=_-]+@[A-Za-z0-9.-]+>)*")
_PLAIN_TEXT = re.compile(r"[!-~]+( [!-~]+)*")  # single spaces between printable ASCII words
# headers the message model reads back as objects (dates, MIME): always parsed
_PARSED = frozenset({"date", "resent-date", "orig-date", "mime-version", "content-type",
                     "content-disposition", "content-transfer-encoding"})


def plain(name: str, value: str, max_line: int = 78) -> bool:
    """Whether the email package writes `name: value` unchanged, on one line."""
    key = name.lower()
    if len(name) + 2 + len(value) > max_line or key in _PARSED or "=?" in value:
        return False
    if key in _ADDRESS:
        return _PLAIN_ADDRESS.fullmatch(value) is not None
    if key in ("message-id", "in-reply-to", "references"):
        return _PLAIN_IDS.fullmatch(value) is not None
    return _PLAIN_TEXT.fullmatch(value) is not None


class MailPolicy(email.policy.EmailPolicy):
    """The default policy (email.policy.default), with what a burst's mails repeat kept."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if type(value) is str and plain(name, value, self.max_line_length):
            return name, value  # written as it is (a read parses it: header_fetch_parse)
        return super().header_store_parse(name, value)

    def fold_binary(self, name: str, value: Any) -> bytes:
        if not hasattr(value, "name"):  # a plain string: written unchanged, nothing to keep
            return super().fold_binary(name, value)
        return _FOLDED.get(self, name, value)

    def header_max_count(self, name: str) -> int | None:
        return _max_count(name)


class _FoldedHeaders:
    """A header object's folded bytes, per policy settings: header objects are immutable and
    shared (CachedHeaders), and their folding depends only on these settings. Each entry holds
    its object, so the object's id is its own while the entry lives."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.entries: dict[tuple[int, str, str, int | None, bool, str], tuple[Any, bytes]] = {}
        self.lock = threading.Lock()

    def get(self, policy: MailPolicy, name: str, value: Any) -> bytes:
        key = (id(value), name, policy.linesep, policy.max_line_length, policy.utf8, policy.cte_type)
        hit = self.entries.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
        folded = email.policy.EmailPolicy.fold_binary(policy, name, value)
        with self.lock:
            if len(self.entries) >= self.maxsize:
                self.entries.clear()
            self.entries[key] = (value, folded)
        return folded


_FOLDED = _FoldedHeaders(maxsize=16384)


@lru_cache(maxsize=256)
def _max_count(name: str) -> int | None:
    """How many headers `name` a message may have: the email package builds the header's class
    anew at every lookup (a seventh of a message's cost)."""
    return email.policy.default.header_max_count(name)


# a burst's mails repeat most of their headers (From, the MIME headers, a game's List-Id and
# References): parsing them was half of building a message
MAIL_POLICY = MailPolicy(header_factory=CachedHeaders(maxsize=8192))


@lru_cache(maxsize=4)
def _policy(linesep: str) -> MailPolicy:
    return MAIL_POLICY.clone(linesep=linesep)


@lru_cache(maxsize=64)
def _text_part(text: str) -> EmailMessage:
    """The plain part, as `set_content(text)` then `add_alternative` leave it (its MIME-Version
    stays on the message). Shared between messages: never changed once built."""
    part = EmailMessage(policy=MAIL_POLICY)
    part.set_content(text)
    del part["MIME-Version"]
    return part


@lru_cache(maxsize=64)
def _html_part(html: str) -> EmailMessage:
    """The HTML part, as `add_alternative(html, subtype="html")` makes it. Shared, never changed."""
    part = EmailMessage(policy=MAIL_POLICY)
    part.set_content(html, subtype="html")
    return part


def _draw_boundary() -> str:
    # as email.generator draws one (random, not secret: only unique within the message)
    return "=" * 15 + f"{random.randrange(sys.maxsize):0{len(repr(sys.maxsize - 1))}d}" + "=="  # noqa: S311


_BOUNDARY = _draw_boundary()


def build_message(row: OutboxMessage, boundary: str | None = None) -> EmailMessage:
    """The message of one outbox row: what `set_content(row.body)` then `add_alternative(html,
    subtype="html")` build. Every header value is folded to one line (header_value), so no title,
    name or quoted Message-ID can add a header or make the message unbuildable; a row's own header
    that cannot be parsed is left out, as is a second one of a header that may appear once.
    `boundary` (tests) is the multipart separator. Its parts are shared: change none of them."""
    msg = EmailMessage(policy=MAIL_POLICY)
    for name, value in fixed_headers(row):
        msg[name] = value
    for name, value in row_headers(row):
        try:
            msg[name] = value
        except (ValueError, TypeError, IndexError):  # a value the header class cannot parse: leave it out
            continue
    parts = (_text_part(row.body), _html_part(html(row)))
    mark = boundary or _BOUNDARY
    while boundary is None and any("--" + mark in str(part.get_payload()) for part in parts):
        mark = _draw_boundary()
    msg["MIME-Version"] = "1.0"
    msg["Content-Type"] = f'multipart/alternative; boundary="{mark}"'
    for part in parts:
        msg.attach(part)
    return msg


def message_bytes(row: OutboxMessage, linesep: str = "\n", mangle_from: bool = False,
                  boundary: str | None = None) -> bytes:
    """`bytes(build_message(row))` with `linesep` between lines; `mangle_from`: a body line
    starting "From " gets a ">", as `smtplib.send_message` writes a message (bytes(msg) does
    not)."""
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=mangle_from, policy=_policy(linesep)).flatten(build_message(row, boundary))
    return out.getvalue()


def fixed_headers(row: OutboxMessage) -> list[tuple[str, str]]:
    # the Message-ID is stable per row, so a repeated delivery is recognisably the same message
    # (and a bounce that returns its headers names the row)
    return [("From", header_value(config.mail_from())), ("To", address_header(row.to)),
            ("Subject", header_value(row.subject) or "(no subject)"), ("Date", format_datetime(row.created_at)),
            ("Message-ID", message_id_for(row.id or 0, int(row.created_at.timestamp())))]


def row_headers(row: OutboxMessage) -> list[tuple[str, str]]:
    return [(name, header_value(value)) for name, value in (row.headers or {}).items()
            if header_name_ok(name) and name.lower() not in ("from", "to", "subject", "date", "message-id",
                                                             "bcc", "cc", "sender", "return-path")]


def html(row: OutboxMessage) -> str:
    # a mail carrying a person's words brings its HTML, built from theirs as stored when written:
    # their Markdown is never parsed here (a hostile body cost a minute of the worker's time)
    inner = row.html if row.html is not None else markdown_blocks_to_html(row.body)
    return f"<html><body>{inner}</body></html>"


def address_header(to: str) -> str:
    """One address only: a To that smuggles a second line or a list is cut to its first address."""
    return header_value(to).split(",")[0].strip()
