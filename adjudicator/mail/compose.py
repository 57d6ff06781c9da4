"""Markdown bodies and headers of outgoing mail (pure: values in, text out).

Threading: every mail of a game names the same virtual root `<game-ID@domain>` in References, so
clients group a game into one thread; replies to a player's mail also carry In-Reply-To.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.i18n import _

from . import config
from .headers import one_line

MAX_CHOICES = 40
MAX_REPLY_CHARS = 200 * 1024


def thread_root(game_id: str) -> str:
    return f"<game-{game_id}@{config.domain()}>"


def headers(game_id: str | None, seat: str = "", reply_to: str = "", in_reply_to: str = "",
            auto: str = "auto-generated") -> dict[str, str]:
    """Auto-Submitted on everything we send: a well-behaved autoresponder will not answer it."""
    h: dict[str, str] = {"Auto-Submitted": auto}
    refs = []
    if game_id:
        h["X-PBEM-Game"] = game_id
        h["List-Id"] = f"pbem game {game_id} <{game_id}.{config.domain()}>"
        refs.append(thread_root(game_id))
    if seat:
        h["X-PBEM-Seat"] = seat
    if reply_to:
        h["Reply-To"] = one_line(reply_to)
    in_reply_to = one_line(in_reply_to)  # quoted from an inbound mail: never trusted to be one line
    if in_reply_to and " " not in in_reply_to:
        h["In-Reply-To"] = in_reply_to
        refs.append(in_reply_to)
    if refs:
        h["References"] = " ".join(refs)
    return h


def choices_block(choices: Sequence[str]) -> list[str]:
    shown = [f"    {c}" for c in choices[:MAX_CHOICES]]
    if len(choices) > MAX_CHOICES:
        shown.append("    " + _("... and %(more)s more (send STATUS for the full list)",
                                  more=len(choices) - MAX_CHOICES))
    return shown


MAX_SHOWN = 12  # legal orders a "your move" mail lists; STATUS and the seat page list them all


def decision_block(prompt_text: str, sealed: bool, shown: Sequence[str], total: int, deadline: str,
                   reply_address: str, page_url: str) -> list[str]:
    """A short "your move" mail's decision: the prompt and its deadline, at most MAX_SHOWN legal
    orders and one line on how to answer (the board and the grammar are in STATUS and HELP)."""
    lines = ["## " + _("Your decision"), prompt_text, _("Deadline: **%(deadline)s**", deadline=deadline), ""]
    if sealed:
        lines += [_("This order is **sealed**: nobody sees it until everyone in the group has decided. "
                    "You may replace it by another mail until then."), ""]
    if total > len(shown):
        lines += [_("Legal orders (%(shown)s of %(total)s; STATUS or your seat page lists them all):",
                    shown=len(shown), total=total), ""]
    else:
        lines += [_("Legal orders now:"), ""]
    lines += [f"    {c}" for c in shown]
    lines += ["", _("Reply to this mail (%(address)s) with one order per line (several orders "
                    "separated by `;` in one line make a whole turn, applied whole or not at all); "
                    "send HELP for the commands and how to "
                    "write orders, STATUS for the board. Game page: %(url)s", address=reply_address, url=page_url), ""]
    return lines


def turn_block(prompt_text: str, sealed: bool, choices: Sequence[str], grammar: str, deadline: str,
               reply_address: str, full: bool = False, more: int = 0) -> list[str]:
    """Your decision: the prompt, legal choices, grammar with an example, deadline, reply address.
    `more`: legal orders left out of `choices` (STATUS lists them)."""
    example = choices[0] if choices else _("help")
    lines = ["## " + _("Your decision"), "", prompt_text, ""]
    if sealed:
        lines += [_("This order is **sealed**: nobody sees it until everyone in the group has decided. "
                    "You may replace it by another mail until then."), ""]
    lines += [_("Legal orders now:"), ""]
    lines += [f"    {c}" for c in choices] if full else choices_block(choices)
    if more > 0 and len(choices) <= MAX_CHOICES:
        lines.append("    " + _("... and %(more)s more (send STATUS for the full list)", more=more))
    lines += ["", _("How to write orders: %(grammar)s", grammar=grammar) if grammar else _("One order per line."), "",
              _("Example: reply to this mail with the line `%(example)s`", example=example), "",
              _("Deadline: **%(deadline)s**", deadline=deadline), "",
              _("Reply address: %(address)s", address=reply_address), ""]
    return lines


def help_text(rules_url: str = "") -> str:
    """The HELP text; `rules_url`: the page with the game's rules (web/rules.py), linked at its end."""
    rules = ("\n\n" + _("The rules of the game, with every decision and card: %(url)s", url=rules_url)
             if rules_url else "")
    return _help_commands() + rules


def _help_commands() -> str:
    # one msgid: the command table is laid out as a whole, and each language lists its own words
    return _("""# How to play by mail

Reply to the mail you received (its reply address identifies your seat), one order per line.
Lines starting with `>` (quoted text) are ignored; `//` starts a comment; `SIGNOFF` ends the
mail (a signature below it is ignored).

A whole turn fits in one line: the orders one after another, separated by `;`
(`<order>; <order>; <order>`). The line is applied whole or not at all: if one of its orders
is refused, none is applied and the reply says which and why. The "your move" mail lists
such lines where your order leads to more decisions of yours.

Commands:

    HELP                      this text
    STATUS                    your view of the board, your decision and every legal order
    HISTORY [n]               the game log from entry n on
    LIST                      your games
    PRESS TO <seats>|ALL      a message to other players, ended by a line ENDPRESS
    ABSENT <from> <to>        you are away these days (YYYY-MM-DD, your time zone): a deadline
                              that passes meanwhile waits for your return; ABSENT CANCEL
    LATER [kind:] <order>     answer a decision ahead (used once when it fits)
    ALWAYS [kind:] <order>    a standing rule, kept until cancelled
    STANDING                  your standing orders; STANDING CLEAR, STANDING CANCEL <n>
    RESIGN                    leave the game (the moderator may replace you)
    SIGNON <game> <seat> <password>   if your mail client changes the reply address

The Spanish words work too, in any mail: AYUDA, ESTADO, HISTORIAL, LISTA, MENSAJE A ... FINMENSAJE,
AUSENTE, DESPUES, SIEMPRE, PERMANENTES, RENUNCIAR, ENTRAR, FIN.

See the game's page for the rules and the order grammar.""")


def reply_body(title: str, game_id: str, seat: str, sections: list[str], status: list[str],
               notice: str = "") -> str:
    lines = ["# " + _("%(title)s (%(game)s), seat %(seat)s", title=title, game=game_id, seat=seat), ""]
    if notice:
        lines += [notice, ""]
    lines += sections
    lines += status
    body = "\n".join(lines).rstrip() + "\n"
    if len(body) > MAX_REPLY_CHARS:  # a last brake; the body language already sends each STATUS once
        body = body[:MAX_REPLY_CHARS].rsplit("\n", 1)[0] + "\n\n*(" + _(
            "This reply was cut at %(kb)s KB. Send fewer commands per mail, or see the game's page.",
            kb=MAX_REPLY_CHARS // 1024) + ")*\n"
    return body


def chat_payload(subject: str, body: str) -> dict[str, Any]:
    """JSON that Slack (`text`) and Discord (`content`, max 2000 characters) both accept."""
    text = f"*{subject}*\n{body}"
    return {"text": text[:3900], "content": text[:1990]}
