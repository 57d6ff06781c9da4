"""Pages in the reader's language with Flask-Babel, from the same catalogs as the mails.

The locale of a page: `?lang=` when given (a reader's explicit choice, e.g. on the create form),
else the seat's language on a seat's pages, else the game's on a game's pages, else the
browser's Accept-Language. The translations come from `adjudicator.i18n` (compiled in memory
from the `.po`), so pages, mails and service messages share one catalog per language.
"""

from __future__ import annotations

from functools import cached_property

from flask import Flask, has_request_context, request
from flask_babel import Babel, Domain, get_locale

from adjudicator import i18n, service
from adjudicator.engine import Message

from . import backend
from .pagelanguage import page_language


class CatalogDomain(Domain):
    """Flask-Babel's domain, reading our in-memory compiled catalogs instead of `.mo` files."""

    def get_translations(self):  # type: ignore[no-untyped-def]
        if not has_request_context():
            return i18n.translations(i18n.DEFAULT)
        return i18n.translations(str(get_locale() or i18n.DEFAULT))


class CatalogBabel(Babel):
    @cached_property
    def domain_instance(self) -> Domain:  # type: ignore[override]
        return CatalogDomain(domain=i18n.DOMAIN)


def select_locale() -> str:
    asked = request.args.get("lang", "")
    if asked and i18n.normal(asked) == asked.lower():
        return i18n.normal(asked)
    values = request.view_args or {}
    game_id = values.get("game_id")
    if isinstance(game_id, str) and game_id:
        try:  # the seat's own language only with its valid seat link
            code = backend.read_raw(service.language_of, game_id, values.get("seat"), values.get("seat_token"))
        except service.ServiceError:
            code = None
        if code:
            return i18n.normal(code)
    return browser_language()


def browser_language() -> str:
    return request.accept_languages.best_match(list(i18n.LANGUAGES), default=i18n.DEFAULT)


def game_text(msg: Message) -> str:
    """A game's message (msgid and values, e.g. a card's effect text) in the page's language."""
    with i18n.language(page_language()):
        return i18n.translate(msg)


def register_i18n(app: Flask) -> None:
    CatalogBabel(app, locale_selector=select_locale, default_locale=i18n.DEFAULT)
    app.jinja_env.globals["languages"] = i18n.LANGUAGES
    app.jinja_env.globals["page_language"] = page_language
