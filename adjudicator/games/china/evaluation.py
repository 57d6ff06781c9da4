"""How good a position looks for one seat, for the substitute (adjudicator/bots): the points
scored so far plus what each region not yet scored would give if scored now, against the best
other seat. Pure and cheap; never used by the rules."""

from __future__ import annotations

from .scoring import region_points
from .state import State, board_of, houses_in


def evaluate(state: State, seat: str) -> float:
    board = board_of(state)
    totals = {s: float(state["scores"].get(s, 0)) for s in state["seats"]}
    for region in board.regions:
        if region not in state["scored"] and houses_in(state, board, region):
            for owner, points in region_points(state, board, region).items():
                totals[owner] += points
    mine = totals[seat]
    return mine - max(v for s, v in totals.items() if s != seat)
