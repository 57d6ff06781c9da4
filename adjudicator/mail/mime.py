"""Bounded work on a message body: a MIME shape check on the raw bytes before the `email` package
builds a tree, an iterative walk with depth and part caps, and HTML-to-text that costs at most a
linear pass for unknown senders and a capped html2text run for identified seats.

Why: the `email` parser and `Message.walk` recurse once per nesting level (a 1,000-level tree
raised RecursionError), and html2text is superlinear on nested lists (300 KB took a minute and
produced hundreds of MB), and Python's HTML parser, under html2text, rescans the rest of the text
for every "<" that opens no complete tag (64 KB of `<a b='` took 5-25 s). Every cap here is a
plain count over bytes or tags.
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Iterator
from email.message import Message

MAX_DEPTH = 20  # nesting of multipart / message parts
MAX_CONTAINERS = 40  # multipart and message/* headers in the raw bytes
MAX_PARTS = 50  # leaf parts looked at
MAX_CONTENT_TYPES = 500  # Content-Type headers in the raw bytes
HTML2TEXT_MAX_BYTES = 64 * 1024  # larger HTML from a seat goes through the cheap converter
HTML2TEXT_MAX_TAGS = 4000
HTML2TEXT_MAX_NESTING = 40  # open list/table/div/blockquote levels
HTML2TEXT_MAX_STRAY = 20  # "<" that open no complete tag (a stray "a < b" in a mail is fine)

_CONTAINER = re.compile(rb"(?im)^content-type:\s*(multipart|message)/")
_CTYPE = re.compile(rb"(?im)^content-type:")


class MimeTooComplex(Exception):
    """A structure the intake refuses to build (its message says what to do)."""


def check_shape(raw: bytes) -> None:
    """Refuse, before parsing, a message whose MIME tree could be deep or huge. Parts are
    counted on the raw bytes, so the refusal costs one regex pass."""
    containers = len(_CONTAINER.findall(raw))
    if containers > MAX_CONTAINERS:
        raise MimeTooComplex(f"your mail has {containers} nested MIME containers (at most {MAX_CONTAINERS}); "
                             "send your orders as a plain text mail")
    types = len(_CTYPE.findall(raw))
    if types > MAX_CONTENT_TYPES:
        raise MimeTooComplex(f"your mail has {types} MIME parts (at most {MAX_CONTENT_TYPES}); "
                             "send your orders as a plain text mail")


def walk(msg: Message) -> Iterator[Message]:
    """Leaf parts, depth first, without recursion; stops at MAX_DEPTH levels and MAX_PARTS leaves."""
    stack: list[tuple[Message, int]] = [(msg, 0)]
    leaves = 0
    while stack and leaves < MAX_PARTS:
        part, depth = stack.pop()
        if part.is_multipart():
            if depth >= MAX_DEPTH:
                continue
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((c, depth + 1) for c in reversed(children[:MAX_PARTS]) if isinstance(c, Message))
            continue
        leaves += 1
        yield part


# HTML -------------------------------------------------------------------------------------------

# `[^<>]*`, not `[^>]*`: a run of "<" without ">" must not make every "<" scan to the end
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^<>]*>")
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|tr|h[1-6]|ul|ol|table|pre|section|article|header|footer|hr|dd|dt|dl)"
                        r"(?![a-zA-Z0-9])[^<>]*>", re.IGNORECASE)
_SKIP_TAG = re.compile(r"<(/?)(script|style|head|title|blockquote)(?![a-zA-Z0-9])[^<>]*>", re.IGNORECASE)
_ANY_TAG = re.compile(r"</?[a-zA-Z!?][^<>]*>")
_NESTING = {"ul", "ol", "li", "table", "tr", "td", "div", "blockquote", "dl", "section"}


def html_shape(html: str) -> tuple[int, int]:
    """(tag count, deepest nesting of list/table/div/blockquote tags), in one linear pass."""
    tags = depth = deepest = 0
    for m in _TAG.finditer(html):
        tags += 1
        name = m.group(2).lower()
        if name in _NESTING:
            if m.group(1):
                depth = max(0, depth - 1)
            elif not m.group(0).endswith("/>"):
                depth += 1
                deepest = max(deepest, depth)
    return tags, deepest


def _drop_comments(html: str) -> str:
    """Comments removed with str.find (an unclosed one runs to the end, as in a browser)."""
    out: list[str] = []
    pos = 0
    while True:
        start = html.find("<!--", pos)
        if start < 0:
            out.append(html[pos:])
            return "".join(out)
        out.append(html[pos:start])
        end = html.find("-->", start + 4)
        if end < 0:
            return "".join(out)
        pos = end + 3


def _drop_skipped(html: str) -> str:
    """Scripts, styles, the head and quoted blocks (nested blockquotes counted) removed."""
    out: list[str] = []
    pos = 0
    open_tags: list[str] = []
    for m in _SKIP_TAG.finditer(html):
        name = m.group(2).lower()
        if not open_tags:
            out.append(html[pos:m.start()])
        if m.group(1):
            if name in open_tags:
                del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name):]
        elif not m.group(0).endswith("/>"):
            open_tags.append(name)
        pos = m.end()
    if not open_tags:
        out.append(html[pos:])
    return "".join(out)


def cheap_html_to_text(html: str) -> str:
    """Tags stripped by linear passes: block tags end a line; quoted blocks, scripts, styles and
    comments are dropped; entities decoded. Its output is never longer than its input."""
    text = _drop_skipped(_drop_comments(html))
    text = _ANY_TAG.sub("", _BLOCK_TAG.sub("\n", text))
    text = htmllib.unescape(text).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line) + "\n"


def html_to_text(html: str, trusted: bool) -> str:
    """`trusted` (the recipient token is a seat's): html2text, which keeps quoted blocks as `>`
    lines, when the HTML is small and shallow; otherwise, and always for unknown senders, the
    linear converter."""
    if trusted and len(html) <= HTML2TEXT_MAX_BYTES:
        tags, deepest = html_shape(html)
        stray = html.count("<") - sum(1 for _ in _ANY_TAG.finditer(html))
        if tags <= HTML2TEXT_MAX_TAGS and deepest <= HTML2TEXT_MAX_NESTING and stray <= HTML2TEXT_MAX_STRAY:
            import html2text

            h = html2text.HTML2Text()
            h.ignore_images = h.ignore_links = h.ignore_emphasis = True
            h.body_width = 0  # never wrap an order line
            return h.handle(html)
    return cheap_html_to_text(html)
