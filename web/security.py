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


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        # Every page: a secret link must never leak through a Referer header, and public pages
        # gain nothing from sending one.
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        if g.get("secret_page"):
            resp.headers["Cache-Control"] = "no-store"
            resp.headers["X-Robots-Tag"] = "noindex, nofollow"
        return resp
