"""End of a year: the Doge conditions, the tie-breaks, the safety ends, and the year-end node."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, event

from .board import houses_on_board, palace_districts, palaces_on_board
from .data import DEFAULT_MAX_YEARS, DISTRICTS, NO_YEAR_LIMIT, PALACE_COSTS
from .flowbase import FLOW, DogeNode, node
from .state import start_year

State = dict[str, Any]


def qualifies(state: State, seat: str) -> bool:
    """A palace in all six districts, or 7+ palaces in 5+ districts, or 8+ palaces in 4+ districts."""
    districts = palace_districts(state, seat)
    total = palaces_on_board(state, seat)
    return districts == len(DISTRICTS) or (total >= 7 and districts >= 5) or (total >= 8 and districts >= 4)


def board_is_dead(state: State) -> bool:
    """No palace can ever be built again, so no palace count and no condition can change."""
    spaces_full = all(len(state["districts"][d]["palaces"]) >= len(PALACE_COSTS) for d in DISTRICTS)
    no_palaces = all(state["supply"][s]["palaces"] == 0 for s in state["seats"])
    return spaces_full or no_palaces


def best(state: State, pool: list[str]) -> list[str]:
    """Most palaces on the board, then most houses on the board; a remaining tie shares the win."""
    key = {s: (palaces_on_board(state, s), houses_on_board(state, s)) for s in pool}
    top = max(key.values())
    return [s for s in pool if key[s] == top]


def year_limit_reached(state: State) -> bool:
    """The optional safety end: off (NO_YEAR_LIMIT) unless the game's creator set a limit."""
    limit = state["options"].get("max_years", DEFAULT_MAX_YEARS)
    return limit != NO_YEAR_LIMIT and state["year"] >= limit


def end_check(state: State) -> dict[str, Any] | None:
    seats = state["seats"]
    qualifiers = [s for s in seats if qualifies(state, s)]
    if qualifiers:
        reason, pool = "doge", qualifiers
    elif board_is_dead(state):
        reason, pool = "no-palace-possible", seats
    elif year_limit_reached(state):
        reason, pool = "year-limit", seats
    else:
        return None
    return {
        "reason": reason,
        "year": state["year"],
        "qualifiers": qualifiers,
        "winners": best(state, pool),
        "palaces": {s: palaces_on_board(state, s) for s in seats},
        "houses": {s: houses_on_board(state, s) for s in seats},
    }


@node("year-end")
class YearEnd(DogeNode):
    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        events.append(event("year-ended", year=state["year"]))
        result = end_check(state)
        if result is not None:
            state["result"] = result
            events.append(event("game-ended", **result))
            FLOW.end(state)
            return
        state["year"] += 1
        start_year(state, events)
        FLOW.goto(state, "placement", round=1)
