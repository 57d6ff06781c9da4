"""Tournament standings and players across games.

A player is identified by the e-mail address of the seat they held (case-insensitive), or by the
name they gave when they left none. Addresses are never shown: a player appears by name and by a
*slug*, an HMAC of that identity under the server key, so the public player page cannot be used to
test whether some address played here.

The first half of this module is pure (results in, numbers out) and is what the unit tests pin
down; the second half reads the store. Only public information goes in: a finished game's outcome
(the public page shows it), the names on the seats, and which seats took default orders (the
public log says "Default orders for ..."). Running games count as played, never as scored.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlmodel import Session, select

from adjudicator.store import Director, Game, RecordEntry, Seat

from .errors import NotFound, ServiceError
from .outcomes import outcome_of
from .rollback import undone_seqs

# scoring systems a director picks per game type (the default first)
SCORING: dict[str, str] = {
    "wdl": "win 1, shared win 0.5, loss 0",
    "score": "the game's own final score divided by the best score of that game",
    "rank": "rank points: N-1 for first of N seats down to 0 for last (ties share)",
}
DEFAULT_SCORING = "wdl"
STARTED = ("running", "paused", "finished")


# pure part ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatResult:
    seat: str
    player: str  # identity: "mail:<address>" or "name:<name>" (never shown)
    name: str
    missed: int = 0  # decisions that took the default order (missed deadlines, civil disorder)


@dataclass(frozen=True)
class GameResult:
    game_id: str
    game_type: str
    title: str
    status: str
    seats: tuple[SeatResult, ...]
    winners: tuple[str, ...] = ()
    scores: dict[str, int] = field(default_factory=dict)
    summary: str = ""

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass
class StandingRow:
    rank: int
    player: str  # slug
    name: str
    played: int = 0
    finished: int = 0
    wins: int = 0
    points: float = 0.0
    missed: int = 0
    rating: float | None = None  # OpenSkill ordinal in the tournament's main game type, if rated

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def player_identity(email: str, name: str) -> str:
    """The identity of the player on a seat: the address if any, else the name (spacing and case
    do not matter in either)."""
    email = (email or "").strip().lower()
    if email:
        return f"mail:{email}"
    return "name:" + " ".join((name or "").split()).casefold()


def player_slug(identity: str, key: str) -> str:
    """The public id of a player: stable on one server, and no address can be read back from it."""
    return hmac.new(key.encode(), identity.encode(), hashlib.sha256).hexdigest()[:16]


def placements(result: GameResult) -> dict[str, int]:
    """Each seat's place (1 = best): winners first, then by score; equal seats share a place."""
    seats = [r.seat for r in result.seats]
    key = {s: (s not in result.winners, -result.scores.get(s, 0)) for s in seats}
    ordered = sorted(seats, key=lambda s: key[s])
    places: dict[str, int] = {}
    for i, seat in enumerate(ordered):
        places[seat] = places[ordered[i - 1]] if i and key[seat] == key[ordered[i - 1]] else i + 1
    return places


def game_points(result: GameResult, system: str) -> dict[str, float]:
    """The points each seat of a finished game earns under `system` (see SCORING)."""
    seats = [r.seat for r in result.seats]
    if system == "score":
        top = max((result.scores.get(s, 0) for s in seats), default=0)
        return {s: round(result.scores.get(s, 0) / top, 4) if top > 0 else 0.0 for s in seats}
    if system == "rank":
        places = placements(result)
        n = len(seats)
        points: dict[str, float] = {}
        for seat in seats:
            # the places a tied group covers, averaged: two seats tied for first of 3 get (2+1)/2
            tied = sum(1 for s in seats if places[s] == places[seat])
            first = places[seat]
            points[seat] = sum(n - p for p in range(first, first + tied)) / tied
        return points
    if system == "wdl":
        win = 1.0 if len(result.winners) == 1 else 0.5
        return {s: win if s in result.winners else 0.0 for s in seats}
    raise ServiceError(f"unknown scoring system {system!r}; choose one of {', '.join(SCORING)}")


def standings(results: Iterable[GameResult], scoring: dict[str, str], key: str) -> list[StandingRow]:
    """The standings table. Order and tie-breaks: more points, then more wins, then fewer missed
    deadlines, then more finished games; rows equal in all of these share a rank (listed by name)."""
    rows: dict[str, StandingRow] = {}
    for result in results:
        points = game_points(result, scoring.get(result.game_type, DEFAULT_SCORING)) if result.finished else {}
        for seat in result.seats:
            slug = player_slug(seat.player, key)
            row = rows.setdefault(slug, StandingRow(0, slug, seat.name))
            row.name = seat.name or row.name  # the newest name the player used
            row.played += 1
            row.missed += seat.missed
            if result.finished:
                row.finished += 1
                row.wins += seat.seat in result.winners
                row.points = round(row.points + points[seat.seat], 4)
    ordered = sorted(rows.values(), key=lambda r: (*_merit(r), r.name.casefold(), r.player))
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and _merit(row) == _merit(ordered[i - 1]) else i + 1
    return ordered


def _merit(row: StandingRow) -> tuple[float, int, int, int]:
    return (-row.points, -row.wins, row.missed, -row.finished)


# reading the store ----------------------------------------------------------------------------

def _missed(s: Session, g: Game) -> dict[str, int]:
    counts: dict[str, int] = {}
    undone = undone_seqs(s, g)  # a default a rollback undid was not missed in the game that counts
    for seq, data in s.exec(select(RecordEntry.seq, RecordEntry.data).where(RecordEntry.game_id == g.id,
                                                                           RecordEntry.kind == "orders")):
        if seq in undone:
            continue
        for seat in data.get("defaulted") or []:
            counts[seat] = counts.get(seat, 0) + 1
    return counts


def game_result(s: Session, g: Game) -> GameResult:
    """What the standings need of one started game; the outcome only once it is finished."""
    missed = _missed(s, g)
    seats = tuple(
        SeatResult(r.seat, player_identity(r.email, r.display_name), r.display_name or r.seat, missed.get(r.seat, 0))
        for r in s.exec(select(Seat).where(Seat.game_id == g.id).order_by(Seat.position))
        if r.seat_token_hash)
    winners: tuple[str, ...] = ()
    scores: dict[str, int] = {}
    summary = ""
    if g.status == "finished" and g.state is not None:
        out = outcome_of(s, g)
        if out is not None:
            winners, scores, summary = tuple(out.winners), dict(out.scores), out.summary
    return GameResult(g.public_id, g.game_type, g.title, g.status, seats, winners, scores, summary)


def _server_key() -> str:
    from .serverkey import server_key

    return server_key()


@dataclass
class TitleScoring:
    game_type: str
    system: str
    text: str


@dataclass
class Standings:
    director_id: str
    name: str
    rows: list[StandingRow]
    games: list[GameResult]
    scoring: list[TitleScoring]  # per game type played in the tournament
    rating_game: str | None  # the game type whose rating the `rating` column shows

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": {"id": self.director_id, "name": self.name},
            "scoring": {t.game_type: t.system for t in self.scoring},
            "rating_game": self.rating_game,
            "standings": [r.to_json() for r in self.rows],
            "games": [{"game_id": g.game_id, "game": g.game_type, "title": g.title, "status": g.status,
                       "winners": list(g.winners), "scores": g.scores} for g in self.games],
        }


def tournament_standings(s: Session, director_id: str) -> Standings:
    """The public standings of a tournament (its id is public; its token is not needed)."""
    director = s.exec(select(Director).where(Director.public_id == director_id)).first()
    if director is None:
        raise NotFound(f"no tournament {director_id}")
    games = s.exec(select(Game).where(Game.director_id == director.id, Game.status.in_(STARTED))  # type: ignore[attr-defined]
                   .order_by(Game.created_at)).all()
    results = [game_result(s, g) for g in games]
    scoring = dict(director.scoring or {})
    rows = standings(results, scoring, _server_key())
    types = sorted({r.game_type for r in results})
    rating_game = types[0] if len(types) == 1 else None  # one rating column only when it means one thing
    if rating_game is not None:
        from .ratings import ratings_of

        found = ratings_of(s, rating_game, [r.player for r in rows])
        for row in rows:
            row.rating = found.get(row.player)
    titles = [TitleScoring(t, scoring.get(t, DEFAULT_SCORING), SCORING[scoring.get(t, DEFAULT_SCORING)])
              for t in types]
    return Standings(director.public_id, director.name, rows, results, titles, rating_game)


def set_scoring(s: Session, director_id: str, token: str, systems: dict[str, str]) -> dict[str, str]:
    """The director picks the scoring system of each game type (only the director's link may)."""
    from .directors import auth_director

    director = auth_director(s, director_id, token)
    chosen = dict(director.scoring or {})
    for game_type, system in systems.items():
        if system not in SCORING:
            raise ServiceError(f"unknown scoring system {system!r}; choose one of {', '.join(SCORING)}")
        chosen[game_type[:64]] = system
    director.scoring = chosen  # a new value: JSON columns are not change-tracked
    s.add(director)
    return chosen


STANDINGS_CSV_FIELDS = ("rank", "name", "player", "played", "finished", "wins", "points", "missed", "rating")


def standings_csv(standings_: Standings) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_CSV_FIELDS)
    for row in standings_.rows:
        # a name starting with = + - @ would be a formula in a spreadsheet: quote it as text
        name = "'" + row.name if row.name[:1] in ("=", "+", "-", "@") else row.name
        writer.writerow([row.rank, name, row.player, row.played, row.finished, row.wins, row.points, row.missed,
                         "" if row.rating is None else row.rating])
    return out.getvalue()
