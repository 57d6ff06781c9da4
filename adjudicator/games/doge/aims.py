"""What a seat's deadline defaults aim at: the rulebook's own end (a Doge), not a year limit.

The rulebook ends the game only when someone qualifies as Doge (a palace in all six districts,
or 7 in 5, or 8 in 4). Defaults that always played the same first card and the lowest marker left
every seat tying in the same three districts, so a game of absent players never built in the
other three and stalled once every house was on the board (issue 14). These defaults stay legal
and modest (one marker a round, abstain rather than take an advisor) but point each seat at a
district where it still lacks a palace, and use the house move an abstention allows to bring back
houses that no longer help it there.
"""

from __future__ import annotations

from typing import Any

from .board import houses_in, next_palace_cost
from .data import DISTRICTS

State = dict[str, Any]


def wants_palace(state: State, seat: str, district: str) -> bool:
    """A district that still has a free space and none of the seat's palaces."""
    return next_palace_cost(state, district) is not None and seat not in state["districts"][district]["palaces"]


def _turn(state: State, seat: str, district: str) -> int:
    """Spread the seats over the board: each starts its preference at a different district, and
    the start moves on each year, so absent seats seldom tie in the same districts."""
    seats = state["seats"]
    start = seats.index(seat) * len(DISTRICTS) // len(seats) + state["year"]
    return (DISTRICTS.index(district) - start) % len(DISTRICTS)


def preferred_districts(state: State, seat: str, candidates: list[str]) -> list[str]:
    """Districts where a palace would count towards a Doge first; among them the ones where the
    seat already has most houses (closest to building); then the seat's turn order."""
    return sorted(candidates, key=lambda d: (
        not wants_palace(state, seat, d), -houses_in(state, d, seat), _turn(state, seat, d)))


def spare_house_source(state: State, seat: str, exclude: str, sources: list[str]) -> str | None:
    """Among `sources`, a district whose houses no longer bring this seat a new palace district
    (it has a palace there, or every space is built), with most of its houses there; or None."""
    spare = [d for d in sources
             if d != exclude and houses_in(state, d, seat) > 0 and not wants_palace(state, seat, d)]
    return max(spare, key=lambda d: (houses_in(state, d, seat), -DISTRICTS.index(d)), default=None)


def helpful_move(state: State, seat: str, targets: list[str], sources: list[str] = DISTRICTS) -> list[str] | None:
    """One house from a spare district among `sources` into the best of `targets` that still
    wants a palace, or None."""
    wanted = [d for d in preferred_districts(state, seat, targets) if wants_palace(state, seat, d)]
    for target in wanted:
        source = spare_house_source(state, seat, target, sources)
        if source is not None:
            return [source, target]
    return None


def district_winner_move(state: State, seat: str, district: str) -> list[str] | None:
    """The abstaining winner's move (one end must be the district won): a spare house into it,
    or, when it no longer wants a palace there, one of its houses from it to where one is wanted."""
    if wants_palace(state, seat, district):
        return helpful_move(state, seat, [district])
    return helpful_move(state, seat, [d for d in DISTRICTS if d != district], [district])


def marker_for(state: State, seat: str, card: str) -> int:
    """One marker: the highest where the seat wants a palace (to win there), elsewhere the lowest
    that counts (a lone 0 is no vote), keeping the strong ones."""
    markers = state["private"][seat]["markers"]
    if card in DISTRICTS and wants_palace(state, seat, card):
        return max(markers)
    return min((v for v in markers if v > 0), default=min(markers))
