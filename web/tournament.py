"""Public tournament pages: the standings of a director's games (HTML, CSV, JSON), a player's page
(ratings and games), the director's choice of scoring systems (a CSRF-protected form on the
director page), and a seat's deadlines as an iCalendar feed at its seat-token URL.

The standings and player pages show only public information: names on seats, finished games'
outcomes and defaulted decisions (the public log shows all three). Addresses never appear."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for

from adjudicator import service
from adjudicator.engine import all_games

from . import backend
from .calendar import deadline_calendar
from .errors import bad_link, status_of
from .security import secret_page
from .templating import absolute_url

bp = Blueprint("tournament", __name__)


def _titles() -> dict[str, str]:
    return {gid: g.info.title for gid, g in all_games().items()}


@bp.route("/tournament/<director_id>")
def standings(director_id: str):
    table = backend.read(service.tournament_standings, director_id)
    return render_template("tournament/standings.html", table=table, game_titles=_titles())


@bp.route("/tournament/<director_id>/standings.csv")
def standings_csv(director_id: str):
    body = service.standings_csv(backend.read(service.tournament_standings, director_id))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="standings-{director_id}.csv"'})


@bp.route("/tournament/<director_id>/standings.json")
def standings_json(director_id: str):
    table = backend.read(service.tournament_standings, director_id)
    return Response(json.dumps(table.to_json(), indent=1, ensure_ascii=False), mimetype="application/json")


@bp.route("/player/<player>")
def player(player: str):
    page = backend.read(service.player_page, player)
    return render_template("tournament/player.html", page=page, game_titles=_titles())


@bp.route("/director/<director_id>/<token>/scoring", methods=["POST"])
@secret_page
def scoring(director_id: str, token: str):
    """The director's scoring system per game type (fields `scoring-<game type>`)."""
    systems = {k.removeprefix("scoring-"): v for k, v in request.form.items() if k.startswith("scoring-")}
    try:
        backend.call(service.set_scoring, director_id, token, systems)
        backend.call(service.count_substitute_games, director_id, token,
                     request.form.get("count_substitute_games") == "1")
    except backend.errors().ServiceError as exc:
        if status_of(exc) in (403, 404):
            return bad_link()
        return Response(str(exc), status=400, mimetype="text/plain")
    return redirect(url_for("director.dashboard", director_id=director_id, token=token), code=303)


@bp.route("/play/<game_id>/<seat>/<seat_token>/deadlines.ics")
@secret_page
def calendar(game_id: str, seat: str, seat_token: str):
    deadline = backend.read(service.seat_deadline, game_id, seat, seat_token)
    body = deadline_calendar(deadline, absolute_url("public.game", game_id=game_id))
    return Response(body, mimetype="text/calendar", headers={
        "Content-Disposition": f'inline; filename="pbem-{game_id}-{seat}.ics"'})
