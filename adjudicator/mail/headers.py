"""Header safety: no user-supplied text (a title, a name, a subject, an address) can break or add
a mail header. Values are folded to one line at entry and again when a message is built, so an old
row written before the entry check still sends."""

from __future__ import annotations

import re
from email.headerregistry import BaseHeader, HeaderRegistry
from functools import lru_cache

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


class CachedHeaders(HeaderRegistry):
    """Python's header objects (policy.default's), parsed once per (name, value): the objects are
    immutable strings, safe to share between messages, and `email` parses a header again at
    every read (an inbound mail's Content-Type a dozen times). Outbound mails of a burst repeat
    most of their headers; inbound ones their MIME headers. Values longer than `max_chars` are
    parsed each time as before (a hostile header must not pin megabytes in the cache)."""

    def __init__(self, maxsize: int, max_chars: int | None = None) -> None:
        super().__init__()
        self.max_chars = max_chars
        self._parsed = lru_cache(maxsize=maxsize)(super().__call__)

    def __call__(self, name: str, value: str) -> BaseHeader:
        if self.max_chars is not None and len(value) > self.max_chars:
            return super().__call__(name, value)
        return self._parsed(name, value)
