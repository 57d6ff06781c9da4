"""The web adapter: Flask app factory, blueprints, Jinja templates.

The web layer translates HTTP into calls of `adjudicator.service` and back; it decides nothing
about a game. See docs/service-api.md for the contract and /work/shared/DESIGN.md (Web).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from adjudicator.service import server_key

csrf = CSRFProtect()
log = logging.getLogger(__name__)


def _default_config() -> dict[str, Any]:
    var_dir = os.environ.get("PBEM_VAR_DIR", "var")
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{var_dir}/pbem.sqlite",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or None,
        "PBEM_BASE_URL": os.environ.get("PBEM_BASE_URL", "").rstrip("/"),
        "PBEM_VAR_DIR": var_dir,
        # Re-raise errors of per-game HTML boards instead of falling back to Markdown (tests).
        "PBEM_BOARD_STRICT": os.environ.get("PBEM_BOARD_STRICT", "") == "1",
        "WTF_CSRF_ENABLED": True,
        "WTF_CSRF_TIME_LIMIT": None,  # a seat page may stay open for days between moves
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # the dev mail page (every player's mail): only in development mode bound to loopback
        # (`pbem run` sets both; web/mail.py dev_mail_allowed)
        "PBEM_DEV_MAIL": os.environ.get("PBEM_DEV_MAIL", "") == "1",
        "PBEM_BIND_HOST": os.environ.get("PBEM_BIND_HOST", ""),
        "PBEM_MAIL_WEBHOOK_SECRET": os.environ.get("PBEM_MAIL_WEBHOOK_SECRET", ""),
        # reverse proxies in front of gunicorn that set X-Forwarded-For/-Proto (0: none, the headers
        # are ignored so that a client cannot forge its address; see docs/operations.md, Configure)
        # a Prometheus scraper from another host sends it as a bearer token (loopback needs none)
        "PBEM_METRICS_TOKEN": os.environ.get("PBEM_METRICS_TOKEN", ""),
        "PBEM_PROXY_HOPS": int(os.environ.get("PBEM_PROXY_HOPS", "0") or 0),
    }


def unsafe_settings(config: dict[str, Any]) -> str | None:
    """Why a server open to others must not start with these settings (None: it may). Without its
    own address, links mailed to players (sign-in links above all) would follow the Host header of
    whoever asked: whoever controls that host would receive them."""
    base = str(config.get("PBEM_BASE_URL") or "")
    if base.startswith(("https://", "http://")) and len(base.split("://", 1)[1]) > 0:
        return None
    return ("PBEM_BASE_URL is not set to the site's address (e.g. PBEM_BASE_URL=https://pbem.example.org). "
            "A server others reach must know it: links in mails, sign-in links above all, would otherwise follow "
            "the Host header of whoever asks. Set it (see deploy/env.example), or for development run "
            "`pbem run` bound to 127.0.0.1.")


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(_default_config())
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = server_key(app.config["PBEM_VAR_DIR"])
    if app.config["PBEM_BASE_URL"].startswith("https://") and "SESSION_COOKIE_SECURE" not in (config or {}):
        app.config["SESSION_COOKIE_SECURE"] = True

    if app.config["PBEM_PROXY_HOPS"] > 0:
        # the client's own address for the per-client bounds (sign-in requests, mail webhooks)
        # instead of the proxy's, which would make every bound one shared by all clients
        hops = app.config["PBEM_PROXY_HOPS"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]

    from . import backend
    from .sessions import SigningOnceSessions

    app.session_interface = SigningOnceSessions()
    backend.init_app(app)
    csrf.init_app(app)

    from .admin import bp as admin_bp
    from .create import bp as create_bp
    from .director import bp as director_bp
    from .errors import register_error_handlers
    from .i18n import register_i18n
    from .mail import bp as mail_bp
    from .metrics import bp as metrics_bp
    from .metrics import register_request_timing
    from .players import bp as players_bp
    from .public import bp as public_bp
    from .rules import register_rules
    from .seat import bp as seat_bp
    from .security import register_security_headers
    from .static_assets import register_static_versions
    from .templating import register_templating
    from .tournament import bp as tournament_bp
    from .verifier import bp as verifier_bp

    app.register_blueprint(public_bp)
    app.register_blueprint(create_bp)
    app.register_blueprint(director_bp)
    app.register_blueprint(seat_bp)
    app.register_blueprint(admin_bp)
    app.register_blueprint(mail_bp)
    app.register_blueprint(tournament_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(metrics_bp)
    app.register_blueprint(verifier_bp)
    register_request_timing(app)
    register_rules(app)
    register_error_handlers(app)
    register_security_headers(app)
    register_templating(app)
    register_i18n(app)
    register_static_versions(app)
    return app
