"""Players across games and what each started game gives them: the results that tournament
standings (tournaments.py) and ratings (ratings.py) are both made from.

A player is identified by the e-mail address of the seat they held (case-insensitive), or by the
name they gave when they left none. Addresses are never shown: a player appears by name and by a
*slug*, an HMAC of that identity under the server key, so the public player page cannot be used to
test whether some address played here.

Only public information goes in: a finished game's outcome (the public page shows it), the names on
the seats, and which seats took default orders (the public log says "Default orders for ...").
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from adjudicator.store import Game, RecordEntry, Seat

from ..common.serverkey import server_key
from .gamelog import undone_seqs
from .outcomes import outcome_of

STARTED = ("running", "paused", "finished")


@dataclass(frozen=True)
class SeatResult:
    seat: str
    player: str  # identity: "mail:<address>" or "name:<name>" (never shown)
    name: str
    missed: int = 0  # decisions that took the default order or the substitute (missed deadlines, civil disorder)
    substitute: bool = False  # held by the substitute from the start (practice, a lobby seat): no player


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
    substituted: tuple[str, ...] = ()  # seats the substitute played, held or in civil disorder

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def players(self) -> tuple[SeatResult, ...]:
        """The seats a person held (the substitute's own seats have no player)."""
        return tuple(r for r in self.seats if not r.substitute)


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


def _missed(s: Session, g: Game) -> tuple[dict[str, int], set[str]]:
    """Decisions each seat missed, and the seats the substitute played at least once."""
    counts: dict[str, int] = {}
    played: set[str] = set()
    undone = undone_seqs(s, g)  # a default a rollback undid was not missed in the game that counts
    for seq, data in s.exec(select(RecordEntry.seq, RecordEntry.data).where(RecordEntry.game_id == g.id,
                                                                           RecordEntry.kind == "orders")):
        if seq in undone:
            continue
        # a substitute's move (issue 28) is a decision its player missed, as a default is
        for seat in [*(data.get("defaulted") or []), *(data.get("substitute") or [])]:
            counts[seat] = counts.get(seat, 0) + 1
        played.update(data.get("substitute") or [])
    return counts, played


def game_result(s: Session, g: Game) -> GameResult:
    """What the standings need of one started game; the outcome only once it is finished."""
    missed, played = _missed(s, g)
    rows = [r for r in s.exec(select(Seat).where(Seat.game_id == g.id).order_by(col(Seat.position)))
            if r.seat_token_hash]
    seats = tuple(
        SeatResult(r.seat, "substitute:" if r.held_by_substitute else player_identity(r.email, r.display_name),
                   r.display_name or r.seat, 0 if r.held_by_substitute else missed.get(r.seat, 0),
                   r.held_by_substitute)
        for r in rows)
    played |= {r.seat for r in rows if r.held_by_substitute}
    winners: tuple[str, ...] = ()
    scores: dict[str, int] = {}
    summary = ""
    if g.status == "finished" and g.state is not None:
        out = outcome_of(s, g)
        if out is not None:
            winners, scores, summary = tuple(out.winners), dict(out.scores), out.summary
    return GameResult(g.public_id, g.game_type, g.title, g.status, seats, winners, scores, summary,
                      tuple(sorted(played)))


def _server_key() -> str:
    return server_key()
