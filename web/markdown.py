"""Markdown -> safe HTML for the web pages, through the project's one renderer and sanitiser
policy (`adjudicator.render`), so pages and e-mails treat game text and player text alike."""

from __future__ import annotations

from markupsafe import Markup

from adjudicator.render import markdown_to_html
from adjudicator.render.markdown import sanitise


def render_markdown(text: str | None) -> Markup:
    """Sanitised HTML for a Markdown string (an empty string for None)."""
    return Markup(markdown_to_html(text)) if text else Markup("")


def stored_html(html: str | None) -> Markup:
    """HTML rendered and sanitised when its text was written (press): shown as stored, cleaned
    once more on the way out (a linear pass) in case the row was changed in the database."""
    return Markup(sanitise(html)) if html else Markup("")
