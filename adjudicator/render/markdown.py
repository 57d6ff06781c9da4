"""Markdown rendering. Game renderers and players write Markdown; nh3 removes anything unsafe
(scripts, event handlers, javascript: links, and images, which could track who reads a page) after
rendering, so raw HTML in the input is harmless."""

from __future__ import annotations

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


@lru_cache(maxsize=65536)  # log lines repeat on every page view of a long game
def markdown_to_html(text: str) -> str:
    html = _converter().reset().convert(text or "")
    return nh3.clean(
        html, tags=TAGS, attributes=ATTRIBUTES, url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )
