"""Public pages: the game list, a game's page (board, waiting seats, commitments, the latest
log lines, outcome, seed), its whole log, its Atom feed and the record export."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.engine import all_games, get_game

from . import backend
from .boards import board_html
from .feeds import atom_feed
from .templating import absolute_url, set_viewer_zone
from .values import log_start

bp = Blueprint("public", __name__)


def _group(summaries) -> dict[str, list]:
    groups: dict[str, list] = {"running": [], "pending": [], "finished": []}
    for g in summaries:
        status = getattr(g, "status", "running")
        if status in ("over", "finished"):
            groups["finished"].append(g)
        elif status == "pending":
            groups["pending"].append(g)
        else:  # running, paused
            groups["running"].append(g)
    return groups


@bp.route("/")
def index():
    games = backend.read(service.list_games)
    titles = {gid: g.info.title for gid, g in all_games().items()}
    return render_template("public/index.html", groups=_group(games), game_titles=titles)


@bp.route("/game/<game_id>")
def game(game_id: str):
    page = backend.read(service.public_game, game_id)
    game = get_game(page.game)
    view = getattr(page, "view", None)
    # public press only: empty while the game runs; at the end broadcasts (and private press if
    # the game publishes it). Bodies are rendered by the sanitising `markdown` filter.
    set_viewer_zone(page.timezone)
    press = backend.read(service.public_press, game_id)
    return render_template("public/game.html", page=page, game=game, game_id=game_id, press=press,
                           board=board_html(page.game, view, None) if view is not None else None)


@bp.route("/game/<game_id>/log")
def log(game_id: str):
    page = backend.read(service.public_log, game_id, log_start())
    set_viewer_zone(page.timezone)
    return render_template("public/log.html", page=page, game=get_game(page.game), game_id=game_id,
                           back_url=url_for("public.game", game_id=game_id), back_label=_("the game"),
                           page_url=lambda start: url_for("public.log", game_id=game_id, start=start))


@bp.route("/game/<game_id>/version")
def version(game_id: str):
    """What the open public page polls (static/enhance.js): it changes when the page would."""
    return jsonify(version=backend.read_raw(service.game_version, game_id))


@bp.route("/game/<game_id>/feed.atom")
def feed(game_id: str):
    feed_page = backend.read(service.public_feed, game_id)
    body = atom_feed(feed_page, absolute_url("public.game", game_id=game_id))
    return Response(body, mimetype="application/atom+xml")


@bp.route("/game/<game_id>/export.json")
def export(game_id: str):
    from adjudicator.record import export_bytes

    record = backend.read(service.export_record, game_id)
    body = export_bytes(record)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="pbem-{game_id}.json"',
    })
