"""How good a position looks for one faction, for the substitute (adjudicator/bots): its victory
points plus the cubes on its statesmen (the final score), against the best other faction. Pure
and cheap; never used by the rules."""

from __future__ import annotations

from typing import Any

from .state import owned


def _score(state: dict[str, Any], seat: str) -> float:
    cubes = sum(state["statesmen"][s]["cubes"] for s in owned(state, seat))
    return float(state["factions"][seat]["vp"] + cubes)


def evaluate(state: dict[str, Any], seat: str) -> float:
    mine = _score(state, seat)
    return mine - max(_score(state, s) for s in state["seats"] if s != seat)
