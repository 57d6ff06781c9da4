"""How good a position looks for one faction, for the substitute (adjudicator/bots), against the
best other faction. Pure and cheap; never used by the rules.

A faction's worth is its final score as the rulebook counts it: victory points plus the cubes on
its statesmen, less, after a monetary collapse or a civil war, its Congress votes and the
influence in its faction supply (turn.finish). Before the end, that loss is weighed by how near
such an end looks: the tension track's step toward civil war, and the debt's chance of a collapse
at the next treasury (a roll of one die against the hundreds of debt, turn.crisis). Only public
parts of the state are read."""

from __future__ import annotations

from typing import Any

from .state import TENSION_WAR, congress_votes, owned
from .turn import collapse_influence

State = dict[str, Any]
CATASTROPHES = ("monetary-collapse", "civil-war")
DEBT_SCALE = 400  # debt at which a collapse looks certain (it grows by 30 % a year, and more)
PRESIDENT_LOSS = 5  # cubes the president loses in a monetary collapse (turn.crisis)


def catastrophe_risks(state: State) -> tuple[float, float]:
    """How likely the game looks to end in a monetary collapse, and in any catastrophe (0..1)."""
    if state.get("ending"):
        collapse = float(state["ending"] == "monetary-collapse")
        return collapse, float(state["ending"] in CATASTROPHES)
    tension = state["tension"] / TENSION_WAR
    debt = max(0, -state["reserves"] - state["revenue"])  # the debt after next revenue (revenue < 0 adds)
    # a crisis (debt over 100) collapses on a die roll below debt // 100; debt keeps growing with interest
    collapse = min(1.0, debt / DEBT_SCALE)
    return collapse, 1.0 - (1.0 - tension * tension) * (1.0 - collapse)


def _score(state: State, seat: str, risks: tuple[float, float]) -> float:
    cubes = sum(state["statesmen"][s]["cubes"] for s in owned(state, seat))
    score = float(state["factions"][seat]["vp"] + cubes)
    collapse, either = risks
    if either:
        score -= either * (congress_votes(state, seat) + collapse_influence(state, seat))
    president = state["offices"]["president"]
    if collapse and president and state["statesmen"][president]["owner"] == seat and not state.get("ending"):
        score -= collapse * PRESIDENT_LOSS  # a collapse costs the president's cubes
    return score


def evaluate(state: State, seat: str) -> float:
    risks = catastrophe_risks(state)
    mine = _score(state, seat, risks)
    return mine - max(_score(state, s, risks) for s in state["seats"] if s != seat)
