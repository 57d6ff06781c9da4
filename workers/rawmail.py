"""An outbox row's message as bytes, written directly: the same bytes as the email package's
`bytes(build_message(row))` (a test holds them equal), at a fraction of the cost.

A deadline burst sends thousands of notifications; building each as an `EmailMessage` and
flattening it (header objects parsed and refolded, the body written line by line) was most of a
worker's CPU per mail. Here a header whose value is plain (printable ASCII on one short line,
nothing the header's parser would rewrite) is written as it is; any other header is parsed and
folded by the email package itself, and the parts are encoded by the email package's own text
encoder, so what goes out cannot differ from the slow path.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from email.contentmanager import _encode_text  # the encoder EmailMessage.set_content uses
from typing import Any

_ADDRESS = frozenset({"from", "to", "cc", "bcc", "reply-to", "sender", "resent-from", "resent-to", "resent-cc",
                      "resent-bcc", "resent-sender"})
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")
_PLAIN_IDS = re.compile(r"<[A-Za-z0-9.+=_-]+@[A-Za-z0-9.-]+>( <[A-Za-z0-9.+=_-]+@[A-Za-z0-9.-]+>)*")
_PLAIN_TEXT = re.compile(r"[!-~]+( [!-~]+)*")  # single spaces between printable ASCII words
_FROM = re.compile(r"^From ", re.MULTILINE)  # email.generator's
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


def header_bytes(policy: Any, name: str, value: str, nl: str) -> bytes:
    if plain(name, value, policy.max_line_length):
        return f"{name}: {value}{nl}".encode("ascii")
    parsed = policy.header_store_parse(name, value)[1]
    return policy.clone(linesep=nl).fold_binary(name, parsed)


def _lines(payload: str, nl: str) -> str:
    """The payload as the generator writes it: every line break as `nl`. `_encode_text` joins
    the lines with "\n" only (it split them on every CR and LF), so no other break is left."""
    return payload if nl == "\n" else payload.replace("\n", nl)


def _mangled(payload: str) -> str:
    """`_FROM.sub(">From ", payload)` (a line starting "From " gets a ">"), as plain replaces: the
    pattern, anchored at every line, scanned the whole part position by position."""
    if payload.startswith("From "):
        payload = ">" + payload
    return payload.replace("\nFrom ", "\n>From ")


def _part(policy: Any, subtype: str, text: str, nl: str, mime_version: bool, mangle_from: bool) -> str:
    cte, payload = _encode_text(text, "utf-8", None, policy)
    if mangle_from:
        payload = _mangled(payload)
    head = f'Content-Type: text/{subtype}; charset="utf-8"{nl}Content-Transfer-Encoding: {cte}{nl}'
    if mime_version:  # EmailMessage.add_alternative's new part carries one, the moved part none
        head += f"MIME-Version: 1.0{nl}"
    return head + nl + _lines(payload, nl)


def message_bytes(policy: Any, head: bytes, text: str, html: str, nl: str = "\n", mangle_from: bool = False,
                  boundary: Callable[[], str] | None = None) -> bytes:
    """multipart/alternative of `text` (plain) and `html`, after the headers `head` (header_bytes
    of each): what `EmailMessage.set_content(text)` then `add_alternative(html, subtype="html")`
    builds, flattened with line separator `nl`; `mangle_from`: a body line starting "From " gets
    a ">" (mbox quoting, which smtplib's send_message applies and bytes(msg) does not).
    `boundary` makes the separator (tests)."""
    parts = [_part(policy, "plain", text, nl, False, mangle_from), _part(policy, "html", html, nl, True, mangle_from)]
    make = boundary or _boundary
    mark = make()
    while any("--" + mark in p for p in parts):
        mark = make()
    head += f'MIME-Version: 1.0{nl}Content-Type: multipart/alternative;{nl} boundary="{mark}"{nl}{nl}'.encode()
    body = f"--{mark}{nl}{parts[0]}{nl}--{mark}{nl}{parts[1]}{nl}--{mark}--{nl}"
    return head + body.encode("ascii", "surrogateescape")


def _boundary() -> str:
    # as email.generator makes one (random, not secret: only unique within the message)
    return "=" * 15 + f"{random.randrange(sys.maxsize):0{len(repr(sys.maxsize - 1))}d}" + "=="  # noqa: S311
