"""Bounded work on a message body: a MIME shape check on the raw bytes before the `email` package
builds a tree, an iterative walk with depth and part caps, and HTML-to-text that costs at most a
linear pass for unknown senders and a capped html2text run for identified seats.

Why: the `email` parser and `Message.walk` recurse once per nesting level (a 1,000-level tree
raised RecursionError), and html2text is superlinear on nested lists (300 KB took a minute and
produced hundreds of MB). Every cap here is a plain count over bytes or tags.
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

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>|<!--.*?-->|<![^>]*>", re.DOTALL)
_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "pre",
          "section", "article", "header", "footer", "hr", "dd", "dt", "dl"}
_NESTING = {"ul", "ol", "li", "table", "tr", "td", "div", "blockquote", "dl", "section"}
_SKIP = {"script", "style", "head", "title", "blockquote"}  # blockquote: the quoted mail, never orders
_VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}


def html_shape(html: str) -> tuple[int, int]:
    """(tag count, deepest nesting of list/table/div/blockquote tags), in one linear pass."""
    tags = depth = deepest = 0
    for m in _TAG.finditer(html):
        tags += 1
        name = (m.group(2) or "").lower()
        if name in _NESTING:
            if m.group(1):
                depth = max(0, depth - 1)
            elif not m.group(0).endswith("/>"):
                depth += 1
                deepest = max(deepest, depth)
    return tags, deepest


def cheap_html_to_text(html: str) -> str:
    """Tags stripped in one linear pass: block tags end a line, quoted blocks, scripts and styles
    are dropped, entities decoded. Its output is never longer than its input."""
    out: list[str] = []
    skipping: list[str] = []
    pos = 0
    for m in _TAG.finditer(html):
        if not skipping:
            out.append(html[pos:m.start()])
        pos = m.end()
        name = (m.group(2) or "").lower()
        if not name:
            continue
        closing = bool(m.group(1))
        if name in _SKIP:
            if closing:
                if name in skipping:
                    del skipping[len(skipping) - 1 - skipping[::-1].index(name):]
            elif name not in _VOID and not m.group(0).endswith("/>"):
                skipping.append(name)
            continue
        if not skipping and name in _BLOCK:
            out.append("\n")
    if not skipping:
        out.append(html[pos:])
    text = htmllib.unescape("".join(out)).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line) + "\n"


def html_to_text(html: str, trusted: bool) -> str:
    """`trusted` (the recipient token is a seat's): html2text, which keeps quoted blocks as `>`
    lines, when the HTML is small and shallow; otherwise, and always for unknown senders, the
    linear converter."""
    if trusted and len(html) <= HTML2TEXT_MAX_BYTES:
        tags, deepest = html_shape(html)
        if tags <= HTML2TEXT_MAX_TAGS and deepest <= HTML2TEXT_MAX_NESTING:
            import html2text

            h = html2text.HTML2Text()
            h.ignore_images = h.ignore_links = h.ignore_emphasis = True
            h.body_width = 0  # never wrap an order line
            return h.handle(html)
    return cheap_html_to_text(html)
