"""The language a page is rendered in, for the code that renders it.

Apart from `web.i18n` (which chooses the locale, reading a seat's language through the backend)
so that the backend can ask for the page's language without importing its own caller."""

from __future__ import annotations

from flask import has_request_context
from flask_babel import get_locale

from adjudicator import i18n


def page_language() -> str:
    """The current page's language code ("en" outside a request)."""
    if not has_request_context():
        return i18n.DEFAULT
    return i18n.normal(str(get_locale() or i18n.DEFAULT))
