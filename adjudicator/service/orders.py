"""Submitting orders: text lines (e-mail, command box) or one JSON order (web forms)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlmodel import Session

from adjudicator.engine import GameModule, IllegalOrder, Order, Prompt
from adjudicator.i18n import _, error_text, help_text

from . import quickorder
from .clock import utcnow
from .core import (
    auth_seat,
    check_prompt_token,
    current_prompts,
    locked_snapshot,
    module_of,
    require_running,
    seats_of,
    token_for,
)
from .decisions import answered_since, stale_text
from .errors import BadOrder, NotYourTurn, ServiceError
from .pace import advance, seat_spoke, settle
from .standing import is_standing_line, parse_standing, run_command
from .steps import record_orders, seal
from .types import Submission

QUICK_ORDERS = True  # False: every order through the general path (the tests compare the two)


def order_lines(text: str) -> list[str]:
    """Order lines of a message: `//` comments, blank lines and a choice label's names are dropped."""
    lines = []
    for raw in text.splitlines():
        # " — " starts the names a choice's label adds after the order ("play 20 cp — #20 ..."):
        # a label copied from the list reads as its order
        line = raw.split("//", 1)[0].split(" — ", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def formatted_choices(game: GameModule, prompt: Prompt | None) -> list[str]:
    return [game.format_order(c) for c in prompt.choices] if prompt else []


def submit(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str,
    text: str,
    prompt_token: str | None,
    now: datetime | None = None,
    asked_at: int | None = None,
) -> Submission:
    """Each line is parsed against the prompt current at that moment and committed in turn;
    processing stops at the first bad line (earlier lines stay applied). `asked_at`: the record
    length of the mail these lines answer (decisions.py): if the seat has had an order applied
    since, the order lines are not applied (the standing-order lines are)."""
    lines = order_lines(text)

    def parse(game: GameModule, line: str, prompt: Prompt) -> Order:
        return game.parse_order(line, prompt)

    return _submit(s, game_id, seat, seat_token, lines, parse, prompt_token, now, asked_at)


def submit_order(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str,
    order: Any,
    prompt_token: str | None,
    now: datetime | None = None,
) -> Submission:
    """One JSON order (a web form's choice); errors are reported like `submit`'s. Its common case,
    a sealed order while the group waits for others, goes without the ORM (quickorder.py)."""
    now = now or utcnow()
    if QUICK_ORDERS:
        quick = quickorder.submit(s, game_id, seat, seat_token, order, prompt_token, now)
        if quick is not None:
            return quick

    def parse(game: GameModule, _line: Any, prompt: Prompt) -> Order:
        if not prompt.allows(order):
            raise IllegalOrder(_("that is not one of the choices for %(seat)s now", seat=seat))
        return order

    return _submit(s, game_id, seat, seat_token, [order], parse, prompt_token, now)


def _submit(
    s: Session,
    game_id: str,
    seat: str,
    seat_token: str,
    items: list[Any],
    parse: Callable[[GameModule, Any, Prompt], Order],
    prompt_token: str | None,
    now: datetime | None,
    asked_at: int | None = None,
) -> Submission:
    now = now or utcnow()
    # the lock serialises submissions to one game; the game's seats, sealed and standing orders
    # are read with it, once (authentication, the seal, `advance` and `settle` all need them)
    g = locked_snapshot(s, game_id)
    seats = seats_of(s, g)
    row = auth_seat(s, g, seat, seat_token, seats)
    require_running(g)
    game = module_of(g)
    standing = [isinstance(item, str) and is_standing_line(item) for item in items]
    result = Submission()
    answered = (answered_since(s, g, game, seat, asked_at)
                if asked_at is not None and not all(standing) else None)
    if answered is not None:  # the mail's decision is closed: its order lines answer nothing now
        result.stale = stale_text(g, row, answered)
        result.not_applied = [item for item, mark in zip(items, standing, strict=True) if not mark]
        items, standing = [item for item, mark in zip(items, standing, strict=True) if mark], [True] * sum(standing)
    prompt = current_prompts(g).get(seat)
    if prompt is None and not (items and standing[0]) and answered is None:
        raise NotYourTurn(_("%(seat)s has nothing to decide now in game %(game)s; wait for the others, or "
                            "answer ahead with LATER <order> (a standing order)", seat=seat, game=game_id))
    if prompt is not None and not (items and standing[0]):
        check_prompt_token(g, seat, prompt, prompt_token)
    if not items and answered is None:
        raise BadOrder(_("no orders found; %(help)s", help=help_text(game.grammar_help()) or _("write one order per line")),
                       formatted_choices(game, prompt))
    seat_spoke(s, g, row, now)
    for index, (item, is_standing) in enumerate(zip(items, standing, strict=True)):
        more = index < len(items) - 1  # after the last line, `settle` advances the game
        if is_standing:
            try:
                with s.begin_nested():
                    result.notes.append(run_command(s, g, seat, parse_standing(item)))
            except ServiceError as exc:
                result.error = f"`{item}`: {exc}"
                break
            if more:
                advance(s, g, now)  # a new standing order may answer the open decision at once
            continue
        prompt = current_prompts(g).get(seat) if g.status == "running" else None
        if prompt is None:
            result.error = _("`%(line)s`: %(seat)s has nothing more to decide now; this line and the rest were "
                             "not applied (to answer ahead, write LATER before the order)", line=item, seat=seat)
            break
        try:
            order = parse(game, item, prompt)
            if prompt.sealed:
                result.receipts.append(seal(s, g, game, seat, prompt, order, now))
            else:
                record_orders(s, g, {seat: order}, now=now)
            result.applied.append(game.format_order(order))
        except IllegalOrder as exc:
            result.error = f"`{item}`: {error_text(exc)}"  # the game's words, in the seat's language
            result.choices = formatted_choices(game, prompt)
            break
        if more:
            advance(s, g, now)  # reveals, standing orders and civil disorder before the next line
    # a mail whose orders all answered a closed decision acted on nothing: no follow-up of its wait
    acted = answered is None or bool(result.applied or result.receipts)
    result.tasks += settle(s, g, now, actors={seat} if acted else (), seats=seats)
    result.prompt_token = token_for(g, seat, current_prompts(g).get(seat))
    result.tasks = list(dict.fromkeys(result.tasks))
    return result
