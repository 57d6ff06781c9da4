"""A signed-in player's home: every seat their verified address holds, across games, with what is
expected of it and by when (in the player's own zone), their tournaments, and the same deadlines
as calendar data. Only that address's own seats are read; nothing of other seats is shown beyond
what the public page shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlmodel import Session, col, func, select

from adjudicator.i18n import _, prompt_text
from adjudicator.store import Director, Game, Seat, TournamentEntry, TournamentSignup

from ..common.clock import as_utc, check_timezone, format_deadline
from ..common.core import current_prompts, sealed_rows
from ..common.tokens import home_seat_token
from ..history.results import _server_key, player_identity, player_slug
from .calendars import SeatDeadline
from .signin import account_of, calendar_token

NO_DEADLINE = datetime.max.replace(tzinfo=UTC)


@dataclass
class HomeSeat:
    game_id: str
    title: str
    game_type: str
    status: str
    seat: str
    your_move: bool
    expected: str  # the open decision in words, or what the seat waits for
    deadline: datetime | None
    deadline_text: str  # in the player's zone (`PlayerHome.timezone`)
    seat_token: str  # the home's own link to the seat page


@dataclass
class HomeTournament:
    director_id: str
    name: str
    signed_up: bool
    open: bool
    seated_in: str  # the game the server seated them in, "" while waiting


@dataclass
class PlayerHome:
    email: str
    name: str
    timezone: str
    calendar_token: str
    player: str  # the public slug of the address (its /player page: ratings and games)
    seats: list[HomeSeat] = field(default_factory=list)
    tournaments: list[HomeTournament] = field(default_factory=list)


def _own_seats(s: Session, email: str) -> list[tuple[Seat, Game]]:
    rows = s.exec(select(Seat, Game).where(Seat.game_id == Game.id, col(Seat.seat_token_hash).is_not(None),
                                           func.lower(func.trim(Seat.email)) == email)
                  .order_by(col(Game.created_at), col(Seat.position))).all()
    return list(rows)


def _expected(s: Session, g: Game, row: Seat) -> tuple[bool, str]:
    if g.status == "pending":
        return False, _("Waiting for players to join.")
    if g.status == "finished":
        return False, _("The game is over.")
    prompt = current_prompts(g).get(row.seat)
    if g.status == "paused":
        return False, _("The game is paused.")
    if prompt is None:
        return False, _("Waiting for others.")
    if prompt.sealed and prompt.group and row.seat in sealed_rows(s, g, prompt.group):
        return False, _("Your sealed order is in; waiting for the others (you may still change it).")
    return True, prompt_text(prompt.text, prompt.message) or prompt.kind


def join_details(s: Session, email: str) -> tuple[str, str, str]:
    """What an invite's join form fills in for a signed-in player: the verified address (so the seat
    shows on their home and gets their mail), their name and time zone."""
    account = account_of(s, email)
    return account.email, account.name, account.timezone


def player_home(s: Session, email: str) -> PlayerHome:
    account = account_of(s, email)
    seats = _own_seats(s, account.email)
    # the zone the player chose here, else the one they gave when they joined (the join form
    # fills in the browser's), never UTC for a player who said where they are
    zone = account.timezone or next((row.timezone for row, _g in seats if row.timezone), "UTC")
    slug = player_slug(player_identity(account.email, ""), _server_key())
    home = PlayerHome(account.email, account.name, zone, calendar_token(account.email), slug)
    directors: dict[int, str] = {}
    for row, g in seats:
        your_move, expected = _expected(s, g, row)
        due = as_utc(g.due_at) if g.status == "running" else None
        home.seats.append(HomeSeat(g.public_id, g.title, g.game_type, g.status, row.seat, your_move, expected, due,
                                   format_deadline(due, zone), home_seat_token(row.seat_token_hash or "-",
                                                                              g.public_id, row.seat)))
        if g.director_id is not None:
            directors.setdefault(g.director_id, "")
    entries = {e.director_id: e for e in s.exec(select(TournamentEntry).where(TournamentEntry.email == account.email))}
    for director_id in entries:
        directors.setdefault(director_id, "")
    for director_id in directors:
        d = s.get(Director, director_id)
        if d is None:
            continue
        signup = s.exec(select(TournamentSignup).where(TournamentSignup.director_id == director_id)).first()
        entry = entries.get(director_id)
        game = s.get(Game, entry.game_id) if entry is not None and entry.game_id else None
        seated = game.public_id if game is not None else ""
        home.tournaments.append(HomeTournament(d.public_id, d.name, entry is not None,
                                               bool(signup and signup.open), seated))
    # what waits on the player first, then by deadline (soonest first)
    home.seats.sort(key=lambda h: (not h.your_move, h.deadline or NO_DEADLINE))
    return home


def home_deadlines(s: Session, email: str) -> list[SeatDeadline]:
    """One deadline per seat of the address (None where no deadline runs), for its calendar."""
    account = account_of(s, email)
    out = []
    for row, g in _own_seats(s, account.email):
        running = g.status == "running"
        out.append(SeatDeadline(g.public_id, g.title, row.seat, g.status, as_utc(g.due_at) if running else None,
                                running and row.seat in current_prompts(g), g.record_length))
    return out


def update_home(s: Session, email: str, name: str, timezone: str) -> None:
    """The player's name (used when they take seats) and time zone (of their home's deadlines)."""
    from adjudicator.mail.headers import one_line

    account = account_of(s, email)
    if timezone.strip():
        check_timezone(timezone.strip())
    account.name = one_line(name, 100)
    account.timezone = timezone.strip()
    s.add(account)
