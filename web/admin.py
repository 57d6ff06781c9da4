"""The moderator's page, reached by the game's admin link: pause, resume, extend the deadline,
force defaults now, replace a seat, and the tournament tools (web/moderator_forms.py): roll back,
shorten the deadline, broadcast, remove a seat for cause, declare a result. Every action goes
through the service, which writes it to the game's record and to the moderator log."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.i18n import N_

from . import backend
from .errors import bad_link, status_of
from .moderator_forms import TOOLS, Invalid, done_message, run_tool
from .security import secret_page
from .templating import set_viewer_zone

bp = Blueprint("admin", __name__)

ACTIONS = ("pause", "resume", "extend", "force", "replace", "pace", "record", *TOOLS)
DONE = {  # msgids, translated when shown
    "pause": N_("The game is paused. Deadlines stop until you resume it."),
    "resume": N_("The game is running again."),
    "extend": N_("The deadline was moved."),
    "pace": N_("The game's pace was changed; new waits use it."),
    "force": N_("Default orders were applied for every seat that was being waited for."),
}


def _service_errors():
    svc = backend.errors()
    return tuple(getattr(svc, n) for n in ("ServiceError",) if hasattr(svc, n))


def _render(game_id: str, admin_token: str, message: str | None = None, error: str | None = None,
            new_invite: tuple[str, str] | None = None, status: int = 200):
    page = backend.read(service.admin_page, game_id, admin_token)
    mail = backend.read(service.mail_log, game_id, admin_token)
    away = backend.read(service.absences, game_id, admin_token)
    pace = backend.read(service.game_pace, game_id, admin_token)
    set_viewer_zone(page.timezone)  # the moderator reads the game's zone, as its deadline is set in
    return render_template("admin/admin.html", page=page, mail=mail, away=away, pace=pace, game_id=game_id,
                           admin_token=admin_token, message=message, error=error,
                           new_invite=new_invite), status


@bp.route("/admin/<game_id>/<admin_token>", methods=["GET"])
@secret_page
def admin(game_id: str, admin_token: str):
    done = request.args.get("done", "")
    return _render(game_id, admin_token, message=_(DONE[done]) if done in DONE else done_message(done))


@bp.route("/admin/<game_id>/<admin_token>", methods=["POST"])
@secret_page
def act(game_id: str, admin_token: str):
    action = request.form.get("action", "")
    if action not in ACTIONS:
        abort(400, "Unknown moderator action.")
    try:
        if action in TOOLS:
            try:
                shown = run_tool(action, game_id, admin_token, request.form)
            except Invalid as e:
                return _render(game_id, admin_token, error=str(e), status=400)
            if shown is not None:  # a removed seat's new invite is shown once: render, no redirect
                return _render(game_id, admin_token, message=done_message(action), new_invite=shown)
        elif action == "pause":
            backend.call(service.pause, game_id, admin_token)
        elif action == "resume":
            backend.call(service.resume, game_id, admin_token)
        elif action == "extend":
            try:
                hours = float(request.form.get("hours", ""))
            except ValueError:
                hours = 0.0
            if not (0 < abs(hours) <= 24 * 60):
                return _render(game_id, admin_token, error=_("Move the deadline: give a number of hours "
                               "between -1440 and 1440, not 0 (negative shortens it)."), status=400)
            if hours < 0:  # shortening goes through the tool that tells the seats and keeps an hour's notice
                backend.call(service.shorten_deadline, game_id, admin_token, -hours)
                return redirect(url_for("admin.admin", game_id=game_id, admin_token=admin_token,
                                        done="shorten"), code=303)
            backend.call(service.extend_deadline, game_id, admin_token, hours)
        elif action == "pace":
            try:
                wait = float(request.form.get("wait_hours", ""))
                follow_up = float(request.form.get("follow_up_hours", ""))
                disorder = int(request.form.get("disorder_after", ""))
                budget_text = request.form.get("absence_budget_days", "").strip()
                budget = int(budget_text) if budget_text else None
            except ValueError:
                return _render(game_id, admin_token, error=_("Pace: give the wait and the follow-up period in "
                               "hours and civil disorder as a whole number of missed deadlines."), status=400)
            backend.call(service.set_pace, game_id, admin_token, wait, follow_up, disorder, absence_budget_days=budget)
        elif action == "force":
            backend.call(service.force_defaults, game_id, admin_token)
        elif action == "record":  # the complete record; while the game runs this leaves a note in its log
            from adjudicator.record import export_bytes

            body = export_bytes(backend.call(service.full_record, game_id, admin_token))
            return Response(body, mimetype="application/json", headers={
                "Content-Disposition": f'attachment; filename="pbem-{game_id}-full.json"',
                "Cache-Control": "no-store"})
        else:  # replace: the new invite is shown once, so render instead of redirecting
            seat = (request.form.get("seat") or "").strip()
            token = backend.call(service.replace_seat, game_id, admin_token, seat)
            token = getattr(token, "invite_token", token)
            message = _("Seat %(seat)s was freed: its old link no longer works. Send the new "
                        "invite link below to the replacement player.", seat=seat)
            return _render(game_id, admin_token, message=message, new_invite=(seat, token))
    except _service_errors() as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        return _render(game_id, admin_token, error=str(e), status=status)
    return redirect(url_for("admin.admin", game_id=game_id, admin_token=admin_token,
                            done=action), code=303)
