"""Error pages in plain words, and the mapping of service errors to HTTP statuses."""

from __future__ import annotations

import logging

from flask import Flask, g, render_template
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from adjudicator.i18n import N_
from adjudicator.store.outage import RETRY_AFTER, report, storage_problem

log = logging.getLogger(__name__)

TITLES = {
    400: N_("That request could not be used"),
    403: N_("This link does not open anything"),
    404: N_("Nothing here"),
    405: N_("Not allowed"),
    409: N_("That order came too late"),
    413: N_("Too much text"),
    503: N_("The server cannot store anything right now"),
    422: N_("That order was not accepted"),
    500: N_("Something went wrong on the server"),
}

# Shown for every refused secret link: the same words whether the game, the seat or the token
# is wrong, so a guess learns nothing about the seat.
BAD_LINK = N_(
    "This link is not valid (any more). Check that you copied the whole link from your "
    "invitation or e-mail. If a moderator replaced your seat, ask them for the new link."
)


def bad_link():
    """The one answer to every refused secret link: 403 and the same words, whether the game,
    the seat or the token was wrong (the status must not tell them apart either). In the browser's
    language, never the game's or the seat's: the language must not tell them apart either."""
    from .i18n import browser_language

    with force_locale(browser_language()):
        return error_page(403, _(BAD_LINK))


def error_page(status: int, message: str):
    title = _(TITLES[status]) if status in TITLES else _("Error")
    return render_template("errors/error.html", status=status, title=title, message=message), status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def _csrf(e: CSRFError):
        return error_page(400, _("The form was missing its security token or the token has "
                                 "expired. Go back, reload the page and send the form again."))

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException):
        status = e.code or 500
        if status in (403, 404) and g.get("secret_page"):
            return bad_link()
        message = e.description if status not in (404,) else _(
            "There is no page at this address. Check the link, or start from the game list.")
        return error_page(status, message)

    @app.errorhandler(Exception)
    def _unexpected(e: Exception):
        from . import backend

        svc = backend.errors()
        if isinstance(e, getattr(svc, "ServiceError", ())):
            return service_error_page(e)
        problem = storage_problem(e)
        if problem is not None:
            report(problem, "requests")
            body, status = error_page(503, _(
                "The server cannot store anything right now (its storage is full, read-only or "
                "out of reach). Nothing was changed by this request. Please try again in a few "
                "minutes; the operator has been told."))
            return body, status, {"Retry-After": str(RETRY_AFTER)}
        log.exception("unhandled error")
        return error_page(500, _("The server hit an unexpected error. Nothing was changed by "
                                 "this request; please try again in a moment."))


def status_of(e: Exception) -> int:
    from . import backend

    svc = backend.errors()
    for name, status in (("NotFound", 404), ("Forbidden", 403), ("StaleOrder", 409),
                         ("NotYourTurn", 409), ("Conflict", 409), ("BadOrder", 422),
                         ("TooMany", 429)):
        cls = getattr(svc, name, None)
        if cls is not None and isinstance(e, cls):
            return status
    return 400


def service_error_page(e: Exception):
    status = status_of(e)
    if status in (403, 404) and g.get("secret_page"):
        return bad_link()
    return error_page(status, str(e))
