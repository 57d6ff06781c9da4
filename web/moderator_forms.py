"""The forms of the moderator tools of issue 13 (on a game's moderator page): what each form sends
is checked here and handed to the service. Destructive tools (rollback, removal, declared result)
need their confirmation box ticked; the page works without JavaScript, so the check is here."""

from __future__ import annotations

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from adjudicator import service

from . import backend

TOOLS = ("rollback", "shorten", "broadcast", "remove", "declare")
DESTRUCTIVE = ("rollback", "remove", "declare")


class Invalid(ValueError):
    """A form filled in wrongly: the message says what to put instead."""


def done_message(action: str) -> str | None:
    return {
        "rollback": _("The game was rolled back. Every seat was told why, and the seats now waited on got a new "
                      "deadline."),
        "shorten": _("The deadline was brought forward; the seats being waited on were told by mail."),
        "broadcast": _("Your message went to every seat, on their pages and by mail."),
        "remove": _("The player was removed: the seat is in civil disorder until a replacement joins. Send the "
                    "new invite link below to the replacement player."),
        "declare": _("The game is over with the result you declared."),
    }.get(action)


def _number(form: MultiDict[str, str], name: str, kind: type, problem: str) -> float | int:
    try:
        return kind(form.get(name, ""))
    except ValueError:
        raise Invalid(problem) from None


def run_tool(action: str, game_id: str, admin_token: str, form: MultiDict[str, str]) -> tuple[str, str] | None:
    """Run one tool; returns (seat, invite token) when a removed seat's new invite must be shown.
    Service errors propagate to the caller, which shows them on the page."""
    if action in DESTRUCTIVE and form.get("confirm") != "yes":
        raise Invalid(_("Tick the confirmation box: this action cannot be taken back."))
    reason = form.get("reason", "")
    if action == "rollback":
        to = _number(form, "to", int, _("Roll back: give the number of the record entry to return to (#N in "
                                           "the log below)."))
        backend.call(service.rollback, game_id, admin_token, int(to), reason)
    elif action == "shorten":
        hours = _number(form, "hours", float, _("Shorten the deadline: give a number of hours."))
        backend.call(service.shorten_deadline, game_id, admin_token, float(hours))
    elif action == "broadcast":
        backend.call(service.broadcast, game_id, admin_token, form.get("text", ""))
    elif action == "remove":
        seat = (form.get("seat") or "").strip()
        removed = backend.call(service.remove_seat, game_id, admin_token, seat, reason)
        return removed.seat, removed.invite_token
    elif action == "declare":
        backend.call(service.declare_result, game_id, admin_token, form.getlist("winners"), reason)
    return None
