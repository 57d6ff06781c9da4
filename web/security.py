"""Response headers: a restrictive CSP (scripts only from our own static files, and the pages work
without them), no referrers, and
no caching of pages reached by a secret link."""

from __future__ import annotations

from functools import wraps

from flask import Flask, Response, g

CSP = "; ".join([
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",  # the live pages poll their version (static/enhance.js)
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
])


def secret_page(view):
    """Mark a view whose URL carries a secret (seat, invite or admin token)."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        g.secret_page = True
        return view(*args, **kwargs)

    return wrapper


# every response's, unless a view set its own; and those of a page reached by a secret link
_EVERY_PAGE = (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
               # a secret link must never leak through a Referer header, and public pages gain
               # nothing from sending one
               ("Referrer-Policy", "no-referrer"))
_SECRET_PAGE = (("Cache-Control", "no-store"), ("X-Robots-Tag", "noindex, nofollow"))


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def _headers(resp: Response) -> Response:
        # the names the response has, read once: each setdefault or set compared every header
        # name again (six walks of the list: 11 µs a redirect, 4 µs so)
        headers = resp.headers
        present = {name.lower() for name in headers.keys()}
        for name, value in _EVERY_PAGE:
            if name.lower() not in present:
                headers.add(name, value)
        if g.get("secret_page"):
            for name, value in _SECRET_PAGE:
                headers[name] = value  # replaces a view's own
        return resp
