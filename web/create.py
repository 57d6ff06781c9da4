"""`/new`: create a game. Step 1 picks the game (a plain link, no script needed), step 2 the
seats, options, title and deadline policy. The result page shows the moderator link and one
invite link per seat, once: the server keeps only hashes of these tokens."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.engine import IllegalOrder, all_games
from adjudicator.i18n import LANGUAGES

from . import backend
from .players import signed_in
from .security import secret_page
from .templating import timezones
from .values import json_value

bp = Blueprint("create", __name__)

MAX_TITLE = 120


def option_widget(option) -> str:
    choices = option.current_choices()
    if isinstance(option.default, bool) and all(isinstance(c, bool) for c in choices):
        return "checkbox"  # an on/off option: a box to tick, not a False/True list
    if choices:
        return "select"
    if isinstance(option.default, int):
        return "number"
    return "text"


def _read_options(info, form) -> tuple[dict[str, Any], list[str]]:
    options: dict[str, Any] = {}
    problems: list[str] = []
    for option in info.options:
        field = f"opt-{option.name}"
        kind = option_widget(option)
        raw = form.get(field)
        if kind == "checkbox":
            options[option.name] = raw is not None
        elif raw is None or raw == "":
            options[option.name] = option.default
        elif kind == "select":
            match = [c for c in option.current_choices() if json_value(c) == raw]
            if not match:
                problems.append(_("Option %(name)s: pick one of the listed values.", name=option.title))
            else:
                options[option.name] = match[0]
        elif kind == "number":
            try:
                options[option.name] = int(raw)
            except ValueError:
                problems.append(_("Option %(name)s: give a whole number.", name=option.title))
        else:
            options[option.name] = raw.strip()
    if not problems:
        try:
            info.resolve_options(options)
        except IllegalOrder as e:
            problems.append(str(e))
    return options, problems


def _read_hours(form, field: str, label: str, default: float, lo: float, hi: float,
                problems: list[str]) -> float:
    raw = (form.get(field) or "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        problems.append(_("%(label)s: give a number of hours, like 48 or 0.5.", label=label))
        return default
    if not lo <= value <= hi or value != value:
        problems.append(_("%(label)s: must be between %(lo)s and %(hi)s hours.", label=label, lo=f"{lo:g}",
                          hi=f"{hi:g}"))
    return value


@bp.route("/new", methods=["GET"])
def choose():
    games = all_games()
    game_id = request.args.get("game")
    if not game_id:
        return render_template("create/choose.html", games=games)
    game = games.get(game_id)
    if game is None:
        abort(404)
    backend.read(service.load_installed)  # boards and decks installed on this server are choices too
    return render_template("create/form.html", game=game, info=game.info, values={},
                           problems=[], option_widget=option_widget,
                           json_value=json_value, timezones=timezones())


@bp.route("/new", methods=["POST"])
@secret_page
def create():
    games = all_games()
    form = request.form
    game = games.get(form.get("game", ""))
    if game is None:
        abort(400, _("Pick a game from the list."))
    info = game.info
    backend.read(service.load_installed)
    problems: list[str] = []

    try:
        seats = int(form.get("seats", info.min_seats))
    except ValueError:
        seats = -1
    if not info.min_seats <= seats <= info.max_seats:
        problems.append(_("Seats: %(game)s is played by %(min)s to %(max)s players.", game=info.title,
                          min=info.min_seats, max=info.max_seats))
    title = (form.get("title") or "").strip()
    if len(title) > MAX_TITLE:
        problems.append(_("Title: at most %(max)s characters.", max=MAX_TITLE))
    language = form.get("language") or "en"
    if language not in LANGUAGES:
        problems.append(_("Language: pick one of the listed languages."))
    options, option_problems = _read_options(info, form)
    problems += option_problems
    step = _read_hours(form, "step_hours", _("Time for each wait"), info.wait_hours, 0.01, 24 * 60, problems)
    follow_up = _read_hours(form, "follow_up_hours", _("Follow-up period"), info.follow_up_hours, 0, 24 * 60,
                            problems)
    try:
        disorder_after = int(form.get("disorder_after", 2))
    except ValueError:
        disorder_after = -1
    if not 0 <= disorder_after <= 100:
        problems.append(_("Civil disorder: a whole number of missed deadlines from 0 (never) to 100."))
    reminder = _read_hours(form, "reminder_hours", _("Reminder"), 24, 0, 24 * 60, problems)
    try:
        absence_days = int(form.get("max_absence_days", 14))
    except ValueError:
        absence_days = -1
    if not 0 <= absence_days <= 366:
        problems.append(_("Absences: a whole number of days from 0 (none granted) to 366."))
    tz = (form.get("timezone") or "UTC").strip()
    try:
        ZoneInfo(tz)
    except (ValueError, KeyError, OSError):
        problems.append(_("Time zone: %(tz)s is not an IANA time zone name (like Europe/Rome).", tz=repr(tz)))
    else:
        if tz not in available_timezones() and tz != "UTC":
            problems.append(_("Time zone: %(tz)s is not an IANA time zone name (like Europe/Rome).", tz=repr(tz)))

    fill_hours = None
    if (form.get("fill_hours") or "").strip():
        fill_hours = _read_hours(form, "fill_hours", _("Free seats"), 0, 1, 366 * 24, problems)
        if form.get("lobby") != "1":
            problems.append(_("Free seats: only an open game (listed in the lobby) has free seats to fill."))
    practice = form.get("practice") == "1"
    if practice and form.get("lobby") == "1":
        problems.append(_("Practice game: the substitute takes the other seats at once, so it has none for the lobby."))

    director = None
    if form.get("director_id"):
        director = {"id": form.get("director_id", ""), "token": form.get("director_token", ""),
                    "name": form.get("director_name", "")}
    if problems:
        values = dict(form)
        return render_template("create/form.html", game=game, info=info, values=values,
                               problems=problems, option_widget=option_widget,
                               json_value=json_value, timezones=timezones(), director=director), 400

    policy = service.DeadlinePolicy(step_hours=step, reminder_hours=reminder, timezone=tz,
                                    max_absence_days=absence_days, follow_up_hours=follow_up,
                                    disorder_after=disorder_after,
                                    substitutes={"1": True, "0": False}.get(form.get("substitutes", "")))
    if practice:
        return _practice(game, info, seats, options, title, policy, language, director)
    try:
        created = backend.call(service.create_game, game=info.id, seats=seats, options=options,
                               title=title, policy=policy, language=language,
                               director=(director["id"], director["token"]) if director else None,
                               client=request.remote_addr or "", signed_in=bool(signed_in()))
    except backend.errors().TooMany as exc:
        return render_template("create/form.html", game=game, info=info, values=dict(form),
                               problems=[str(exc)], option_widget=option_widget,
                               json_value=json_value, timezones=timezones(), director=director), 429
    if form.get("lobby") == "1":
        backend.call(service.open_in_lobby, created.game_id, created.admin_token)
        if fill_hours is not None:
            backend.call(service.set_lobby_fill, created.game_id, created.admin_token,
                         service.utcnow() + timedelta(hours=fill_hours))
    invites = dict(created.invites)
    return render_template("create/created.html", created=created, game=game,
                           title=title or info.title, invites=invites, director=director,
                           options_json=json.dumps(options, sort_keys=True))


def _practice(game, info, seats: int, options: dict, title: str, policy, language: str, director):
    """A practice game: the asker's seat, the substitute in the others; it starts at once and the
    asker goes straight to their seat page (its address is their key: the page says to keep it)."""
    form = request.form
    account = signed_in()
    try:
        joined = backend.call(
            service.create_practice_game, info.id, seats, (form.get("practice_seat") or "").strip() or None,
            (form.get("practice_name") or "").strip() or _("Player"), account or "", options=options, title=title,
            policy=policy, language=language, timezone=policy.timezone, client=request.remote_addr or "",
            signed_in=bool(account))
    except backend.errors().ServiceError as exc:
        code = 429 if isinstance(exc, backend.errors().TooMany) else 400
        return render_template("create/form.html", game=game, info=info, values=dict(form),
                               problems=[str(exc)], option_widget=option_widget,
                               json_value=json_value, timezones=timezones(), director=director), code
    return redirect(url_for("seat.play", game_id=joined.game_id, seat=joined.seat, seat_token=joined.seat_token),
                    code=303)
