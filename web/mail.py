"""Mail on the web: the inbound webhook for mail providers, the dev mail page of the embedded
install, and a seat's press and delivery settings."""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Mapping
from email import message_from_bytes, policy
from functools import wraps
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.mail import config as mail_config

from . import backend, csrf
from .errors import bad_link, status_of
from .seat import mark_press_seen
from .security import secret_page
from .templating import set_viewer_zone

bp = Blueprint("mail", __name__)


# the webhook ----------------------------------------------------------------------------------

@bp.route("/mail/inbound", methods=["POST"])
@csrf.exempt  # machine to machine: authenticated by the shared secret instead of a CSRF token
def inbound():
    secret = current_app.config.get("PBEM_MAIL_WEBHOOK_SECRET") or os.environ.get("PBEM_MAIL_WEBHOOK_SECRET", "")
    if not secret:
        abort(404)
    given = request.headers.get("X-PBEM-Secret") or request.args.get("secret", "")
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        given = auth[7:].strip()
    if not hmac.compare_digest(given.encode(), secret.encode()):
        abort(403)
    # a mail up to PBEM_MAIL_MAX_BYTES (512 KiB) must get through, form- or base64-encoded, so the
    # app-wide 256 KiB cap is raised for this route; a larger mail is stored as headers only and
    # answered "too big" (adjudicator.service.mail.inbound)
    request.max_content_length = 2 * mail_config.max_message_bytes() + 64 * 1024
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        # providers' inbound-parse posts carry the raw MIME in a form field
        field = request.form.get("email") or request.form.get("body-mime") or ""
        raw = field.encode("utf-8", "surrogateescape")
    else:
        raw = request.get_data(cache=False)
    if not raw:
        abort(400, "no message")
    # the same service use case as the SMTP listener and the IMAP poller; its ingest task is
    # enqueued after the commit (a broker that is down leaves it to the recovery sweep)
    tasks = backend.call(service.receive_mail, raw, "webhook", None, None, request.remote_addr or "")
    stored = bool(tasks)
    return {"stored": stored}, 202 if stored else 200


# the dev mail page ------------------------------------------------------------------------------

def _mail_dir() -> Path:
    return Path(os.environ.get("PBEM_MAIL_DIR", "var/mail"))


def is_loopback(host: str) -> bool:
    """Is this a loopback host name or address (127.0.0.0/8, ::1, localhost)?"""
    host = (host or "").strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def dev_mail_allowed(config: Mapping[str, Any]) -> bool:
    """The dev mail page shows every player's mail, secret reply addresses included: only in
    development mode (`PBEM_DEV_MAIL`, which `pbem run` sets when no SMTP host is configured)
    and only when the app is bound to loopback (`PBEM_BIND_HOST`, which `pbem run` sets)."""
    return bool(config.get("PBEM_DEV_MAIL")) and is_loopback(str(config.get("PBEM_BIND_HOST") or ""))


def dev_only(view):
    """A plain 404 (checked before the page counts as a secret page) unless the dev mail page is
    allowed and the request itself comes from this machine, not through a proxy."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if (not dev_mail_allowed(current_app.config) or not is_loopback(request.remote_addr or "")
                or request.headers.get("X-Forwarded-For") or request.headers.get("Forwarded")):
            abort(404)
        return view(*args, **kwargs)

    return wrapper


@bp.route("/dev/mail")
@dev_only
@secret_page
def dev_mail():
    rows = []
    for path in sorted(_mail_dir().glob("*.eml"), reverse=True)[:500]:
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        rows.append({"name": path.name, "to": msg.get("To", ""), "subject": msg.get("Subject", ""),
                     "date": msg.get("Date", "")})
    return render_template("dev/mail.html", rows=rows, folder=str(_mail_dir()))


@bp.route("/dev/mail/<name>")
@dev_only
@secret_page
def dev_message(name: str):
    if "/" in name or not name.endswith(".eml"):
        abort(404)
    path = _mail_dir() / name
    if not path.is_file():
        abort(404)
    msg = message_from_bytes(path.read_bytes(), policy=policy.default)
    part = msg.get_body(preferencelist=("plain",))
    text = part.get_content() if part is not None else ""
    headers = [(k, str(v)) for k, v in msg.items()]
    return render_template("dev/message.html", name=name, headers=headers, text=text)


# press and settings of a seat ---------------------------------------------------------------------

def _render(game_id: str, seat: str, seat_token: str, message: str = "", error: str = "", status: int = 200):
    settings = backend.read(service.seat_settings, game_id, seat, seat_token)
    press = backend.read(service.press_for, game_id, seat, seat_token)
    mark_press_seen(game_id, seat, seat_token, press)
    page = backend.read(service.seat_state, game_id, seat, seat_token)
    set_viewer_zone(page.timezone)
    return render_template("play/mail.html", game_id=game_id, seat=seat, seat_token=seat_token, page=page,
                           settings=settings, press=press, message=message, error=error,
                           modes=service.MAIL_MODES,
                           max_absence_days=settings.get("max_absence_days", "")), status


@bp.route("/play/<game_id>/<seat>/<seat_token>/mail", methods=["GET"])
@secret_page
def seat_mail(game_id: str, seat: str, seat_token: str):
    try:
        return _render(game_id, seat, seat_token, message=request.args.get("done", ""))
    except service.ServiceError:
        return bad_link()


@bp.route("/play/<game_id>/<seat>/<seat_token>/mail", methods=["POST"])
@secret_page
def seat_mail_post(game_id: str, seat: str, seat_token: str):
    form = request.form
    try:
        if form.get("action") == "press":
            to = form.getlist("to") or ["all"]
            backend.call(service.send_press, game_id, seat, seat_token, to, form.get("text", "")[:20_000])
            done = _("Press sent.")
        elif form.get("action") == "absence":
            absence = backend.call(service.set_absence, game_id, seat, seat_token, form.get("start", "")[:20],
                                   form.get("end", "")[:20])
            done = _("Absence recorded: %(absence)s.", absence=absence.text)
        elif form.get("action") == "absence_cancel":
            had = backend.call(service.cancel_absence, game_id, seat, seat_token)
            done = _("Absence cancelled.") if had else _("You had no absence.")
        else:
            backend.call(service.update_settings, game_id, seat, seat_token, form.get("mail_mode", "each"),
                         form.get("chat_webhook", ""), form.get("timezone", ""),
                         language=form.get("language") if "language" in form else None)
            done = _("Settings saved.")
    except service.ServiceError as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        return _render(game_id, seat, seat_token, error=str(e), status=status)
    return redirect(url_for("mail.seat_mail", game_id=game_id, seat=seat, seat_token=seat_token, done=done),
                    code=303)
