"""Absences (ABSENT <from> <to>), as the Diplomacy judges grant them.

The rule: when a deadline passes while a seat the game is waiting for is away (the deadline falls
inside the seat's absence), the deadline moves to the end of that absence instead of defaulting
the seat. The sweep writes that extension to the record, so the moderator and the players see it.

Dates are whole days in the seat's time zone (the game's if the seat has none): an absence from
2030-01-01 to 2030-01-05 is stored as [local midnight of Jan 1, local midnight of Jan 6) in UTC.
An absence may not start in the past, may not be longer than the game's `max_absence_days`
(default 14; 0 grants none), and a new one replaces the old. All a seat's absences together may
not pass the game's `absence_budget_days` (default 28, the moderator may change it): a renewed
absence counts again, and the days of a replaced or cancelled absence not yet begun are given
back, so an absence cannot be renewed without end. The moderator's "apply default
orders now" ignores absences: it is the moderator's call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session

from adjudicator.i18n import _
from adjudicator.store import Game, Seat

from ..common.clock import as_utc, utcnow
from ..common.core import append_note, auth_admin, auth_seat, find_game, locked_game, seats_of
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import Table
from ..common.tokens import MailKey
from .pace import open_deadline

MAX_AHEAD_DAYS = 366  # an absence must start within a year
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
MIN_EXTENSION = timedelta(hours=1)  # a sweep that runs late still leaves the returning player time


@dataclass(frozen=True)
class Absence:
    seat: str
    start: date  # first day away (in `timezone`)
    end: date  # last day away, inclusive
    timezone: str
    until: datetime  # UTC instant the absence ends

    @property
    def text(self) -> str:
        return _("%(first)s to %(last)s (%(zone)s)", first=self.start.isoformat(), last=self.end.isoformat(),
                 zone=self.timezone)


def parse_day(text: str) -> date:
    """An ISO `YYYY-MM-DD` date, or a ServiceError in plain words."""
    if not _ISO.fullmatch(text.strip()):
        raise ServiceError(_("%(text)s is not a date; write YYYY-MM-DD, e.g. 2030-01-31", text=repr(text)))
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError(_("%(text)s is not a date of the calendar; write YYYY-MM-DD", text=repr(text))) from None


def seat_zone(g: Game, row: Seat) -> str:
    return row.timezone or g.timezone or "UTC"


def _midnight(day: date, zone: str) -> datetime:
    return as_utc(datetime.combine(day, time(0), ZoneInfo(zone)))


def absence_of(g: Game, row: Seat) -> Absence | None:
    start, until = as_utc(row.absent_from), as_utc(row.absent_until)
    if start is None or until is None:
        return None
    zone = seat_zone(g, row)
    local_start = start.astimezone(ZoneInfo(zone)).date()
    local_end = (until.astimezone(ZoneInfo(zone)) - timedelta(seconds=1)).date()
    return Absence(row.seat, local_start, local_end, zone, until)


def set_absence(s: Session, game_id: str, seat: str, seat_token: str | MailKey, start: date | str,
                end: date | str, now: datetime | None = None) -> Absence:
    """Record (or replace) the seat's absence; dates in the seat's time zone, both days included."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    if g.status == "finished":
        raise Conflict(_("game %(game)s is over", game=game_id))
    first = parse_day(start) if isinstance(start, str) else start
    last = parse_day(end) if isinstance(end, str) else end
    zone = seat_zone(g, row)
    today = now.astimezone(ZoneInfo(zone)).date()
    if last < first:
        raise ServiceError(_("ABSENT: the last day is before the first day"))
    if first < today:
        raise ServiceError(_("ABSENT: %(first)s is in the past (today is %(today)s in %(zone)s)",
                             first=first.isoformat(), today=today.isoformat(), zone=zone))
    if first > today + timedelta(days=MAX_AHEAD_DAYS):
        raise ServiceError(_("ABSENT: an absence must start within a year"))
    days = (last - first).days + 1
    if g.max_absence_days <= 0:
        raise ServiceError(_("this game grants no absences; ask the moderator instead"))
    if days > g.max_absence_days:
        raise ServiceError(_("ABSENT: %(days)s days is longer than this game allows (%(max)s days at most); ask "
                             "the moderator if you need more", days=days, max=g.max_absence_days))
    used = row.absence_days_used - _unspent(g, row, today)
    if used + days > g.absence_budget_days:
        raise ServiceError(_("ABSENT: this game grants each seat %(budget)s days of absence in all; you have used "
                             "%(used)s, so at most %(left)s more. Ask the moderator if you need more",
                             budget=g.absence_budget_days, used=used, left=max(0, g.absence_budget_days - used)))
    row.absent_from, row.absent_until = _midnight(first, zone), _midnight(last + timedelta(days=1), zone)
    row.absence_days_used = used + days
    s.add(row)
    absence = absence_of(g, row)
    assert absence is not None  # both of its dates were just set
    return absence


def cancel_absence(s: Session, game_id: str, seat: str, seat_token: str | MailKey,
                   now: datetime | None = None) -> bool:
    """Forget the seat's absence; False if it had none."""
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    had = row.absent_from is not None
    row.absence_days_used -= _unspent(g, row, (now or utcnow()).astimezone(ZoneInfo(seat_zone(g, row))).date())
    row.absent_from = row.absent_until = None
    s.add(row)
    return had


def _unspent(g: Game, row: Seat, today: date) -> int:
    """Days of the seat's current absence from `today` on: given back when it is replaced or
    cancelled (the days already lived stay counted)."""
    current = absence_of(g, row)
    if current is None:
        return 0
    return max(0, (current.end - max(current.start, today)).days + 1)


def my_absence(s: Session, game_id: str, seat: str, seat_token: str | MailKey) -> Absence | None:
    g = find_game(s, game_id)
    return absence_of(g, auth_seat(s, g, seat, seat_token))


def absences(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> list[Absence]:
    """For the moderator: every absence that has not ended yet."""
    now = now or utcnow()
    g = find_game(s, game_id)
    auth_admin(g, admin_token)
    found = [absence_of(g, r) for r in seats_of(s, g)]
    return [a for a in found if a is not None and a.until > now]


def extend_for_absence(s: Session, t: Table, waiting: list[str], now: datetime) -> datetime | None:
    """Called by the sweep when `g`'s deadline has passed: if a waiting seat is away at the
    deadline, move the deadline to the latest end among them (at least an hour from now) and note
    it in the record. Returns the new deadline, or None (then defaults are applied as usual).

    Once moved, the deadline equals the absence's end, which is outside the absence: the same
    absence never extends the same turn twice."""
    g = t.game
    due = as_utc(g.due_at)
    if due is None:
        return None
    rows = {r.seat: r for r in t.rows[Seat]}  # (a deadline's table holds the seats as ORM objects)
    away: dict[str, datetime] = {}
    for name in waiting:
        row = rows.get(name)
        start, until = (as_utc(row.absent_from), as_utc(row.absent_until)) if row else (None, None)
        if start is not None and until is not None and start <= due < until:
            away[name] = until
    if not away:
        return None
    new_due = max(max(away.values()), now + MIN_EXTENSION)
    open_deadline(g, now, (new_due - now).total_seconds())  # exact: the deadline is the absence end
    s.add(g)
    append_note(s, g, "absence_extension", now, seats=", ".join(sorted(away)), due_at=new_due.isoformat())
    return new_due
