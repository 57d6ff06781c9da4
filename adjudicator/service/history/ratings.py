"""Multiplayer ratings per game type (OpenSkill, Plackett-Luce), over every finished game.

A game is rated once, when it finishes (`rate_finished`); the table is a cache that
`recompute_ratings` (`pbem ratings --recompute`) rebuilds from the finished games alone, in the
order they finished, so the two agree. Places come from the game's outcome (winners first, then
score; see results.placements). PBEM_RATINGS=0 turns ratings off on a server.

The number shown is the ordinal mu - 3*sigma: it starts at 0 and rises as a player proves
themselves, so a newcomer's one lucky win does not top the table.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, delete, func, select

from adjudicator.store import Game, PlayerRating, RecordEntry, Seat
from adjudicator.store.rows import dialect_insert
from adjudicator.store.typed import table_of

from ..common.clock import utcnow
from ..common.errors import NotFound
from .results import STARTED, GameResult, _server_key, game_result, placements, player_identity, player_slug

log = logging.getLogger(__name__)


def enabled() -> bool:
    return os.environ.get("PBEM_RATINGS", "1") != "0"


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def rate(ratings: dict[str, Rating], places: dict[str, int]) -> dict[str, Rating]:
    """Pure: the new ratings of the players of one game, given their ratings before (a player
    missing from `ratings` starts fresh) and their places (1 = best, equal places tie)."""
    model = _model()
    players = list(places)
    before = [ratings.get(p) for p in players]
    teams = [[model.rating() if r is None else model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=[float(places[p]) for p in players])
    return {p: Rating(team[0].mu, team[0].sigma, (0 if r is None else r.games) + 1)
            for p, team, r in zip(players, after, before, strict=True)}


def _apply(s: Session, result: GameResult, key: str, now: datetime) -> bool:
    """Rate one game; whether it could be rated."""
    if not result.finished or len(result.seats) < 2 or not result.winners:
        return False  # nothing to learn from a one-seat game or one without an outcome
    if len(result.players) < len(result.seats):
        return False  # the substitute held a seat (a practice game): a bot has no rating, nor its table
    slug_of = {r.seat: player_slug(r.player, key) for r in result.seats}
    if len(set(slug_of.values())) < len(slug_of):
        return False  # one player on several seats (a hot-seat table): no rating
    slugs = sorted(set(slug_of.values()))
    _ensure_rows(s, result.game_type, slugs)
    # locked in one order: two games of the same players finishing at once rate one after the other
    rows = {r.player: r for r in s.exec(select(PlayerRating).where(
        col(PlayerRating.game_type) == result.game_type, col(PlayerRating.player).in_(slugs))
        .order_by(PlayerRating.player).with_for_update())}
    before = {slug: Rating(r.mu, r.sigma, r.games) for slug, r in rows.items()}
    try:
        after = rate(before, {slug_of[seat]: place for seat, place in placements(result).items()})
    except Exception:  # a rating must never keep a game from ending
        log.exception("could not rate game %s", result.game_id)
        return False
    names = {slug_of[r.seat]: r.name for r in result.seats}
    for slug, new in after.items():
        row = rows[slug]
        row.mu, row.sigma, row.games, row.name, row.updated_at = new.mu, new.sigma, new.games, names[slug], now
        s.add(row)
    s.flush()
    return True


def _ensure_rows(s: Session, game_type: str, slugs: list[str]) -> None:
    """A fresh row (the model's default mu and sigma) for each new player; a row another
    transaction inserts meanwhile is left alone instead of failing this one."""
    now = utcnow()
    fresh = Rating(25.0, 25.0 / 3)
    insert = dialect_insert(s.get_bind().dialect.name, table_of(PlayerRating))
    s.exec(insert.values([
        {"game_type": game_type, "player": slug, "name": "", "mu": fresh.mu, "sigma": fresh.sigma, "games": 0,
         "updated_at": now} for slug in slugs]).on_conflict_do_nothing(index_elements=["game_type", "player"]))


def rate_finished(s: Session, g: Game) -> None:
    """Called once as a game finishes (in the same transaction)."""
    if enabled():
        _apply(s, game_result(s, g), _server_key(), utcnow())


def _finish_order(s: Session) -> list[Game]:
    last = dict(s.exec(select(RecordEntry.game_id, func.max(col(RecordEntry.created_at)))
                       .group_by(col(RecordEntry.game_id))).all())
    games = s.exec(select(Game).where(Game.status == "finished")).all()
    return sorted(games, key=lambda g: (last.get(g.id or 0) or g.updated_at, g.id))


def recompute_ratings(s: Session) -> int:
    """Rebuild every rating from the finished games, in the order they finished; the number of
    games rated."""
    s.exec(delete(PlayerRating))
    s.flush()
    key, now, count = _server_key(), utcnow(), 0
    for g in _finish_order(s):
        count += _apply(s, game_result(s, g), key, now)
    return count


def ratings_of(s: Session, game_type: str, players: Iterable[str]) -> dict[str, float]:
    """The ordinals of these players (slugs) in this game type."""
    rows = s.exec(select(PlayerRating).where(PlayerRating.game_type == game_type,
                                             col(PlayerRating.player).in_(list(players))))
    return {r.player: ordinal(r.mu, r.sigma) for r in rows}


@dataclass
class RatedPlayer:
    game_type: str
    player: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int


def rating_table(s: Session, game_type: str = "") -> list[RatedPlayer]:
    """Every rating (of one game type, if given), best first within each game type."""
    query = select(PlayerRating)
    if game_type:
        query = query.where(PlayerRating.game_type == game_type)
    rows = [RatedPlayer(r.game_type, r.player, r.name, ordinal(r.mu, r.sigma), r.mu, r.sigma, r.games)
            for r in s.exec(query)]
    return sorted(rows, key=lambda r: (r.game_type, -r.rating, r.name))


@dataclass
class RatingLine:
    game_type: str
    rating: float
    mu: float
    sigma: float
    games: int


@dataclass
class PlayedGame:
    game_id: str
    game_type: str
    title: str
    status: str
    seat: str
    place: int | None
    summary: str


@dataclass
class PlayerPage:
    player: str
    name: str
    ratings: list[RatingLine]
    games: list[PlayedGame]


def player_page(s: Session, slug: str) -> PlayerPage:
    """A player's public page: ratings per game type and the started games they sat in."""
    key = _server_key()
    games: list[PlayedGame] = []
    name = ""
    # a slug cannot be turned back into an address: find the seats whose identity hashes to it
    seats = s.exec(select(Seat, Game).where(Seat.game_id == Game.id, col(Seat.seat_token_hash).is_not(None),
                                            col(Game.status).in_(STARTED)).order_by(col(Game.created_at))).all()
    for seat, g in seats:
        if player_slug(player_identity(seat.email, seat.display_name), key) != slug:
            continue
        name = seat.display_name or name
        result = game_result(s, g) if g.status == "finished" else None
        place = placements(result).get(seat.seat) if result is not None and result.winners else None
        games.append(PlayedGame(g.public_id, g.game_type, g.title, g.status, seat.seat, place,
                                result.summary if result else ""))
    rows = s.exec(select(PlayerRating).where(PlayerRating.player == slug).order_by(PlayerRating.game_type)).all()
    if not games and not rows:
        raise NotFound("no such player")
    lines = [RatingLine(r.game_type, ordinal(r.mu, r.sigma), round(r.mu, 2), round(r.sigma, 2), r.games) for r in rows]
    return PlayerPage(slug, name or (rows[0].name if rows else ""), lines, games)
