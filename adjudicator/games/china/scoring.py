"""Scoring: regions (during play and at the end), alliances and roads.

Pure functions compute the points from the board, so the same code scores the game and recounts
it for the invariants; `award` is the one place that adds points and writes the scoring log.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, event

from .boardfile import Board
from .components import REGION_MULTIPLIER, ROAD_MULTIPLIER
from .roads import best_rows
from .state import State, board_of, houses_in, rules_version


def fortified_multipliers(state: State) -> tuple[int, int]:
    """What a fortified house multiplies: (its owner's points in the region, a row through it).

    "Importante: las fortificaciones son neutrales" is all the rulebook says, so by default a
    fortification changes no score (1, 1). The `fortification_scoring` option "double" applies
    the value of a play report, kept as data (components.json: 2 and 2), which version 1 applied
    to every game with fortifications."""
    if rules_version(state) == "1" or state["options"]["fortification_scoring"] == "double":
        return REGION_MULTIPLIER, ROAD_MULTIPLIER
    return 1, 1


def rank_points(counts: dict[str, int]) -> dict[str, int]:
    """House points in one region: the first place (every tied seat) scores all houses there,
    each later place scores the house count of the place just above; no places are skipped."""
    levels = sorted({n for n in counts.values() if n > 0}, reverse=True)
    total = sum(counts.values())
    points = {}
    for seat, n in counts.items():
        if n <= 0:
            continue
        place = levels.index(n)
        points[seat] = total if place == 0 else levels[place - 1]
    return points


def region_points(state: State, board: Board, region: str) -> dict[str, int]:
    points = rank_points(houses_in(state, board, region))
    fortified = {state["houses"][s] for s in board.spaces[region] if s in state["forts"] and s in state["houses"]}
    multiplier = fortified_multipliers(state)[0]
    return {s: p * (multiplier if s in fortified else 1) for s, p in points.items()}


def alliance_points(state: State, first: str, second: str) -> dict[str, int]:
    """A seat with the most emissaries (ties included) in both regions scores every emissary in both."""
    courts = [state["courts"][first], state["courts"][second]]
    leaders = []
    for court in courts:
        top = max(court.values(), default=0)
        leaders.append({s for s, n in court.items() if n == top and n > 0})
    total = sum(sum(c.values()) for c in courts)
    return {s: total for s in sorted(leaders[0] & leaders[1])}


def road_points(state: State, board: Board, seat: str) -> tuple[int, list[list[str]]]:
    houses = [s for s, owner in state["houses"].items() if owner == seat]
    return best_rows(houses, board.neighbours, state["forts"].keys(), fortified_multipliers(state)[1])


def award(state: State, entry: dict[str, Any], events: list[Event]) -> None:
    points = {s: p for s, p in entry["points"].items() if p}
    entry["points"] = points
    for seat, p in points.items():
        state["scores"][seat] += p
    state["scoring"].append(entry)
    events.append(event("scored", **entry))


def score_region(state: State, region: str, events: list[Event]) -> None:
    board = board_of(state)
    houses = houses_in(state, board, region)
    award(state, {"what": "region", "region": region, "houses": houses,
                  "points": region_points(state, board, region)}, events)
    state["scored"].append(region)


def final_scoring(state: State, events: list[Event]) -> None:
    board = board_of(state)
    for region in board.regions:
        # A region without houses has nothing to score and gets no marker.
        if region not in state["scored"] and houses_in(state, board, region):
            score_region(state, region, events)
    for number, first, second in board.alliances:
        award(state, {"what": "alliance", "number": number, "regions": [first, second],
                      "points": alliance_points(state, first, second)}, events)
    for seat in state["seats"]:
        points, rows = road_points(state, board, seat)
        award(state, {"what": "roads", "seat": seat, "rows": rows, "points": {seat: points}}, events)


def recount(state: State) -> dict[str, int]:
    """Scores recomputed from the board alone: scored regions, and at the end everything."""
    board = board_of(state)
    totals = {s: 0 for s in state["seats"]}
    over = state.get("result") is not None
    for region in board.regions if over else state["scored"]:
        for seat, p in region_points(state, board, region).items():
            totals[seat] += p
    if over:
        for _, first, second in board.alliances:
            for seat, p in alliance_points(state, first, second).items():
                totals[seat] += p
        for seat in state["seats"]:
            totals[seat] += road_points(state, board, seat)[0]
    return totals
