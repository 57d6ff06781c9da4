"""Running the commands of one mail for an identified seat; each returns Markdown for the reply.

Each command runs in a savepoint (the mail's own while it holds no write: mailunit.command), so a
failing one is rolled back alone; the first failure stops the rest, as the first bad order line does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlmodel import Session

from adjudicator.i18n import N_, _, help_text
from adjudicator.mail import compose
from adjudicator.mail.body import UNREAD_SHOWN, Command
from adjudicator.mail.words import canonical
from adjudicator.record.verdict import receipt_line

from ..common.core import current_prompts, find_game, module_of, sealed_rows, seat_row
from ..common.errors import ServiceError
from ..common.types import Task
from ..pages.reading import seat_log, seat_state
from ..people.mailauth import Speaker, registered_seats
from ..people.players import resign
from ..people.press import send_press
from ..play import notify, outboxrows
from ..play.absence import cancel_absence, my_absence, set_absence
from ..play.orders import submit
from ..play.wholeturn import SEPARATOR
from . import mailunit

STATUS_WORDS = (N_("pending"), N_("running"), N_("paused"), N_("finished"))  # msgids of Game.status


@dataclass
class Outcome:
    sections: list[str] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    stopped: bool = False
    summary: list[str] = field(default_factory=list)  # one word per command, for the inbox log
    changed: bool = False  # an order, press, absence or resignation took effect (not only read)
    unread: list[str] = field(default_factory=list)  # greetings, chatter, the signature: listed, not read
    chatter: bool = False  # the last order lines were all chatter (nothing read)


def run(s: Session, who: Speaker, commands: list[Command], now: datetime) -> Outcome:
    out = Outcome()
    ran = 0
    signature = [line for cmd in commands if cmd.name == "unread" for line in cmd.args]  # listed last
    for cmd in commands:
        if cmd.name in ("signon", "unread"):
            continue
        try:
            # the command's mails are written in its savepoint (rolled back with it), in one insert
            ran += 1
            with mailunit.command(s, first=ran == 1), outboxrows.batch(s) as mails:
                _one(s, who, cmd, now, out)
                out.tasks = mails.write(s, out.tasks)
            if cmd.name == "orders" and who.key.asked_at is not None:
                # the mail's decision is checked at its first order lines; later ones follow from them
                who = replace(who, key=replace(who.key, asked_at=None))
        except ServiceError as exc:
            out.sections += [_("**Not done:** `%(line)s`: %(error)s", line=cmd.line or cmd.name, error=exc), ""]
            if suggestions := getattr(exc, "suggestions", None):
                out.sections += [_("Did you mean:"), "", *[f"    {line}" for line in suggestions], ""]
            choices = getattr(exc, "choices", None)
            if choices:
                out.sections += [_("Legal orders now:"), "", *compose.choices_block(choices), ""]
            out.sections += [_("Processing stopped there; the rest of your mail was not read."), ""]
            out.stopped = True
        if not out.chatter:
            out.summary.append(cmd.name)
        out.chatter = False
        if out.stopped:  # (an order line says so itself: "Processing stopped at that line")
            break
    if not out.summary:
        out.sections += [_("Your mail contained no orders or commands. Send HELP for the commands."), ""]
    out.sections += unread_lines(out.unread + signature)
    return out


def unread_lines(lines: list[str]) -> list[str]:
    """The reply's list of lines that were not read (a greeting, chatter, a signature)."""
    if not lines:
        return []
    shown = [f"    {line}" for line in lines[:UNREAD_SHOWN]]
    if len(lines) > UNREAD_SHOWN:
        shown.append("    " + _("… and %(more)s more lines", more=len(lines) - UNREAD_SHOWN))
    return ["## " + _("Not read"), "", _("These lines are not orders or commands, so they were skipped (a line "
                                          "close to an order is refused instead, with suggestions):"), "",
            *shown, ""]


def _one(s: Session, who: Speaker, cmd: Command, now: datetime, out: Outcome) -> None:
    g, seat = who.game_id, who.seat
    if cmd.name == "orders":
        sub = submit(s, g, seat, who.key, cmd.text, None, now=now, mail=True, asked_at=who.key.asked_at)
        out.tasks += sub.tasks
        out.unread += sub.skipped
        if sub.stale:
            out.sections += [sub.stale, "", *[f"    {line}" for line in sub.not_applied], ""]
        if sub.skipped and not (sub.applied or sub.receipts or sub.notes or sub.error or sub.stale):
            out.chatter = True  # nothing but chatter: "contained no orders" is said below
            return
        if sub.applied:
            out.sections += ["## " + _("Applied"), "", *[f"    {line}" for line in sub.applied], ""]
        for r in sub.receipts:
            if r.revealed:  # it completed the group: nothing is left to replace
                out.sections += [_("Sealed order `%(order)s` received. Receipt (commitment): `%(commitment)s`. "
                                   "It was the last of its group, so all the orders are revealed now.",
                                   order=r.order_text, commitment=r.commitment), ""]
            else:
                out.sections += [_("Sealed order `%(order)s` received. Receipt (commitment): `%(commitment)s`. "
                                   "You may replace it by another mail until the reveal.", order=r.order_text,
                                   commitment=r.commitment), ""]
            out.sections += [_("Keep this line: the game's verifier page checks it against the record."), "",
                             "    " + receipt_line(g, seat, r.commitment), ""]
        for note in sub.notes:
            out.sections += [note, ""]
        out.changed = out.changed or bool(sub.applied or sub.receipts or sub.notes)
        if sub.error:
            out.sections += ["## " + _("Not applied"), "", sub.error, ""]
            if sub.suggestions:
                out.sections += [_("Did you mean:"), "", *[f"    {line}" for line in sub.suggestions], ""]
            if sub.choices:
                out.sections += [_("Legal orders at that point:"), "", *compose.choices_block(sub.choices), ""]
            out.sections += [_("Processing stopped at that line; the lines after it were not read."), ""]
            out.stopped = True
    elif cmd.name == "help":  # the commands, and this game's order grammar (no longer in every mail)
        found = find_game(s, g)
        grammar = help_text(module_of(found).grammar_help())
        out.sections += [compose.help_text(notify.rules_url(found.game_type)), ""]
        out.sections += ["## " + _("How to write orders"), "", grammar, ""] if grammar else []
        out.sections += _whole_turns(s, who, _("For your decision now, a whole turn in one line reads:"), most=1)
    elif cmd.name == "status":
        page = seat_state(s, g, seat, who.key)
        out.sections += ["## " + _("Status"), "", page.markdown, ""]
        if page.absence:
            out.sections += [_("You are marked absent %(absence)s (send `ABSENT CANCEL` to cancel).",
                               absence=page.absence), ""]
        if page.receipt:
            out.sections += [_("Your sealed order: `%(order)s` (receipt `%(commitment)s`)",
                               order=page.receipt.order_text, commitment=page.receipt.commitment), ""]
        if page.prompt is not None:
            game_row = find_game(s, g)
            out.sections += notify.turn_lines(game_row, module_of(game_row), seat_row(s, game_row, seat),
                                              _prompt(game_row, seat), full=True)[4:]
            out.sections += _whole_turns(s, who, _("Or a whole turn in one line (applied whole or not at all):"))
    elif cmd.name == "history":
        # HISTORY n: from record entry n on; HISTORY alone: the newest 30 entries
        given = cmd.args[0] if cmd.args and cmd.args[0].isdigit() else ""
        start = int(given) if given else max(0, find_game(s, g).record_length - 30)
        log = seat_log(s, g, seat, who.key, start)
        lines = [f"{line.index}. {line.markdown}" for line in log.log if line.index >= start][:200]
        out.sections += ["## " + _("History"), "", *(lines or [_("(nothing yet)")]), ""]
    elif cmd.name == "list":
        rows = registered_seats(s, who.registered)
        out.sections += ["## " + _("Your games"), "", *["- " + _(
            "%(game)s: %(title)s (%(type)s), seat %(seat)s, %(status)s", game=gm.public_id, title=gm.title,
            type=gm.game_type, seat=r.seat, status=_(gm.status)) for gm, r in rows], ""]
    elif cmd.name == "press":
        out.tasks += send_press(s, g, seat, who.key, cmd.args, cmd.text, via="mail", now=now)
        out.changed = True
        out.sections += [_("Press sent to %(to)s.", to=", ".join(cmd.args)), ""]
    elif cmd.name == "absent":
        out.sections += _absent(s, who, cmd.args, now)
        out.changed = out.changed or bool(cmd.args)
    elif cmd.name == "resign":
        out.tasks += resign(s, g, seat, who.key, now)
        out.changed = True
        out.sections += [_("You resigned. Your seat's decisions now take the default order at once, until the "
                           "moderator replaces you."), ""]
    elif cmd.name == "error":
        raise ServiceError(_(cmd.text))  # body.py's msgids
    else:  # pragma: no cover - body.parse_body only produces the names above
        raise ServiceError(f"unknown command {cmd.name}")


def _whole_turns(s: Session, who: Speaker, heading: str, most: int | None = None) -> list[str]:
    """The seat's listed whole-turn lines for its open decision (wholeturn.py), under `heading`;
    `most`: at most that many."""
    g = find_game(s, who.game_id)
    prompt = current_prompts(g).get(who.seat) if g.status == "running" else None
    if prompt is None:
        return []
    listed = notify.useful_choices(g, module_of(g), seat_row(s, g, who.seat), prompt)
    lines = [f"    {line}" for line in listed if SEPARATOR in line][:most]
    return [heading, "", *lines, ""] if lines else []


def _prompt(g, seat: str):
    return current_prompts(g)[seat]


def _absent(s: Session, who: Speaker, args: list[str], now: datetime) -> list[str]:
    """ABSENT <from> <to> (dates YYYY-MM-DD in your time zone), ABSENT CANCEL, or ABSENT alone."""
    if [canonical(a) for a in args] == ["CANCEL"]:  # AUSENTE CANCELAR too
        had = cancel_absence(s, who.game_id, who.seat, who.key, now)
        return [_("Your absence was cancelled.") if had else _("You had no absence to cancel."), ""]
    if not args:
        current = my_absence(s, who.game_id, who.seat, who.key)
        return [_("Your absence: %(absence)s.", absence=current.text) if current and current.until > now
                else _("You have no absence."), ""]
    if len(args) != 2:
        raise ServiceError(_("write ABSENT <first day> <last day> with dates as YYYY-MM-DD, or ABSENT CANCEL"))
    absence = set_absence(s, who.game_id, who.seat, who.key, args[0], args[1], now=now)
    return [_("Absence recorded: %(absence)s. If a deadline passes while you are away and we are waiting "
              "for you, it moves to the end of your absence instead of defaulting you; the moderator sees it. "
              "Send `ABSENT CANCEL` to cancel it.", absence=absence.text), ""]


def status_footer(s: Session, who: Speaker) -> list[str]:
    """The seat's current decision after the mail, short (the reply ends with it)."""
    g = find_game(s, who.game_id)
    if g.status != "running":
        return [_("The game is %(status)s.", status=_(g.status)), ""]
    prompt = current_prompts(g).get(who.seat)
    if prompt is None:
        nothing = _("You have nothing to decide at the moment; you will get a mail when you do.")
        return ["## " + _("Now"), "", nothing, ""]
    game = module_of(g)
    if prompt.sealed and prompt.group:
        mine = sealed_rows(s, g, prompt.group).get(who.seat)
        if mine is not None:
            return ["## " + _("Now"), "", _(
                "Your sealed order `%(order)s` is in (receipt `%(commitment)s`); the others have not all ordered "
                "yet. You may replace it by another mail until the reveal; otherwise there is nothing to do until "
                "you get a mail.", order=game.format_order(mine.order), commitment=mine.commitment), ""]
    row = seat_row(s, g, who.seat)
    return ["## " + _("Now"), "", *notify.decision_lines(g, game, row, prompt)]
