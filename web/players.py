"""Players' pages: asking for a sign-in link, opening it, the signed-in player's home (seats,
tournaments, a calendar feed of every deadline), the lobby of open games and tournament sign-ups,
and the director's sign-up controls. The service decides; these views translate.

Who is signed in rides in the session cookie (signed with the server key), set only by a used
sign-in link. The "send me a link" page answers the same whatever the address."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, Response, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.engine import all_games
from adjudicator.i18n import LANGUAGES, N_

from . import backend
from .calendar import seats_calendar
from .errors import bad_link, error_page, status_of
from .security import secret_page
from .templating import absolute_url, set_viewer_zone, timezones

bp = Blueprint("players", __name__)
SESSION_KEY = "player"
GENERATION_KEY = "player_generation"  # the account's session generation when this session began
REFUSALS = {
    "expired": N_("This sign-in link has expired. Ask for a new one: links work for half an hour."),
    "used": N_("This sign-in link was used already; each link works once. Ask for a new one."),
    "invalid": N_("This sign-in link is not valid (changed or cut short). Copy the whole link from the mail, "
                  "or ask for a new one."),
}


def signed_in() -> str:
    """The signed-in address, once per request checked against the account's session generation
    on the server: a cookie from before a sign-out (a copy too) no longer counts, and is dropped."""
    email = session.get(SESSION_KEY, "")
    if not email:
        return ""
    if "signed_in" not in g:
        current = backend.read(service.session_generation, email)
        g.signed_in = email if current is not None and session.get(GENERATION_KEY) == current else ""
        if not g.signed_in:
            session.pop(SESSION_KEY, None)
            session.pop(GENERATION_KEY, None)
    return g.signed_in


def signed_in_page(view):
    """A page for the signed-in player only; others go to the sign-in page."""
    @wraps(view)
    @secret_page
    def wrapper(*args, **kwargs):
        if not signed_in():
            return redirect(url_for("players.sign_in"), code=303)
        return view(*args, **kwargs)
    return wrapper


def _titles() -> dict[str, str]:
    return {gid: g.info.title for gid, g in all_games().items()}


@bp.route("/signin", methods=["GET"])
def sign_in():
    return render_template("players/signin.html", sent=False, problem="", email="")


@bp.route("/signin", methods=["POST"])
def send_link():
    email = request.form.get("email", "")
    try:
        backend.call(service.request_sign_in, email, base_url=absolute_url("public.index").rstrip("/"),
                     client=request.remote_addr or "")
    except backend.errors().ServiceError as exc:  # only the address's form: says nothing of who is known
        return render_template("players/signin.html", sent=False, problem=str(exc), email=email[:320]), 400
    return render_template("players/signin.html", sent=True, problem="", email="")


def _refused(exc: Exception):
    reason = getattr(exc, "reason", "invalid")
    return render_template("players/refused.html", message=_(REFUSALS.get(reason, REFUSALS["invalid"]))), 403


@bp.route("/signin/<token>", methods=["GET"])
@secret_page
def confirm(token: str):
    """Opening the link does not use it (mail scanners open links): a button does."""
    try:
        backend.read(service.check_sign_in, token)
    except backend.errors().SignInRefused as exc:
        return _refused(exc)
    return render_template("players/confirm.html", token=token)


@bp.route("/signin/<token>", methods=["POST"])
@secret_page
def redeem(token: str):
    try:
        email = backend.call(service.redeem_sign_in, token)
    except backend.errors().SignInRefused as exc:
        return _refused(exc)
    backend.call(service.release_held, email)  # mail that waited for the address to be verified
    session.clear()  # a new identity: nothing of the previous session carries over
    session[SESSION_KEY] = email
    session[GENERATION_KEY] = backend.read(service.session_generation, email)
    g.pop("signed_in", None)
    session.permanent = True  # kept for PERMANENT_SESSION_LIFETIME (Flask's default: 31 days)
    return redirect(url_for("players.home"), code=303)


@bp.route("/confirm/<token>", methods=["GET", "POST"])
@secret_page
def confirm_address(token: str):
    """A confirmation link (mailed to an address given for a seat). Opening it confirms nothing
    (mail scanners open links): the button does."""
    try:
        address = backend.read(service.confirmed_address, token)
        if request.method == "POST":
            backend.call(service.confirm_by_link, token)
    except backend.errors().Forbidden as exc:
        return render_template("players/confirm_address.html", problem=str(exc), done=False, address=""), 403
    return render_template("players/confirm_address.html", token=token, address=address,
                           done=request.method == "POST", problem="")


@bp.route("/signout", methods=["POST"])
def sign_out():
    email = signed_in()
    if email:  # ends this session and every copy of its cookie, on the server
        backend.call(service.end_sessions, email)
    session.clear()
    return redirect(url_for("public.index"), code=303)


@bp.route("/me", methods=["GET"])
@signed_in_page
def home():
    page = backend.read(service.player_home, signed_in())
    set_viewer_zone(page.timezone)
    return render_template("players/home.html", home=page, game_titles=_titles(), timezones=timezones(),
                           problem=request.args.get("problem", "")[:300])


@bp.route("/me", methods=["POST"])
@signed_in_page
def update():
    try:
        backend.call(service.update_home, signed_in(), request.form.get("name", ""), request.form.get("timezone", ""))
    except backend.errors().ServiceError as exc:
        return redirect(url_for("players.home", problem=str(exc)), code=303)
    return redirect(url_for("players.home"), code=303)


@bp.route("/me/<token>/deadlines.ics", methods=["GET"])
@secret_page
def calendar(token: str):
    """Calendars send no cookies: the feed's address carries its own secret."""
    try:
        account = backend.read(service.account_by_calendar, token)
    except backend.errors().Forbidden:
        return bad_link()
    deadlines = backend.read(service.home_deadlines, account.email)
    body = seats_calendar(deadlines, lambda game_id: absolute_url("public.game", game_id=game_id))
    return Response(body, mimetype="text/calendar", headers={"Content-Disposition": 'inline; filename="pbem.ics"'})


@bp.route("/lobby", methods=["GET"])
def lobby():
    return render_template("players/lobby.html", lobby=backend.read(service.lobby), signed_in=bool(signed_in()),
                           games=all_games(), languages=LANGUAGES, problem=request.args.get("problem", "")[:300])


@bp.route("/lobby/<game_id>/<seat>", methods=["POST"])
@signed_in_page
def take(game_id: str, seat: str):
    try:
        joined = backend.call(service.take_seat, signed_in(), game_id, seat)
    except backend.errors().ServiceError as exc:
        return redirect(url_for("players.lobby", problem=str(exc)), code=303)
    return redirect(url_for("seat.play", game_id=joined.game_id, seat=joined.seat, seat_token=joined.seat_token),
                    code=303)


@bp.route("/tournament/<director_id>/signup", methods=["POST"])
@signed_in_page
def sign_up(director_id: str):
    try:
        backend.call(service.sign_up, signed_in(), director_id)
    except backend.errors().ServiceError as exc:
        return redirect(url_for("players.lobby", problem=str(exc)), code=303)
    return redirect(url_for("players.home"), code=303)


def _director_action(director_id: str, token: str, fn: Callable[..., Any], *args: Any):
    try:
        backend.call(fn, director_id, token, *args)
    except backend.errors().ServiceError as exc:
        if status_of(exc) == 403:
            return bad_link()
        return error_page(status_of(exc), str(exc))
    return redirect(url_for("director.dashboard", director_id=director_id, token=token) + "#signup", code=303)


@bp.route("/director/<director_id>/<token>/signup", methods=["POST"])
@secret_page
def set_signup(director_id: str, token: str):
    return _director_action(director_id, token, service.set_signup, request.form.get("open") == "1")


@bp.route("/director/<director_id>/<token>/seat", methods=["POST"])
@secret_page
def seat_players(director_id: str, token: str):
    return _director_action(director_id, token, service.seat_signups, request.form.get("method", "random"),
                            request.form.get("more") == "1")


@bp.route("/admin/<game_id>/<admin_token>/lobby", methods=["POST"])
@secret_page
def open_game(game_id: str, admin_token: str):
    """List a pending game's free seats in the lobby (from the new game's page or the moderator's)."""
    try:
        backend.call(service.open_in_lobby, game_id, admin_token)
    except backend.errors().ServiceError as exc:
        if status_of(exc) == 403:
            return bad_link()
        return error_page(status_of(exc), str(exc))
    return redirect(url_for("players.lobby"), code=303)
