"""Header safety: no user-supplied text (a title, a name, a subject, an address) can break or add
a mail header. Values are folded to one line at entry and again when a message is built, so an old
row written before the entry check still sends."""

from __future__ import annotations

import re

# every line break Python's str.splitlines knows, plus the other C0/C1 controls and DEL
_CONTROLS = re.compile(r"[\x00-\x1f\x7f\x80-\x9f\u2028\u2029]+")
MAX_HEADER_CHARS = 900  # below the 998-octet line limit of RFC 5322, before encoding


def one_line(text: str | None, limit: int = MAX_HEADER_CHARS) -> str:
    """`text` as one line: control characters and line breaks become spaces, runs of spaces one."""
    return " ".join(_CONTROLS.sub(" ", str(text or "")).split())[:limit]


def header_value(value: object, limit: int = MAX_HEADER_CHARS) -> str:
    """A value safe to assign to an `email.message.EmailMessage` header."""
    return one_line(str(value), limit)


def header_name_ok(name: str) -> bool:
    """A header field name: printable ASCII without a colon or a space (RFC 5322 ftext)."""
    return bool(re.fullmatch(r"[!-9;-~]{1,76}", name or ""))
