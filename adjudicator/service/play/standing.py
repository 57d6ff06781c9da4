"""Standing orders: a seat answers ahead.

A seat leaves order lines for decisions that are not open yet. `LATER [kind:] <order>` is used
once, `ALWAYS [kind:] <order>` stays until cancelled; `kind:` limits a line to one kind of decision
(the prompt kinds each game's doc lists). When a decision opens for the seat, `pace.advance`
tries its lines in order: the first that reads as a legal choice is applied at once as the seat's
order (the record says `standing`), a LATER line is used up, and lines that do not fit stay.

Standing orders are the seat's secret: only `standing_lines` with the seat's own key shows them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlmodel import Session, col, select

from adjudicator.engine import GameModule
from adjudicator.i18n import _, help_text, prompt_text
from adjudicator.mail.words import canonical
from adjudicator.store import Game, StandingOrder
from adjudicator.store.typed import id_of

from ..common.core import auth_seat, find_game, locked_game, module_of
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import table_of
from ..common.tokens import MailKey
from ..common.types import StandingLine, Task
from .pace import seat_spoke, settle

MAX_LINES = 50  # standing orders per seat
MAX_TEXT = 300
KEYWORDS = ("LATER", "ALWAYS", "STANDING")
_KIND = re.compile(r"^([a-z][a-z0-9_-]{0,40}):\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class StandingCommand:
    """One standing-order line of a mail or of the command box."""

    action: str  # add / list / clear / cancel
    text: str = ""
    kind: str = ""
    always: bool = False
    number: int = 0  # for cancel: the position in the list (1 = first)


def is_standing_line(line: str) -> bool:
    return canonical(line.split(maxsplit=1)[0]) in KEYWORDS if line.strip() else False  # DESPUES, SIEMPRE...


def parse_standing(line: str) -> StandingCommand:
    """`LATER [kind:] order`, `ALWAYS [kind:] order`, `STANDING` (list), `STANDING CLEAR`,
    `STANDING CANCEL n`. Raises ServiceError in plain words."""
    words = line.strip().split(maxsplit=1)
    written, head, rest = words[0], canonical(words[0]), (words[1].strip() if len(words) > 1 else "")
    if head == "STANDING":
        arg = rest.split()
        if not arg:
            return StandingCommand("list")
        if [canonical(a) for a in arg] == ["CLEAR"]:
            return StandingCommand("clear")
        if len(arg) == 2 and canonical(arg[0]) == "CANCEL" and arg[1].isdigit():
            return StandingCommand("cancel", number=int(arg[1]))
        raise ServiceError(_("write STANDING (your standing orders), STANDING CLEAR, or STANDING CANCEL <number>"))
    if not rest:
        raise ServiceError(_("write %(word)s followed by an order, e.g. `%(word)s pass`; "
                             "`%(word)s <kind>: <order>` limits it to one kind of decision", word=written.upper()))
    kind = ""
    match = _KIND.match(rest)
    if match and match.group(2).strip():
        kind, rest = match.group(1).lower(), match.group(2).strip()
    if len(rest) > MAX_TEXT:
        raise ServiceError(_("a standing order has at most %(max)s characters", max=MAX_TEXT))
    return StandingCommand("add", text=rest, kind=kind, always=head == "ALWAYS")


def _rows(s: Session, g: Game, seat: str) -> list[StandingOrder]:
    """The seat's queued lines (not those dropped and waiting to be told: standingdrop.py)."""
    return list(s.exec(select(StandingOrder).where(StandingOrder.game_id == g.id, StandingOrder.seat == seat,
                                                   StandingOrder.dropped == "")
                       .order_by(col(StandingOrder.id))).all())


def _line(row: StandingOrder) -> StandingLine:
    return StandingLine(row.id or 0, row.text, row.kind, row.always)


def lines_of(s: Session, g: Game, seat: str) -> list[StandingLine]:
    """A seat's standing orders (for its own page and mails only)."""
    return [_line(r) for r in _rows(s, g, seat)]


def check_line(game: GameModule, text: str) -> None:
    """Refuse at entry a line that cannot be an order of this game at all."""
    problem = game.order_problem(text)
    if problem:
        grammar = help_text(game.grammar_help())
        raise ServiceError(_("`%(text)s` cannot be an order of %(game)s: %(problem)s", text=text,
                             game=game.info.title, problem=problem) + (f". {grammar}" if grammar else ""))


def add_line(s: Session, g: Game, seat: str, cmd: StandingCommand) -> StandingLine:
    if g.status == "finished":
        raise Conflict(_("game %(game)s is over; standing orders are no longer used", game=g.public_id))
    game = module_of(g)
    check_line(game, cmd.text)
    never = game.never_legal(g.state, seat, cmd.text) if g.state is not None else None
    if never:  # e.g. a card already removed from the game
        raise ServiceError(_("`%(text)s` can never be legal again: %(reason)s", text=cmd.text,
                             reason=prompt_text("", never)))
    if len(_rows(s, g, seat)) >= MAX_LINES:
        raise ServiceError(_("at most %(max)s standing orders; send STANDING CLEAR or cancel some first",
                             max=MAX_LINES))
    row = StandingOrder(game_id=id_of(g), seat=seat, text=cmd.text, kind=cmd.kind, always=cmd.always)
    s.add(row)
    s.flush()
    return _line(row)


def clear_lines(s: Session, g: Game, seat: str) -> int:
    rows = _rows(s, g, seat)
    for row in rows:
        s.delete(row)
    s.flush()
    return len(rows)


def cancel_line(s: Session, g: Game, seat: str, number: int) -> StandingLine:
    rows = _rows(s, g, seat)
    if not 1 <= number <= len(rows):
        raise ServiceError(_("there is no standing order number %(number)s; you have %(count)s", number=number,
                             count=len(rows)))
    row = rows[number - 1]
    s.delete(row)
    s.flush()
    return _line(row)


def run_command(s: Session, g: Game, seat: str, cmd: StandingCommand) -> str:
    """Carry out one standing-order command for an authenticated seat; Markdown for the reply."""
    if cmd.action == "add":
        line = add_line(s, g, seat, cmd)
        if line.kind:
            if line.always:
                return _("Standing order kept for decisions of kind `%(kind)s`, used until you cancel it: "
                         "`%(line)s`", kind=line.kind, line=line.written)
            return _("Standing order kept for decisions of kind `%(kind)s`, used once: `%(line)s`",
                     kind=line.kind, line=line.written)
        if line.always:
            return _("Standing order kept, used until you cancel it: `%(line)s`", line=line.written)
        return _("Standing order kept, used once: `%(line)s`", line=line.written)
    if cmd.action == "clear":
        return _("Standing orders cleared (%(count)s).", count=clear_lines(s, g, seat))
    if cmd.action == "cancel":
        return _("Standing order cancelled: `%(line)s`", line=cancel_line(s, g, seat, cmd.number).written)
    return listing(lines_of(s, g, seat))


def listing(lines: list[StandingLine]) -> str:
    if not lines:
        return _("You have no standing orders.")
    return "\n".join([_("Your standing orders (tried in this order when a decision opens for you):"), "",
                      *[f"{i}. `{line.written}`" for i, line in enumerate(lines, 1)]])


def replace_all(s: Session, game_id: str, seat: str, seat_token: str | MailKey, text: str) -> list[Task]:
    """The web list: one standing order per line (`[ALWAYS] [kind:] order`, LATER optional);
    replaces the seat's list whole, or changes nothing if a line is refused."""
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    commands: list[StandingCommand] = []
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if canonical(line.split(maxsplit=1)[0]) not in ("LATER", "ALWAYS"):
            line = f"LATER {line}"
        cmd = parse_standing(line)
        if cmd.action != "add":
            raise ServiceError(_("`%(line)s`: write one order per line, each optionally starting with ALWAYS",
                                 line=raw.strip()))
        commands.append(cmd)
    if len(commands) > MAX_LINES:
        raise ServiceError(_("at most %(max)s standing orders", max=MAX_LINES))
    clear_lines(s, g, seat)
    for cmd in commands:
        add_line(s, g, seat, cmd)
    seat_spoke(s, g, row)
    return settle(s, table_of(s, g), actors={seat})


def standing_lines(s: Session, game_id: str, seat: str, seat_token: str | MailKey) -> list[StandingLine]:
    g = find_game(s, game_id)
    auth_seat(s, g, seat, seat_token)
    return lines_of(s, g, seat)
