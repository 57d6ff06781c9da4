"""Small state helpers shared by every phase: houses, rings, advisors, palaces, votes."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, event

from .data import ADVISOR_HOME, ADVISORS, DISTRICTS, PALACE_COSTS, QUARANTIA_ADVISORS

State = dict[str, Any]


def seats(state: State) -> list[str]:
    return state["seats"]


def houses_in(state: State, district: str, seat: str) -> int:
    return state["districts"][district]["houses"].get(seat, 0)


def houses_on_board(state: State, seat: str) -> int:
    return sum(state["districts"][d]["houses"].get(seat, 0) for d in DISTRICTS)


def palaces_on_board(state: State, seat: str) -> int:
    return sum(state["districts"][d]["palaces"].count(seat) for d in DISTRICTS)


def palace_districts(state: State, seat: str) -> int:
    return sum(1 for d in DISTRICTS if seat in state["districts"][d]["palaces"])


def next_palace_cost(state: State, district: str) -> int | None:
    """Cost of the lowest free palace space, or None when all five are built."""
    built = len(state["districts"][district]["palaces"])
    return PALACE_COSTS[built] if built < len(PALACE_COSTS) else None


def can_build(state: State, district: str, seat: str) -> bool:
    cost = next_palace_cost(state, district)
    return (
        cost is not None
        and state["supply"][seat]["palaces"] > 0
        and houses_in(state, district, seat) >= cost
    )


def add_houses(state: State, district: str, seat: str, count: int) -> None:
    houses = state["districts"][district]["houses"]
    total = houses.get(seat, 0) + count
    if total:
        houses[seat] = total
    else:
        houses.pop(seat, None)  # keep the mapping free of zero entries so views stay small


def place_houses(state: State, district: str, seat: str, wanted: int, events: list[Event]) -> int:
    """Place up to `wanted` houses from supply; the rest of the placement is lost."""
    supply = state["supply"][seat]
    placed = min(wanted, supply["houses"])
    if placed:
        supply["houses"] -= placed
        add_houses(state, district, seat, placed)
    events.append(event("houses-placed", seat=seat, area=district, count=placed, lost=wanted - placed))
    return placed


def move_house(state: State, seat: str, source: str, target: str, events: list[Event]) -> None:
    add_houses(state, source, seat, -1)
    add_houses(state, target, seat, 1)
    events.append(event("house-moved", seat=seat, source=source, target=target))


def move_choices(state: State, seat: str, sources: list[str], targets: list[str]) -> list[list[str]]:
    """Every [source, target] pair for moving one of `seat`'s houses between different districts."""
    return [
        [s, t]
        for s in sources
        if houses_in(state, s, seat) > 0
        for t in targets
        if t != s
    ]


def release_advisor(state: State, advisor: str) -> None:
    """Make an advisor neutral; its ring, if any, goes back to its owner."""
    info = state["advisors"][advisor]
    if info["owner"] is not None:
        state["supply"][info["owner"]]["rings"] += 1
    info["owner"] = None
    info["at"] = None


def can_take(state: State, seat: str, advisor: str) -> bool:
    """A player with no free ring must abstain, unless he already holds this advisor."""
    return state["advisors"][advisor]["owner"] == seat or state["supply"][seat]["rings"] > 0


def take_advisor(state: State, seat: str, advisor: str, area: str, events: list[Event]) -> None:
    info = state["advisors"][advisor]
    previous = info["owner"]
    if previous != seat:
        if previous is not None:
            state["supply"][previous]["rings"] += 1
        state["supply"][seat]["rings"] -= 1
    info["owner"] = seat
    info["at"] = area
    events.append(event("advisor-taken", seat=seat, advisor=advisor, area=area, previous=previous))


def neutral_quarantia_advisor(state: State) -> str | None:
    for advisor in QUARANTIA_ADVISORS:
        if state["advisors"][advisor]["owner"] is None:
            return advisor
    return None


def advisor_votes(state: State, area: str) -> dict[str, int]:
    votes: dict[str, int] = {}
    for advisor in ADVISORS:
        info = state["advisors"][advisor]
        if info["at"] == area and info["owner"] is not None:
            votes[info["owner"]] = votes.get(info["owner"], 0) + 1
    return votes


def district_advisor(district: str) -> str:
    advisor = f"adv-{district}"
    assert ADVISOR_HOME[advisor] == district
    return advisor


def next_serial(state: State) -> int:
    """A counter that makes every sealed group name unique within a game."""
    state["serial"] += 1
    return state["serial"]
