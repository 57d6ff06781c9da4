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

from flask import Blueprint, abort, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from adjudicator import service
from adjudicator.engine import get_game
from adjudicator.i18n import LANGUAGES, help_text

from . import backend
from .boards import board_html, hand_at_every_decision, hand_html
from .composer import MAX_PLAN_ROWS, compose, naming
from .doge_placement import FORM_FIELD as PLACEMENT_FIELD
from .doge_placement import chosen_set, picked_area, placement_form
from .doge_placement import order_text as placement_text
from .errors import bad_link, status_of
from .players import signed_in
from .security import secret_page
from .templating import set_viewer_zone, timezones
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
        invite = backend.read(service.check_invite, game_id, seat, invite_token)
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
                joined = backend.call(service.join_game, game_id, seat, invite_token, values["name"],
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
        return backend.read(service.join_details, email)
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
        backend.call(service.mark_press_read, game_id, seat, seat_token, max(p.id for p in press))


def _render_play(game_id: str, seat: str, seat_token: str, result: dict[str, Any] | None = None,
                 status: int = 200, drafts: dict[str, Any] | None = None, preview: Any = None,
                 plan_rows: list[tuple[str, int]] | None = None):
    """`drafts`: what a refused notes or press form held, shown again so that nothing is lost.
    `preview`: a plan's preview (service.preview_plan) shown in its form, whose rows are
    `plan_rows` ((target, count) pairs) instead of the URL's."""
    page = backend.read(service.seat_state, game_id, seat, seat_token)
    set_viewer_zone(page.timezone)
    game = get_game(page.game)
    prompt = page.prompt
    choices = _choices(game, prompt) if prompt is not None else []
    press = backend.read(service.press_for, game_id, seat, seat_token)
    mark_press_seen(game_id, seat, seat_token, press)
    planned = [t[:60] for t in request.args.getlist("plan")[:8]]
    counts = None
    if plan_rows is not None:
        planned, counts = [t for t, _n in plan_rows], [n for _t, n in plan_rows]
    composer = compose(choices, request.args.get("pick", "")[:300], request.args.get("where", "")[:60],
                       tuple(getattr(game, "plan_orders", ())), planned, counts)
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
        placement=placement_form(page.game, prompt, page.view, seat, picked_area(request.args),
                                 *((request.form.getlist("marker"), chosen_set(request.form))
                                   if request.method == "POST" else ())),
        press=press[-PRESS_ON_PAGE:], press_new=sum(p.new for p in press), press_count=len(press),
        press_draft=(drafts or {}).get("press", {"to": [request.args.get("reply", "")[:64]], "text": ""}),
        notes=(drafts["notes"] if drafts and "notes" in drafts
               else backend.read(service.seat_notes, game_id, seat, seat_token)),
        max_notes=service.MAX_NOTES,
        board=board_html(page.game, page.view, seat, links),
        hand=hand_html(page.game, page.view, seat),
        # the hand goes beside a decision that names cards (1960's "play 20 cp — #20 ..."), or beside
        # every decision of a game whose every decision turns on it (China, Founding Fathers); else below the board
        hand_here=prompt is not None and (hand_at_every_decision(page.game)
                                          or any(" — " in label for _value, label in choices)),
        preview=preview,
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


def _plan_rows(game: Any, form: Any) -> list[tuple[str, int]] | None:
    """The (target, count) rows of a plan form, or None if it names no verb the game plans. Rows
    without a target are skipped."""
    if form.get("plan_verb", "") not in getattr(game, "plan_orders", ()):
        return None
    rows = []
    for target, count in zip(form.getlist("target")[:MAX_PLAN_ROWS], form.getlist("count")[:MAX_PLAN_ROWS],
                             strict=False):
        target = " ".join(target.split())[:60]
        if target:
            rows.append((target, int(count) if count.isdigit() and len(count) <= 3 else 1))
    return rows


def _plan_lines(verb: str, rows: list[tuple[str, int]]) -> str:
    """The order lines of a plan ("campaign Ohio 2" per row)."""
    return "\n".join(f"{verb} {target} {count}" for target, count in rows)


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
    page = backend.read(service.seat_log, game_id, seat, seat_token, log_start())
    set_viewer_zone(page.timezone)
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
    rows: list[tuple[str, int]] | None = None  # a plan's rows, shown again with a refusal
    try:
        if "plan_verb" in form:
            rows = _plan_rows(get_game(backend.read(service.seat_state, game_id, seat, seat_token).game), form)
            if not rows:
                result = {"error": _("Choose at least one row of the plan before sending."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            text = _plan_lines(form["plan_verb"], rows)
            if form.get("preview"):  # what the rows would do, applying nothing; the rows stay as chosen
                preview = backend.call(service.preview_plan, game_id, seat, seat_token, text, prompt_token)
                return _render_play(game_id, seat, seat_token, preview=preview, plan_rows=rows)
            sub = backend.call(service.submit, game_id, seat, seat_token, text, prompt_token, whole=True)
        elif PLACEMENT_FIELD in form:  # Doge's markers ticked and an area pressed (web/doge_placement.py)
            text, problem = placement_text(form)
            if problem:
                result = {"error": problem, "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call(service.submit, game_id, seat, seat_token, text, prompt_token)
        elif "commands" in form:
            text = form.get("commands", "")
            if len(text) > MAX_COMMANDS:
                abort(413, _("The command box holds at most 20,000 characters."))
            if not text.strip():
                result = {"error": _("The command box was empty: write one order per line."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call(service.submit, game_id, seat, seat_token, text, prompt_token)
        else:
            raw = form.get("order")
            try:
                chosen = json.loads(raw) if raw else None
            except ValueError:
                chosen = None
            if chosen is None:  # the list's "choose an order…" line, or a browser that sent nothing
                result = {"error": _("Choose an order in the list first: nothing was sent."),
                          "applied": [], "receipts": [], "choices": []}
                return _render_play(game_id, seat, seat_token, result, 422)
            sub = backend.call(service.submit_order, game_id, seat, seat_token, chosen, prompt_token)
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
                  "choices": list(getattr(e, "choices", []) or []),
                  "suggestions": list(getattr(e, "suggestions", []) or [])}
        return _render_play(game_id, seat, seat_token, result, status, plan_rows=rows)
    result = {
        "applied": list(sub.applied),
        "receipts": [{"order_text": r.order_text, "commitment": r.commitment, "revealed": r.revealed}
                     for r in sub.receipts],
        "error": sub.error,
        "choices": list(sub.choices or []),
        "suggestions": list(sub.suggestions or []),
        "notes": list(sub.notes or [])[:SHOWN_APPLIED],
    }
    if sub.error:
        return _render_play(game_id, seat, seat_token, result, 422, plan_rows=rows)
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
        backend.call(service.set_standing_orders, game_id, seat, seat_token, text)
    except _service_errors() as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        result = {"error": _("%(error)s Your standing orders were not changed.", error=e), "applied": [],
                  "receipts": [], "choices": []}
        return _render_play(game_id, seat, seat_token, result, status)
    session[_result_key(game_id, seat)] = {"applied": [], "receipts": [], "error": None, "choices": [],
                                           "notes": [_("Standing orders saved.")]}
    return redirect(url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token,
                            _anchor="standing"), 303)


@bp.route("/play/<game_id>/<seat>/<seat_token>/undo", methods=["POST"])
@secret_page
def undo(game_id: str, seat: str, seat_token: str):
    """Take back the seat's own last steps (service/play/undo.py says which it may)."""
    steps = request.form.get("steps", "1")
    try:
        count = int(steps) if steps.isdigit() and len(steps) <= 2 else 0
        done = backend.call(service.undo, game_id, seat, seat_token, count)
    except _service_errors() as e:
        status = status_of(e)
        if status in (403, 404):
            return bad_link()
        result = {"error": _("%(error)s Nothing was taken back.", error=e), "applied": [], "receipts": [],
                  "choices": []}
        return _render_play(game_id, seat, seat_token, result, status)
    session[_result_key(game_id, seat)] = {
        "applied": [], "receipts": [], "error": None, "choices": [],
        "notes": [_("Taken back: %(orders)s. Choose again below.", orders=", ".join(done.taken_back))]}
    return redirect(url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token, _anchor="result"), 303)


@bp.route("/play/<game_id>/<seat>/<seat_token>/version", methods=["GET"])
@secret_page
def version(game_id: str, seat: str, seat_token: str):
    """What the open seat page polls (static/enhance.js): it changes when the page would. Needs the
    seat's link like the page itself; a wrong link gets the same answer as the page's."""
    try:
        current = backend.read_raw(service.seat_version, game_id, seat, seat_token)
    except _service_errors():
        return bad_link()
    return jsonify(version=current)


def _saved(game_id: str, seat: str, seat_token: str, note: str, anchor: str):
    session[_result_key(game_id, seat)] = {"applied": [], "receipts": [], "error": None, "choices": [], "notes": [note]}
    return redirect(url_for("seat.play", game_id=game_id, seat=seat, seat_token=seat_token, _anchor=anchor), 303)


def _refused(game_id: str, seat: str, seat_token: str, error: Exception, drafts: dict[str, Any]):
    status = status_of(error)
    if status in (403, 404):
        return bad_link()
    result = {"error": str(error), "applied": [], "receipts": [], "choices": []}
    return _render_play(game_id, seat, seat_token, result, status, drafts)


@bp.route("/play/<game_id>/<seat>/<seat_token>/notes", methods=["POST"])
@secret_page
def notes(game_id: str, seat: str, seat_token: str):
    """Save the seat's private notes (only this seat's link reads them)."""
    text = request.form.get("notes", "")[:MAX_COMMANDS]
    try:
        backend.call(service.save_notes, game_id, seat, seat_token, text)
    except _service_errors() as e:
        return _refused(game_id, seat, seat_token, e, {"notes": text})
    return _saved(game_id, seat, seat_token, _("Notes saved."), "notes")


@bp.route("/play/<game_id>/<seat>/<seat_token>/press", methods=["POST"])
@secret_page
def press(game_id: str, seat: str, seat_token: str):
    """Send press from the seat page; a refused message stays in the form."""
    to = [t[:64] for t in request.form.getlist("to")[:20]]
    to = ["all"] if not to or "all" in to else to  # "everybody" ticked with some seats is everybody
    text = request.form.get("text", "")[:MAX_COMMANDS]
    try:
        backend.call(service.send_press, game_id, seat, seat_token, to, text)
    except _service_errors() as e:
        return _refused(game_id, seat, seat_token, e, {"press": {"to": to, "text": text}})
    return _saved(game_id, seat, seat_token, _("Press sent."), "press")
