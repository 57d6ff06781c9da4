"""A seat's deadline as an iCalendar feed (the `icalendar` library). One event with a UID fixed per
game and seat, so a subscribed calendar moves it when the deadline moves; no event while no
deadline runs (paused, pending or finished games)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from adjudicator.service import SeatDeadline, utcnow


def _calendar(name: str):  # type: ignore[no-untyped-def]
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", "-//pbem//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    return cal


def deadline_calendar(deadline: SeatDeadline, game_url: str) -> bytes:
    cal = _calendar(f"pbem: {deadline.title or deadline.game_id} ({deadline.seat})")
    _add_event(cal, deadline, game_url)
    return cal.to_ical()


def seats_calendar(deadlines: list[SeatDeadline], game_url: Callable[[str], str]) -> bytes:
    """A player home's feed: one event per seat with a running deadline, each with the seat's own
    UID (the same as the seat's feed: a calendar subscribed to both shows one event)."""
    cal = _calendar("pbem: my deadlines")
    for deadline in deadlines:
        _add_event(cal, deadline, game_url(deadline.game_id))
    return cal.to_ical()


def _add_event(cal, deadline: SeatDeadline, game_url: str) -> None:  # type: ignore[no-untyped-def]
    from icalendar import Event

    if deadline.deadline is not None:
        event = Event()
        event.add("uid", f"deadline-{deadline.game_id}-{deadline.seat}@pbem")
        event.add("dtstamp", utcnow())
        event.add("sequence", deadline.record_length)
        event.add("dtstart", deadline.deadline)
        event.add("dtend", deadline.deadline + timedelta(minutes=15))
        move = "your move" if deadline.your_move else "waiting for others"
        event.add("summary", f"Deadline: {deadline.title or deadline.game_id} ({deadline.seat}, {move})")
        event.add("description", f"Orders are due by this time. The game: {game_url}")
        event.add("url", game_url)
        cal.add_component(event)
