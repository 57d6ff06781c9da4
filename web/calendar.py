"""A seat's deadline as an iCalendar feed (the `icalendar` library). One event with a UID fixed per
game and seat, so a subscribed calendar moves it when the deadline moves; no event while no
deadline runs (paused, pending or finished games)."""

from __future__ import annotations

from datetime import timedelta

from adjudicator.service import SeatDeadline, utcnow


def deadline_calendar(deadline: SeatDeadline, game_url: str) -> bytes:
    from icalendar import Calendar, Event

    cal = Calendar()
    cal.add("prodid", "-//pbem//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"pbem: {deadline.title or deadline.game_id} ({deadline.seat})")
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
    return cal.to_ical()
