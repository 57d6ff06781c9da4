"""Seats the substitute holds from the start (issue 28, docs/bots.md): a practice game, where one
player sits down with the substitute in every other seat, and a lobby game whose seats are still
free at the fill time its moderator or director set.

A held seat is taken like any other (it has a seat token nobody is given), is in civil disorder
for good (the substitute plays it, `pace._advance`) and has no player: no address, no rating, and
the standings mark the game. A replacement who joins with an invitation from the moderator takes
it over as from any seat (`join_game` ends its civil disorder)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.i18n import _
from adjudicator.store import Game, LobbyGame, Seat

from ..common.clock import utcnow
from ..common.core import auth_admin, find_game, locked_game, seats_of
from ..common.errors import Conflict, ServiceError
from ..common.tokens import hash_token, new_token
from ..common.types import DeadlinePolicy, Task
from .lifecycle import create_game, join_game, start_seated

SUBSTITUTE_NAME = "Substitute"


@dataclass
class PracticeGame:
    game_id: str
    admin_token: str  # the creator moderates their practice game too
    seat: str
    seat_token: str
    tasks: list[Task] = field(default_factory=list)


def hold_with_substitute(s: Session, g: Game, row: Seat, now: datetime) -> None:
    """The substitute takes the free seat `row` (the game's lock is held by the caller)."""
    if row.seat_token_hash:
        raise Conflict(_("seat %(seat)s is taken already", seat=row.seat))
    row.seat_token_hash = hash_token(new_token())  # taken, and nobody holds its token
    row.invite_token_hash = None
    row.display_name = SUBSTITUTE_NAME
    row.email = ""
    row.entropy = secrets.token_hex(8)
    row.joined_at = now
    row.disorder = True
    row.held_by_substitute = True
    s.add(row)


def create_practice_game(s: Session, game: str, seats: int, my_seat: str | None, name: str, email: str = "",
                         options: dict | None = None, title: str = "", policy: DeadlinePolicy | None = None,
                         language: str = "en", timezone: str = "", client: str | None = None,
                         signed_in: bool = False, now: datetime | None = None) -> PracticeGame:
    """A game where the asking player takes `my_seat` (default: the first) and the substitute every
    other seat; it starts at once. Returns the moderator's link (the creator's) and the seat."""
    now = now or utcnow()
    base = policy or DeadlinePolicy()
    policy = DeadlinePolicy(step_hours=base.step_hours, reminder_hours=base.reminder_hours,
                            timezone=base.timezone, max_absence_days=base.max_absence_days,
                            follow_up_hours=base.follow_up_hours, disorder_after=base.disorder_after,
                            substitutes=True)
    created = create_game(s, game, seats, options, title, policy, language=language, client=client,
                          signed_in=signed_in)
    names = list(created.invites)
    mine = my_seat or names[0]
    if mine not in names:
        raise ServiceError(_("there is no seat %(seat)s in this game; the seats are %(seats)s",
                             seat=repr(mine), seats=", ".join(names)))
    g = locked_game(s, created.game_id)
    for row in seats_of(s, g):
        if row.seat != mine:
            hold_with_substitute(s, g, row, now)
    s.flush()
    joined = join_game(s, created.game_id, mine, created.invites[mine], name, email,
                       entropy=secrets.token_hex(8), now=now, timezone=timezone)
    return PracticeGame(created.game_id, created.admin_token, joined.seat, joined.seat_token, joined.tasks)


def set_lobby_fill(s: Session, game_id: str, admin_token: str, fill_at: datetime | None) -> None:
    """The moderator (or director) of a lobby game sets when its free seats go to the substitute
    (None: the game waits for players however long it takes)."""
    g = find_game(s, game_id)
    auth_admin(g, admin_token)
    if g.status != "pending":
        raise Conflict(_("game %(game)s has started; its seats are all taken", game=game_id))
    if not g.substitutes:
        raise ServiceError(_("this game was created without substitutes, so its free seats cannot go to one"))
    row = s.exec(select(LobbyGame).where(LobbyGame.game_id == g.id)).first()
    if row is None:
        raise Conflict(_("game %(game)s is not in the lobby; open it in the lobby first", game=game_id))
    row.fill_at = fill_at
    s.add(row)


def lobby_games_to_fill(s: Session, now: datetime | None = None) -> list[str]:
    """Public ids of lobby games waiting for players whose fill time has come."""
    now = now or utcnow()
    return list(s.exec(select(Game.public_id).join(LobbyGame, col(LobbyGame.game_id) == Game.id)
                       .where(Game.status == "pending", col(LobbyGame.fill_at) <= now)).all())


def fill_lobby_game(s: Session, game_id: str, now: datetime | None = None) -> list[Task]:
    """The substitute takes every seat still free and the game starts; a game nobody joined stays
    waiting (a game of substitutes alone is no game). Safe to run twice."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    lobby_row = s.exec(select(LobbyGame).where(LobbyGame.game_id == g.id)).first()
    if g.status != "pending" or lobby_row is None or lobby_row.fill_at is None or lobby_row.fill_at > now:
        return []
    seats = seats_of(s, g)
    if not any(r.seat_token_hash for r in seats):
        return []
    for row in seats:
        if not row.seat_token_hash:
            hold_with_substitute(s, g, row, now)
    s.flush()
    return start_seated(s, g, now)


def fill_due_lobby_games(s: Session, now: datetime | None = None) -> list[Task]:
    now = now or utcnow()
    tasks: list[Task] = []
    for game_id in lobby_games_to_fill(s, now):
        with s.begin_nested():
            tasks += fill_lobby_game(s, game_id, now)
    return tasks
