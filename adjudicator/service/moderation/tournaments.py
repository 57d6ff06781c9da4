"""Tournament standings: the scoring systems a director picks and the table of players across
the tournament's games (each game's result per seat: results.py; players are named by slug there).

The first half of this module is pure (results in, numbers out) and is what the unit tests pin
down; the second half reads the store. Running games count as played, never as scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from sqlmodel import Session, col, select

from adjudicator.store import Director, Game

from ..common.errors import NotFound, ServiceError
from ..history.ratings import ratings_of
from ..history.results import STARTED, GameResult, _server_key, game_result, placements, player_slug
from .directors import auth_director

# scoring systems a director picks per game type (the default first)
SCORING: dict[str, str] = {
    "wdl": "win 1, shared win 0.5, loss 0",
    "score": "the game's own final score divided by the best score of that game",
    "rank": "rank points: N-1 for first of N seats down to 0 for last (ties share)",
}
DEFAULT_SCORING = "wdl"


# pure part ------------------------------------------------------------------------------------

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
        for seat in result.players:  # the substitute's own seats have no row
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
    count_substitute_games: bool = True  # games where the substitute played a seat count

    def counted(self, game: GameResult) -> bool:
        return self.count_substitute_games or not game.substituted

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": {"id": self.director_id, "name": self.name},
            "scoring": {t.game_type: t.system for t in self.scoring},
            "rating_game": self.rating_game,
            "standings": [r.to_json() for r in self.rows],
            "games": [{"game_id": g.game_id, "game": g.game_type, "title": g.title, "status": g.status,
                       "winners": list(g.winners), "scores": g.scores, "substitute_seats": list(g.substituted),
                       "counted": self.counted(g)} for g in self.games],
            "count_substitute_games": self.count_substitute_games,
        }


def tournament_standings(s: Session, director_id: str) -> Standings:
    """The public standings of a tournament (its id is public; its token is not needed)."""
    director = s.exec(select(Director).where(Director.public_id == director_id)).first()
    if director is None:
        raise NotFound(f"no tournament {director_id}")
    games = s.exec(select(Game).where(Game.director_id == director.id, col(Game.status).in_(STARTED))
                   .order_by(col(Game.created_at))).all()
    results = [game_result(s, g) for g in games]
    scoring = dict(director.scoring or {})
    counted = [r for r in results if director.count_substitute_games or not r.substituted]
    rows = standings(counted, scoring, _server_key())
    types = sorted({r.game_type for r in results})
    rating_game = types[0] if len(types) == 1 else None  # one rating column only when it means one thing
    if rating_game is not None:
        found = ratings_of(s, rating_game, [r.player for r in rows])
        for row in rows:
            row.rating = found.get(row.player)
    titles = [TitleScoring(t, scoring.get(t, DEFAULT_SCORING), SCORING[scoring.get(t, DEFAULT_SCORING)])
              for t in types]
    return Standings(director.public_id, director.name, rows, results, titles, rating_game,
                     director.count_substitute_games)


def count_substitute_games(s: Session, director_id: str, token: str, count: bool) -> None:
    """The director chooses whether games where the substitute played a seat count in the
    standings (they are listed and marked either way)."""
    director = auth_director(s, director_id, token)
    director.count_substitute_games = count
    s.add(director)


def set_scoring(s: Session, director_id: str, token: str, systems: dict[str, str]) -> dict[str, str]:
    """The director picks the scoring system of each game type (only the director's link may)."""
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
