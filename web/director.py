"""Tournament directors: `/director/new` makes a director link; the link's page lists the
tournament's games (those needing attention first) and creates new games in it; each game's
moderator page opens with the same link. The service decides who may do what."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext

from adjudicator import service
from adjudicator.engine import all_games

from . import backend
from .create import json_value, option_widget
from .errors import bad_link, status_of
from .security import secret_page
from .templating import timezones

bp = Blueprint("director", __name__)


@bp.route("/director/new", methods=["GET"])
def new():
    return render_template("director/new.html", problems=[], name="")


@bp.route("/director/new", methods=["POST"])
@secret_page
def create():
    name = request.form.get("name", "")
    try:
        created = backend.call(service.create_director, name)
    except backend.errors().ServiceError as exc:
        return render_template("director/new.html", problems=[str(exc)], name=name), 400
    return render_template("director/created.html", created=created, name=" ".join(name.split()))


@bp.route("/director/<director_id>/<token>", methods=["GET"])
@secret_page
def dashboard(director_id: str, token: str):
    return _dashboard(director_id, token)


def _dashboard(director_id: str, token: str, **notices: str | None) -> str:
    """The director page, with an optional `message` or `error` from the action just taken."""
    page = backend.read(service.director_page, director_id, token)
    # every game type of the tournament's games (started or not) can be given its scoring
    titles = sorted({d.game for d in page.games})
    return render_template("director/dashboard.html", page=page, token=token, games=all_games(),
                           scoring_titles=titles, scoring_systems=service.SCORING,
                           scoring=page.scoring, signup=backend.read(service.signup_status, director_id, token),
                           **notices)


@bp.route("/director/<director_id>/<token>/broadcast", methods=["POST"])
@secret_page
def broadcast(director_id: str, token: str):
    """A message from the director to every seat of every game of the tournament not over yet."""
    message, error, status = None, None, 200
    try:
        sent = backend.call(service.broadcast_tournament, director_id, token, request.form.get("text", ""))
        message = gettext("Your message went to every seat of %(count)s game(s).", count=len(sent.games))
    except backend.errors().ServiceError as exc:
        status = status_of(exc)
        if status in (403, 404):
            return bad_link()
        error = str(exc)
    return _dashboard(director_id, token, message=message, error=error), status


@bp.route("/director/<director_id>/<token>/new", methods=["GET"])
@secret_page
def new_game(director_id: str, token: str):
    """The new-game form, for a game of this tournament."""
    page = backend.read(service.director_page, director_id, token)  # refuses a wrong link first
    game = all_games().get(request.args.get("game", ""))
    if game is None:
        abort(404)
    backend.read(service.load_installed)
    return render_template("create/form.html", game=game, info=game.info, values={}, problems=[],
                           option_widget=option_widget, json_value=json_value, timezones=timezones(),
                           director={"id": director_id, "token": token, "name": page.name})
