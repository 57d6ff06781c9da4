"""Tournament directors: one secret link that moderates every game created under it.

A director's link (`/director/<id>/<token>`) lists their games, the ones needing attention first
(overdue deadlines, paused games, open seats), and opens each game's moderator page with the same
token. Every moderator action stays on that game's record, saying it came from the director.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.store import Director, Game, Seat

from ..common.clock import as_utc, format_deadline, utcnow
from ..common.core import current_prompts, sealed_groups, sealed_rows
from ..common.errors import Forbidden, ServiceError
from ..common.tokens import ID_ALPHABET, hash_token, new_token, token_matches

MAX_NAME = 120


@dataclass
class CreatedDirector:
    director_id: str
    token: str  # shown once; the server keeps only its hash


@dataclass
class DirectedGame:
    game_id: str
    game: str
    title: str
    status: str
    seats: int
    joined: int
    waiting: list[str]
    deadline: datetime | None
    deadline_text: str
    overdue: bool
    record_length: int
    disorder: list[str] = field(default_factory=list)  # seats in civil disorder

    @property
    def attention(self) -> str:
        """Why a director should look now ("" when nothing is wrong)."""
        if self.overdue:
            return "deadline passed"
        if self.disorder and self.status != "finished":
            return f"civil disorder: {', '.join(self.disorder)}"
        if self.status == "paused":
            return "paused"
        if self.status == "pending" and self.joined < self.seats:
            return f"{self.seats - self.joined} seat(s) open"
        return ""


@dataclass
class DirectorPage:
    director_id: str
    name: str
    games: list[DirectedGame]  # needing attention first, then running, pending, finished
    scoring: dict[str, str] = field(default_factory=dict)  # the standings' system per game type
    count_substitute_games: bool = True  # games where the substitute played a seat count (issue 28)


def _new_director_id() -> str:
    import secrets

    return "d" + "".join(secrets.choice(ID_ALPHABET) for _ in range(8))


def create_director(s: Session, name: str) -> CreatedDirector:
    name = " ".join((name or "").split())
    if not name or len(name) > MAX_NAME:
        raise ServiceError(f"give the tournament or club a name of 1 to {MAX_NAME} characters")
    token = new_token()
    director = Director(public_id=_new_director_id(), name=name, token_hash=hash_token(token))
    s.add(director)
    s.flush()
    return CreatedDirector(director.public_id, token)


def auth_director(s: Session, director_id: str, token: str) -> Director:
    director = s.exec(select(Director).where(Director.public_id == director_id)).first()
    # the same answer for an unknown id and a wrong token: a link either works or it does not
    if director is None or not token_matches(director.token_hash, token):
        raise Forbidden("this director link is not valid; check that it was copied whole")
    return director


def _directed(s: Session, g: Game, now: datetime) -> DirectedGame:
    seats = s.exec(select(Seat).where(Seat.game_id == g.id)).all()
    waiting: list[str] = []
    if g.status == "running" and g.state is not None:
        prompts = current_prompts(g)
        sealed_in: set[str] = set()
        for group in sealed_groups(prompts):
            sealed_in |= set(sealed_rows(s, g, group))
        waiting = sorted(seat for seat in prompts if seat not in sealed_in)
    due = as_utc(g.due_at)
    return DirectedGame(
        g.public_id, g.game_type, g.title, g.status, g.seat_count,
        sum(1 for r in seats if r.seat_token_hash), waiting, due,
        format_deadline(g.due_at, g.timezone) if due else "",
        g.status == "running" and due is not None and due < now, g.record_length,
        sorted(r.seat for r in seats if r.disorder),
    )


def director_page(s: Session, director_id: str, token: str) -> DirectorPage:
    director = auth_director(s, director_id, token)
    now = utcnow()
    games = [_directed(s, g, now) for g in s.exec(select(Game).where(Game.director_id == director.id)
                                                  .order_by(col(Game.created_at))).all()]
    order = {"running": 1, "paused": 1, "pending": 2, "finished": 3}
    games.sort(key=lambda d: (0 if d.attention else order.get(d.status, 4),
                              d.deadline or datetime.max.replace(tzinfo=now.tzinfo)))
    return DirectorPage(director.public_id, director.name, games, dict(director.scoring or {}),
                        director.count_substitute_games)
