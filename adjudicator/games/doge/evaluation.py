"""How good a position looks for one seat, for the substitute (adjudicator/bots), against the
best other seat. Pure and cheap; never used by the rules.

A seat's worth: palaces first (the win counts them, and the districts they stand in), then its
houses, more for those in a district where it still wants a palace; and, while ballots lie on the
cards, the houses their elections should bring (2 to the winner, 1 to the runner-up). The seat
knows its own markers; another's counts at their public number times a marker's mean value, and
those it has still to place are spread over the cards it has not played yet."""

from __future__ import annotations

from typing import Any

from .aims import wants_palace
from .board import advisor_votes, houses_in, palace_districts, palaces_on_board
from .data import DISTRICTS, MARKERS

State = dict[str, Any]
MEAN_MARKER = sum(MARKERS) / len(MARKERS)
VOTE_WORTH = 0.4  # a marker's vote point kept for a later round, in houses


def _expected_votes(state: State, seat: str) -> dict[str, dict[str, float]]:
    """Per area with ballots: each seat's expected total (its markers and its advisors)."""
    found: dict[str, dict[str, float]] = {}
    own = state["private"].get(seat, {}).get("ballots", {})
    for area, counts in state["ballots"].items():
        if not counts:
            continue
        totals: dict[str, float] = {s: float(v) for s, v in advisor_votes(state, area).items()}
        for other, count in counts.items():
            mine = sum(own.get(area, [])) if other == seat else MEAN_MARKER * count
            totals[other] = totals.get(other, 0.0) + mine
        for other in state["seats"]:
            # the others' markers still to come: spread over the cards each has not played yet
            unused = [a for a in state["ballots"] if a not in state["cards_used"][other]]
            if other != seat and area in unused and len(state["cards_used"][other]) < state["rounds"]:
                totals[other] = totals.get(other, 0.0) + (
                    MEAN_MARKER * state["supply"][other]["markers"] / len(unused))
        found[area] = totals
    return found


def _markers_left(state: State, seat: str, own: State) -> float:
    """What the seat's markers not yet placed may still win this year: its own by their values,
    another's by their public number; nothing once the year's rounds are all played."""
    if len(state["cards_used"][seat]) >= state["rounds"]:
        return 0.0
    if seat in own:
        return float(sum(own[seat]["markers"]))
    return MEAN_MARKER * state["supply"][seat]["markers"]


def _worth(state: State, seat: str, elections: dict[str, dict[str, float]], own: State) -> float:
    worth = 10.0 * palaces_on_board(state, seat) + 4.0 * palace_districts(state, seat)
    worth += VOTE_WORTH * _markers_left(state, seat, own)
    for district in DISTRICTS:
        houses = houses_in(state, district, seat)
        worth += houses * (1.5 if wants_palace(state, seat, district) else 1.0)
    for totals in elections.values():
        ranked = sorted(totals.values(), reverse=True)
        mine = totals.get(seat, 0.0)
        if mine <= 0:
            continue
        if mine >= ranked[0]:
            worth += 2.5 if ranked.count(mine) == 1 else 1.5
        elif len(ranked) > 1 and mine >= ranked[1]:
            worth += 1.0
    return worth


def evaluate(state: State, seat: str) -> float:
    elections = _expected_votes(state, seat)
    own = {seat: state["private"][seat]} if seat in state["private"] else {}
    mine = _worth(state, seat, elections, own)
    return mine - max(_worth(state, s, elections, own) for s in state["seats"] if s != seat)
