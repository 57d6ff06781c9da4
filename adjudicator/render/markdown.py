"""Markdown rendering. Game renderers and players write Markdown; nh3 removes anything unsafe
(scripts, event handlers, javascript: links, and images, which could track who reads a page) after
rendering, so raw HTML in the input is harmless."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import markdown as _markdown
import nh3

EXTENSIONS = ["extra", "sane_lists"]
TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "small", "span",
    "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "td": {"align"},
    "th": {"align"},
    "span": {"class"},
    "div": {"class"},
    "code": {"class"},
}


_local = threading.local()


def _converter() -> _markdown.Markdown:
    # Building a Markdown instance costs far more than converting a log line; keep one per thread.
    md = getattr(_local, "md", None)
    if md is None:
        md = _local.md = _markdown.Markdown(extensions=EXTENSIONS, output_format="html")
    return md


# A plain paragraph: each line starts with a letter or a code span, has no character any inline
# or block syntax of Markdown (with "extra") reacts to, no leading or trailing space, and its
# backticks pair up into one-backtick code spans. Markdown makes <p> of it and <code> of each
# span (trimmed), nothing else; tests/mail/test_markdown_paragraph.py holds the two equal.
_PLAIN_LINE = (
    r"(?:[^\W\d_]|`)[^\x00-\x1f\x7f-\x9f*_\[\]<>&\\{}|\s]*(?: [^\x00-\x1f\x7f-\x9f*_\[\]<>&\\{}|\s]+)*"
)
_PLAIN_PARAGRAPH = re.compile(f"{_PLAIN_LINE}(?:\n{_PLAIN_LINE})*")
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _plain_paragraph(text: str) -> str | None:
    """Markdown's HTML of a plain paragraph (see _PLAIN_LINE), or None for any other text. A
    reply's receipts are unique paragraphs, never from the cache (0.27 ms a reply before, 0.16 now).
    Line breaks at its end are no part of it (a reply's last paragraph ends with one: it took the
    whole Markdown conversion, 40 % of delivering a reply)."""
    text = text.rstrip("\n")
    if not _PLAIN_PARAGRAPH.fullmatch(text) or "``" in text:
        return None
    if any(line.count("`") % 2 for line in text.split("\n")):
        return None
    return "<p>" + _CODE_SPAN.sub(lambda m: f"<code>{m.group(1).strip()}</code>", text) + "</p>"


_HEADING = re.compile(r"(#{1,6}) ([^#\n]+)\n*")


def _plain_heading(text: str) -> str | None:
    """Markdown's HTML of an ATX heading ("# " to "###### ") whose text is a plain paragraph's one
    line without a "#" (which could close the heading), or None. A mail's title names its game and
    seat: unique to each mail of a deadline burst, it took a whole Markdown conversion each."""
    match = _HEADING.fullmatch(text)
    inner = _plain_paragraph(match.group(2)) if match else None
    if match is None or inner is None:
        return None
    level = len(match.group(1))
    return f"<h{level}>{inner[3:-4]}</h{level}>"


# An indented code block's line: four spaces, then text without control characters, line
# separators, "<", ">", "&" or a backslash, starting and ending with a non-space (Unicode's)
_CODE_LINE = (r"    [^\s\x00-\x1f\x7f-\x9f<>&\\](?:[^\x00-\x1f\x7f-\x9f\u2028\u2029<>&\\]*"
              r"[^\s\x00-\x1f\x7f-\x9f<>&\\])?")
_CODE_BLOCK = re.compile(f"(?:{_CODE_LINE}\n)*{_CODE_LINE}")


def _plain_then_code(text: str) -> str | None:
    """Markdown's HTML of a plain paragraph or heading followed by one indented code block of
    plain lines, or None. A reply's receipt is such a block ("Keep this line: ..." and the
    receipt line): unique to each mail, it took a whole Markdown conversion per reply."""
    first, _gap, block = text.partition("\n\n")
    block = block.rstrip("\n")
    if not first or not _CODE_BLOCK.fullmatch(block):
        return None
    head = _plain_paragraph(first) or _plain_heading(first)
    if head is None:
        return None
    code = "\n".join(line[4:] for line in block.split("\n"))
    return f"{head}\n<pre><code>{code}\n</code></pre>"


@lru_cache(maxsize=65536)  # log lines repeat on every page view of a long game
def markdown_to_html(text: str) -> str:
    html = _plain_paragraph(text or "") or _plain_heading(text or "") or _plain_then_code(text or "")
    if html is None:
        html = _converter().reset().convert(text or "")
    return sanitise(html)


def sanitise(html: str) -> str:
    """The one policy for HTML built from text: allowed tags and attributes, safe links."""
    return nh3.clean(
        html, tags=TAGS, attributes=ATTRIBUTES, url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


# Block boundaries: a blank line whose next line starts at column 0 (an indented line continues
# a code block or a list item). A block starting with a list marker or ": " may continue the list
# or definition list before it (loose items), so it stays with it.
_BOUNDARY = re.compile(r"\n[ \t]*\n(?=\S)")
_CONTINUES = re.compile(r"([-*+]|\d+[.)])[ \t]|:[ \t]")
# document-wide constructs (reference links, footnotes, abbreviations), fences and raw HTML:
# such a text is converted whole
_WHOLE = re.compile(r"^ {0,3}(\[[^\]\n]+\]:|\*\[|```|~~~|<)|\[\^", re.M)


def _spans_blocks(text: str) -> bool:
    """`_WHOLE.search(text)`, asked only of a text with a character its every match needs (the
    pattern, anchored at every line, scanned a whole mail position by position)."""
    return ("[" in text or "<" in text or "```" in text or "~~~" in text) and _WHOLE.search(text) is not None


def markdown_blocks_to_html(text: str) -> str:
    """The HTML of `markdown_to_html`, converted block by block so that blocks repeated across
    many texts come from its cache: the board tables of one game and the grammar help are the
    same in every seat's notification, and a deadline burst sends thousands (the Markdown
    conversion was most of a mail's cost). A text using anything that spans blocks is converted
    whole."""
    if _spans_blocks(text or ""):
        return markdown_to_html(text)
    blocks: list[str] = []
    for block in _BOUNDARY.split(text or ""):
        if blocks and _CONTINUES.match(block):
            blocks[-1] += "\n\n" + block
        else:
            blocks.append(block)
    return "\n".join(markdown_to_html(block) for block in blocks)
