"""Outbox rows, written in the caller's transaction; a ("deliver", id) task sends each later.

`to_seat` is the one way a seat is written to: it honours the seat's settings (every step, a
daily digest, or no mail) and adds a chat-webhook row when the seat has one. Mail always goes to
the seat's registered address.
"""

from __future__ import annotations

import os
from typing import Any

from sqlmodel import Session

from adjudicator.engine import GameModule, Prompt
from adjudicator.mail import addresses, compose
from adjudicator.store import Game, OutboxMessage, Seat

from .clock import format_deadline
from .tokens import mail_token, press_reply_token, signon_password
from .types import Task


def public_url(g: Game) -> str:
    base = os.environ.get("PBEM_BASE_URL", "").rstrip("/")
    return f"{base}/game/{g.public_id}" if base else f"/game/{g.public_id}"


def queue_mail(s: Session, g: Game | None, to: str, subject: str, body: str, *, kind: str = "",
               seat: str = "", channel: str = "mail", status: str = "pending", **headers: Any) -> Task | None:
    row = OutboxMessage(game_id=g.id if g else None, to=to, subject=subject, body=body, headers=headers,
                        kind=kind, seat=seat, channel=channel, status=status)
    s.add(row)
    s.flush()  # the id is the task's argument
    return ("deliver", row.id) if status == "pending" else None


def reply_address(g: Game, seat: Seat) -> str:
    if not seat.seat_token_hash:
        return ""
    return addresses.reply_address(g.public_id, seat.seat, mail_token(seat.seat_token_hash, g.public_id, seat.seat))


def press_reply_address(g: Game, seat: Seat, sender: str) -> str:
    """Where `seat` answers `sender`'s press: its own seat address with a distinct token."""
    if not seat.seat_token_hash:
        return ""
    token = press_reply_token(seat.seat_token_hash, g.public_id, seat.seat, sender)
    return addresses.reply_address(g.public_id, seat.seat, token)


def to_seat(s: Session, g: Game, seat: Seat, subject: str, body: str, kind: str, *,
            in_reply_to: str = "", auto: str = "auto-generated", force_mail: bool = False,
            reply_to: str = "") -> list[Task]:
    """`force_mail`: answers to a player's own mail are sent at once, whatever the digest setting.
    `reply_to` replaces the seat's reply address (press mails: the press-reply address)."""
    tasks: list[Task] = []
    hdrs = compose.headers(g.public_id, seat.seat, reply_to or reply_address(g, seat), in_reply_to, auto)
    if seat.email and (seat.mail_mode != "off" or force_mail):
        status = "held" if seat.mail_mode == "digest" and not force_mail else "pending"
        tasks.append(queue_mail(s, g, seat.email, subject, body, kind=kind, seat=seat.seat, status=status, **hdrs))
    if seat.chat_webhook and not force_mail:
        tasks.append(queue_mail(s, g, seat.chat_webhook, subject, body, kind=kind, seat=seat.seat,
                                channel="webhook"))
    return [t for t in tasks if t is not None]


def visible(ev: dict[str, Any], seat: str | None) -> bool:
    audience = ev.get("audience")
    return audience is None or (seat is not None and seat in audience)


def seat_timezone(g: Game, seat: Seat) -> str:
    return seat.timezone or g.timezone


def turn_lines(g: Game, game: GameModule, seat: Seat, prompt: Prompt, full: bool = False) -> list[str]:
    """The seat's board, its decision and everything needed to answer it by mail."""
    view = game.view(g.state or {}, seat.seat)
    choices = [game.format_order(c) for c in prompt.choices]
    return [
        "## Your view of the board", "", game.render_view(view, seat.seat), "",
        *compose.turn_block(prompt.text or prompt.kind, prompt.sealed, choices, game.grammar_help(),
                            format_deadline(g.due_at, seat_timezone(g, seat)), reply_address(g, seat), full),
    ]


def start_lines(g: Game, seat: Seat) -> list[str]:
    password = signon_password(seat.seat_token_hash or "-", g.public_id, seat.seat)
    return [
        "## Playing by mail", "",
        f"Reply to this mail (address {reply_address(g, seat)}) with one order per line. If your mail "
        f"client changes the address, put `SIGNON {g.public_id} {seat.seat} {password}` on the first line. "
        "Keep both secret: they act for your seat. Send HELP for the commands.", "",
        f"Fairness: the server's seed is committed as `{g.seed_commitment}` (sha256); it is published "
        "when the game ends so that anyone can re-run every shuffle and draw.", "",
    ]


def end_lines(g: Game, game: GameModule) -> list[str]:
    outcome = game.outcome(g.state or {})
    return [
        "## Game over", "", outcome.summary if outcome else "", "",
        f"The server seed is now public: `{g.server_seed}` (its sha256 is the commitment "
        f"`{g.seed_commitment}` published at the start).", "",
        f"To verify the whole game yourself: download the record from {public_url(g)}/export.json and run "
        "`pbem verify export.json`; it replays every order from the seed and checks every hash.", "",
    ]


def step_mail(
    s: Session,
    g: Game,
    game: GameModule,
    events: list[dict[str, Any]],
    prompts: dict[str, Prompt],
    seats: list[Seat],
    started: bool = False,
) -> list[Task]:
    """One message per seat: what happened (events it may see), then its own decision if it has
    one (with the board, choices and reply address); at the end the outcome and the seed."""
    tasks: list[Task] = []
    title = g.title or game.info.title
    over = g.status == "finished"
    for seat in seats:
        if not (seat.email or seat.chat_webhook):
            continue
        lines = [game.render_event(ev) for ev in events if visible(ev, seat.seat)]
        prompt = prompts.get(seat.seat)
        if not lines and prompt is None and not over and not started:
            continue
        body = [f"# {title} ({g.public_id}), seat {seat.seat}", ""]
        if started:
            body += start_lines(g, seat)
        if lines:
            body += ["## What happened", ""] + [f"- {line}" for line in lines] + [""]
        if prompt is not None:
            body += turn_lines(g, game, seat, prompt)
        if over:
            body += end_lines(g, game)
        body += [f"Game page: {public_url(g)}"]
        if started:
            subject, kind = f"[{g.public_id}] {title}: the game has started", "start"
        elif over:
            subject, kind = f"[{g.public_id}] {title}: game over", "end"
        elif prompt is not None:
            subject, kind = f"[{g.public_id}] {title}: your turn ({seat.seat})", "turn"
        else:
            subject, kind = f"[{g.public_id}] {title}: news", "news"
        tasks += to_seat(s, g, seat, subject, "\n".join(body), kind)
    return tasks


def reminder_mail(s: Session, g: Game, game: GameModule, seat: Seat, prompt: Prompt) -> list[Task]:
    title = g.title or game.info.title
    body = [
        f"# Reminder: {title} ({g.public_id}), seat {seat.seat}",
        "",
        f"Your orders are due by **{format_deadline(g.due_at, seat_timezone(g, seat))}**; after that the "
        "default order is applied for you.",
        "",
        *turn_lines(g, game, seat, prompt),
        f"Game page: {public_url(g)}",
    ]
    return to_seat(s, g, seat, f"[{g.public_id}] {title}: reminder ({seat.seat})", "\n".join(body), "reminder")
