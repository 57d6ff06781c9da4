"""The lobby: games created "open" list their free seats publicly, and a signed-in player (a
verified address) takes one; a director opens a tournament's sign-up and lets the server seat the
signed-up players into the tournament's games waiting for players, at random or by rating.

A seat taken here is joined through `join_game` exactly as with an invitation: the lobby makes
a fresh single-use invitation for the taker and uses it at once."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from adjudicator.i18n import _, language, normal
from adjudicator.mail import compose
from adjudicator.store import Director, Game, LobbyGame, TournamentEntry, TournamentSignup
from adjudicator.store.typed import id_of

from ..common.clock import utcnow
from ..common.core import auth_admin, find_game, locked_game, seat_row, seats_of
from ..common.errors import Conflict, NotFound, ServiceError
from ..common.tokens import hash_token, new_token
from ..common.types import DeadlinePolicy, JoinedSeat, Task
from ..history.ratings import ratings_of
from ..history.results import _server_key, player_identity, player_slug
from ..moderation.directors import auth_director
from ..people.signin import account_of
from ..play.notify import queue_mail
from .lifecycle import create_game, join_game

SEATING = ("random", "rating")


@dataclass
class LobbyGameLine:
    game_id: str
    title: str
    game_type: str
    options: dict[str, Any]
    step_hours: float
    language: str
    free_seats: list[str]
    taken: int
    fill_at: datetime | None = None  # free seats go to the substitute then (practice.py)


@dataclass
class OpenTournament:
    director_id: str
    name: str
    signed_up: int


@dataclass
class Lobby:
    games: list[LobbyGameLine] = field(default_factory=list)
    tournaments: list[OpenTournament] = field(default_factory=list)


def open_in_lobby(s: Session, game_id: str, admin_token: str) -> None:
    """List a pending game's free seats in the lobby (its moderator's or director's link)."""
    g = find_game(s, game_id)
    auth_admin(g, admin_token)
    if g.status != "pending":
        raise Conflict(_("game %(game)s has started; only a game waiting for players goes into the lobby",
                         game=game_id))
    if s.exec(select(LobbyGame).where(LobbyGame.game_id == g.id)).first() is None:
        s.add(LobbyGame(game_id=id_of(g)))


def lobby(s: Session) -> Lobby:
    out = Lobby()
    rows = s.exec(select(Game, LobbyGame.fill_at).join(LobbyGame, col(LobbyGame.game_id) == Game.id)
                  .where(Game.status == "pending").order_by(col(LobbyGame.created_at))).all()
    for g, fill_at in rows:
        seats = seats_of(s, g)
        free = [r.seat for r in seats if not r.seat_token_hash]
        if free:
            hours = g.step_seconds / 3600
            out.games.append(LobbyGameLine(g.public_id, g.title, g.game_type, dict(g.options),
                                           int(hours) if hours.is_integer() else round(hours, 2),
                                           g.language, free, len(seats) - len(free), fill_at))
    for _row, d in s.exec(select(TournamentSignup, Director).where(TournamentSignup.director_id == Director.id,
                                                                      TournamentSignup.open)).all():
        count = len(s.exec(select(TournamentEntry.id).where(TournamentEntry.director_id == d.id)).all())
        out.tournaments.append(OpenTournament(d.public_id, d.name, count))
    return out


def _claim(s: Session, g: Game, seat: str) -> str:
    """A fresh single-use invitation for a free seat (the one the creator holds stops working)."""
    row = seat_row(s, g, seat)
    if row.seat_token_hash:
        raise Conflict(_("seat %(seat)s is taken already; pick another free seat", seat=seat))
    invite = new_token()
    row.invite_token_hash = hash_token(invite)
    s.add(row)
    return invite


def _holds_seat(s: Session, g: Game, email: str) -> bool:
    return any(r.seat_token_hash and r.email.strip().lower() == email for r in seats_of(s, g))


def take_seat(s: Session, email: str, game_id: str, seat: str, now: datetime | None = None) -> JoinedSeat:
    """A signed-in player takes a free seat of a lobby game under their verified address."""
    account = account_of(s, email)
    g = locked_game(s, game_id)
    if s.exec(select(LobbyGame).where(LobbyGame.game_id == g.id)).first() is None or g.status != "pending":
        raise NotFound(_("game %(game)s has no free seats in the lobby", game=game_id))
    if _holds_seat(s, g, account.email):
        raise Conflict(_("you hold a seat in game %(game)s already", game=game_id))
    invite = _claim(s, g, seat)
    return join_game(s, game_id, seat, invite, account.name or account.email.split("@")[0], account.email,
                     entropy=secrets.token_hex(8), now=now, timezone=account.timezone)


def set_signup(s: Session, director_id: str, token: str, open_: bool) -> None:
    director = auth_director(s, director_id, token)
    row = s.exec(select(TournamentSignup).where(TournamentSignup.director_id == director.id)).first()
    row = row or TournamentSignup(director_id=id_of(director))
    row.open = open_
    s.add(row)


@dataclass
class SignupStatus:
    open: bool
    entries: list[tuple[str, str]]  # (name, game seated in or "")
    waiting_games: int  # the tournament's pending games with no seat taken


def _empty_games(s: Session, director: Director) -> list[Game]:
    games = s.exec(select(Game).where(Game.director_id == director.id, Game.status == "pending")
                   .order_by(col(Game.created_at), col(Game.id))).all()
    return [g for g in games if not any(r.seat_token_hash for r in seats_of(s, g))]


def signup_status(s: Session, director_id: str, token: str) -> SignupStatus:
    director = auth_director(s, director_id, token)
    row = s.exec(select(TournamentSignup).where(TournamentSignup.director_id == director.id)).first()
    entries = s.exec(select(TournamentEntry).where(TournamentEntry.director_id == director.id)
                     .order_by(col(TournamentEntry.created_at), col(TournamentEntry.id))).all()
    names = []
    for e in entries:
        g = s.get(Game, e.game_id) if e.game_id else None
        names.append((e.name, g.public_id if g else ""))
    return SignupStatus(bool(row and row.open), names, len(_empty_games(s, director)))


def sign_up(s: Session, email: str, director_id: str) -> None:
    """A signed-in player joins a tournament's list of players (once)."""
    account = account_of(s, email)
    director = s.exec(select(Director).where(Director.public_id == director_id)).first()
    row = (s.exec(select(TournamentSignup).where(TournamentSignup.director_id == director.id)).first()
           if director else None)
    if director is None or row is None or not row.open:
        raise Conflict(_("this tournament does not take sign-ups now"))
    exists = s.exec(select(TournamentEntry).where(TournamentEntry.director_id == director.id,
                                                  TournamentEntry.email == account.email)).first()
    if exists is None:
        s.add(TournamentEntry(director_id=id_of(director), email=account.email,
                              name=account.name or account.email.split("@")[0]))


def _order(entries: list[TournamentEntry], method: str, game_type: str, s: Session) -> list[TournamentEntry]:
    """Random: a shuffle. By rating: best first, so each game gathers players of similar strength."""
    entries = list(entries)
    secrets.SystemRandom().shuffle(entries)  # also breaks ties between equal ratings
    if method == "rating":
        key = _server_key()
        slugs = {e.id: player_slug(player_identity(e.email, e.name), key) for e in entries}
        ratings = ratings_of(s, game_type, slugs.values())
        entries.sort(key=lambda e: -ratings.get(slugs[e.id], 0.0))
    return entries


def seat_signups(s: Session, director_id: str, token: str, method: str = "random", more: bool = False,
                 now: datetime | None = None) -> list[Task]:
    """Fill the tournament's games that wait for players and have no seat taken, in the order they
    were created, with the signed-up players not seated yet (a game is filled whole or not at all;
    who is left over waits for the next games). `more`: then make as many new games as the players
    left fill, each like the tournament's newest game (game, seats, options, pace, language). Each
    seated player gets their seat link by mail."""
    if method not in SEATING:
        raise ServiceError(_("seating must be one of %(methods)s", methods=", ".join(SEATING)))
    now = now or utcnow()
    director = auth_director(s, director_id, token)
    # one seating of a tournament at a time: a second press (the button pressed twice, two tabs)
    # waits here for the first to commit, then finds its players seated (PostgreSQL; SQLite's
    # writers queue anyway). Read before it, the entries and seats could be stale.
    s.exec(select(Director.id).where(Director.id == director.id).with_for_update()).one()
    waiting = s.exec(select(TournamentEntry).where(TournamentEntry.director_id == director.id,
                                                   col(TournamentEntry.game_id).is_(None))).all()
    if not waiting and s.exec(select(TournamentEntry.id).where(TournamentEntry.director_id == director.id)).first():
        raise Conflict(_("every signed-up player is seated already; nobody waits for a game"))
    games = _empty_games(s, director)
    newest = s.exec(select(Game).where(Game.director_id == director.id)
                    .order_by(col(Game.created_at).desc(), col(Game.id).desc())).first()
    if newest is None or (not games and not more):
        raise Conflict(_("no game of this tournament waits for players: create the games first"))
    queue = _order(list(waiting), method, (games[0] if games else newest).game_type, s)
    tasks: list[Task] = []
    while queue:
        if not games:
            if not more or len(queue) < newest.seat_count:
                break
            games.append(_game_like(s, newest, director_id, token))
        g = games.pop(0)
        if len(queue) < g.seat_count:
            break
        players, queue = queue[:g.seat_count], queue[g.seat_count:]
        seats = [r.seat for r in seats_of(s, g)]
        secrets.SystemRandom().shuffle(players)  # who gets which seat
        for entry, seat in zip(players, seats, strict=True):
            tasks += _seat_entry(s, g, seat, entry, now)
    return tasks


def _game_like(s: Session, model: Game, director_id: str, token: str) -> Game:
    count = len(s.exec(select(Game.id).where(Game.director_id == model.director_id)).all())
    policy = DeadlinePolicy(step_seconds=model.step_seconds, reminder_seconds=model.reminder_seconds,
                            timezone=model.timezone, grace_minutes=model.grace_minutes,
                            max_absence_days=model.max_absence_days, follow_up_seconds=model.follow_up_seconds,
                            disorder_after=model.disorder_after)
    title = f"{model.title.rsplit(' #', 1)[0]} #{count + 1}"
    created = create_game(s, model.game_type, model.seat_count, dict(model.options), title, policy,
                          model.publish_press, (director_id, token), model.language)
    return find_game(s, created.game_id)


def _seat_entry(s: Session, g: Game, seat: str, entry: TournamentEntry, now: datetime) -> list[Task]:
    zone = account_of(s, entry.email).timezone
    joined = join_game(s, g.public_id, seat, _claim(s, g, seat), entry.name, entry.email,
                       entropy=secrets.token_hex(8), now=now, timezone=zone)
    entry.game_id, entry.seat = g.id, seat
    s.add(entry)
    base = os.environ.get("PBEM_BASE_URL", "").rstrip("/")
    link = f"{base}/play/{g.public_id}/{seat}/{joined.seat_token}"
    with language(normal(g.language)):  # the game's language, as its other mails to this seat
        body = "\n".join([
            _("The tournament seated you in game %(game)s (%(title)s) as %(seat)s.", game=g.public_id,
              title=g.title, seat=seat), "",
            _("Your seat's page (keep it secret; your home lists it too):"), "", f"<{link}>",
        ])
        subject = _("Your seat in %(title)s", title=g.title)
    mail = queue_mail(s, g, entry.email, subject, body, kind="seated", seat=seat, **compose.headers(g.public_id, seat))
    return [*([mail] if mail else []), *joined.tasks]
