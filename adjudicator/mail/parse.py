"""Raw bytes -> a ParsedMail: headers, loop signals and the body as plain text.

Caps come first: the header block and the whole message are measured on the raw bytes before the
`email` package sees them, and so is the MIME shape (mime.check_shape: nesting and part counts),
so a hostile tree never reaches the recursive parser. Any charset, quoted-printable and base64 are
decoded; an HTML-only mail is converted to text (mime.html_to_text: html2text, with quoted blocks
as `>` lines, only for a seat's small, shallow HTML; a linear tag stripper otherwise).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from functools import lru_cache

from . import config
from .headers import CachedHeaders
from .mime import MAX_PARTS, MimeTooComplex, check_shape, walk
from .mime import html_to_text as _html_to_text

__all__ = ["MAX_PARTS", "POLICY", "ParsedMail", "TooBig", "parse"]

# policy.default, each short header value parsed once (the same objects: tests/mail/test_parse_policy.py);
# reading a mail asked `email` to parse its Content-Type a dozen times, a fifth of processing it
POLICY = policy.default.clone(header_factory=CachedHeaders(maxsize=1024, max_chars=256))


class TooBig(Exception):
    pass


@dataclass
class ParsedMail:
    message_id: str
    from_addr: str = ""
    recipients: list[str] = field(default_factory=list)  # To, Cc, Delivered-To, X-Original-To values
    subject: str = ""
    references: list[str] = field(default_factory=list)
    auto_reason: str = ""  # why this must never be answered (auto-reply, bounce, list, our own)
    text: str = ""
    problem: str = ""  # why the body was not read (a refused MIME structure), for the reply


def header_block(raw: bytes) -> bytes:
    """The raw header block; TooBig if it (or the whole message) exceeds its cap."""
    if len(raw) > config.max_message_bytes():
        raise TooBig(f"the message has {len(raw)} bytes; the limit is {config.max_message_bytes()}")
    m = re.search(rb"\r?\n\r?\n", raw[: config.max_header_bytes() + 4])
    end = m.start() if m else len(raw)
    if end > config.max_header_bytes():
        raise TooBig(f"the headers are larger than {config.max_header_bytes()} bytes")
    return raw[:end]


def headers_only(raw: bytes) -> Message:
    """Headers of a message that is too big to parse whole (read from the first bytes only).
    Shared between callers: read it, never change it."""
    return _headers(raw[: config.max_header_bytes()])


@lru_cache(maxsize=32)  # processing one mail reads its headers three times (games, bounce, token)
def _headers(head: bytes) -> Message:
    return BytesHeaderParser(policy=policy.compat32).parsebytes(head)


def _h(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
        return " ".join(str(value).split())[:998] if value is not None else ""
    except Exception:  # a malformed encoded word must not stop us
        return ""


def message_id_of(msg: Message, raw: bytes) -> str:
    mid = _h(msg, "Message-ID")
    m = re.search(r"<[^<>\s]{1,900}>", mid)
    # no usable Message-ID: the content's hash, so the same bytes twice still dedupe
    return m.group(0) if m else f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


# a msg-id of dot-atoms only (RFC 5322 3.6.4 without its obsolete and quoted forms)
_ATOMS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_PLAIN_ID = re.compile(rf"<{_ATOMS}@{_ATOMS}>")


def _parsed_message_id(msg: Message, raw: bytes) -> str:
    """`message_id_of` for a message parsed with POLICY. A plain `<left@right>` value is what the
    policy's msg-id parser gives back for it, so it is taken as it is without that parser (a
    Message-ID is new in every mail, so the header cache never has it: a third of a parse);
    anything else goes through the parser as before (tests/mail/test_parse_policy.py)."""
    for name, value in msg.raw_items():
        if name.lower() == "message-id":
            if len(value) <= 902 and _PLAIN_ID.fullmatch(value):
                return value
            break
    return message_id_of(msg, raw)


def auto_reason(msg: Message, envelope_from: str | None) -> str:
    """Non-empty if replying could start a mail loop (RFC 3834 and common practice)."""
    auto = _h(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if _h(msg, "Precedence").lower() in ("bulk", "junk", "list", "auto_reply"):
        return "Precedence: " + _h(msg, "Precedence")
    if any(_h(msg, n) for n in ("X-Autoreply", "X-Autorespond", "X-PBEM-Game", "List-Unsubscribe")):
        return "automatic or list mail"
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "null envelope sender (a bounce)"
    if _h(msg, "Return-Path").strip() == "<>":
        return "null Return-Path (a bounce)"
    sender = _h(msg, "From").lower()
    if re.search(r"mailer-daemon|postmaster@|noreply|no-reply", sender):
        return "From a mailer daemon or no-reply address"
    if config.mail_from().lower() in sender:
        return "From our own address"
    if msg.get_content_type() == "multipart/report":
        return "a delivery report"
    return ""


def _decode(part: Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]  # an EmailMessage part (POLICY)
        return content if isinstance(content, str) else ""
    except (LookupError, UnicodeError, ValueError, AssertionError, KeyError, AttributeError, TypeError):
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            return ""
        for charset in (part.get_content_charset() or "", "utf-8"):
            try:
                return payload.decode(charset or "utf-8")
            except (LookupError, UnicodeError):
                continue
        return payload.decode("latin-1")


def html_to_text(html: str, trusted: bool = False) -> str:
    return _html_to_text(html, trusted)


def body_text(msg: Message, trusted: bool = False) -> str:
    """The first text/plain part; else the first text/html part, as text. `trusted`: the mail is
    addressed with a seat's token, so a small HTML body may get the careful conversion."""
    plain = html = None
    for part in walk(msg):
        if (part.get_content_disposition() or "") == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = _decode(part)
        elif ctype == "text/html" and html is None:
            html = _decode(part)
    if plain is not None and plain.strip():
        return plain
    return html_to_text(html, trusted) if html else (plain or "")


def parse(raw: bytes, envelope_from: str | None = None, trusted: bool = False) -> ParsedMail:
    """TooBig if over a cap; otherwise never raises on malformed input. A MIME structure that is
    too deep or has too many parts is not built: its headers are read, its body is empty and
    `problem` says why. `trusted`: addressed with a seat's reply token (see body_text)."""
    header_block(raw)
    problem = ""
    try:
        check_shape(raw)
        msg: EmailMessage = message_from_bytes(raw, policy=POLICY)
    except (MimeTooComplex, RecursionError) as exc:
        problem = str(exc) if isinstance(exc, MimeTooComplex) else "your mail's MIME structure is too deep"
        msg = message_from_bytes(header_block(raw) + b"\r\n\r\n", policy=POLICY)
    recipients = [v for n in ("To", "Cc", "Delivered-To", "X-Original-To") for v in _all(msg, n)]
    refs = re.findall(r"<[^<>\s]{1,900}>", _h(msg, "In-Reply-To") + " " + _h(msg, "References"))
    try:
        text = "" if problem else body_text(msg, trusted)
    except Exception:  # the email package has many corners; a bad body is just an empty one
        text = ""
    return ParsedMail(problem=problem,
        message_id=_parsed_message_id(msg, raw), from_addr=_h(msg, "From"), recipients=recipients,
        subject=_h(msg, "Subject"), references=refs[:20], auto_reason=auto_reason(msg, envelope_from),
        text=text.replace("\r\n", "\n")[: config.max_message_bytes()],
    )


def _all(msg: Message, name: str) -> list[str]:
    try:
        return [" ".join(str(v).split()) for v in (msg.get_all(name) or [])][:20]
    except Exception:
        return []
