"""Markdown -> safe HTML for the web pages, through the project's one renderer and sanitiser
policy (`adjudicator.render`), so pages and e-mails treat game text and player text alike."""

from __future__ import annotations

from markupsafe import Markup

from adjudicator.render import markdown_to_html


def render_markdown(text: str | None) -> Markup:
    """Sanitised HTML for a Markdown string (an empty string for None)."""
    return Markup(markdown_to_html(text)) if text else Markup("")
