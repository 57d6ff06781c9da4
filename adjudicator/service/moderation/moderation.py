"""Moderator actions. Each writes a `note` record entry and a ModeratorAction row."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from adjudicator.store import ModeratorAction
from adjudicator.store.typed import id_of

from ..common.clock import as_utc, utcnow
from ..common.core import append_note, auth_admin, find_game, locked_game, seat_row
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import table_of
from ..common.tokens import hash_token, new_token
from ..common.types import Task
from ..play.deadlines import apply_defaults
from ..play.pace import open_deadline, settle, waiting_seats


def pause(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> None:
    """Stop the clock; the time left is kept for `resume`. Orders are refused while paused."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status != "running":
        raise Conflict(f"game {game_id} is {g.status}; only a running game can be paused")
    due = as_utc(g.due_at)
    g.paused_remaining = max(0, int((due - now).total_seconds())) if due else None
    g.status = "paused"
    g.due_at = g.reminder_at = None
    s.add(g)
    append_note(s, g, "pause", now, remaining_seconds=g.paused_remaining, **by)


def resume(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> list[Task]:
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status != "paused":
        raise Conflict(f"game {game_id} is {g.status}, not paused")
    g.status = "running"
    # at least an hour, so that a game paused at its deadline does not expire on resume
    remaining = g.paused_remaining if g.paused_remaining is not None else g.step_seconds
    due = open_deadline(g, now, max(remaining, min(3600, g.step_seconds)))
    g.paused_remaining = None
    s.add(g)
    append_note(s, g, "resume", now, due_at=as_utc(due).isoformat(), **by)
    return settle(s, table_of(s, g), now)  # groups completed before the pause are revealed now


def extend_deadline(s: Session, game_id: str, admin_token: str, hours: float,
                    now: datetime | None = None) -> datetime:
    """Move the current deadline by `hours` (negative shortens it); returns the new deadline."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    due = as_utc(g.due_at)
    if g.status != "running" or due is None:
        raise Conflict(f"game {game_id} is {g.status} and has no running deadline")
    new_due = due + timedelta(hours=hours)
    if new_due <= now:
        raise ServiceError("the new deadline would be in the past; use force_defaults to end the turn now")
    set_due = open_deadline(g, now, int((new_due - now).total_seconds()))
    s.add(g)
    append_note(s, g, "extend_deadline", now, hours=str(hours), due_at=new_due.isoformat(), **by)
    return as_utc(set_due)


def replace_seat(s: Session, game_id: str, admin_token: str, seat: str, now: datetime | None = None) -> str:
    """Invalidate the seat's token and return a new invitation for the replacement player."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status == "finished":
        raise Conflict(f"game {game_id} is over")
    row = seat_row(s, g, seat)
    invite = new_token()
    row.seat_token_hash = None
    row.invite_token_hash = hash_token(invite)
    row.generation += 1
    row.email = ""
    row.joined_at = None
    s.add(row)
    if g.state is not None:
        append_note(s, g, "replace_seat", now, seat=seat, generation=row.generation, **by)
    else:  # no record yet: only the moderator log
        s.add(ModeratorAction(game_id=id_of(g), action="replace_seat", data={"seat": seat, **by}, at=now))
    return invite


def force_defaults(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> list[Task]:
    """End the current turn now: defaults for every waiting seat, as if the deadline had passed."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status != "running":
        raise Conflict(f"game {game_id} is {g.status}; defaults can only be forced while it runs")
    append_note(s, g, "force_defaults", now, **by)
    t = table_of(s, g)
    waiting = waiting_seats(t)
    apply_defaults(s, t, now)  # the moderator's call: not a missed deadline of the seats
    return settle(s, t, now, fresh=waiting)


def set_pace(s: Session, game_id: str, admin_token: str, wait_hours: float | None = None,
             follow_up_hours: float | None = None, disorder_after: int | None = None,
             now: datetime | None = None, absence_budget_days: int | None = None) -> None:
    """Change the game's wait length, follow-up period, civil-disorder threshold and absence budget
    (days of absence per seat over the game). The running deadline stays as it is (extend_deadline
    moves it either way); new waits use the new length."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status == "finished":
        raise Conflict(f"game {game_id} is over")
    if wait_hours is not None:
        if not 0.01 <= wait_hours <= 24 * 60:
            raise ServiceError("the wait must be between 0.01 and 1440 hours")
        g.step_seconds = int(wait_hours * 3600)
        g.reminder_seconds = min(g.reminder_seconds, g.step_seconds // 2)
    if follow_up_hours is not None:
        if not 0 <= follow_up_hours <= 24 * 60:
            raise ServiceError("the follow-up period must be between 0 and 1440 hours")
        g.follow_up_seconds = int(follow_up_hours * 3600)
    if disorder_after is not None:
        if not 0 <= disorder_after <= 100:
            raise ServiceError("civil disorder after 0 (never) to 100 missed deadlines")
        g.disorder_after = disorder_after
    budget: dict[str, int] = {}
    if absence_budget_days is not None:
        if not 0 <= absence_budget_days <= 3660:
            raise ServiceError("the absence budget is 0 (none) to 3660 days per seat")
        g.absence_budget_days = budget["absence_budget_days"] = absence_budget_days
    s.add(g)
    if g.state is not None:
        append_note(s, g, "pace", now, wait_hours=round(g.step_seconds / 3600, 2),
                    follow_up_hours=round(g.follow_up_seconds / 3600, 2), disorder_after=g.disorder_after,
                    **budget, **by)
    else:
        s.add(ModeratorAction(game_id=id_of(g), action="pace", data={"wait_hours": g.step_seconds / 3600}, at=now))


def hand_to_substitute(s: Session, game_id: str, admin_token: str, seat: str, on: bool,
                       now: datetime | None = None) -> list[Task]:
    """Hand `seat` to the substitute (on: its decisions are played at once, as in civil disorder)
    or give it back to its player (off: the game waits for the seat again). The seat's player
    also takes it back by speaking, as from civil disorder (docs/bots.md)."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status != "running":
        raise Conflict(f"game {game_id} is not running: a seat is handed over only while it is played")
    if on and not g.substitutes:
        raise ServiceError("this game was created without substitutes: its seats in civil disorder take "
                           "their default orders (create the game with substitutes to hand seats over)")
    row = seat_row(s, g, seat)
    row.disorder = on
    row.missed = 0
    s.add(row)
    append_note(s, g, "substitute_on" if on else "substitute_off", now, seat=seat, **by)
    return settle(s, table_of(s, g), now)


def game_pace(s: Session, game_id: str, admin_token: str) -> dict[str, float]:
    """The pace settings, for the moderator's form."""
    g = find_game(s, game_id)
    auth_admin(g, admin_token)
    return {"wait_hours": round(g.step_seconds / 3600, 2), "follow_up_hours": round(g.follow_up_seconds / 3600, 2),
            "disorder_after": g.disorder_after, "absence_budget_days": g.absence_budget_days}
