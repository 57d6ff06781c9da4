"""A seat's deadlines as calendar data (the web turns it into an iCalendar feed at a seat-token
URL). One event per game and seat, with a stable UID, so a subscribed calendar moves the event
when a deadline moves instead of adding another."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..common.clock import as_utc
from ..common.core import auth_seat, current_prompts, find_game


@dataclass
class SeatDeadline:
    game_id: str
    title: str
    seat: str
    status: str
    deadline: datetime | None  # None: no deadline runs (pending, paused or finished)
    your_move: bool  # the seat has an open decision
    record_length: int  # changes with every step: a calendar's SEQUENCE


def seat_deadline(s, game_id: str, seat: str, seat_token: str) -> SeatDeadline:
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    running = g.status == "running"
    return SeatDeadline(g.public_id, g.title, row.seat, g.status, as_utc(g.due_at) if running else None,
                        running and row.seat in current_prompts(g), g.record_length)
