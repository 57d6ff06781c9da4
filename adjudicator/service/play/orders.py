"""Submitting orders: text lines (e-mail, command box) or one JSON order (web forms)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlmodel import Session

from adjudicator.engine import GameModule, IllegalOrder, Order, Prompt
from adjudicator.i18n import _, error_text, help_text, prompt_text
from adjudicator.store import Game

from ..common import snapshot
from ..common.clock import utcnow
from ..common.core import auth_table_seat, require_running, seat_row
from ..common.errors import BadOrder, NotFound, NotYourTurn, ServiceError
from ..common.tokens import MailKey
from ..common.types import Preview, Submission
from . import suggest
from .decisions import answered_since, stale_text
from .pace import advance, seat_spoke, settle
from .prompttoken import check_prompt_token, token_for
from .standing import is_standing_line, parse_standing, run_command
from .steps import record_orders, seal, sealed_of
from .wholeturn import SEPARATOR


def order_line_parts(text: str) -> list[list[str]]:
    """The order lines of a message, each as its orders: `play 23 cp; campaign Ohio 2` is one line
    of two. `//` comments, blank lines and a choice label's names are dropped; a standing-order
    line (LATER ...) is one order."""
    out = []
    for raw in text.splitlines():
        line = raw.split("//", 1)[0]
        parts = [line] if is_standing_line(line) else line.split(SEPARATOR)
        # " — " starts the names a choice's label adds after the order ("play 20 cp — #20 ..."):
        # a label copied from the list reads as its order
        orders = [part.split(" — ", 1)[0].strip() for part in parts]
        orders = [order for order in orders if order]
        if orders:
            out.append(orders)
    return out


def order_lines(text: str) -> list[str]:
    """The orders of a message one by one (the parts of a line of several, in turn)."""
    return [order for parts in order_line_parts(text) for order in parts]


def lock_table(s: Session, game_id: str) -> snapshot.Table:
    """The game locked, as its table (common/snapshot.py): the game's seats, sealed and standing
    orders, module and prompts read at once and kept for the transaction, so an order reads each once."""
    # an inbox drain has the game loaded already, for every mail of its chunk
    t = snapshot.locked_table(s, game_id) or snapshot.open_table(s, game_id, entries=False)
    if t is None:
        raise NotFound(_("there is no game %(game)s; check the link", game=repr(game_id)))
    return t


def formatted_choices(game: GameModule, prompt: Prompt | None) -> list[str]:
    return [game.format_order(c) for c in prompt.choices] if prompt else []


def submit(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str | MailKey,
    text: str,
    prompt_token: str | None,
    now: datetime | None = None,
    mail: bool = False,
    whole: bool = False,
    asked_at: int | None = None,
) -> Submission:
    """Each line is parsed against the prompt current at that moment and committed in turn;
    processing stops at the first bad line (earlier lines stay applied). A line of several orders
    (`SEPARATOR`) is applied part after part, as lines are, but whole or not at all. `mail`: lines
    of a mail, where chatter (a greeting, a closing) is skipped and listed instead of refused (suggest.py).
    `whole`: all lines or none (a web plan): a refused line undoes the lines before it. `asked_at`:
    the record length of the mail these lines answer (decisions.py): if the seat has had an order
    applied since, the order lines are not applied (the standing-order lines are)."""
    lines = order_line_parts(text)
    return _submit(s, game_id, seat, seat_token, [order for parts in lines for order in parts], _parse_line,
                   prompt_token, now, suggest.MAIL_COMMANDS if mail else None, whole=whole, asked_at=asked_at,
                   sizes=[len(parts) for parts in lines])


def _parse_line(game: GameModule, line: str, prompt: Prompt) -> Order:
    return game.parse_order(line, prompt)


def preview_plan(s: Session, game_id: str, seat: str, seat_token: str, text: str, prompt_token: str | None,
                 now: datetime | None = None) -> Preview:
    """What `submit(..., whole=True)` of these lines would do, changing nothing: the lines it
    would apply, what the seat has left after each (`GameModule.budget`: 1960's CP), and the
    refusal that would stop it. Nothing drawn or revealed by the lines is shown (the rows'
    results are left out): the draws are made again when the plan is sent."""
    preview = Preview()
    lines = order_lines(text)
    outer = s.begin_nested()
    try:
        t = lock_table(s, game_id)
        g, game = t.game, t.module
        preview.before = _budget(game, g, seat)

        def watch(line: str) -> None:
            left = _budget(game, g, seat)
            if not left and preview.before:  # the count is used up: the decision it belonged to is over
                left = _("nothing left to spend: the action ends")
            preview.rows.append((line, left))

        sub = _submit(s, game_id, seat, seat_token, lines, _parse_line, prompt_token, now, whole=True,
                      watch=watch, settle_after=False)
        preview.error = sub.error
        if sub.error:
            preview.rows = []
    finally:
        outer.rollback()
    return preview


def _budget(game: GameModule, g: Game, seat: str) -> str:
    said = game.budget(game.view(g.state or {}, seat), seat) if g.state is not None else None
    return prompt_text("", said) if said else ""




def submit_order(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str,
    order: Any,
    prompt_token: str | None,
    now: datetime | None = None,
) -> Submission:
    """One JSON order (a web form's choice); errors are reported like `submit`'s."""
    now = now or utcnow()

    def parse(game: GameModule, _line: Any, prompt: Prompt) -> Order:
        if not prompt.allows(order):
            raise IllegalOrder(_("that is not one of the choices for %(seat)s now", seat=seat))
        return order

    return _submit(s, game_id, seat, seat_token, [order], parse, prompt_token, now)


def _submit(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str | MailKey,
    items: list[Any],
    parse: Callable[[GameModule, Any, Prompt], Order],
    prompt_token: str | None,
    now: datetime | None,
    mail_commands: tuple[str, ...] | None = None,
    whole: bool = False,
    watch: Callable[[str], None] | None = None,
    settle_after: bool = True,
    asked_at: int | None = None,
    sizes: list[int] | None = None,
) -> Submission:
    """`sizes`: how many of the items each line holds, in order (None: one each); a line of several
    runs in a savepoint, undone with the reason if one of its parts is refused. `mail_commands`:
    the items are mail lines; chatter among them is skipped (suggest.py).
    `whole`: the lines run in a savepoint, undone if one is refused. `watch`: told each applied
    line's text (a preview). `settle_after`: False for a preview, which is undone anyway."""
    now = now or utcnow()
    # the lock serialises submissions to one game; its table holds the game's seats, sealed and
    # standing orders, module and prompts, read once (authentication, the seal, `advance` and
    # `settle` all read them from it)
    t = lock_table(s, game_id)
    row = auth_table_seat(t, seat, seat_token)
    g, game = t.game, t.module
    require_running(g)
    standing = [isinstance(item, str) and is_standing_line(item) for item in items]
    result = Submission()
    answered = (answered_since(s, g, game, seat, asked_at)
                if asked_at is not None and not all(standing) else None)
    if answered is not None:  # the mail's decision is closed: its order lines answer nothing now
        result.stale = stale_text(g, seat_row(s, g, seat), answered)
        result.not_applied = [item for item, mark in zip(items, standing, strict=True) if not mark]
        items, standing = [item for item, mark in zip(items, standing, strict=True) if mark], [True] * sum(standing)
        sizes = None  # standing lines are one order each
    prompt = t.prompts.get(seat)

    def chatter(index: int, at: Prompt | None) -> bool:  # a mail's greeting or closing: listed, not read
        item = items[index]
        return (mail_commands is not None and isinstance(item, str) and not standing[index]
                and suggest.is_chatter(game, at, item, mail_commands))

    first = next((i for i in range(len(items)) if not chatter(i, prompt)), None)
    if items and first is None:
        result.skipped = list(items)
        return result
    ahead = bool(items) and standing[first or 0]  # the first line read is a standing order
    if prompt is None and not ahead and answered is None:
        why = suggest.refusal_reason(game, g.state, seat, None, str(items[first or 0]))
        raise NotYourTurn(_("%(seat)s has nothing to decide now in game %(game)s; wait for the others, or "
                            "answer ahead with LATER <order> (a standing order)", seat=seat, game=game_id)
                          + (f" ({why})" if why else ""),
                          suggest.did_you_mean(game, None, str(items[first or 0]),
                                               mail_commands or suggest.WEB_COMMANDS))
    if prompt is not None and not ahead:
        check_prompt_token(g, seat, prompt, prompt_token)
    if not items and answered is None:
        how = help_text(game.grammar_help()) or _("write one order per line")
        raise BadOrder(_("no orders found; %(help)s", help=how),
                       formatted_choices(game, prompt))
    seat_spoke(s, g, row, now)
    plan = s.begin_nested() if whole else None
    where = _line_places(sizes, len(items))
    line: _Line | None = None  # the line of several orders being applied
    for index, (item, is_standing) in enumerate(zip(items, standing, strict=True)):
        part, size = where[index]
        if part == 0:
            if line is not None:  # the line before applied whole
                line.point.commit()
            line = _Line(s.begin_nested(), result, items[index:index + size]) if size > 1 else None
        more = index < len(items) - 1  # after the last line, `settle` advances the game
        if is_standing:
            try:
                with s.begin_nested():
                    result.notes.append(run_command(s, g, seat, parse_standing(item)))
            except ServiceError as exc:
                result.error = f"`{item}`: {exc}"
                t = lock_table(s, game_id)  # the savepoint's rollback dropped the table: read again
                break
            if more:
                advance(s, t, now)  # a new standing order may answer the open decision at once
            continue
        prompt = t.prompts.get(seat) if g.status == "running" else None
        # the lines up to the first read were judged above, against this same prompt (nothing was
        # applied before them): only the lines after it are looked at again
        if index < (first or 0) or (index > (first or 0) and chatter(index, prompt)):
            result.skipped.append(item)
            continue
        if prompt is None:
            result.error = _("`%(line)s`: %(seat)s has nothing more to decide now; this line and the rest were "
                             "not applied (to answer ahead, write LATER before the order)", line=item, seat=seat)
            break
        try:
            order = parse(game, item, prompt)
            if prompt.sealed:
                result.receipts.append(seal(s, t, seat, prompt, order, now))
            else:
                record_orders(s, t, {seat: order}, now=now)
            result.applied.append(game.format_order(order))
        except IllegalOrder as exc:
            # the rule's reason when the game gives one, else the grammar's words; in the seat's language
            why = suggest.refusal_reason(game, g.state, seat, prompt, item) if isinstance(item, str) else None
            result.error = f"`{item}`: {why or error_text(exc)}"
            result.choices = formatted_choices(game, prompt)
            if isinstance(item, str):
                result.suggestions = suggest.did_you_mean(game, prompt, item,
                                                          mail_commands or suggest.WEB_COMMANDS)
            break
        if more:
            advance(s, t, now)  # reveals, standing orders and civil disorder before the next line
        if watch is not None:
            watch(result.applied[-1])
    if line is not None and not result.error:
        line.point.commit()
    elif line is not None:  # a part of the line was refused: none of it stands
        line.undo(result, part)
        t = lock_table(s, game_id)
    if plan is not None:
        if result.error:  # all or nothing: the lines before the refused one are undone too
            plan.rollback()
            result.error = _("%(error)s — so no line of the plan was applied (a plan is applied whole or not at "
                             "all)", error=result.error)
            result.applied, result.receipts, result.notes = [], [], []
            t = lock_table(s, game_id)
        else:
            plan.commit()
    if not settle_after:
        return result
    # a mail whose orders all answered a closed decision acted on nothing: no follow-up of its wait
    acted = answered is None or bool(result.applied or result.receipts)
    result.tasks += settle(s, t, now, actors={seat} if acted else ())
    for receipt in result.receipts:  # the last order of its group was revealed with the others
        receipt.revealed = seat not in sealed_of(t, receipt.group)
    result.prompt_token = token_for(t.game, seat, t.prompts.get(seat))
    result.tasks = list(dict.fromkeys(result.tasks))
    return result


def _line_places(sizes: list[int] | None, count: int) -> list[tuple[int, int]]:
    """(part, size) of each item: its place in its line and the line's number of orders."""
    if sizes is None or sum(sizes) != count:
        return [(0, 1)] * count
    return [(part, size) for size in sizes for part in range(size)]


class _Line:
    """A line of several orders while it is applied: its savepoint and what the result held before it."""

    def __init__(self, point: Any, result: Submission, parts: list[Any]) -> None:
        self.point, self.parts = point, parts
        self.marks = (len(result.applied), len(result.receipts), len(result.notes))

    def undo(self, result: Submission, part: int) -> None:
        """Roll the line back and say so beside the refusal (`part`: the refused one, from 0)."""
        self.point.rollback()
        applied, receipts, notes = self.marks
        del result.applied[applied:], result.receipts[receipts:], result.notes[notes:]
        if part > 0:
            result.error = _("%(error)s — it is order %(part)s of the line `%(line)s`, so nothing of that line "
                             "was applied (a line of several orders is applied whole or not at all)",
                             error=result.error, part=part + 1, line=f"{SEPARATOR} ".join(map(str, self.parts)))
