"""Secret-link pages of one seat: joining with an invite, and playing.

The seat page shows only what `service.seat_state` returns (built from `game.view(state, seat)`),
so another seat's private data cannot reach it. Orders come either from the generated form (a
`<select>` of the prompt's choices, sent as canonical JSON) or from the command box (the same
grammar as e-mail, several lines). Both carry the `prompt_token` the page was built with; an
order made against an older prompt is refused whole.

An accepted submission answers with a redirect to the seat page (post/redirect/get), which shows
its result once: reloading the page on a phone never asks to send the order again. A refused one
is shown at once, with the form, and an error status.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from adjudicator.engine import get_game
from adjudicator.i18n import LANGUAGES, help_text

from . import backend
from .boards import board_html
from .composer import MAX_PLAN_ROWS, compose, naming
from .create import timezones
from .errors import bad_link, status_of
from .players import signed_in
from .security import secret_page
from .values import json_value, log_start

bp = Blueprint("seat", __name__)

MAX_NAME = 60
MAX_EMAIL = 254
MAX_ENTROPY = 256
MAX_COMMANDS = 20_000
SHOWN_APPLIED = 30  # accepted lines echoed after a redirect


def _service_errors() -> tuple[type[BaseException], ...]:
    svc = backend.errors()
    return tuple(getattr(svc, n) for n in ("ServiceError",) if hasattr(svc, n))


# joining ---------------------------------------------------------------------------------------

@bp.route("/join/<game_id>/<seat>/<invite_token>", methods=["GET", "POST"])
@secret_page
def join(game_id: str, seat: str, invite_token: str):
    try:
        invite = backend.read(backend.check_invite, game_id, seat, invite_token)
    except _service_errors():
        return bad_link()
    values: dict[str, str] = {}
    problems: list[str] = []
    verified = _verified_details()
    if request.method == "GET" and verified:
        # a signed-in player joins under the address they verified: the seat shows on their home
        values = dict(zip(("email", "name", "timezone"), verified, strict=True))
    if request.method == "POST":
        values = {k: (request.form.get(k) or "").strip()[:200]
                  for k in ("name", "email", "entropy", "timezone", "language")}
        if not values["name"]:
            problems.append(_("Name: tell the other players what to call you."))
        elif len(values["name"]) > MAX_NAME:
            problems.append(_("Name: at most %(max)s characters.", max=MAX_NAME))
        if values["email"] and ("@" not in values["email"] or len(values["email"]) > MAX_EMAIL
                                or any(c.isspace() for c in values["email"])):
            problems.append(_("E-mail: that does not look like an e-mail address (or leave it empty)."))
        if len(values["entropy"]) > MAX_ENTROPY:
            problems.append(_("Random text: at most %(max)s characters.", max=MAX_ENTROPY))
        if values["language"] and values["language"] not in LANGUAGES:
            values["language"] = ""
        if not problems:
            try:
                joined = backend.call("join_game", game_id, seat, invite_token, values["name"],
                                      email=values["email"], entropy=values["entropy"],
                                      timezone=values["timezone"], language=values["language"],
                                      client=request.remote_addr or "", signed_in=bool(signed_in()))
            except _service_errors() as e:
                status = status_of(e)
                if status in (403, 404):
                    return bad_link()
                problems.append(str(e))
            else:
                return redirect(url_for("seat.play", game_id=game_id, seat=seat,
                                        seat_token=joined.seat_token), code=303)
    return render_template("play/join.html", game_id=game_id, seat=seat, invite=invite, timezones=timezones(),
                           values=values, problems=problems, verified=verified[0] if verified else ""), \
        (400 if problems else 200)


def _verified_details() -> tuple[str, str, str] | None:
    """(address, name, zone) of the signed-in player, or None."""
    email = signed_in()
    if not email:
        return None
    try:
        return backend.read("join_details", email)
    except backend.errors().ServiceError:  # the account is gone: join as anyone does
        return None


# playing ---------------------------------------------------------------------------------------

def _choices(game, prompt: dict[str, Any]) -> list[tuple[str, str]]:
    """(value, label) pairs for the order form: canonical JSON and the game's own wording."""
    out = []
    for choice in prompt.get("choices") or []:
        try:
            # a game may add the names of the cards an order plays (order_label); else its text
            label = getattr(game, "order_label", game.format_order)(choice)
        except Exception:  # a label must never break the page
            label = json_value(choice)
        out.append((json_value(choice), label))
    return out


PRESS_ON_PAGE = 5  # newest press messages on the seat page; the press page has them all


def mark_press_seen(game_id: str, seat: str, seat_token: str, press: list[Any]) -> None:
    """Press shown on a page is read: mark it, so it is "new" only the first time (a small write)."""
    if any(p.new for p in press):
        backend.call("mark_press_read", game_id, seat, seat_token, max(p.id for p in press))


def _render_play(game_id: str, seat: str, seat_token: str, result: dict[str, Any] | None = None,
                 status: int = 200):
    page = backend.read("seat_state", game_id, seat, seat_token)
    game = get_game(page.game)
    prompt = page.prompt
    choices = _choices(game, prompt) if prompt is not None else []
    press = backend.read("press_for", game_id, seat, seat_token)
    mark_press_seen(game_id, seat, seat_token, press)
    composer = compose(choices, request.args.get("pick", "")[:300], request.args.get("where", "")[:60],
                       tuple(getattr(game, "plan_orders", ())), [t[:60] for t in request.args.getlist("plan")[:8]])
    links = _board_links(game_id, seat, seat_token, composer, choices)
    return render_template(
        "play/play.html",
        page=page,
        game=game,
        game_id=game_id,
        seat=seat,
        seat_token=seat_token,
        prompt=prompt,
        choices=choices,
        composer=composer,
        press=press[-PRESS_ON_PAGE:], press_new=sum(p.new for p in press), press_count=len(press),
        board=board_html(page.game, page.view, seat, links),
        private=((page.view or {}).get("private") or {}).get(seat),
        grammar=page.grammar_help or help_text(game.grammar_help()),
        result=result,
    ), status


class _BoardLinks(dict):
    """Order word -> composer URL for the board's regions. Words the composer's plan or next step
    offers pick them; any other word the board asks about (`link_for`) narrows the orders to
    those naming it (`where`), if some do. Computed per word asked, so only the board's words."""

    def __init__(self, fixed: dict[str, str], url: Any, choices: list[tuple[str, str]]) -> None:
        super().__init__(fixed)
        self._url, self._choices = url, choices

    def get(self, word: Any, default: Any = None) -> Any:
        if word in self:
            return self[word]
        named = naming(self._choices, str(word)) if isinstance(word, str) else []
        return self._url(where=word) if named and len(named) < len(self._choices) else default


def _board_links(game_id: str, seat: str, seat_token: str, composer: Any,
                 choices: list[tuple[str, str]]) -> _BoardLinks:
    def url(**args: Any) -> str:
        return url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token, **args) + "#orders"

    fixed: dict[str, str] = {}
    plan = composer.plan
    if plan is not None:  # a click adds the region to the plan's rows
        fixed.update({t: url(pick=plan.verb, plan=[*plan.chosen, t]) for t in plan.targets if t not in plan.chosen})
    for step in composer.steps:
        if not step.exact:
            fixed.setdefault(step.label, url(pick=step.value, where=composer.where or None))
    return _BoardLinks(fixed, url, choices)


def _plan_lines(game: Any, form: Any) -> str | None:
    """The order lines of a plan form ("campaign Ohio 2" per filled row), or None if it names no
    verb the game plans. Rows without a target are skipped."""
    verb = form.get("plan_verb", "")
    if verb not in getattr(game, "plan_orders", ()):
        return None
    lines = []
    for target, count in zip(form.getlist("target")[:MAX_PLAN_ROWS], form.getlist("count")[:MAX_PLAN_ROWS],
                             strict=False):
        target = " ".join(target.split())[:60]
        if target:
            lines.append(f"{verb} {target} {count if count.isdigit() and len(count) <= 3 else 1}")
    return "\n".join(lines)


def _result_key(game_id: str, seat: str) -> str:
    # per seat, so a browser that holds several seats' pages shows each its own result only
    return f"result:{game_id}:{seat}"


@bp.route("/play/<game_id>/<seat>/<seat_token>", methods=["GET"])
@secret_page
def play(game_id: str, seat: str, seat_token: str):
    return _render_play(game_id, seat, seat_token, session.pop(_result_key(game_id, seat), None))


@bp.route("/play/<game_id>/<seat>/<seat_token>/log", methods=["GET"])
@secret_page
def history(game_id: str, seat: str, seat_token: str):
    """The whole log as this seat sees it (its own private lines included)."""
    page = backend.read("seat_log", game_id, seat, seat_token, log_start())
    return render_template("public/log.html", page=page, game=get_game(page.game), game_id=game_id,
                           back_url=url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token),
                           back_label=_("your seat page"),
                           page_url=lambda start: url_for("seat.history", game_id=game_id, seat=seat,
                                                          seat_token=seat_token, start=start))


@bp.route("/play/<game_id>/<seat>/<seat_token>", methods=["POST"])
@secret_page
def order(game_id: str, seat: str, seat_token: str):
    form = request.form
    prompt_token = form.get("prompt_token") or None
    result: dict[str, Any]
    try:
        if "plan_verb" in form:
            text = _plan_lines(get_game(backend.read("seat_state", game_id, seat, seat_token).game), form)
            if not text:
                result = {"error": _("Choose at least one row of the plan before sending."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call("submit", game_id, seat, seat_token, text, prompt_token)
        elif "commands" in form:
            text = form.get("commands", "")
            if len(text) > MAX_COMMANDS:
                abort(413, _("The command box holds at most 20,000 characters."))
            if not text.strip():
                result = {"error": _("The command box was empty: write one order per line."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call("submit", game_id, seat, seat_token, text, prompt_token)
        else:
            raw = form.get("order")
            try:
                chosen = json.loads(raw) if raw else None
            except ValueError:
                chosen = None
            if chosen is None:
                result = {"error": _("Pick one of the listed orders before sending."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call("submit_order", game_id, seat, seat_token, chosen, prompt_token)
    except _service_errors() as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        if status == 409:
            message = _("%(error)s Nothing was applied. The page below shows the current situation; "
                        "choose again.", error=e)
        else:
            message = str(e)
        result = {"error": message, "applied": [], "receipts": [],
                  "choices": list(getattr(e, "choices", []) or [])}
        return _render_play(game_id, seat, seat_token, result, status)
    result = {
        "applied": list(sub.applied),
        "receipts": [{"order_text": r.order_text, "commitment": r.commitment} for r in sub.receipts],
        "error": sub.error,
        "choices": list(sub.choices or []),
        "notes": list(sub.notes or [])[:SHOWN_APPLIED],
    }
    if sub.error:
        return _render_play(game_id, seat, seat_token, result, 422)
    if len(result["applied"]) > SHOWN_APPLIED:  # the result rides in the session cookie (4 KB)
        more = len(result["applied"]) - SHOWN_APPLIED
        result["applied"] = [*result["applied"][:SHOWN_APPLIED], _("… and %(more)s more (see the log)", more=more)]
    session[_result_key(game_id, seat)] = result
    return redirect(url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token,
                            _anchor="result"), 303)


@bp.route("/play/<game_id>/<seat>/<seat_token>/standing", methods=["POST"])
@secret_page
def standing(game_id: str, seat: str, seat_token: str):
    """Replace the seat's standing orders with the lines of the form (the list is the seat's secret)."""
    text = request.form.get("standing", "")
    if len(text) > MAX_COMMANDS:
        abort(413, _("The list holds at most 20,000 characters."))
    try:
        backend.call("set_standing_orders", game_id, seat, seat_token, text)
    except _service_errors() as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        result = {"error": _("%(error)s Your standing orders were not changed.", error=e), "applied": [], "receipts": [],
                  "choices": []}
        return _render_play(game_id, seat, seat_token, result, status)
    session[_result_key(game_id, seat)] = {"applied": [], "receipts": [], "error": None, "choices": [],
                                           "notes": [_("Standing orders saved.")]}
    return redirect(url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token,
                            _anchor="standing"), 303)
