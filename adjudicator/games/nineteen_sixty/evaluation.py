"""How good a position looks for one side, for the substitute (adjudicator/bots): the electoral
votes of the states each side holds now, then the cubes behind them. Pure and cheap; never used
by the rules."""

from __future__ import annotations

from .board import holder
from .data import SEATS, STATES
from .flowbase import State


def evaluate(state: State, seat: str) -> float:
    ev = {s: 0 for s in SEATS}
    cubes = {s: 0 for s in SEATS}
    for abbr, info in STATES.items():
        side = holder(state, "states", abbr)
        if side is not None:
            ev[side] += info.ev
            # a state held by a single cube flips easily: count each cube, up to the carry of four
            cubes[side] += min(4, state["states"][abbr][side]) * info.ev
    other = next(s for s in SEATS if s != seat)
    return (ev[seat] - ev[other]) + 0.1 * (cubes[seat] - cubes[other]) + 0.5 * (
        state["momentum"][seat] - state["momentum"][other])
